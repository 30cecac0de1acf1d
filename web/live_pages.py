"""The competitions' pages kept live: a tournament's (its round's tables and their states, the organiser's round
dashboard, the standings, the rounds' seating and results, the entrants), a ladder's (its ratings, its chart, its
matches) and a comparison's (its test, its chart, its pairs).

Each page is drawn from the same parts it is served with: `*_fragments` render those parts, by the id of the element
that holds each on the page, for one reader, and the page's live endpoint (`*_live`, JSON) answers with them. The
page's script (live_page.js) swaps in whatever differs, from its WebSocket (web.consumers.PageSocket: the same
answer, read again whenever the league announces a change to the competition, web.push) or, where sockets fail, by
polling the endpoint. Nothing here is more than the page itself shows its reader: the round dashboard and the results
to settle are for the club's organisers, as on the page.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from league.models import Comparison, Ladder, Tournament, TournamentStatus
from league.permissions import organises
from league.selectors import comparisons as comparison_reads
from league.selectors import competitions, ratings
from league.selectors import matches as match_reads
from league.selectors.ladders import ladder_outlook
from league.selectors.ranking import tournament_ranking
from league.selectors.round_tables import round_tables
from league.selectors.standings_cache import cached_tournament_standings
from league.standings import shown_metrics

from .charts import Series, llr_chart, rating_chart
from .offline import tournament_offline_context

RECENT = 20

# ---- a tournament -------------------------------------------------------------------------------------------------


def tournament_rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """Every round with its tables (each with its match and seats) and byes, first round first."""
    rounds = []
    for rnd in competitions.rounds_of(tournament):
        matches = {m.table_number: m for m in match_reads.round_matches(rnd)}
        tables = []
        for table in rnd.tables:
            match = matches.get(table["number"])
            tables.append({"number": table["number"], "match": match,
                           "seats": list(match.match_seats.all()) if match else []})
        rounds.append({"round": rnd, "tables": tables, "byes": rnd.byes})
    return rounds


def tournament_live_context(user, tournament: Tournament) -> dict[str, Any]:
    """What the tournament page's live parts show `user`: the rounds, the standings (and a final's ranking), the
    entrants, and for the club's organisers the round in play at a glance and the results to settle."""
    organiser = organises(user, tournament.club_id)
    standings = cached_tournament_standings(tournament)
    rnd = competitions.round_in_play(tournament)
    dashboard = round_tables(rnd) if organiser and rnd is not None else []
    return {
        "tournament": tournament, "organiser": organiser, "rounds": tournament_rounds(tournament),
        "standings": standings, "metric_names": shown_metrics(standings),
        "entries": competitions.entries_of(tournament),
        "ranking": tournament_ranking(tournament=tournament) if tournament.final_size else None,
        "round_in_play": rnd, "dashboard": dashboard, "dashboard_counts": Counter(t.state for t in dashboard),
        **tournament_offline_context(tournament, user),
    }


def tournament_fragments(request, context: dict[str, Any]) -> dict[str, str]:
    tournament = context["tournament"]
    return {
        "live-status": format_html('<span class="status status-{}">{}</span>', tournament.status,
                                   tournament.get_status_display()),
        "live-dashboard": render_to_string("web/_tournament_dashboard.html", context, request=request),
        "live-standings": render_to_string("web/_tournament_standings.html", context, request=request),
        "live-rounds": render_to_string("web/_tournament_rounds.html", context, request=request),
        "live-entrants": render_to_string("web/_tournament_entrants.html", context, request=request),
    }


def tournament_update(request, pk: int) -> dict[str, Any] | None:
    """The tournament page's live parts for the reader, or None for no such tournament."""
    tournament = competitions.tournament_pages().filter(pk=pk).first()
    if tournament is None:
        return None
    done = tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
    return {"fragments": tournament_fragments(request, tournament_live_context(request.user, tournament)),
            "done": done}


# ---- a ladder -----------------------------------------------------------------------------------------------------


def ladder_live_context(ladder: Ladder) -> dict[str, Any]:
    ladder_ratings = ratings.ladder_ratings(ladder)
    top = [r.player for r in ladder_ratings[:6]]
    history = ratings.ladder_points(ladder, top)
    chart = rating_chart([Series(p.name, history[p.pk]) for p in top],
                         title=_("%(ladder)s: ratings of the top 6") % {"ladder": ladder.name})
    return {"ladder": ladder, "ratings": ladder_ratings, "chart": chart, "entries": competitions.pool_size(ladder),
            "recent": match_reads.ladder_matches(ladder)[:RECENT], "outlook": ladder_outlook(ladder=ladder)}


def ladder_fragments(request, context: dict[str, Any]) -> dict[str, str]:
    return {"ladder-summary": render_to_string("web/_ladder_summary.html", context, request=request),
            "ladder-live": render_to_string("web/_ladder_live.html", context, request=request)}


def ladder_update(request, pk: int) -> dict[str, Any] | None:
    ladder = competitions.ladder_pages().filter(pk=pk).first()
    if ladder is None:
        return None
    return {"fragments": ladder_fragments(request, ladder_live_context(ladder)), "done": False}


# ---- a comparison -------------------------------------------------------------------------------------------------


def comparison_live_context(comparison: Comparison) -> dict[str, Any]:
    pairs = comparison_reads.pair_rows(comparison)
    llrs = [p["llr"] for p in pairs if p["llr"] is not None]
    return {"comparison": comparison, "state": comparison_reads.state(comparison), "pairs": pairs,
            "chart": llr_chart(llrs, lower=comparison.lower_bound, upper=comparison.upper_bound,
                               title=_("LLR of comparison %(id)s") % {"id": comparison.pk})}


def comparison_fragments(request, context: dict[str, Any]) -> dict[str, str]:
    comparison = context["comparison"]
    return {"summary": render_to_string("web/_comparison_summary.html", context, request=request),
            "chart": str(context["chart"]),
            "pairs": render_to_string("web/_comparison_pairs.html",
                                      {"pairs": context["pairs"], "comparison_id": comparison.pk}, request=request)}


def comparison_update(request, pk: int) -> dict[str, Any] | None:
    comparison = comparison_reads.comparison_pages().filter(pk=pk).first()
    if comparison is None:
        return None
    context = comparison_live_context(comparison)
    fragments = comparison_fragments(request, context)
    # The keys the page's script read before it was live (web.comparisons.comparison_state), kept for any client.
    return {"fragments": fragments, "done": comparison.status != "running", "state": context["state"],
            "pairs": context["pairs"], "chart": fragments["chart"], "rows": fragments["pairs"],
            "summary": fragments["summary"]}


# ---- who may share a read ----------------------------------------------------------------------------------------

UPDATES = {"tournament": tournament_update, "ladder": ladder_update, "comparison": comparison_update}


def page_update(kind: str, request, pk: int) -> dict[str, Any] | None:
    """The live parts of a competition's page (`kind`: tournament, ladder or comparison) for the reader."""
    return UPDATES[kind](request, pk)


def reader_sees_more(kind: str, user, pk: int) -> bool:
    """Whether `user` sees more of the page than anyone (a tournament's organisers: its round dashboard and the
    results to settle): their sockets read for them alone; everyone else's share one read (web.consumers)."""
    if kind != "tournament":
        return False
    club_id = Tournament.objects.filter(pk=pk).values_list("club_id", flat=True).first()
    return club_id is not None and organises(user, club_id)


# ---- the endpoints the pages poll where sockets fail ------------------------------------------------------------


def _live(kind: str, request, pk: int) -> JsonResponse:
    answer = page_update(kind, request, pk)
    if answer is None:
        raise Http404("no such page")
    return JsonResponse(answer)


@require_GET
def tournament_live(request, pk: int):
    return _live("tournament", request, pk)


@require_GET
def ladder_live(request, pk: int):
    return _live("ladder", request, pk)


def comparison_state(request, pk: int):
    """What the comparison page polls where sockets fail: the test's state, the pairs and the chart (as drawn on the
    page), and the parts of the page to swap in."""
    get_object_or_404(comparison_reads.comparison_pages(), pk=pk)
    return _live("comparison", request, pk)
