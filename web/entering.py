"""An organiser entering their club's people in a club tournament: roster guests (league.services.roster) and members,
as a club secretary fills an evening's field at the door. The same registration rules as every entry
(league.services.registration: open while qualifying rounds are left, a late entry joining at the next round)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.permissions import refusal_to_enter_for_club
from league.selectors import competitions
from league.selectors.players import players_with_ids
from league.services import register_players
from league.services.competition import TournamentError
from runtime.throttling import WriteLimit, rate_limited


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def tournament_enter_players(request, pk: int):
    tournament = get_object_or_404(competitions.tournaments(), pk=pk)
    ids = [int(i) for i in request.POST.getlist("players") if i.isdigit() and len(i) < 19][:1000]
    players = players_with_ids(ids)
    refusal = refusal_to_enter_for_club(request.user, tournament, players)
    if refusal:
        return render(request, "web/error.html", {"message": refusal}, status=403)
    if not players:
        messages.error(request, _("Choose at least one player to enter."))
        return redirect("web:tournament", pk=pk)
    try:
        register_players(tournament=tournament, players=players)
    except TournamentError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("Entered %(names)s.") % {"names": ", ".join(p.name for p in players)})
    return redirect("web:tournament", pk=pk)
