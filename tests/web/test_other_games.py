"""The live table, play by clicking and the replay of Diamoniak and the ring race: each game in its own terms, the
buttons exactly the seat's legal decisions (posted as the game's decision JSON), refusals named by the rule, and
nothing on the page that no seat may know before the end (Diamoniak's draw pile order; the ring race's deck order
and which untried positions are loose or fixed)."""

from __future__ import annotations

import json
import re
from html import escape

import pytest
from django.urls import reverse

from engine.diamoniak.rules import card_name as diamoniak_card
from engine.ringrace.rules import POSITIONS
from engine.ringrace.rules import card_name as ringrace_card
from league.models import Match, MatchStatus
from league.selectors.live import match_game, seat_state
from league.services import create_bot_player, create_match
from league.services.decisions import start_live_match

from .support import every_replay_page

pytestmark = pytest.mark.django_db(transaction=True)


def table_of(person, game: str, *, seed: str, players: int = 4, **ruleset) -> Match:
    """A started match of `game`: the person at seat 0, heuristic bots after; the bots have played to the person."""
    bots = [create_bot_player(name=f"{game}-bot-{i}", kind="heuristic") for i in range(1, players)]
    match = create_match(players=[person, *bots], ruleset={"players": players, **ruleset}, seed=seed, game=game)
    start_live_match(match=match)
    match.refresh_from_db()
    return match


def page(client, match) -> str:
    return client.get(reverse("web:match", args=[match.pk])).content.decode()


def decide(client, match, move_number, decision):
    return client.post(reverse("web:match-decide", args=[match.pk]),
                       {"move_number": move_number, "decision": json.dumps(decision)}, HTTP_ACCEPT="application/json")


def button_values(html: str) -> list[dict]:
    """The decision JSON of every decision button on the page."""
    return [json.loads(v.replace("&quot;", '"')) for v in re.findall(r'name="decision" value="([^"]*)"', html)]


def board_cells(html: str) -> list[str]:
    """The state the ring race's board shows at each position, in position order."""
    return re.findall(r'<li class="rr-pos pos-\d+ cell-(\w+)', html)


def board_cell_html(html: str) -> list[str]:
    """Each position's whole drawing on the board."""
    return re.findall(r'(<li class="rr-pos .*?</li>)', html)


def named(html: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", html) is not None


def now(match) -> Match:
    return Match.objects.get(pk=match.pk)


def test_diamoniak_table_as_a_seat_and_as_a_spectator(client, site):
    match = table_of(site["ann"], "diamoniak", seed="dk-page-1")
    game = match_game(now(match))
    state = seat_state(game, 0)
    assert state["my_turn"] and game.reshuffles == 0
    client.force_login(site["ann"].user)
    html = page(client, match)
    assert "Diamoniak" in html and "draw pile" in html and "discard pile" in html and "witch" in html
    assert f"draw pile <strong>{len(game.draw_pile)}</strong>" in html
    assert "paid to the seller" in html and "paid to the discard pile" not in html  # K-BUY-1 as corrected
    for s in range(4):
        for card in state["castles"][s] + [c for c in state["sides"][s] if not c.startswith("diamond")]:
            assert named(html, card)  # castles and side piles lie face up
    assert sorted(map(json.dumps, button_values(html))) == sorted(map(json.dumps, state["legal"]))
    # The draw pile's cards have never been seen (no reshuffle yet): none is named anywhere on the page.
    assert [c for c in map(diamoniak_card, game.draw_pile) if named(html, c)] == []
    client.force_login(site["bob"].user)  # a spectator
    html = page(client, match)
    assert button_values(html) == [] and 'class="decision"' not in html
    assert [c for c in map(diamoniak_card, game.draw_pile) if named(html, c)] == []
    assert "dk-page-1" not in html  # the seed decides the draw pile


def test_ring_race_table_hides_the_board_and_the_deck(client, site):
    match = table_of(site["ann"], "ringrace", seed="rr-page-1")
    game = match_game(now(match))
    state = seat_state(game, 0)
    assert state["my_turn"] and state["pending"]["kind"] == "try"
    hidden = [p for p in range(POSITIONS) if game.on_board[p] and p not in game.revealed]
    assert any(p in game.fixed for p in hidden) and any(p not in game.fixed for p in hidden)
    for viewer in (site["ann"], site["bob"]):
        client.force_login(viewer.user)
        html = page(client, match)
        assert "ring-card diamond race" in html and "deck <strong>" in html
        cells = board_cells(html)
        assert len(cells) == POSITIONS and "loose" not in cells and "under-" not in html
        # Every position still holding an unseen diamond looks the same, loose or fixed: its drawing differs from
        # another's only by its number.
        assert all(cells[p] == "untried" for p in hidden)
        drawn = {re.sub(r"\d+", "#", cell) for p, cell in enumerate(board_cell_html(html)) if p in hidden}
        assert len(drawn) == 1, drawn
        assert [p for p in game.revealed if game.on_board[p]] == [p for p, c in enumerate(cells) if c == "fixed"]
        assert [c for c in map(ringrace_card, game.deck) if named(html, c)] == []
        assert "rr-page-1" not in html
        live = client.get(reverse("web:match-live", args=[match.pk]), {"move": -1, "status": ""}).json()
        assert board_cells(live["html"]) == cells  # what the page polls, the same
        assert live["move_number"] == game.move_number
    client.force_login(site["ann"].user)
    html = page(client, match)
    assert sorted(d["position"] for d in button_values(html)) == [p for p in range(POSITIONS) if game.on_board[p]]
    assert f"You drew {state['card']}" in html


@pytest.mark.parametrize("game, refused, rule", [
    ("diamoniak", {"kind": "stop"}, "K-TURN-1"),  # a drawing player must draw at least once
    ("ringrace", {"kind": "try", "position": POSITIONS}, "G-RING-1"),  # there is no such position
])
def test_clicking_posts_a_legal_decision_and_a_refusal_names_the_rule(client, site, game, refused, rule):
    match = table_of(site["ann"], game, seed=f"{game}-click-1")
    client.force_login(site["ann"].user)
    state = seat_state(match_game(now(match)), 0)
    response = decide(client, match, state["move_number"], refused)
    assert response.status_code == 400 and rule in response.json()["detail"]
    assert now(match).move_number == state["move_number"]
    # Without the script the refusal comes back on the page.
    response = client.post(reverse("web:match-decide", args=[match.pk]),
                           {"move_number": state["move_number"], "decision": json.dumps(refused)}, follow=True)
    assert rule in response.content.decode()
    legal = button_values(page(client, match))[0]
    assert decide(client, match, state["move_number"], legal).status_code == 201
    assert now(match).move_number > state["move_number"]
    stale = decide(client, match, state["move_number"], legal)
    assert stale.status_code == 409


@pytest.mark.parametrize("game, players, ruleset", [("diamoniak", 2, {"max_turns": 24}), ("ringrace", 3, {})])
def test_a_whole_game_by_clicking_then_its_result_and_replay(client, site, game, players, ruleset):
    match = table_of(site["ann"], game, seed=f"{game}-whole-1", players=players, **ruleset)
    client.force_login(site["ann"].user)
    for _ in range(400):
        match = now(match)
        if match.status != MatchStatus.RUNNING:
            break
        html = page(client, match)
        move = int(re.search(r'data-move="(\d+)"', html).group(1))
        choices = button_values(html)
        assert choices, "the bots play at once: the match waits only for ann"
        assert decide(client, match, move, choices[-1]).status_code == 201
    match = now(match)
    assert match.status == MatchStatus.FINISHED
    html = page(client, match)
    assert "Final result" in html and "★ winner" in html and 'class="decision"' not in html
    kind_labels = {"diamoniak": ("Castle cards", "Diamond cards"), "ringrace": ("Dollars", "Set rings")}[game]
    assert all(f'<th scope="col">{label}</th>' in html for label in kind_labels)
    for row in match.match_seats.select_related("player"):
        assert row.player.name in html and row.score is not None
    final = seat_state(match_game(match), 0)
    if game == "ringrace":  # over: the board is revealed
        cells = board_cells(html)
        assert [c for c in cells if c in ("loose", "fixed")] and "untried" not in cells
    replay = "".join(every_replay_page(client, reverse("web:match-replay", args=[match.pk])))
    # One step per turn after the start, in order; the game's last turn may be cut short by its end (K-WIN-1).
    turns = [int(t) for t in re.findall(r"<h2>Turn (\d+): ", replay)]
    assert turns == list(range(1, len(turns) + 1)) and final["turn"] <= len(turns) <= final["turn"] + 1
    assert replay.count('class="frame"') == 1 + len(turns)
    assert "The start" in replay and "the game ends" in replay


def test_the_pages_name_the_game_and_its_labels(client, site):
    match = table_of(site["ann"], "ringrace", seed="rr-lists-1", players=2)
    client.force_login(site["ann"].user)
    for _ in range(100):
        match = now(match)
        if match.status != MatchStatus.RUNNING:
            break
        html = page(client, match)
        move = int(re.search(r'data-move="(\d+)"', html).group(1))
        decide(client, match, move, button_values(html)[0])
    winner = match.match_seats.get(is_winner=True)
    html = client.get(reverse("web:player", args=[site["ann"].pk])).content.decode()
    assert "The ring-card diamond race" in html and "dollars" in html and "set rings" in html
    html = client.get("/").content.decode()
    assert escape(f"(won, dollars {winner.score})") in html


def test_play_against_bots_lets_the_visitor_choose_the_game(client, site):
    client.force_login(site["ann"].user)
    html = client.get(reverse("web:play-bots")).content.decode()
    assert all(title in html for title in ("Diamonds", "Diamoniak", "The ring-card diamond race"))
    response = client.post(reverse("web:play-bots"), {"game": "ringrace", "bots": "greedy"})
    assert response.status_code == 400 and "has no greedy bot" in response.content.decode()
    response = client.post(reverse("web:play-bots"), {"game": "diamoniak", "seed": "pick-1"})
    match = Match.objects.order_by("-pk").first()
    assert response["Location"] == reverse("web:match", args=[match.pk])
    assert match.game == "diamoniak" and match.ruleset["players"] == 4
    seats = list(match.match_seats.order_by("seat").select_related("player"))
    assert seats[0].player == site["ann"] and [s.player.bot_kind for s in seats[1:]] == ["heuristic"] * 3
    assert "Diamoniak" in page(client, match)


def test_tournament_and_ladder_pages_of_other_games(client, site):
    """A Diamoniak tournament (in a season with a Diamonds one) and a ring-race ladder played by bots: the pages name
    the game, and the tables' results and the standings use the game's own score and tie-break."""
    from league.services import create_tournament, join_ladder, register_players, start_tournament
    from league.services.ladders import create_ladder, seat_ladder_tables

    bots = [create_bot_player(name=f"other-bot-{i}", kind="heuristic" if i % 2 else "random") for i in range(4)]
    tournament = create_tournament(name="Castle Cup", rounds=1, game="diamoniak", ruleset={}, club=site["club"],
                                   season=site["season"], seed="web-dk-cup")
    register_players(tournament=tournament, players=bots)
    start_tournament(tournament=tournament)
    html = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    assert "Diamoniak" in html and "castle cards" in html and "diamond cards" in html and "vault" not in html
    match = Match.objects.get(tournament_round__tournament=tournament)
    assert match.status == MatchStatus.FINISHED and match.game == "diamoniak"
    for seat in match.match_seats.all():
        assert f"castle cards {seat.score} (diamond cards {seat.tiebreak})" in html
    # The season now has a Diamonds and a Diamoniak tournament: a standings table for each game, never one sum.
    html = client.get(reverse("web:season", args=[site["season"].pk])).content.decode()
    assert "<h3>Diamonds</h3>" in html and "<h3>Diamoniak</h3>" in html and html.count("<table") == 2
    ladder = create_ladder(name="Ring Ladder", game="ringrace", table_size=4, club=site["club"])
    join_ladder(ladder=ladder, players=bots)
    seat_ladder_tables(ladder=ladder, seed="web-rr-ladder")
    html = client.get(reverse("web:ladder", args=[ladder.pk])).content.decode()
    assert "The ring-card diamond race · tables of 4" in html and "dollars" in html
    assert client.get(reverse("web:match-replay", args=[ladder.matches.first().pk])).status_code == 200
