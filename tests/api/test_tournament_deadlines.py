"""Tournament turn deadlines over the API: organisers set them when creating a tournament, everyone sees them on the
tournament and its tables, a late person's decision is refused once the seat forfeited, and its seat shows it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from engine import SeatView
from engine.diamonds.bots import make_bot
from league.models import Match, MatchSeat
from league.selectors.live import match_game
from workers.tasks import enforce_turn_deadlines

pytestmark = pytest.mark.django_db(transaction=True)


def test_organisers_create_a_tournament_with_a_deadline_and_everyone_sees_it(accounts):
    c = accounts["clients"]
    body = {"name": "Quick Cup", "rounds": 1, "table_size": 4, "club": accounts["club"].pk,
            "turn_deadline_seconds": 90, "deadline_action": "forfeit", "deadline_fallback": "greedy"}
    r = c["organiser"].post("/api/v1/tournaments/", body, format="json")
    assert r.status_code == 201, r.content
    shown = c["anon"].get(f"/api/v1/tournaments/{r.json()['id']}/").json()
    assert (shown["turn_deadline_seconds"], shown["deadline_action"], shown["deadline_fallback"]) == (
        90, "forfeit", "greedy")
    # Without them: no deadline, and a missed one would be played by the random bot.
    plain = c["organiser"].post("/api/v1/tournaments/", {**{k: body[k] for k in ("name", "rounds", "club")}},
                                format="json").json()
    assert (plain["turn_deadline_seconds"], plain["deadline_action"], plain["deadline_fallback"]) == (
        None, "fallback", "random")


@pytest.mark.parametrize("bad", [{"turn_deadline_seconds": 0}, {"deadline_action": "sulk"},
                                 {"deadline_fallback": "search"}])
def test_a_deadline_setting_out_of_range_is_refused(accounts, bad):
    body = {"name": "Bad Cup", "rounds": 1, "club": accounts["club"].pk, **bad}
    assert accounts["clients"]["organiser"].post("/api/v1/tournaments/", body, format="json").status_code == 400


def test_a_forfeited_seat_shows_on_the_table_and_its_late_decision_is_refused(accounts):
    c, p = accounts["clients"], accounts["players"]
    body = {"name": "Forfeit Cup", "rounds": 1, "table_size": 4, "club": accounts["club"].pk, "seed": "api-forfeit",
            "turn_deadline_seconds": 30, "deadline_action": "forfeit"}
    tid = c["organiser"].post("/api/v1/tournaments/", body, format="json").json()["id"]
    # People enter themselves; the organiser enters the club's bots (league.permissions).
    for name in ("ann", "bob"):
        assert c[name].post(f"/api/v1/tournaments/{tid}/entries/", {"players": [p[name].pk]},
                            format="json").status_code == 201
    assert c["organiser"].post(f"/api/v1/tournaments/{tid}/entries/", {"players": [p["greedy-1"].pk,
                               p["random-1"].pk]}, format="json").status_code == 201
    assert c["organiser"].post(f"/api/v1/tournaments/{tid}/start-round/").status_code == 201
    match = Match.objects.get(tournament_round__tournament_id=tid)
    assert (match.turn_deadline_seconds, match.deadline_action) == (30, "forfeit")
    ann, bob = (MatchSeat.objects.get(match=match, player=p[name]) for name in ("ann", "bob"))
    # Bob answers whatever he is asked (as a greedy bot would, through the API); Ann lets her first deadline pass.
    for _ in range(100):
        ann.refresh_from_db()
        bob.refresh_from_db()
        if bob.awaiting:
            game = match_game(Match.objects.get(pk=match.pk))
            decision = make_bot("greedy", seed=f"bob-{game.move_number}").decide(SeatView(game, bob.seat))
            assert c["bob"].post(f"/api/v1/matches/{match.pk}/decisions/",
                                 {"move_number": game.move_number, "decision": decision.to_json()},
                                 format="json").status_code == 201
        elif ann.awaiting:
            break
    assert ann.awaiting and not bob.awaiting
    moved = Match.objects.get(pk=match.pk).move_number
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert enforce_turn_deadlines() == [match.pk]
    assert enforce_turn_deadlines() == []  # once is enough

    shown = c["anon"].get(f"/api/v1/matches/{match.pk}/").json()
    assert shown["deadline_action"] == "forfeit"
    for seat in shown["seat_players"]:
        assert seat["forfeited"] is (seat["seat"] == ann.seat)
        assert seat["forfeited_at_move"] == (moved if seat["seat"] == ann.seat else None)
    # The game goes on for Bob (Ann forfeited at her first decision, far from the end); hers are refused.
    assert shown["status"] == "running"
    r = c["ann"].post(f"/api/v1/matches/{match.pk}/decisions/",
                      {"move_number": shown["move_number"], "decision": {"kind": "pass_count", "count": 1}},
                      format="json")
    assert r.status_code == 409 and r.json()["code"] == "forfeited"
