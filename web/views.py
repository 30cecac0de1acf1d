"""Public pages: home, club, league, season, tournament, ladder and player. Reads only, through league.selectors;
organisers get a button that calls the same service as the API's start-round."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from itertools import groupby

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.models import Match, Player, TournamentStatus
from league.permissions import keeps_to_self_entry_window, organises, refusal_to_enter, refusal_to_manage_bot
from league.selectors import clubs as club_reads
from league.selectors import competitions, ratings
from league.selectors import divisions as division_reads
from league.selectors import matches as match_reads
from league.selectors.accounts import in_ladder, my_entry, my_membership, open_for_self_entry, pending_requests
from league.selectors.bots import conduct_of, player_seats
from league.selectors.comparisons import comparisons as comparison_list
from league.selectors.deals import seats_without_withheld_results, without_withheld_results
from league.selectors.players import player_pages, players_with_ids
from league.selectors.presence import presence_of
from league.selectors.roster import enterable
from league.selectors.round_tables import movable_seats
from league.selectors.standings import season_games
from league.selectors.standings_cache import cached_season_standings
from league.services import advance_tournament, start_tournament
from league.services.bot_pausing import pause_after
from league.services.cancellation import NotCancellable, cancel_match, cancel_tournament
from league.services.competition import TournamentError
from league.services.entry import register_entrants
from league.standings import shown_metrics
from runtime.throttling import WriteLimit, rate_limited

from .charts import Series, rating_chart
from .divisions import divisions_context
from .evening import evening_context
from .games import presenter_for
from .live_pages import ladder_live_context, tournament_live_context

RECENT = 20


def home(request):
    live: Iterable[Match] = []
    if request.user.is_authenticated:
        live = match_reads.matches_in_play_of(request.user)[:10]
    return render(request, "web/home.html", {
        "clubs": club_reads.clubs(),
        "tournaments": competitions.open_tournaments()[:RECENT],
        "finished_tournaments": competitions.finished_tournaments()[:5],
        "ladders": competitions.active_ladders(),
        "recent": without_withheld_results(match_reads.finished_matches()[:10]),
        "live": live,
    })


def club(request, pk: int):
    club = get_object_or_404(club_reads.clubs(), pk=pk)
    return render(request, "web/club.html", {
        "club": club,
        "leagues": club_reads.leagues_of(club),
        "tournaments": competitions.tournaments_of_club(club)[:RECENT],
        "ladders": competitions.ladders_of_club(club),
        "players": club_reads.club_players(club),
        "recent": without_withheld_results(match_reads.finished_matches(club=club)[:10]),
        "organiser": organises(request.user, club.pk),
        # Joining on one's own (web/participation.py): where the visitor stands, and the requests organisers answer.
        "membership": my_membership(request.user, club),
        "requests": pending_requests(club) if organises(request.user, club.pk) else [],
    })


def league(request, pk: int):
    """A league's seasons, and its current season's standings: each division's with its promotion and relegation
    zones, and who went up and down at the end of the last closed season."""
    league = get_object_or_404(competitions.league_pages(), pk=pk)
    current = division_reads.current_season(league)
    closed = division_reads.last_closed_season(league)
    context: dict = {}
    if current is not None:
        context = divisions_context(current)
        if not context["divided"]:
            standings = cached_season_standings(current)
            context.update(standings=standings, metric_names=shown_metrics(standings))
    latest = division_reads.latest_season(league)
    return render(request, "web/league.html", {
        "league": league, "seasons": competitions.seasons_of(league).order_by("-created_at", "-pk"),
        "organiser": organises(request.user, league.club_id), "current": current, **context,
        "last_closed": closed, "closed_moves": division_reads.moves_of(closed) if closed and closed != current else [],
        "next_from": closed if closed is not None and closed == latest else None,
    })


def season(request, pk: int):
    """A season's tournaments and its standings, one table per game its tournaments play (results of different
    games are not added up: their scores mean different things). A season split into divisions shows one table per
    division (of the game it is decided by), with the zones; its other games' tables follow as one table each."""
    season = get_object_or_404(competitions.season_pages(), pk=pk)
    context = divisions_context(season)
    tables = []
    for game in season_games(season) or ["diamonds"]:
        if context["divided"] and game == context["division_game"]:
            continue
        standings = cached_season_standings(season, game)
        tables.append({"game": game, "standings": standings, "metric_names": shown_metrics(standings)})
    return render(request, "web/season.html", {
        "season": season, "tournaments": competitions.tournaments_of_season(season), "tables": tables,
        "organiser": organises(request.user, season.league.club_id), **context,
    })


def _round_control(tournament, rnd, organiser: bool) -> dict:
    """For an organiser the seats of the round in play they may still swap (web/rounds.py)."""
    seats = movable_seats(rnd) if organiser and rnd is not None and not tournament.partnerships else []
    return {"seated_players": seats, "swappable": len(seats) >= 2}


def tournament(request, pk: int):
    """A tournament's page. Its rounds, standings, entrants and (for organisers) round dashboard are drawn by
    web.live_pages, which keeps them live; the organiser's controls and a person's own entry are drawn once."""
    tournament = get_object_or_404(competitions.tournament_pages(), pk=pk)
    live = tournament_live_context(request.user, tournament)
    organiser = live["organiser"]
    candidates: Iterable[Player] = []
    to_enter: list[Player] = []
    # Registration stays open while it runs: a late entry joins at the next round (league.services.evening).
    if organiser and tournament.status in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
        candidates = competitions.bots_to_register(tournament)
        to_enter = enterable(tournament)  # the club's guests and members (web/entering.py)
    return render(request, "web/tournament.html", {
        **live, "candidates": candidates, "to_enter": to_enter,
        **_round_control(tournament, live["round_in_play"], organiser),
        **evening_context(request, tournament),  # check-in and the final's button (web.evening)
        "my_entry": my_entry(request.user, tournament),
        "self_entry_open": open_for_self_entry(tournament, timezone.now()),
        "live": tournament.status not in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED),
    })




@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def tournament_start_round(request, pk: int):
    """The organiser's "start the next round" (the first one starts the tournament), as the API's start-round."""
    tournament = get_object_or_404(competitions.tournaments(), pk=pk)
    if not organises(request.user, tournament.club_id):
        return render(request, "web/error.html", {"message": _("Only the club's organisers may start rounds.")},
                      status=403)
    try:
        rnd = (start_tournament(tournament=tournament) if not competitions.has_rounds(tournament)
               else advance_tournament(tournament=tournament))
    except (TournamentError, ValueError) as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("Round %(number)s is seated and started.") % {"number": rnd.index} if rnd
                         else _("The tournament is over."))
    return redirect("web:tournament", pk=pk)


CANCEL_REASON_MAX = 500  # as the API's (api.serializers.CancelSerializer)


def _cancel_reason(request) -> str | None:
    """The organiser's reason from the form, or None (with a message) when it is too long to keep."""
    reason = request.POST.get("reason", "").strip()
    if len(reason) > CANCEL_REASON_MAX:
        messages.error(request, _("Say why in at most %(most)s characters: nothing was cancelled.") % {
            "most": CANCEL_REASON_MAX})
        return None
    return reason


def _cancel(request, club_id: int | None, refusal: str, cancel, done: str):
    """The organiser's cancel button, as the API's cancel: refused (403 page, `refusal`) to others, a reason of
    bounded length, the outcome as a message."""
    if not organises(request.user, club_id):
        return render(request, "web/error.html", {"message": refusal}, status=403)
    reason = _cancel_reason(request)
    if reason is not None:
        try:
            cancel(by=request.user.get_username(), reason=reason)
        except NotCancellable as e:
            messages.error(request, str(e))
        else:
            messages.success(request, done)
    return None


@login_required
@require_POST
def tournament_cancel(request, pk: int):
    """The organiser's "cancel the tournament": its matches in play stop, no round follows."""
    tournament = get_object_or_404(competitions.tournaments(), pk=pk)
    refused = _cancel(request, tournament.club_id, _("Only the club's organisers may cancel a tournament."),
                      partial(cancel_tournament, tournament_id=pk),
                      _("The tournament is cancelled: its matches in play were stopped."))
    return refused or redirect("web:tournament", pk=pk)


@login_required
@require_POST
def match_cancel(request, pk: int):
    """The organiser's "cancel the match": play stops and the match never counts."""
    match = get_object_or_404(match_reads.matches(), pk=pk)
    refused = _cancel(request, match.club_id, _("Only the club's organisers may cancel a match."),
                      partial(cancel_match, match_id=pk),
                      _("The match is cancelled: play stopped and it will not count."))
    return refused or redirect("web:match", pk=pk)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def tournament_register(request, pk: int):
    """The organiser's registration of the club's bots, as the API's entries endpoint."""
    tournament = get_object_or_404(competitions.tournaments(), pk=pk)
    if not organises(request.user, tournament.club_id):
        return render(request, "web/error.html", {"message": _("Only the club's organisers may register players.")},
                      status=403)
    ids = [int(i) for i in request.POST.getlist("players") if i.isdigit() and len(i) < 19]  # a bigint at most
    players = players_with_ids(ids)
    if not players:
        messages.error(request, _("Choose at least one player to register."))
        return redirect("web:tournament", pk=pk)
    # The API's rules (league.permissions): who may be entered, and the window the asker keeps to.
    refusal = refusal_to_enter(request.user, tournament.club_id, players, members_only=tournament.members_only)
    if refusal:
        return render(request, "web/error.html", {"message": refusal}, status=403)
    try:
        register_entrants(tournament=tournament, players=players,
                          self_entry_window=keeps_to_self_entry_window(request.user, tournament.club_id))
    except TournamentError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("Registered %(names)s.") % {"names": ", ".join(p.name for p in players)})
    return redirect("web:tournament", pk=pk)


def ladder(request, pk: int):
    """A ladder's page; its ratings, chart and matches are drawn by web.live_pages, which keeps them live."""
    ladder = get_object_or_404(competitions.ladder_pages(), pk=pk)
    return render(request, "web/ladder.html", {**ladder_live_context(ladder),
                                               "in_ladder": in_ladder(request.user, ladder)})


PLAYER_MATCHES_PER_PAGE = 25


def player(request, pk: int):
    """A player's page: for a bot also its owner, whether it is paused (and why) or, an external bot, absent (not
    polling: not seated), and its missed deadlines. Matches
    in play come first, then the newest, a page at a time; one rating chart per game."""
    player = get_object_or_404(player_pages(), pk=pk)
    player_ratings = ratings.player_ratings(player)
    charts = []
    for game, of_game in groupby(player_ratings, key=lambda r: r.game):
        series = [Series(rating.ladder.name if rating.ladder else _("global"), ratings.rating_points(rating))
                  for rating in of_game]
        title = _("%(player)s: rating history, %(game)s") % {"player": player.name,
                                                              "game": presenter_for(game).title}
        charts.append({"game": game, "chart": rating_chart(series, title=title)})
    page = Paginator(player_seats(player), PLAYER_MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "web/player.html", {
        "player": player, "ratings": player_ratings, "seats": seats_without_withheld_results(page.object_list),
        "page": page,
        "clubs": club_reads.clubs_of(player), "charts": charts,
        "conduct": conduct_of(player) if player.is_bot else None,
        # An external bot's presence: when it last polled, and whether ladders seat it (league.selectors.presence).
        "presence": presence_of(player),
        "pause_after": pause_after(),
        "manages": player.is_bot and refusal_to_manage_bot(request.user, player) is None,
        # A bot's comparisons (is my new bot better?), as candidate or baseline.
        "comparisons": comparison_list(bot_id=player.pk)[:20] if player.is_bot else [],
    })
