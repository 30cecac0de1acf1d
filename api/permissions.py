"""DRF's side of who may do what: the permission classes the views name. The decisions themselves (which club,
which player, which seat) are league.permissions', shared with the website; api/README.md has the matrix."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, IsAuthenticatedOrReadOnly

from league.permissions import may_create_club, organises, signed_in


# Both are DRF's IsAuthenticatedOrReadOnly for reads, and say so by their base: the schema (drf-spectacular) then
# documents their reads as open to anonymous callers too.
class ReadOnlyOrAuthenticated(IsAuthenticatedOrReadOnly):
    """Anyone reads; only a signed-in account writes (finer checks are the view's: which club, which seat)."""

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or signed_in(request.user)


class IsStaffForWrites(IsAuthenticatedOrReadOnly):
    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or may_create_club(request.user)


def refuse(reason: str | None) -> None:
    """403 with league.permissions' reason, if it gave one."""
    if reason is not None:
        raise PermissionDenied(reason)


def require_organiser(request, club_id: int | None) -> None:
    if not organises(request.user, club_id):
        raise PermissionDenied(_("only the club's organisers (and staff) may do this"))
