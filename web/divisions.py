"""A season's divisions on the website: each division's standings with its promotion and relegation zones said in
words (the season's and the league's pages), and the organisers' pages over league.services.divisions: the season's
settings (its divisions, how many go up and down, their names), who is in which division, closing the season (after
a page that says who will go up and down) and reopening it. Only the club's organisers reach them (403 otherwise);
a refusal of the service is the page's error (400) and changes nothing."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from league.models import Season
from league.permissions import organises
from league.selectors import competitions
from league.selectors.divisions import (
    divisions_of,
    moves_of,
    placeable_players,
    placements,
    season_divisions,
)
from league.services.divisions import DivisionError, close_season, place_players, rename_divisions, reopen_season
from league.services.divisions import set_divisions as set_season_divisions
from league.services.leagues import update_season
from league.standings import shown_metrics
from runtime.throttling import WriteLimit, rate_limited

from .forms_competitions import DivisionPlacesForm, SeasonForm
from .refusals import refused_page

ARROWS = {"up": "↑", "down": "↓"}


def _zone_words(kind: str, closed: bool) -> str:
    if closed:
        return _("promoted") if kind == "up" else _("relegated")
    return _("promotion zone") if kind == "up" else _("relegation zone")


def _problem_words(table) -> str:
    p = table.problem
    return _("%(division)s has %(size)s players: %(up)s going up and %(down)s going down do not fit, so the season "
             "cannot close yet.") % {"division": table.division.name, "size": p.size, "up": p.up, "down": p.down}


def divisions_context(season: Season) -> dict[str, Any]:
    """What web/_divisions.html shows of a season: each division's table with its zones in words (an arrow for the
    eye, hidden from screen readers, and the words for everyone), the players in no division, and once the season is
    closed who went up and down."""
    view = season_divisions(season)
    closed = season.closed_at is not None
    tables = []
    for t in view.tables:
        zones = {pid: {"kind": kind, "arrow": ARROWS[kind], "words": _zone_words(kind, closed)}
                 for pid, kind in t.zones.items()}
        tables.append({"division": t.division, "standings": t.rows, "metric_names": shown_metrics(t.rows),
                       "zones": zones, "up": t.up, "down": t.down,
                       "problem": _problem_words(t) if t.problem and not closed else ""})
    return {"divided": view.divided, "division_tables": tables, "unplaced": view.unplaced,
            "moves": moves_of(season), "division_game": view.game, "season_closed": closed}


def _organiser_page(view):
    """Signed in (else to the sign-in page), write-limited on POST."""
    return login_required(rate_limited(WriteLimit, what="changes")(view))


def _organised_season(request, pk: int) -> tuple[Season, Any]:
    season = get_object_or_404(competitions.season_pages(), pk=pk)
    if not organises(request.user, season.league.club_id):
        return season, refused_page(request, _("Only the club's organisers may change its seasons."))
    return season, None


@_organiser_page
def season_settings(request, pk: int):
    """A season's name and dates, its divisions, how many go up and down, and the divisions' names."""
    season, refused = _organised_season(request, pk)
    if refused:
        return refused
    divisions = divisions_of(season)
    closed = season.closed_at is not None
    initial = {"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on,
               "division_count": max(1, len(divisions)), "promoted": season.promoted, "relegated": season.relegated}
    form = SeasonForm(request.POST or None, initial=initial, division_names=[d.name for d in divisions],
                      closed=closed)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        dates = {k: data[k] for k in ("name", "starts_on", "ends_on") if data[k] != initial[k]}
        split = {k: data[k] for k in ("division_count", "promoted", "relegated")}
        try:
            with transaction.atomic():
                if dates:
                    update_season(season=season, **dates)
                if not closed and split != {k: initial[k] for k in split}:
                    set_season_divisions(season=season, count=split["division_count"], promoted=split["promoted"],
                                         relegated=split["relegated"])
                kept = min(len(divisions), split["division_count"]) if split["division_count"] > 1 else 0
                names = {n: v for n, v in form.division_names().items()
                         if n <= kept and v != divisions[n - 1].name}
                if names and not closed:
                    rename_divisions(season=season, names=names)
        except IntegrityError:
            form.add_error("name", _("The league has a season of that name."))
        except ValueError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("The season's settings are saved."))
            return redirect("web:season", pk=season.pk)
    return render(request, "web/simple_form.html", {
        "form": form, "title": _("Settings of %(season)s") % {"season": season.name}, "submit": _("Save"),
        "back": season.name, "back_view": "web:season", "back_pk": season.pk}, status=400 if form.errors else 200)


@_organiser_page
def season_places(request, pk: int):
    """Who is in which division: one choice per player, saved at once (the service refuses a player who is not the
    club's member, and anything once the season is closed)."""
    season, refused = _organised_season(request, pk)
    if refused:
        return refused
    divisions = divisions_of(season)
    if not divisions:
        return refused_page(request, _("%(season)s has one division: everyone who plays is in it. Split it into "
                                       "divisions in its settings first.") % {"season": season.name}, status=404)
    placed = placements(season)
    form = DivisionPlacesForm(request.POST or None, players=placeable_players(season), divisions=divisions,
                              placed=placed)
    if request.method == "POST" and form.is_valid():
        try:
            changed = place_players(season=season, placing=form.placing())
        except DivisionError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, ngettext("Saved: %(count)s player moved.", "Saved: %(count)s players moved.",
                                               changed) % {"count": changed} if changed else _("Nothing changed."))
            return redirect("web:season-divisions", pk=season.pk)
    context = divisions_context(season)
    sizes = {d.number: 0 for d in divisions}
    for number in placed.values():
        sizes[number] += 1
    return render(request, "web/season_divisions.html", {
        "season": season, "form": form, "divisions": divisions, "sizes": [(d, sizes[d.number]) for d in divisions],
        "problems": [t["problem"] for t in context["division_tables"] if t["problem"]],
    }, status=400 if form.errors else 200)


@_organiser_page
def season_close(request, pk: int):
    """Closing a season: first a page saying who will go up and who down (the zones as they stand), then the POST
    that closes it."""
    season, refused = _organised_season(request, pk)
    if refused:
        return refused
    problem = ""
    if request.method == "POST":
        try:
            close_season(season=season)
        except DivisionError as e:
            problem = str(e)
        else:
            messages.success(request, _("%(season)s is closed: its promotions and relegations are final.")
                             % {"season": season.name})
            return redirect("web:season", pk=season.pk)
    if season.closed_at is not None and not problem:
        problem = _("%(season)s is closed already.") % {"season": season.name}
    return render(request, "web/season_close.html", {
        "season": season, "problem": problem, **divisions_context(season)}, status=400 if problem else 200)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def season_reopen(request, pk: int):
    season, refused = _organised_season(request, pk)
    if refused:
        return refused
    try:
        reopen_season(season=season)
    except DivisionError as e:
        return refused_page(request, str(e), status=400)
    messages.success(request, _("%(season)s is open again: its moves are undone until it closes.")
                     % {"season": season.name})
    return redirect("web:season", pk=season.pk)
