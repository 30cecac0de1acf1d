"""A club evening on the website: the organiser's check-in list (one tap per person, made for a phone at the door),
a player's own "check in" button, and what the tournament page shows of check-in and the final (the ranking).
Thin views over league.services.evening and league.selectors.ranking; who may is league.permissions'."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.models import Tournament, TournamentEntry, TournamentStatus
from league.permissions import organises, owns, refusal_to_check_in
from league.selectors.competitions import entries_for_round, round_stages, tournaments
from league.selectors.players import player as player_by_id
from league.services.evening import CheckInError, check_in, check_out, checked_in_ids, next_round_index
from runtime.throttling import WriteLimit, rate_limited


def _open(tournament: Tournament) -> bool:
    return tournament.status in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)


def evening_context(request, tournament: Tournament) -> dict:
    """What the tournament page adds: whether its next round is the final, and the signed-in account's own entries
    with their check-in for the next round (with self check-in). The final's ranking is a live part of the page
    (web.live_pages)."""
    context: dict = {}
    if tournament.final_size and _open(tournament):
        rounds = round_stages(tournament)
        # The organiser's next step is the final: its button says so.
        context["next_is_final"] = sum(1 for s in rounds if not s) >= tournament.rounds
    if tournament.check_in_required and _open(tournament) and request.user.is_authenticated:
        index = next_round_index(tournament)
        present = checked_in_ids(tournament, index)
        mine = [e for e in entries_for_round(tournament, index) if owns(request.user, e.player)]
        context.update(check_in_round=index, my_check_ins=[(e.player, e.player_id in present) for e in mine])
    return context


@login_required
def check_in_list(request, pk: int):
    """The organiser's check-in list for the next round: every active entry that may play it, a tap toggles it."""
    tournament = get_object_or_404(tournaments(), pk=pk)
    if not organises(request.user, tournament.club_id):
        return render(request, "web/error.html", {"message": _("Only the club's organisers see the check-in list.")},
                      status=403)
    index = next_round_index(tournament)
    present = checked_in_ids(tournament, index)
    entries = entries_for_round(tournament, index)
    rows = [(e.player, e.player_id in present) for e in entries]
    return render(request, "web/check_in.html", {
        "tournament": tournament, "round_index": index, "rows": rows, "open": _open(tournament),
        "present": sum(1 for _, here in rows if here)})


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def check_in_toggle(request, pk: int):
    """Check a player in or out (`checked_in` "1" or "0") for the next round: the organiser's tap, or a player's own
    button where the tournament allows self check-in. Back to where it was pressed."""
    tournament = get_object_or_404(tournaments(), pk=pk)
    raw = str(request.POST.get("player", ""))
    player = player_by_id(int(raw) if raw.isdigit() else None)
    if player is None:
        messages.error(request, _("No such player."))
        return redirect("web:tournament", pk=pk)
    refusal = refusal_to_check_in(request.user, tournament, player)
    if refusal is not None:
        return render(request, "web/error.html", {"message": refusal}, status=403)
    try:
        if request.POST.get("checked_in") == "1":
            check_in(tournament=tournament, player=player, by=request.user)
            messages.success(request, _("%(name)s is checked in.") % {"name": player.name})
        else:
            check_out(tournament=tournament, player=player)
            messages.success(request, _("%(name)s is no longer checked in.") % {"name": player.name})
    except TournamentEntry.DoesNotExist:
        messages.error(request, _("%(name)s is not entered in this tournament.") % {"name": player.name})
    except CheckInError as e:
        messages.error(request, str(e))
    if request.POST.get("back") == "list" and organises(request.user, tournament.club_id):
        return redirect("web:tournament-check-in", pk=pk)
    return redirect("web:tournament", pk=pk)
