"""The organiser's pages that create a club's tournaments, ladders, leagues and seasons, and change a tournament's
settings: forms with fields (web.forms_tournament, web.forms_competitions) over the league's services, for the
club's organisers only (league.permissions.organises; anyone else gets 403).

The tournament form has two buttons: "Preview" shows the rounds, tables and byes the settings would seat for the
players expected (league.services.tournament_setup.preview_tournament, creating nothing); "Create" creates it. A
refusal of the service comes back as the form's error (400), never a 500.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from league.permissions import organises, refusal_to_link_season
from league.presets import DEFAULT_PRESET, PRESETS, preset
from league.selectors import clubs as club_reads
from league.selectors import competitions
from league.services.competition import TournamentError
from league.services.ladders import create_ladder
from league.services.leagues import create_league, create_season, update_league
from league.services.tournament_setup import (
    CHANGEABLE,
    changeable_settings,
    create_tournament,
    preview_tournament,
    update_tournament,
)
from runtime.throttling import WriteLimit, rate_limited

from .forms_competitions import LadderForm, LeagueForm, SeasonForm
from .forms_tournament import TournamentForm, settings_of_tournament, tournament_initial
from .refusals import refused_page


def _organiser_page(view):
    """Signed in (else to the sign-in page), write-limited on POST."""
    return login_required(rate_limited(WriteLimit, what="changes")(view))


def _presets() -> list[dict[str, Any]]:
    """Each preset's key, label and the form's values it fills in (for the page's script)."""
    return [{"key": p.key, "label": p.label, "fields": tournament_initial(p.full_settings())} for p in PRESETS]


def _status(form) -> int:
    return 400 if form.errors else 200


@_organiser_page
def tournament_new(request, pk: int):
    club = get_object_or_404(club_reads.clubs(), pk=pk)
    if not organises(request.user, club.pk):
        return refused_page(request, _("Only the club's organisers may create its tournaments."))
    seasons = competitions.seasons_of_club(club)
    preview, chosen_key = None, ""
    if request.method == "POST":
        form = TournamentForm(request.POST, seasons=seasons)
        if form.is_valid():
            settings = form.settings()
            if request.POST.get("action") == "preview":
                preview = _preview(form, entered=0)
            else:
                refusal = refusal_to_link_season(club.pk, settings["season"])
                try:
                    if refusal:
                        raise ValueError(refusal)
                    tournament = create_tournament(club=club, **settings)
                except (TournamentError, ValueError) as e:
                    form.add_error(None, str(e))
                else:
                    messages.success(request, _("%(name)s is created: enter its players, then start round 1.")
                                     % {"name": tournament.name})
                    return redirect("web:tournament", pk=tournament.pk)
    else:
        chosen = preset(request.GET.get("preset")) or preset(DEFAULT_PRESET)
        assert chosen is not None
        initial = tournament_initial(chosen.full_settings())
        season_id = _id(request.GET.get("season"))
        season = seasons.filter(pk=season_id).first() if season_id is not None else None
        if season is not None:
            initial["season"] = season
        form = TournamentForm(initial=initial, seasons=seasons)
        chosen_key = chosen.key
    return render(request, "web/tournament_form.html", {
        "club": club, "form": form, "preview": preview, "presets": _presets(),
        "chosen_preset": chosen_key, "creating": True,
    }, status=_status(form))


def _id(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() and len(text) < 10 else None


def _preview(form: TournamentForm, *, entered: int):
    """The preview of the form's settings, or None with the service's refusal as the form's error."""
    try:
        return preview_tournament(entrants=form.expected(entered), **form.previewed())
    except ValueError as e:
        form.add_error(None, str(e))
        return None


@_organiser_page
def tournament_settings(request, pk: int):
    """Change a tournament's settings with the form it was created with: those that can no longer change are shown
    greyed out (league.services.tournament_setup.changeable_settings)."""
    tournament = get_object_or_404(competitions.tournament_pages(), pk=pk)
    if not organises(request.user, tournament.club_id):
        return refused_page(request, _("Only the club's organisers may change a tournament's settings."))
    if tournament.status not in ("registering", "running"):
        return refused_page(request, _("%(name)s is over: its settings no longer change.") % {"name": tournament.name})
    open_now = changeable_settings(tournament)
    seasons = competitions.seasons_of_club(tournament.club) if tournament.club else None
    entered = competitions.entries_of(tournament).filter(active=True).count()
    initial = tournament_initial(settings_of_tournament(tournament))
    initial["expected_players"] = entered or None
    form = TournamentForm(request.POST or None, initial=initial, seasons=seasons, frozen=CHANGEABLE - open_now)
    preview = None
    if request.method == "POST" and form.is_valid():
        if request.POST.get("action") == "preview":
            preview = _preview(form, entered=entered)
        else:
            changes = {name: value for name, value in form.settings().items()
                       if name in open_now and value != getattr(tournament, name)}
            refusal = refusal_to_link_season(tournament.club_id, changes.get("season"))
            try:
                if refusal:
                    raise ValueError(refusal)
                if changes:
                    update_tournament(tournament=tournament, **changes)
            except (TournamentError, ValueError) as e:
                form.add_error(None, str(e))
            else:
                messages.success(request, _("The settings are saved.") if changes else _("Nothing changed."))
                return redirect("web:tournament", pk=tournament.pk)
    return render(request, "web/tournament_form.html", {
        "club": tournament.club, "tournament": tournament, "form": form, "preview": preview,
        "entered": entered, "creating": False, "frozen": bool(CHANGEABLE - open_now),
    }, status=_status(form))


@_organiser_page
def ladder_new(request, pk: int):
    club = get_object_or_404(club_reads.clubs(), pk=pk)
    if not organises(request.user, club.pk):
        return refused_page(request, _("Only the club's organisers may create its ladders."))
    form = LadderForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            ladder = create_ladder(club=club, **form.settings())
        except IntegrityError:
            form.add_error("name", _("A ladder of that name exists: choose another name."))
        except ValueError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("%(name)s is created: players join it from its page.") % {"name": ladder.name})
            return redirect("web:ladder", pk=ladder.pk)
    return render(request, "web/ladder_form.html", {"club": club, "form": form}, status=_status(form))


@_organiser_page
def league_new(request, pk: int):
    club = get_object_or_404(club_reads.clubs(), pk=pk)
    if not organises(request.user, club.pk):
        return refused_page(request, _("Only the club's organisers may create its leagues."))
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = create_league(club=club, **form.settings())
        except IntegrityError:
            form.add_error("name", _("The club has a league of that name."))
        except ValueError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("%(name)s is created: add its first season.") % {"name": league.name})
            return redirect("web:league", pk=league.pk)
    return render(request, "web/simple_form.html", {
        "form": form, "title": _("New league"), "submit": _("Create the league"),
        "back": club.name, "back_view": "web:club", "back_pk": club.pk}, status=_status(form))


@_organiser_page
def league_settings(request, pk: int):
    """Rename a league, or change the divisions its new seasons start with (seasons made already keep theirs)."""
    league = get_object_or_404(competitions.league_pages(), pk=pk)
    if not organises(request.user, league.club_id):
        return refused_page(request, _("Only the club's organisers may change its leagues."))
    initial = {"name": league.name, "division_count": league.division_count, "promoted": league.promoted,
               "relegated": league.relegated}
    form = LeagueForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        changes = {k: v for k, v in form.settings().items() if v != initial[k]}
        try:
            update_league(league=league, **changes)
        except IntegrityError:
            form.add_error("name", _("The club has a league of that name."))
        except ValueError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("The settings are saved: new seasons start with them.") if changes
                             else _("Nothing changed."))
            return redirect("web:league", pk=league.pk)
    return render(request, "web/simple_form.html", {
        "form": form, "title": _("Settings of %(league)s") % {"league": league.name}, "submit": _("Save"),
        "back": league.name, "back_view": "web:league", "back_pk": league.pk}, status=_status(form))


@_organiser_page
def season_new(request, pk: int):
    """A new season of a league: its name and dates, its divisions (the league's settings to start with) and how
    its players are put in them; the organiser lands on its divisions page to review them before it starts."""
    league = get_object_or_404(competitions.league_pages(), pk=pk)
    if not organises(request.user, league.club_id):
        return refused_page(request, _("Only the club's organisers may add seasons to its leagues."))
    previous = competitions.seasons_of(league).order_by("-created_at", "-pk")
    initial: dict[str, Any] = {"division_count": league.division_count, "promoted": league.promoted,
                               "relegated": league.relegated}
    from_id = _id(request.GET.get("from"))
    chosen = previous.filter(pk=from_id).first() if from_id is not None else None
    if chosen is not None:
        initial["from_season"] = chosen
    form = SeasonForm(request.POST or None, initial=initial, previous=previous if previous.exists() else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season = create_season(league=league, name=data["name"], starts_on=data["starts_on"],
                                   ends_on=data["ends_on"], division_count=data["division_count"],
                                   promoted=data["promoted"], relegated=data["relegated"],
                                   placing=data["placing"], from_season=data.get("from_season"))
        except IntegrityError:
            form.add_error("name", _("The league has a season of that name."))
        except ValueError as e:
            form.add_error(None, str(e))
        else:
            if data["division_count"] > 1:
                messages.success(request, _("%(name)s is created: check who is in which division before it starts.")
                                 % {"name": season.name})
                return redirect("web:season-divisions", pk=season.pk)
            messages.success(request, _("%(name)s is created: its tournaments count towards it.")
                             % {"name": season.name})
            return redirect("web:season", pk=season.pk)
    return render(request, "web/simple_form.html", {
        "form": form, "title": _("New season of %(league)s") % {"league": league.name},
        "submit": _("Create the season"), "back": league.name, "back_view": "web:league", "back_pk": league.pk},
        status=_status(form))
