"""A duplicate round's tables share their deal: while the round is played, no one but a table's own seats sees
its play, its record or its seed, and the round's seating hides the seeds."""

from __future__ import annotations

import pytest

from league.models import Match, MatchStatus
from league.services import create_bot_player
from league.services.advancing import start_tournament
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_finished_duplicate_table_stays_hidden_while_its_twin_plays(accounts):
    c = accounts["clients"]
    bots = [create_bot_player(name=f"dup-{i}", kind="random") for i in range(7)]
    t = create_tournament(name="dup", rounds=1, table_size=4, format="duplicate", seed="dup")
    register_players(tournament=t, players=[accounts["players"]["ann"], *bots])
    start_tournament(tournament=t)
    matches = list(Match.objects.filter(tournament_round__tournament=t))
    done = next(m for m in matches if m.status == MatchStatus.FINISHED)
    live = next(m for m in matches if m.status != MatchStatus.FINISHED)
    assert live.match_seats.filter(player=accounts["players"]["ann"], awaiting=True).exists()
    for who in ("anon", "ann", "bob"):
        for url in (f"/api/v1/matches/{done.pk}/record/", f"/api/v1/matches/{done.pk}/tricks/",
                    f"/api/v1/matches/{done.pk}/state/", f"/api/v1/matches/{live.pk}/tricks/"):
            if who == "ann" and str(live.pk) in url:
                continue  # her own table
            assert c[who].get(url).status_code == 403, (who, url)
        assert c[who].get(f"/api/v1/matches/{done.pk}/").json()["seed"] is None
        rounds = c[who].get(f"/api/v1/tournaments/{t.pk}/rounds/").json()
        assert all("seed" not in table for table in rounds[0]["tables"])
    own = c["ann"].get(f"/api/v1/matches/{live.pk}/record/").json()
    assert own["seed"] is None and all(r["hands"] is None for r in own["rounds"])
    assert c["ann"].get(f"/api/v1/matches/{live.pk}/state/").json()["seat"] is not None
