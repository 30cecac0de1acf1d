"""The drawn Diamonds table (issue 29): the 60 cards drawn once in the page's sprite, every other seat's hand only
backs and a count, the vault's total only on its owner's table, and the steps the page animates and reads out
(web.games.diamonds_steps), which name nothing their reader may not know and are only ever appended to, so that a
page can tell which ones it has not shown yet. The replay draws its frames on the same table."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from engine import Game, Ruleset, SeatView, card_str
from engine.diamonds.bots import make_bot
from league.models import Match, MatchStatus
from league.selectors.live import match_game, public_state, seat_state
from web.games import presenter_for
from web.games.diamonds_cards import sprite, symbol_id
from web.games.diamonds_steps import all_steps
from web.games.diamonds_table import build_table

from .conftest import table_with_bots
from .support import leaked, others_cards, vault_figures

NAMES = ["ann", "bob", "cy", "di", "eve", "fay"]
FOUR = NAMES[:4]


def faces_in(html: str) -> set[str]:
    return set(re.findall(r'<symbol id="(card-[dhsc]\d+)"', html))


def played_game(seed: str, *, players: int = 4, stop=lambda game: False, **rules) -> Game:
    """A game of greedy bots from its start, stopped as soon as `stop(game)` holds (or at its end)."""
    game = Game(Ruleset(players=players, rounds=rules.pop("rounds", 1), **rules), seed, NAMES[:players])
    bots = [make_bot("greedy", seed=f"{seed}/{s}") for s in range(players)]
    while not game.over and not stop(game):
        seat = game.pending.seats[0]
        game.apply(seat, bots[seat].decide(SeatView(game, seat)))
    return game


def test_the_sprite_draws_all_60_cards_each_with_its_suits_shape_and_letter():
    with translation.override("en"):
        english = str(sprite())
    with translation.override("fr"):
        french = str(sprite())
    codes = [card_str(s * 16 + r) for s in range(4) for r in range(1, 16)]
    assert faces_in(english) == {symbol_id(c) for c in codes} and len(faces_in(english)) == 60
    for code in codes:  # each face: its rank, and its suit's pips (shape and letter), not colour alone
        face = re.search(rf'<symbol id="{symbol_id(code)}".*?</symbol>', english).group(0)
        assert f'href="#pips-{code[0].lower()}"' in face and f">{int(code[1:])}</text>" in face
    for suit, letter in zip("dhsc", "DHSC"):
        pips = re.search(rf'<symbol id="pips-{suit}".*?</symbol>', english).group(0)
        assert f'href="#suit-{suit}"' in pips and f">{letter}</text>" in pips
    shapes = re.findall(r'<symbol id="suit-[dhsc]" viewBox="0 0 20 20">(.*?)</symbol>', english)
    assert len(set(shapes)) == 4  # four different outlines
    assert ">Ca</text>" in french and ">T</text>" in french  # carreau, trèfle: the reader's letters
    # The sprite names no card: no code, no spoken name (a card someone holds is a reference to it, elsewhere).
    assert leaked(english, codes) == []


@pytest.mark.django_db(transaction=True)
def test_a_seat_sees_its_own_hand_drawn_the_others_as_backs_and_counts_and_only_its_own_vault(client, site):
    match = table_with_bots(site["ann"], site["bots"], seed="drawn-1")
    client.force_login(site["ann"].user)
    html = client.get(reverse("web:match", args=[match.pk])).content.decode()
    game = match_game(match)
    state = seat_state(game, 0)
    assert len(faces_in(html)) == 60  # the page's sprite
    for code in state["hand"]:  # her hand, drawn: one button (or box) per card, showing its face
        assert re.search(rf'value="{code}"[^>]*>(<[^>]+>)*?<svg class="cardsvg[^"]*"[^>]*><use href="#'
                         rf'{symbol_id(code)}"/>', html), code
    assert leaked(html, others_cards(match, 0)) == []
    for seat in (1, 2, 3):  # the others: backs, and the count in words
        box = re.search(rf'<section class="dseat[^"]*" data-seat="{seat}".*?</section>', html, flags=re.S).group(0)
        count = len(game.hands[seat])
        assert 'href="#card-back"' in box and f'aria-label="{count} cards in hand"' in box
        assert not re.search(r'href="#card-[dhsc]\d+"', box)
    assert vault_figures(html) == {0: str(state["vault"]), 1: "?", 2: "?", 3: "?"}
    assert "Vault: closed, secret until the game ends" in html

    # A spectator: backs for every seat, no vault, no hand, no form.
    client.force_login(site["bob"].user)
    html = client.get(reverse("web:match", args=[match.pk])).content.decode()
    assert leaked(html, others_cards(match, -1)) == [] and "cardbutton" not in html and 'name="cards"' not in html
    assert html.count('href="#card-back"') >= 4 and vault_figures(html) == {s: "?" for s in range(4)}
    live = client.get(reverse("web:match-live", args=[match.pk])).json()
    assert vault_figures(live["html"]) == {s: "?" for s in range(4)}


@pytest.mark.django_db
def test_a_finished_table_shows_every_vault(client, site):
    match = Match.objects.filter(status=MatchStatus.FINISHED, game="diamonds").first()
    html = client.get(reverse("web:match", args=[match.pk])).content.decode()
    vaults = match_game(match).vault
    assert vault_figures(html) == {s: str(vaults[s]) for s in range(4)}


def test_the_steps_are_only_ever_appended_to_and_name_every_card_played():
    """At every decision of a game, for every seat and a spectator, the steps so far are the earlier steps and
    more: a page that showed step N animates the steps after N, however many one update brings."""
    game = Game(Ruleset(players=4, rounds=2, clubs="choose"), "steps-1", FOUR)
    bots = [make_bot("greedy", seed=f"steps/{s}") for s in range(4)]
    earlier: dict[int | None, list[tuple]] = {}
    while not game.over:
        seat = game.pending.seats[0]
        game.apply(seat, bots[seat].decide(SeatView(game, seat)))
        views = {s: SeatView(game, s).to_dict() for s in range(4)}
        views[None] = public_state(game)
        for reader, view in views.items():
            steps = [(s["seq"], s["kind"], s.get("seat"), s.get("card")) for s in all_steps(view, FOUR)]
            assert [s[0] for s in steps] == list(range(1, len(steps) + 1))
            before = earlier.get(reader, [])
            # (the pass step of a round in play knows the reader's own cards only for this round: its kind stays)
            assert [(s[0], s[1], s[3]) for s in steps[:len(before)]] == [(s[0], s[1], s[3]) for s in before]
            earlier[reader] = steps
    plays = [s for s in all_steps(public_state(game), FOUR) if s["kind"] == "play"]
    assert [s["card"] for s in plays] == [p["card"] for r in public_state(game)["rounds"] for t in r["tricks"]
                                          for p in t["plays"]]


def test_a_spectators_steps_name_no_passed_card_and_a_seats_only_its_own():
    game = played_game("steps-2", stop=lambda g: g.phase == "play" and g.trick_index == 1)
    passes = [game.passed_by(s) for s in range(4)]
    spectator = [s for s in all_steps(public_state(game), FOUR) if s["kind"] == "pass"]
    assert spectator and all("gave" not in s and "got" not in s for s in spectator)
    for seat in range(4):
        step = next(s for s in all_steps(SeatView(game, seat).to_dict(), FOUR) if s["kind"] == "pass")
        assert step["gave"] == [card_str(c) for c in passes[seat]]
        assert step["got"] == [card_str(c) for c in passes[(seat - 1) % 4]]
        assert step["to"] == (seat + 1) % 4 and step["giver"] == (seat - 1) % 4


def test_the_steps_say_what_happened_in_words_in_the_readers_language():
    game = played_game("steps-3", stop=lambda g: len(g.events) >= 12)
    steps = all_steps(SeatView(game, 0).to_dict(), FOUR)
    play = next(s for s in steps if s["kind"] == "play" and s["seat"] != 0)
    rank, suit = int(play["card"][1:]), {"D": "diamonds", "H": "hearts", "S": "spades", "C": "clubs"}[play["card"][0]]
    assert play["text"] == f"{NAMES[play['seat']]} played the {rank} of {suit}."
    trick = next(s for s in steps if s["kind"] == "trick")
    assert trick["text"] in ("You won the trick.", f"{NAMES[trick['seat']]} won the trick.")
    actions = [s for s in steps if s["kind"] == "action"]
    assert actions and all(("crystal" in s["text"]) == bool(s["moved"]) for s in actions)
    assert all("vault" not in s["text"] or "into the vault" in s["text"] for s in actions)  # where to, not how many
    with translation.override("fr"):
        french = all_steps(SeatView(game, 0).to_dict(), FOUR)
    assert next(s for s in french if s["seq"] == play["seq"])["text"].startswith(f"{NAMES[play['seat']]} a joué")


def test_the_table_places_the_viewer_at_the_bottom_and_the_next_seat_on_the_left():
    game = played_game("seats-1", stop=lambda g: g.phase == "play" and g.trick_index == 2)
    table = build_table(SeatView(game, 2).to_dict(), FOUR)
    assert [s.slot for s in table.felt.seats] == ["t", "r", "b", "l"]  # seat 3 passes to... the next, on her left
    assert all(p["slot"] == table.felt.seats[p["seat"]].slot for p in table.felt.trick)
    assert table.last_seq == table.steps[-1]["seq"] and len(table.steps) <= 24
    six = build_table(SeatView(played_game("seats-2", players=6, stop=lambda g: True), 0).to_dict(), NAMES)
    assert [s.slot for s in six.felt.seats] == ["b", "l", "tl", "t", "tr", "r"]


def test_the_replay_draws_each_step_on_the_table(client):
    game = played_game("replay-felt")
    from engine import to_record

    record = to_record(game)
    frames = presenter_for("diamonds").replay_frames(record)
    trick = next(f for f in frames if f.trick)
    felt = trick.felt
    assert [s.slot for s in felt.seats] == ["b", "l", "t", "r"] and felt.trick_done
    assert felt.winner_slot == next(s.slot for s in felt.seats if s.name == trick.winner)
    assert [p["card"] for p in felt.trick] == [p["card"] for p in trick.trick]
    assert [s.faces for s in felt.seats] == trick.hands  # every hand face up (a finished game's record)
    assert all(s.vault is not None for s in felt.seats)  # a finished game's vaults are public


@pytest.mark.parametrize("seed, rules", [("replay-steps-1", {"players": 4, "rounds": 4}),
                                         ("replay-steps-2", {"players": 3, "rounds": 2}),
                                         ("replay-steps-3", {"players": 4, "rounds": 2, "partnerships": True}),
                                         ("replay-steps-4", {"players": 2, "rounds": 1})])
def test_the_replays_frames_carry_the_game_told_once_each_trick_in_its_frame(seed, rules):
    """Each replay frame carries the steps since the frame before (what the page moves and reads out): together,
    the whole game as a spectator of the live table was told it, each step once; a trick's frame holds its cards."""
    from engine.diamonds.record import to_record

    record = to_record(played_game(seed, **rules))
    frames = presenter_for("diamonds").replay_frames(record)
    told = all_steps({"seat": None, "ruleset": record["ruleset"], "seats": record["seats"],
                      "rounds": record["rounds"]}, list(record["seats"]))
    assert [(s["kind"], s["text"]) for f in frames for s in f.steps] == [(s["kind"], s["text"]) for s in told]
    for frame in frames:
        if frame.trick:
            assert [s["card"] for s in frame.steps if s["kind"] == "play"] == [p["card"] for p in frame.trick]
