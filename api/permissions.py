"""Who may do what: reading is open to everyone; organising a club is for its admins (league.models.ClubAdmin) and
site staff; playing a seat is for the account that holds it (checked by league.services.decisions)."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, IsAuthenticatedOrReadOnly

from league.models import ClubAdmin


def organises(user, club_id: int | None) -> bool:
    """Whether `user` may organise the club (staff organise every club, and anything without a club)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return club_id is not None and ClubAdmin.objects.filter(user=user, club_id=club_id).exists()


def organises_any(user) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or ClubAdmin.objects.filter(user=user).exists()


# Both are DRF's IsAuthenticatedOrReadOnly for reads, and say so by their base: the schema (drf-spectacular) then
# documents their reads as open to anonymous callers too.
class ReadOnlyOrAuthenticated(IsAuthenticatedOrReadOnly):
    """Anyone reads; only a signed-in account writes (finer checks are the view's: which club, which seat)."""

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_authenticated)


class IsStaffForWrites(IsAuthenticatedOrReadOnly):
    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_staff)
