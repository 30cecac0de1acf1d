"""Diamoniak and the ring race over HTTP (OTHER-GAMES.md K- and G- rules): matches created through the API, played by
people, external bots and engine bots with the decisions endpoint in each game's own decision JSON; refusals that
change nothing (an illegal decision 400 naming its rule, a stale move 409, another's seat 403); no seat or spectator
seeing more than the table before the end; the finished record replaying with no disagreement."""

from __future__ import annotations

import json
import random

import pytest

from engine.diamoniak import card_name
from engine.games import by_format, game_type
from league.models import Match, MatchSeat, MatchStatus, MatchStep
from league.selectors.live import match_game

from .support import play_out

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = {"diamoniak": ["ann", "ext-1", "random-1"], "ringrace": ["ann", "ext-1", "bob", "ext-2", "random-1"]}
# A decision the rules refuse on the first kind of decision of a turn, and the rule the refusal names.
ILLEGAL = {
    "diamoniak": ({"kind": "stop"}, "K-TURN-1"),  # a drawing player draws at least once before stopping
    "ringrace": ({"kind": "try", "position": 42}, "G-RING-1"),  # the board has positions 0-41 only
}


def create(accounts, game: str, seed: str) -> Match:
    ids = [accounts["players"][name].pk for name in SEATS[game]]
    response = accounts["clients"]["organiser"].post(
        "/api/v1/matches/", {"players": ids, "game": game, "seed": seed, "club": accounts["club"].pk}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["game"] == game and body["seed"] is None
    kind = game_type(game)
    assert (body["score_label"], body["tiebreak_label"]) == (kind.score_label, kind.tiebreak_label)
    return Match.objects.get(pk=body["id"])


def stored(match: Match) -> tuple:
    """Everything stored about the match's play, to check that a refused request changed nothing."""
    m = Match.objects.get(pk=match.pk)
    return ((m.status, m.move_number, m.result, m.updated_at),
            bytes(m.moves), [bytes(c) for c in MatchStep.objects.filter(match=m).order_by("first")
                             .values_list("choices", flat=True)],
            list(MatchSeat.objects.filter(match=m).order_by("seat").values_list("awaiting", "score")))


def client_awaited(accounts, match: Match):
    """The awaited seat's name and client (the match waits for a person or an external bot)."""
    seat = MatchSeat.objects.get(match=match, awaiting=True)
    name = SEATS[match.game][seat.seat]
    return seat.seat, name, accounts["clients"][name]


@pytest.mark.parametrize("game", ["diamoniak", "ringrace"])
def test_a_match_is_played_over_the_decisions_endpoint_with_refusals_changing_nothing(accounts, game):
    match = create(accounts, game, seed=f"api/{game}")
    seat, name, client = client_awaited(accounts, match)
    url = f"/api/v1/matches/{match.pk}"
    legal = client.get(f"{url}/legal/").json()
    assert legal["my_turn"] and legal["pass_cards"] is None and legal["decisions"]
    game_kind = game_type(game)
    assert all(game_kind.parse_decision(d).to_json() == d for d in legal["decisions"])
    # Refusals only count on a turn's first decision kind ("turn" in Diamoniak, "try" in the ring race).
    while legal["pending"]["kind"] not in ("turn", "try"):
        assert client.post(f"{url}/decisions/", {"move_number": legal["move_number"],
                                                 "decision": legal["decisions"][0]}, format="json").status_code == 201
        seat, name, client = client_awaited(accounts, match)
        legal = client.get(f"{url}/legal/").json()
    before = stored(match)
    decision, rule = ILLEGAL[game]
    illegal = client.post(f"{url}/decisions/", {"move_number": legal["move_number"], "decision": decision},
                          format="json")
    assert illegal.status_code == 400 and illegal.json()["rule"] == rule and illegal.json()["code"] == "illegal"
    stale = client.post(f"{url}/decisions/", {"move_number": legal["move_number"] - 1,
                                              "decision": legal["decisions"][0]}, format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "stale_move"
    malformed = client.post(f"{url}/decisions/", {"move_number": legal["move_number"],
                                                  "decision": {"kind": "play", "card": "H7"}}, format="json")
    assert malformed.status_code == 400 and malformed.json()["code"] == "malformed"
    other = next(n for n in SEATS[game] if n != name and n != "random-1")
    other_seat = SEATS[game].index(other)
    not_mine = accounts["clients"][other].post(f"{url}/decisions/", {
        "move_number": legal["move_number"], "decision": legal["decisions"][0], "seat": seat}, format="json")
    assert not_mine.status_code == 403
    out_of_turn = accounts["clients"][other].post(f"{url}/decisions/", {
        "move_number": legal["move_number"], "decision": legal["decisions"][0], "seat": other_seat}, format="json")
    turn_rule = "K-TURN-1" if game == "diamoniak" else "G-TURN-1"
    assert out_of_turn.status_code == 400 and out_of_turn.json()["rule"] == turn_rule
    assert accounts["clients"]["outsider"].post(f"{url}/decisions/", {
        "move_number": legal["move_number"], "decision": legal["decisions"][0]}, format="json").status_code == 403
    assert stored(match) == before

    tricks = accounts["clients"]["anon"].get(f"{url}/tricks/")
    assert tricks.status_code == 404 and tricks.json()["code"] == "no_tricks"

    clients = [accounts["clients"][n] for n in dict.fromkeys(SEATS[game]) if n != "random-1"]
    play_out(clients, match.pk, seed=3, limit=20000)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED, match.error
    record = accounts["clients"]["anon"].get(f"{url}/record/").json()
    assert record["format"] == f"{game}-record/1" and record["seed"] == match.seed
    replayed, derived, disagreements = by_format(record["format"]).replay(record)
    assert disagreements == [] and derived["result"] == match.result == record["result"]
    detail = accounts["clients"]["anon"].get(f"{url}/").json()
    standing = game_kind.standing(replayed)
    assert [s["score"] for s in detail["seat_players"]] == standing["score"]
    assert [s["tiebreak"] for s in detail["seat_players"]] == standing["tiebreak"]
    assert [s["placement"] for s in detail["seat_players"]] == standing["places"]
    assert all(s["vault"] is None for s in detail["seat_players"])  # a Diamonds word only


def every_response(accounts, match: Match) -> dict[str, dict]:
    """What each seat's account and a spectator get from the play endpoints, by who and url."""
    url = f"/api/v1/matches/{match.pk}"
    out = {}
    for name in [*dict.fromkeys(SEATS[match.game]), "anon"]:
        if name == "random-1":
            continue
        client = accounts["clients"][name]
        for path in ("/", "/state/", "/record/") + (("/legal/",) if name != "anon" else ()):
            response = client.get(url + path)
            assert response.status_code == 200, (name, path, response.content)
            out[f"{name} {path}"] = response.json()
    return out


def table_of(state: dict) -> dict:
    """A state without what is the reader's own: which seat it is, its options."""
    return {k: v for k, v in state.items() if k not in ("seat", "my_turn", "legal")}


def test_diamoniak_hides_only_the_draw_pile_order_from_everyone(accounts):
    """K-SETUP-1, K-TURN-1: every card but the draw pile's is face up; the pile's order (and the seed that makes
    it) reaches no seat and no spectator before the end."""
    match = create(accounts, "diamoniak", seed="secret/diamoniak")
    rng = random.Random(1)
    for _ in range(25):
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            break
        responses = every_response(accounts, match)
        states = [table_of(v) for k, v in responses.items() if k.endswith("/state/")]
        assert all(s == states[0] for s in states)  # nobody sees more of the table than anyone else
        game = match_game(match)
        next_draws = json.dumps([card_name(c) for c in reversed(game.draw_pile[-3:])])  # the top card is last
        for key, body in responses.items():
            text = json.dumps(body)
            assert match.seed not in text, key
            assert "draw_pile" not in text and "deck_top" not in text and next_draws not in text, key
            if key.endswith("/state/"):
                assert body["draw_size"] == len(game.draw_pile)
        _, _, client = client_awaited(accounts, match)
        legal = client.get(f"/api/v1/matches/{match.pk}/legal/").json()
        assert client.post(f"/api/v1/matches/{match.pk}/decisions/", {
            "move_number": legal["move_number"], "decision": rng.choice(legal["decisions"])},
            format="json").status_code == 201


def test_the_ring_race_hides_the_board_layout_and_the_deck_until_the_end(accounts):
    """G-SETUP-1: loose and fixed positions stay hidden (only fixed ones a try revealed are shown), as does the
    deck's order; G-END-1: once the game is over the board is revealed."""
    match = create(accounts, "ringrace", seed="secret/ringrace")
    rng = random.Random(2)
    checked = 0
    while True:
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            break
        game = match_game(match)
        responses = every_response(accounts, match)
        states = [v for k, v in responses.items() if k.endswith("/state/")]
        assert all(table_of(s) == table_of(states[0]) for s in states)
        for state in states:
            board = state["board"]
            assert "loose" not in board
            assert {p for p, b in enumerate(board) if b == "fixed"} == set(game.revealed)
            assert "deck" not in state and isinstance(state["deck_size"], int)
        for key, body in responses.items():
            text = json.dumps(body)
            assert match.seed not in text and '"fixed": [' not in text and "deck_top" not in text, key
        checked += 1
        _, _, client = client_awaited(accounts, match)
        legal = client.get(f"/api/v1/matches/{match.pk}/legal/").json()
        assert client.post(f"/api/v1/matches/{match.pk}/decisions/", {
            "move_number": legal["move_number"], "decision": rng.choice(legal["decisions"])},
            format="json").status_code == 201
    assert checked > 5 and match.status == MatchStatus.FINISHED
    final = accounts["clients"]["anon"].get(f"/api/v1/matches/{match.pk}/state/").json()
    assert final["over"] and "unknown" not in final["board"] and "result" in final


def test_a_bot_the_game_has_not_is_refused_when_creating_a_match(accounts):
    ids = [accounts["players"][n].pk for n in ("ann", "greedy-1")]
    response = accounts["clients"]["organiser"].post(
        "/api/v1/matches/", {"players": ids, "game": "diamoniak", "club": accounts["club"].pk}, format="json")
    assert response.status_code == 400 and "heuristic, random" in json.dumps(response.json())
    response = accounts["clients"]["organiser"].post(
        "/api/v1/matches/", {"players": ids, "game": "chess", "club": accounts["club"].pk}, format="json")
    assert response.status_code == 400


def test_K_BUY_1_a_new_diamoniak_match_stores_the_corrected_rule_and_a_bad_one_is_refused(accounts):
    """K-BUY-1: a match made over the API pays the seller and stores `buy_pays` explicitly (a stored ruleset
    without it reads as the rule before the correction); a `buy_pays` that is no rule is a 400 creating nothing."""
    ids = [accounts["players"][name].pk for name in SEATS["diamoniak"]]
    organiser = accounts["clients"]["organiser"]
    created = create(accounts, "diamoniak", seed="api/buy-pays")
    assert created.ruleset["buy_pays"] == "seller"
    before = Match.objects.count()
    for bad in ("bank", None, 3, ["seller"]):
        response = organiser.post("/api/v1/matches/", {"players": ids, "game": "diamoniak", "club": accounts["club"].pk,
                                                      "ruleset": {"buy_pays": bad}}, format="json")
        assert response.status_code == 400 and "buy_pays" in json.dumps(response.json()), response.content
    response = organiser.post("/api/v1/matches/", {"players": ids, "game": "diamoniak", "club": accounts["club"].pk,
                                                  "ruleset": {"buy_pays": "discard"}}, format="json")
    assert response.status_code == 201  # an organiser may still choose the old rule, explicitly
    assert Match.objects.get(pk=response.json()["id"]).ruleset["buy_pays"] == "discard"
    assert Match.objects.count() == before + 1
