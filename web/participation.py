"""The website's buttons for taking part on one's own: join or leave a club (or ask to, and the organisers' answer),
enter or leave a tournament, join or leave a ladder. Each is the API's same action (api.participation) over the same
services and league.permissions' rules; refusals come back as a message on the page the button was on."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.permissions import (
    admitted_at_once,
    keeps_to_self_entry_window,
    organises,
    refusal_to_enter,
    refusal_to_take_part,
)
from league.selectors.clubs import clubs
from league.selectors.competitions import ladders, tournaments
from league.services.accounts import ensure_person
from league.services.competition import TournamentError
from league.services.entry import enter_tournament, leave_tournament
from league.services.ladders import join_ladder, leave_ladder
from league.services.membership import (
    MembershipError,
    add_member,
    decide_request,
    leave_club,
    set_membership_policy,
)
from runtime.throttling import WriteLimit, rate_limited


def _me(request):
    """The signed-in person's player (made now for an account older than sign-up), or None for a bot's account."""
    return ensure_person(request.user)[1]


def _refused(request, message: str, where):
    messages.error(request, message)
    return where


def _self_service(view):
    return login_required(require_POST(rate_limited(WriteLimit, what="changes")(view)))


@_self_service
def club_join(request, pk: int):
    club = get_object_or_404(clubs(), pk=pk)
    back = redirect("web:club", pk=pk)
    player = _me(request)
    refusal = refusal_to_take_part(request.user) if player else _("A bot's account cannot join clubs itself.")
    if refusal:
        return _refused(request, refusal, back)
    admitted_by = request.user if admitted_at_once(request.user, club.pk) else None
    try:
        outcome = add_member(club=club, player=player, admitted_by=admitted_by)
    except MembershipError as e:
        return _refused(request, str(e), back)
    if outcome.joined:
        messages.success(request, _("Welcome to %(club)s: you are a member.") % {"club": club.name})
    else:
        messages.success(request, _("Your request to join %(club)s is sent: its organisers will answer it.")
                         % {"club": club.name})
    return back


@_self_service
def club_leave(request, pk: int):
    club = get_object_or_404(clubs(), pk=pk)
    back = redirect("web:club", pk=pk)
    player = _me(request)
    if player is None:
        return _refused(request, _("A bot's account has no membership of its own."), back)
    try:
        leave_club(club=club, player=player)
    except MembershipError as e:
        return _refused(request, str(e), back)
    messages.success(request, _("You have left %(club)s.") % {"club": club.name})
    return back


@_self_service
def club_request_decide(request, pk: int, request_id: int, decision: str):
    club = get_object_or_404(clubs(), pk=pk)
    if decision not in ("accept", "decline"):
        raise Http404
    if not organises(request.user, club.pk):
        return render(request, "web/error.html", {"message": _("Only the club's organisers answer requests.")},
                      status=403)
    # Answered from the club's page or from its members page (web/club_admin.py): back to the one it came from.
    back = "web:club-members" if request.POST.get("back") == "members" else "web:club"
    try:
        req = decide_request(request_id=request_id, club=club, accept=decision == "accept", by=request.user)
    except MembershipError as e:
        return _refused(request, str(e), redirect(back, pk=pk))
    if decision == "accept":
        messages.success(request, _("%(player)s is now a member.") % {"player": req.player.name})
    else:
        messages.success(request, _("You declined %(player)s's request.") % {"player": req.player.name})
    return redirect(back, pk=pk)


@_self_service
def club_membership_policy(request, pk: int):
    """The organisers' choice: open, or on request."""
    club = get_object_or_404(clubs(), pk=pk)
    if not organises(request.user, club.pk):
        return render(request, "web/error.html", {"message": _("Only the club's organisers choose how people join.")},
                      status=403)
    try:
        set_membership_policy(club=club, membership=request.POST.get("membership", ""))
    except MembershipError as e:
        return _refused(request, str(e), redirect("web:club", pk=pk))
    messages.success(request, _("Membership is now: %(policy)s.") % {"policy": club.get_membership_display()})
    return redirect("web:club", pk=pk)


@_self_service
def tournament_enter(request, pk: int):
    tournament = get_object_or_404(tournaments(), pk=pk)
    back = redirect("web:tournament", pk=pk)
    player = _me(request)
    if player is None:
        return _refused(request, _("A bot's account is entered by its owner through the API."), back)
    refusal = refusal_to_enter(request.user, tournament.club_id, [player], members_only=tournament.members_only)
    if refusal:
        return _refused(request, refusal, back)
    try:
        enter_tournament(tournament=tournament, player=player,
                         self_entry_window=keeps_to_self_entry_window(request.user, tournament.club_id))
    except TournamentError as e:
        return _refused(request, str(e), back)
    messages.success(request, _("You are entered in %(tournament)s.") % {"tournament": tournament.name})
    return back


@_self_service
def tournament_leave(request, pk: int):
    tournament = get_object_or_404(tournaments(), pk=pk)
    back = redirect("web:tournament", pk=pk)
    player = _me(request)
    if player is None:
        return _refused(request, _("A bot's account has no entry of its own."), back)
    try:
        how = leave_tournament(tournament=tournament, player=player)
    except TournamentError as e:
        return _refused(request, str(e), back)
    if how == "removed":
        messages.success(request, _("You have left %(tournament)s.") % {"tournament": tournament.name})
    else:
        messages.success(request, _("You are withdrawn: you will not be seated in later rounds; a table you are "
                                    "playing now is still yours to finish."))
    return back


@_self_service
def ladder_join(request, pk: int):
    ladder = get_object_or_404(ladders(), pk=pk)
    back = redirect("web:ladder", pk=pk)
    player = _me(request)
    if player is None:
        return _refused(request, _("A bot's account is entered by its owner through the API."), back)
    refusal = refusal_to_enter(request.user, ladder.club_id, [player])
    if refusal:
        return _refused(request, refusal, back)
    try:
        join_ladder(ladder=ladder, players=[player])
    except ValueError as e:
        return _refused(request, str(e), back)
    messages.success(request, _("You are in the ladder's pool: the next seating may seat you."))
    return back


@_self_service
def ladder_leave(request, pk: int):
    ladder = get_object_or_404(ladders(), pk=pk)
    player = _me(request)
    if player is not None:
        leave_ladder(ladder=ladder, player=player)
    messages.success(request, _("You have left the ladder: no new table will seat you; a match in play is yours to "
                                "finish."))
    return redirect("web:ladder", pk=pk)
