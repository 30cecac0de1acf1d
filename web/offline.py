"""Pages of a club evening with real cards: an offline table's page (its seating, the result form, every version
entered and the buttons to confirm one), and the printable sheets of a round (tables and seats, score slips) and of
the standings. Writes go through league.services.offline_results; reads through league.selectors.offline."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from engine.common.offline import InvalidResult
from league.models import EntryStatus, Match, MatchStatus, ResultEntry, Tournament, TournamentRound
from league.permissions import organises
from league.selectors.competitions import closed_round_count, round_pages, tournaments_with_club
from league.selectors.matches import match_seats, matches_with_round, played_as
from league.selectors.offline import (
    awaiting_confirmation,
    disputed_matches,
    figure_names,
    offline_matches,
    result_trail,
    result_units,
    round_sheet,
)
from league.selectors.private_links import links_for_sheet
from league.selectors.standings_cache import cached_tournament_standings
from league.services.offline_results import (
    NotAtTable,
    OfflineResultError,
    confirm_result,
    enter_result,
    set_offline,
    table_seats_of,
)
from league.standings import shown_metrics
from runtime.secrecy import never_stored
from runtime.throttling import WriteLimit, rate_limited

from .qr import qr_svg

# What each figure is called on the form and the slip.
FIGURE_LABELS = {
    "vault": gettext_lazy("Vault"),
    "showroom": gettext_lazy("Showroom"),
    "castle": gettext_lazy("Castle cards"),
    "diamonds": gettext_lazy("Diamond cards"),
    "dollars": gettext_lazy("Dollars"),
    "set_rings": gettext_lazy("Set rings"),
}
_WHOLE = re.compile(r"^-?\d{1,9}$")


@dataclass(frozen=True)
class ResultVersion:
    """One version entered for a table as its page shows it: its figures unit by unit, and whether the visitor may
    confirm it (or, an organiser, make it final)."""
    entry: ResultEntry
    rows: list[dict[str, Any]]
    can_confirm: bool
    confirm_action: str = ""

    @property
    def story(self) -> str:
        """The version's history as the table would say it: "entered by ben at 20:15, waiting for a second player",
        "..., confirmed by felix", "..., settled by carla (organiser)"."""
        return version_story(self.entry)


def version_story(entry: ResultEntry) -> str:
    who = entry.enterer_name
    if entry.by_organiser:
        who = _("%(name)s (organiser)") % {"name": who}
    when = date_format(localtime(entry.created_at), "H:i")  # the evening's clock, as the slip shows it
    entered = _("entered by %(who)s at %(when)s") % {"who": who, "when": when}
    decider = entry.decider_name or ""
    if entry.status == EntryStatus.ENTERED:
        return _("%(entered)s, waiting for a second player to confirm") % {"entered": entered}
    if entry.status == EntryStatus.DISPUTED:
        return _("%(entered)s; the table disagrees, waiting for an organiser to settle it") % {"entered": entered}
    if entry.by_organiser and entry.decided_by_enterer:
        if entry.status == EntryStatus.RESOLVED:
            return _("%(entered)s, settling the dispute") % {"entered": entered}
        return _("%(entered)s, final") % {"entered": entered}
    if entry.status == EntryStatus.CONFIRMED:
        return _("%(entered)s, confirmed by %(who)s") % {"entered": entered, "who": decider}
    if entry.status == EntryStatus.RESOLVED:
        return _("%(entered)s, settled by %(who)s (organiser)") % {"entered": entered, "who": decider}
    # Superseded: by the enterer's own later version, or when another version became final.
    if entry.decided_by_enterer:
        return _("%(entered)s, replaced by their later version") % {"entered": entered}
    return _("%(entered)s, set aside when %(who)s made another version final") % {"entered": entered, "who": decider}


def _figures_from_form(post, game: str, units) -> dict:
    """The figures as the game's offline check reads them: a blank box is None (it says which), anything not a whole
    number is passed on as typed (it says so too)."""
    figures: dict = {}
    for name in figure_names(game):
        values = []
        for unit in units:
            raw = post.get(f"{name}_{unit.index}", "").strip().replace(" ", "")
            values.append(None if raw == "" else int(raw) if _WHOLE.match(raw) else raw)
        figures[name] = values
    winner = post.get("winner", "").strip()
    if game == "diamoniak" and winner:
        figures["winner"] = int(winner) if _WHOLE.match(winner) else winner
    return figures


def _rows(match: Match, units, values: dict | None, errors: dict):
    """The form's rows: per unit, its boxes with their name, label, value shown and error."""
    rows = []
    for unit in units:
        boxes = []
        for name in figure_names(match.game):
            key = f"{name}_{unit.index}"
            shown = values.get(key, "") if values else ""
            boxes.append({"name": key, "label": FIGURE_LABELS[name], "value": shown,
                          "errors": errors.get(f"{name}.{unit.index}", [])})
        rows.append({"unit": unit, "boxes": boxes})
    return rows


def result_section(match: Match, *, seats, mine: list[int], organiser: bool, user=None, enter_action: str,
                   confirm_action, form_values=None, problems=None) -> dict:
    """What the result form and the versions need (web/_result_form.html), for a reporter holding the seats `mine`
    (signed in as `user`, or through a private link: no user) or organising the club. `confirm_action(entry_id)` is
    the URL confirming a version."""
    units = result_units(match, seats)
    insider = bool(mine) or organiser
    trail = result_trail(match) if insider else []
    problems = problems or []
    field_errors: dict[str, list[str]] = {}
    for p in problems:
        field_errors.setdefault(p.field, []).append(str(p))

    def own(entry: ResultEntry) -> bool:
        by_account = user is not None and user.is_authenticated and entry.entered_by_id == user.pk
        return by_account or (not entry.by_organiser and entry.entered_at_seat in mine)

    versions = [ResultVersion(
        entry=entry,
        rows=[{"unit": u, "values": [entry.figures[name][u.index] for name in figure_names(match.game)]}
              for u in units],
        can_confirm=match.status != MatchStatus.FINISHED and (
            (organiser and entry.status in (EntryStatus.ENTERED, EntryStatus.DISPUTED))
            or (bool(mine) and entry.status == EntryStatus.ENTERED and not own(entry))),
        confirm_action=confirm_action(entry.pk),
    ) for entry in trail]
    open_match = match.status in (MatchStatus.PENDING, MatchStatus.RUNNING)
    return {
        "match": match, "seats": seats, "units": units, "insider": insider, "organiser": organiser,
        "first_dealer": next((s for s in seats if s.seat == match.first_dealer), None),
        "can_enter": insider and open_match, "versions": versions, "enter_action": enter_action,
        "disputed": any(e.status == EntryStatus.DISPUTED for e in trail),
        "rows": _rows(match, units, form_values, field_errors),
        "general_errors": [str(p) for p in problems if "." not in p.field and p.field not in ("winner",)],
        "winner_errors": field_errors.get("winner", []), "winner_value": (form_values or {}).get("winner", ""),
        "labels": [FIGURE_LABELS[name] for name in figure_names(match.game)],
    }


def offline_match_page(request, match: Match, *, form_values=None, problems=None, status=200):
    """An offline table's page: who sits where and deals first; the result form and every version for the table's
    players and the club's organisers; the final result for everyone."""
    seats = list(match_seats(match))
    organiser = organises(request.user, match.club_id)
    context = result_section(
        match, seats=seats, mine=table_seats_of(match, request.user), organiser=organiser, user=request.user,
        enter_action=reverse("web:match-result-enter", args=[match.pk]),
        confirm_action=lambda entry_id: reverse("web:match-result-confirm", args=[match.pk, entry_id]),
        form_values=form_values, problems=problems)
    context["played_as"] = played_as(match, seats)
    open_match = match.status in (MatchStatus.PENDING, MatchStatus.RUNNING)
    context["can_switch"] = organiser and open_match and not match.move_number and not context["versions"]
    return render(request, "web/offline_match.html", context, status=status)


def _offline_match(pk: int) -> Match:
    return get_object_or_404(offline_matches(), pk=pk)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def result_enter(request, pk: int):
    match = _offline_match(pk)
    seats = list(match_seats(match))
    figures = _figures_from_form(request.POST, match.game, result_units(match, seats))
    try:
        entry = enter_result(match=match, user=request.user, figures=figures)
    except NotAtTable:
        return render(request, "web/error.html", {"message": _("Only the players at this table and the club's "
                                                               "organisers enter its result.")}, status=403)
    except InvalidResult as e:
        return offline_match_page(request, match, form_values=request.POST, problems=e.problems, status=400)
    except OfflineResultError as e:
        messages.error(request, str(e))
        return redirect("web:match", pk=pk)
    if entry.status == EntryStatus.ENTERED:
        messages.success(request, _("Result entered: another player at the table confirms it."))
    elif entry.status == EntryStatus.DISPUTED:
        messages.success(request, _("Your result differs from the one entered before: an organiser will settle it."))
    else:
        messages.success(request, _("The result is final."))
    return redirect("web:match", pk=pk)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def result_confirm(request, pk: int, entry_id: int):
    match = _offline_match(pk)
    try:
        confirm_result(match=match, user=request.user, entry_id=entry_id)
    except NotAtTable:
        return render(request, "web/error.html", {"message": _("Only the players at this table and the club's "
                                                               "organisers confirm its result.")}, status=403)
    except OfflineResultError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("Result confirmed: the table is finished."))
    return redirect("web:match", pk=pk)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def offline_switch(request, pk: int):
    """The organiser plays a table that has not begun online again (or with real cards)."""
    match = get_object_or_404(matches_with_round(), pk=pk)
    if not organises(request.user, match.club_id):
        return render(request, "web/error.html", {"message": _("Only the club's organisers may do this.")},
                      status=403)
    try:
        set_offline(match=match, offline=request.POST.get("offline") == "1")
    except OfflineResultError as e:
        messages.error(request, str(e))
    return redirect("web:match", pk=pk)


# ---- printable pages ------------------------------------------------------------------------------------------

def _round(pk: int, number: int) -> TournamentRound:
    return get_object_or_404(round_pages(), tournament_id=pk, index=number)


def _printed_links(request, tournament: Tournament) -> dict[int, dict[str, str]]:
    """For the club's organisers only (the sheets are public): each entrant's private link and its QR code, by
    player id. Everyone else gets none."""
    if not organises(request.user, tournament.club_id):
        return {}
    out = {}
    for player_id, token in links_for_sheet(tournament).items():
        url = request.build_absolute_uri(reverse("web:private-link", args=[token]))
        out[player_id] = {"url": url, "qr": qr_svg(url, _("QR code of a private link"), scale=2)}
    return out


def _unlinked(request, tournament: Tournament, tables, links: dict) -> int:
    """For the club's organisers: how many seated players have no private link yet (their QR codes would be missing
    from the printed page). 0 for everyone else."""
    if not organises(request.user, tournament.club_id):
        return 0
    return sum(1 for t in tables for s in t.seats if s.player_id not in links)


def _printed(response, links: dict):
    """A printed page carrying private links is kept by no cache and sends no Referer to another site."""
    if links:
        response["Referrer-Policy"] = "same-origin"
        never_stored(response)
    return response


def round_sheet_page(request, pk: int, number: int):
    rnd = _round(pk, number)
    links = _printed_links(request, rnd.tournament)
    tables = round_sheet(rnd)
    return _printed(render(request, "web/print_sheet.html", {
        "round": rnd, "tournament": rnd.tournament, "tables": tables, "links": links,
        "unlinked": _unlinked(request, rnd.tournament, tables, links)}), links)


def round_slips_page(request, pk: int, number: int):
    rnd = _round(pk, number)
    tables = round_sheet(rnd)
    labels = [FIGURE_LABELS[name] for name in figure_names(rnd.tournament.game)]
    links = _printed_links(request, rnd.tournament)
    return _printed(render(request, "web/print_slips.html", {
        "round": rnd, "tournament": rnd.tournament, "tables": tables, "labels": labels, "links": links,
        "unlinked": _unlinked(request, rnd.tournament, tables, links)}), links)


def standings_print_page(request, pk: int):
    tournament = get_object_or_404(tournaments_with_club(), pk=pk)
    standings = cached_tournament_standings(tournament)
    return render(request, "web/print_standings.html", {
        "tournament": tournament, "standings": standings,
        "metric_names": shown_metrics(standings),
        "rounds_closed": closed_round_count(tournament)})


def tournament_offline_context(tournament: Tournament, user) -> dict:
    """What the tournament page adds for a club evening: the tables an organiser must settle, and those waiting."""
    if not organises(user, tournament.club_id):
        return {"disputed": [], "awaiting": set()}
    return {"disputed": disputed_matches(tournament), "awaiting": awaiting_confirmation(tournament)}
