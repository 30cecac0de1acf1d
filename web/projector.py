"""The projector: a full-screen page for the venue's screen. It shows the latest round's tables (and everyone by name,
alphabetically, to find one's table from the back of the room), then the standings, in large type, and refreshes
itself (web/static/web/projector.js swaps in the new content every few seconds; without JavaScript the page
reloads). Public, as the tournament page is: it shows nothing the tournament page does not."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from league.selectors.competitions import tournament_pages
from league.selectors.round_tables import latest_round, placements, round_tables
from league.selectors.standings_cache import cached_tournament_standings
from league.standings import shown_metrics

# How often the screen asks for news: a result entered shows within this, and a room of screens costs little.
REFRESH_SECONDS = 15


def projector(request, pk: int):
    tournament = get_object_or_404(tournament_pages(), pk=pk)
    rnd = latest_round(tournament)
    tables = round_tables(rnd) if rnd is not None else []
    standings = cached_tournament_standings(tournament)
    return render(request, "web/projector.html", {
        "tournament": tournament, "round": rnd, "tables": tables,
        "placements": placements(rnd, tables) if rnd is not None else [],
        "standings": standings, "metric_names": shown_metrics(standings), "refresh_seconds": REFRESH_SECONDS,
    })
