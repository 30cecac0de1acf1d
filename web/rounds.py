"""The organiser's round control on the tournament page: seat the next round without starting it, swap two players,
seat a round again. Thin around league.services.round_control and league.services.advancing; a refusal comes back
as a message on the tournament page and changes nothing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.permissions import organises
from league.selectors.competitions import round_in_play, tournaments
from league.selectors.players import players_with_ids
from league.services.advancing import seat_next_round
from league.services.competition import TournamentError
from league.services.round_control import reseat_round, swap_players
from runtime.throttling import WriteLimit, rate_limited

from .refusals import refused_page


def _organised(request, pk: int):
    tournament = get_object_or_404(tournaments(), pk=pk)
    if not organises(request.user, tournament.club_id):
        return tournament, refused_page(request, _("Only the club's organisers may change the seating."))
    return tournament, None


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def seat_round_only(request, pk: int):
    tournament, refused = _organised(request, pk)
    if refused:
        return refused
    try:
        rnd = seat_next_round(tournament=tournament)
    except (TournamentError, ValueError) as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("Round %(number)s is seated: check its tables, swap players if need be, then "
                                    "start it.") % {"number": rnd.index})
    return redirect("web:tournament", pk=pk)


def _player_id(value: str) -> int | None:
    return int(value) if value.isdigit() and len(value) < 10 else None


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def swap(request, pk: int):
    tournament, refused = _organised(request, pk)
    if refused:
        return refused
    rnd = round_in_play(tournament)
    ids = [_player_id(request.POST.get(name, "")) for name in ("first", "second")]
    found = {p.pk: p for p in players_with_ids([i for i in ids if i is not None])}
    chosen = [found[i] for i in ids if i is not None and i in found]
    if rnd is None:
        messages.error(request, _("No round is seated: there is nothing to swap."))
    elif len(chosen) != 2:
        messages.error(request, _("Choose two players seated in the round."))
    else:
        try:
            swap_players(tournament_round=rnd, first=chosen[0], second=chosen[1])
        except TournamentError as e:
            messages.error(request, str(e))
        else:
            messages.success(request, _("%(first)s and %(second)s swapped seats.")
                             % {"first": chosen[0].name, "second": chosen[1].name})
    return redirect("web:tournament", pk=pk)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def reseat(request, pk: int):
    tournament, refused = _organised(request, pk)
    if refused:
        return refused
    rnd = round_in_play(tournament)
    if rnd is None:
        messages.error(request, _("No round is seated: there is nothing to seat again."))
        return redirect("web:tournament", pk=pk)
    try:
        fresh = reseat_round(tournament_round=rnd)
    except TournamentError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("Round %(number)s is seated again.") % {"number": fresh.index})
    return redirect("web:tournament", pk=pk)
