"""engine.common.compact: a game's choices in a few bytes, as the league stores them. Property tests over random games
of every game and variant: the encoding reads back to the same choices, and those replay to the same record, from
any point of the game and split into any steps; and bytes that are not an encoding are refused, never misread."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.common.compact import EncodingError
from engine.games import game_type

from .games_support import random_games_settings
from .support import ALL_RULESETS

VARIANTS = {
    **{f"diamonds/{name}": ("diamonds", ruleset.to_dict()) for name, ruleset in ALL_RULESETS.items()},
    **{f"diamoniak/{n}p/{pays}": ("diamoniak", {"players": n, "buy_pays": pays})
       for n in (2, 3, 4) for pays in ("seller", "discard")},
    "diamoniak/3p/short": ("diamoniak", {"players": 3, "max_turns": 12}),
    **{f"ringrace/{n}p/{'debts' if debts else 'plain'}": ("ringrace", {"players": n, "debts": debts})
       for n in (2, 3, 4, 5, 6) for debts in (False, True)},
}


def random_game(game_name: str, ruleset: dict, seed: int, stop: int | None):
    kind = game_type(game_name)
    game = kind.new_game(ruleset, f"compact-{seed}")
    bots = [kind.make_bot("random", seed=f"{seed}/{s}") for s in range(game.n)]
    made = 0
    while game.pending is not None and (stop is None or made < stop):
        seat = game.pending.seats[0]
        game.apply(seat, bots[seat].decide(kind.view(game, seat)))
        made += 1
    return game


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@random_games_settings(15)
@given(seed=st.integers(0, 2**40), stop=st.none() | st.integers(0, 400), cut=st.floats(0, 1))
def test_the_encoding_round_trips_and_replays_to_the_same_record(variant, seed, stop, cut):
    game_name, ruleset = VARIANTS[variant]
    kind = game_type(game_name)
    game = random_game(game_name, ruleset, seed, stop)
    choices = list(game.choices)
    assert len(choices) == game.move_number  # every decision is a stored choice
    blob = kind.codec.encode(choices)
    assert kind.codec.decode(blob) == choices
    # Stored in two steps (a match in play): read back in order, they are the same choices.
    k = int(cut * len(choices))
    assert kind.codec.decode_all([kind.codec.encode(choices[:k]), kind.codec.encode(choices[k:])]) == choices
    replayed = kind.new_game(kind.stored_ruleset(game.ruleset.to_dict()), game.seed, game.seats,
                             first_seat=kind.first_seat_of(game))
    for seat, decision in kind.codec.decode(blob):
        replayed.apply(seat, decision)
    assert kind.to_record(replayed) == kind.to_record(game)
    # Small: under 3 bytes a choice on average, a few hundred bytes a whole game.
    assert len(blob) <= 1 + 3 * len(choices) + 2 * sum(1 for _, d in choices if isinstance(d.value, tuple))


@pytest.mark.parametrize("game_name", ["diamonds", "diamoniak", "ringrace"])
@random_games_settings(60)
@given(data=st.binary(max_size=64))
def test_bytes_that_are_not_an_encoding_are_refused_or_read_as_choices_the_referee_then_checks(game_name, data):
    codec = game_type(game_name).codec
    try:
        choices = codec.decode(data)
    except EncodingError:
        return
    # What did read is choices of this game's kinds, which encode back to the same bytes.
    assert all(isinstance(seat, int) and 0 <= seat < 16 for seat, _ in choices)
    assert codec.encode(choices) == (bytes(data) if choices else b"")


def test_a_truncated_or_unknown_blob_is_refused():
    kind = game_type("diamonds")
    game = random_game("diamonds", {"players": 4}, 7, None)
    blob = kind.codec.encode(game.choices)
    with pytest.raises(EncodingError, match="ends inside a choice"):
        kind.codec.decode(blob[:-1] + b"\x80")
    with pytest.raises(EncodingError, match="unknown encoding version"):
        kind.codec.decode(b"\x02" + blob[1:])
    with pytest.raises(EncodingError, match="unknown kind code"):
        kind.codec.decode(b"\x01\x0f")
    assert kind.codec.decode(b"") == [] and kind.codec.encode([]) == b""
