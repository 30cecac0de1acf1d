"""Seeded Diamoniak and ring race games play exactly as they did: same records, same stored bytes, same bot choices.

The league replays a match from its seed and its stored choices, and reseeds a bot from the match and the move, so a
change to the referee, the bots or the codec that played a seeded game differently would make stored matches read as
other games and resumed matches play on differently. Each digest below covers a few seeded games of one variant,
played by the random bots, by the heuristic bots and by both, the way the league's workers play them (a decision the
rules leave to one option is applied without a bot, and a bot is reseeded before each decision it makes): every
record (choices, events, result) and every game's choices as the codec stores them.

The digests were taken from the engine before it was made faster (the commit before this test). A digest that no
longer matches means seeded games play differently: if that is meant (a rule corrected, a bot changed), stored
matches need a ruleset field that keeps the old play (engine.common.ruleset_dict), and the digest is taken anew.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from engine.games import game_type

VARIANTS = {
    **{f"diamoniak/{n}p/{pays}": ("diamoniak", {"players": n, "buy_pays": pays})
       for n in (2, 3, 4) for pays in ("seller", "discard")},
    "diamoniak/3p/short": ("diamoniak", {"players": 3, "max_turns": 12}),
    **{f"ringrace/{n}p/{'debts' if debts else 'plain'}": ("ringrace", {"players": n, "debts": debts})
       for n in (2, 3, 4, 5, 6) for debts in (False, True)},
}

PINNED = {
    "diamoniak/2p/discard": "581468f798c3306891c0f4bd197f0b31b66484e599e6869ba5fd6b4ce10270a5",
    "diamoniak/2p/seller": "a68197b35118ca1e4cc02625671291d20fbcb21d838268eb4a4703e23bc70d35",
    "diamoniak/3p/discard": "8896d0d40dc99b16a43e9680a17da19da7eeb3ac10b2e91af6d7206e5578c653",
    "diamoniak/3p/seller": "f1f6c87e162af8c0e9b439ce2c72d1de56b9c87f6c4f67e1e4556cf1611c516e",
    "diamoniak/3p/short": "fb1eed606d26e66f8f63b98a16a7c2a4893f42b25e22b136ee9cf5cc66eb4c71",
    "diamoniak/4p/discard": "780a388c75e343862303e5d3361a80fd914fdfd146e8aebffa15c8309c3fdd42",
    "diamoniak/4p/seller": "8e7caf5c44418bd40f0b4cd38e571b4637712e4a6ee3c8ccc298d45d8b036300",
    "ringrace/2p/debts": "3ae9e2a89b869a1decc37bd3648615157d0fe902e4c557dcaa377fecec52fdde",
    "ringrace/2p/plain": "d73a5169b62c44e6cea3a2fb2fe53c30c1a6dcbea959f18c39ca8a59c58234ec",
    "ringrace/3p/debts": "8f8430b4790046ac23f626e7b68bbb64e563b8bdc879096f82ee2723b3a15309",
    "ringrace/3p/plain": "89d57035e980d4cafbe8bd849876f79d7ebfec0618f19c50fc4ee0a61b456a2d",
    "ringrace/4p/debts": "a4d25095468c48818bcb664d3c9ff93193808f990e478a223a67c9d72fe55dd2",
    "ringrace/4p/plain": "1d736d78c8fb9bd9a3fc45619b58707290ca732e0c815ed54f10b8ee218e0f0e",
    "ringrace/5p/debts": "daa0b7b5778064bc350748b3faa601e128932143dd049754bcbe439b46f81130",
    "ringrace/5p/plain": "eecf66937fd878f1832150ff0a3e77cadb00f64329e381ff155811db384f097d",
    "ringrace/6p/debts": "71f5d0ebd9ff7370938bffef2949e489f0ad7cc87c0ec9bfcad2250cc0073b65",
    "ringrace/6p/plain": "71860f94bc59ded7753dab9945419e7795e4739a4c1684128e842a38f441b855",
}


def play_as_a_worker(game_name: str, ruleset: dict, seed: int, bot_names: list[str]):
    kind = game_type(game_name)
    game = kind.new_game(ruleset, f"pinned/{game_name}/{seed}")
    bots = [kind.make_bot(name, seed=0) for name in bot_names]
    while (pending := game.pending) is not None:
        seat = pending.seats[0]
        options = game.legal(seat)
        if len(options) == 1:
            game.apply(seat, options[0])
            continue
        bots[seat].rng.seed(f"{seed}/seat-{seat}/move-{game.move_number}")
        game.apply(seat, bots[seat].decide(kind.view(game, seat)))
    return game


def digest(variant: str) -> str:
    game_name, ruleset = VARIANTS[variant]
    kind = game_type(game_name)
    players = ruleset["players"]
    lineups = [["random"] * players, ["heuristic"] * players,
               [("random", "heuristic")[s % 2] for s in range(players)]]
    played = hashlib.sha256()
    for seed in range(3):
        for lineup in lineups:
            game = play_as_a_worker(game_name, ruleset, seed, lineup)
            played.update(json.dumps(kind.to_record(game), sort_keys=True).encode())
            played.update(kind.codec.encode(game.choices))
    return played.hexdigest()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_seeded_games_play_as_they_did(variant):
    assert digest(variant) == PINNED[variant]


# Diamonds, played the same way by its random, greedy and search bots (every rule variant; the search bot with few
# playouts). Taken from the engine before issue 30 made it faster (d696ea6), on the pure-Python path: both paths of
# the faster engine must still play these games byte for byte.
DIAMONDS_VARIANTS = {
    "diamonds/2p": {"players": 2}, "diamonds/3p/perfect": {"players": 3, "perfect": True},
    "diamonds/4p": {"players": 4}, "diamonds/4p/partners": {"players": 4, "partnerships": True},
    "diamonds/4p/choose": {"players": 4, "clubs": "choose"},
    "diamonds/5p/choose": {"players": 5, "clubs": "choose", "rounds": 2},
    "diamonds/6p": {"players": 6, "rounds": 2},
    "diamonds/6p/partners": {"players": 6, "partnerships": True, "rounds": 2},
}

DIAMONDS_PINNED = {
    "diamonds/2p": "8910e90ac21fd4c437be66590b87d7153097d46a6b4f6d9d5903c81d9659ddc5",
    "diamonds/3p/perfect": "88dcb2e829464caf7b61cfea18fdb6a131d427b4dffdbe63a94e8ac9c0ac339d",
    "diamonds/4p": "2766aeea52aa76c9787ec76c3fd37b70488c268730ab52df9d55ecc73e0598ec",
    "diamonds/4p/partners": "d69f3691ac880c7a4be18ac80949037b532514ce3730a3a148a53d00517b4e0a",
    "diamonds/4p/choose": "1b427a354ed6c4ed2e0699881667b46c43827ec6f720b45d575abd109618729e",
    "diamonds/5p/choose": "b40631360fdb9bb9ba4b5d1295d2250d6a8a57891945c4526a1b13f89941c6cc",
    "diamonds/6p": "20a1cc58892bf9219fe8c5973cd7d233edd1d475b37395919866261710d96df5",
    "diamonds/6p/partners": "ddb167c9706aa52afc42a566dd84eb22a2d5c72fba32faaffedd75cd4d9e6470",
}


def play_diamonds_as_a_worker(ruleset: dict, seed: int, bot_names: list[str]):
    kind = game_type("diamonds")
    game = kind.new_game(ruleset, f"pinned/diamonds/{seed}")
    bots = [kind.make_bot(name, seed=0, **({"playouts": 24} if name == "search" else {})) for name in bot_names]
    while (pending := game.pending) is not None:
        seat = pending.seats[0]
        options = game.legal(seat)
        if len(options) == 1 and pending.kind == "clubs_target":
            game.choose_clubs_target(seat, options[0])
            continue
        bots[seat].rng.seed(f"{seed}/seat-{seat}/move-{game.move_number}")
        game.apply(seat, bots[seat].decide(kind.view(game, seat)))
    return game


def diamonds_digest(variant: str) -> str:
    kind = game_type("diamonds")
    ruleset = DIAMONDS_VARIANTS[variant]
    players = ruleset["players"]
    mixed = [("random", "greedy", "search")[s % 3] for s in range(players)]
    lineups = [["random"] * players, ["greedy"] * players, mixed]
    played = hashlib.sha256()
    for seed in range(2):
        for lineup in lineups:
            game = play_diamonds_as_a_worker(ruleset, seed, lineup)
            played.update(json.dumps(kind.to_record(game), sort_keys=True).encode())
            played.update(kind.codec.encode(game.choices))
    return played.hexdigest()


@pytest.mark.parametrize("variant", sorted(DIAMONDS_VARIANTS))
def test_seeded_diamonds_games_play_as_they_did(variant):
    assert diamonds_digest(variant) == DIAMONDS_PINNED[variant]
