"""The migration to compact storage (league/migrations/0020_compact_play.py) on a database holding matches of all
three games in the old rows: finished, in play (mid-pass, mid-trick), with a corrected result, with hands the seed
does not deal, offline and pending. Every match re-derives after it to the record the engine gives for the game its
old rows held; matches in play play on; and going back rebuilds the old rows as they were."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from engine.diamonds.cards import SUITS, card_str
from engine.games import game_type
from league.scheduling.duplicate import rotated_deals

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("league", "0019_comparisons")]
AFTER = [("league", "0020_compact_play")]


def _latest():
    """The newest migration of every app: the checks after 0020 read matches through today's models and selectors,
    which expect every column added since (the clocks of 0029, ...)."""
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _played(game_name: str, ruleset: dict, seed: str, stop_after: int | None = None, deals=None):
    """A game of `game_name` played by random bots, to its end or for `stop_after` decisions."""
    kind = game_type(game_name)
    rs = kind.make_ruleset(ruleset)
    game = kind.game(rs, seed, deals=deals) if deals else kind.new_game(rs, seed)
    bots = [kind.make_bot("random", seed=f"{seed}/{s}") for s in range(rs.players)]
    made = 0
    while not game.over and (stop_after is None or made < stop_after):
        seat = game.pending.seats[0]
        game.apply(seat, bots[seat].decide(kind.view(game, seat)))
        made += 1
    return game


def _old_rows(apps, match, game) -> None:
    """The rows the old storage held for `game` (as league.services.progress wrote them before 0020)."""
    if match.game != "diamonds":
        apps.get_model("league", "MatchChoice").objects.bulk_create(
            apps.get_model("league", "MatchChoice")(match=match, index=i, seat=seat, decision=d.to_json())
            for i, (seat, d) in enumerate(game.choices))
        return
    for index, log in enumerate(game.rounds):
        if log.passes is not None:
            passes = [[card_str(c) for c in p] for p in log.passes]
        elif index == game.round and any(game.passed_by(s) is not None for s in range(game.n)):
            passes = [None if game.passed_by(s) is None else [card_str(c) for c in game.passed_by(s)]
                      for s in range(game.n)]
        else:
            passes = None
        apps.get_model("league", "MatchRound").objects.create(
            match=match, index=index, dealer=log.dealer, hands=[[card_str(c) for c in h] for h in log.hands],
            pass_count=log.pass_count, passes=passes, clubs_targets=list(log.clubs_targets))
        for j, t in enumerate(log.tricks):
            if t.plays:
                apps.get_model("league", "Trick").objects.create(
                    match=match, round=index, index=j, leader=t.leader, winner=t.winner,
                    plays=[{"seat": p.seat, "card": card_str(p.card)} for p in t.plays])
        for k, a in enumerate(log.actions):
            apps.get_model("league", "SuitAction").objects.create(
                match=match, round=index, sequence=k, trick=a.trick, seat=a.seat, suit=SUITS[a.suit], cause=a.cause,
                target=a.target, moved=a.moved)


def _expected_record(match_game: str, game, result) -> dict:
    """What the league served for the match before the migration: the engine's record of its game (a Diamonds
    record without the trick just led to, and with the match's stored result, corrected or not)."""
    record = game_type(match_game).to_record(game)
    if match_game == "diamonds":
        for r in record["rounds"]:
            r["tricks"] = [t for t in r["tricks"] if t["plays"]]
        record.pop("result", None)
        if result is not None:
            record["result"] = result
    return record


CASES = [
    # name, game, ruleset, stop after (None: finished), given deals, corrected result
    ("diamonds-4p", "diamonds", {"players": 4}, None, False, False),
    ("diamonds-6p-partners", "diamonds", {"players": 6, "partnerships": True}, None, False, False),
    ("diamonds-3p-choose-corrected", "diamonds", {"players": 3, "clubs": "choose"}, None, False, True),
    ("diamonds-mid-pass", "diamonds", {"players": 4}, 3, False, False),
    ("diamonds-mid-trick", "diamonds", {"players": 5, "clubs": "choose"}, 57, False, False),
    ("diamonds-given-deals", "diamonds", {"players": 4}, None, True, False),
    ("diamoniak-3p", "diamoniak", {"players": 3}, None, False, False),
    ("diamoniak-in-play", "diamoniak", {"players": 2}, 20, False, False),
    ("ringrace-5p", "ringrace", {"players": 5}, None, False, False),
    ("ringrace-in-play", "ringrace", {"players": 4}, 9, False, False),
]


def test_the_migration_moves_every_match_to_its_choices_and_back_without_loss():
    old_apps = _migrate(BEFORE)
    try:
        Match = old_apps.get_model("league", "Match")
        MatchSeat = old_apps.get_model("league", "MatchSeat")
        Player = old_apps.get_model("league", "Player")
        players = [Player.objects.create(name=f"migrated-{i}", bot_kind="random") for i in range(6)]
        expected, old_counts = {}, {}
        for name, game_name, ruleset, stop_after, given, corrected in CASES:
            kind = game_type(game_name)
            deals = None
            if given:  # the seed's deal, rotated: hands its seed never deals
                deals = rotated_deals(kind.make_ruleset(ruleset), name, 1)
            game = _played(game_name, ruleset, name, stop_after, deals)
            finished = game.over
            result = None
            if finished:
                result = (game_type("diamonds").to_record(game)["result"] if game_name == "diamonds"
                          else kind.to_record(game)["result"])
                if corrected:
                    result = {**result, "vault": [v + 1 for v in result["vault"]]}
            match = Match.objects.create(
                game=game_name, ruleset=game.ruleset.to_dict(), seed=name, seats=list(game.seats),
                first_dealer=kind.first_seat_of(game), status="finished" if finished else "running",
                move_number=game.move_number, result=result)
            for s in range(game.n):
                MatchSeat.objects.create(match=match, seat=s, player=players[s], team=s)
            _old_rows(old_apps, match, game)
            expected[name] = (match.pk, _expected_record(game_name, game, result))
            old_counts[name] = _row_counts(old_apps, match.pk)
        offline = Match.objects.create(game="diamonds", ruleset={"players": 4}, seed="offline", seats=list("abcd"),
                                       first_dealer=0, offline=True)
        pending = Match.objects.create(game="ringrace", ruleset=game_type("ringrace").make_ruleset(3).to_dict(),
                                       seed="pending", seats=list("abc"), first_dealer=1)

        _migrate(AFTER)
        _migrate(_latest())
        from league.models import Match as NewMatch
        from league.models import MatchStep
        from league.selectors import load_match_game, match_record
        from league.selectors.records import RECORD_CACHE

        RECORD_CACHE.clear()
        for name, (pk, record) in expected.items():
            match = NewMatch.objects.get(pk=pk)
            assert match_record(match) == record, name
            assert bool(match.moves) and not MatchStep.objects.filter(match=match).exists(), name
            assert (match.deals is not None) == name.endswith("given-deals"), name
            game, marks = load_match_game(match)
            assert marks.choices == match.move_number == game.move_number, name
        assert not NewMatch.objects.get(pk=offline.pk).moves and not NewMatch.objects.get(pk=pending.pk).moves

        # A match in play plays on from its moved choices to the end (the next steps follow them).
        from league.services.progress import store_progress

        pk, _ = expected["diamonds-mid-trick"]
        match = NewMatch.objects.get(pk=pk)
        game, marks = load_match_game(match)
        kind = game_type("diamonds")
        bot = kind.make_bot("random", seed="on")
        game.apply(game.pending.seats[0], bot.decide(kind.view(game, game.pending.seats[0])))
        store_progress(match=match, game=game, marks=marks)
        assert MatchStep.objects.get(match=match).first == match.move_number - 1
        assert load_match_game(NewMatch.objects.get(pk=pk))[0].move_number == game.move_number

        # Back: the old rows come back as they were (the match played on above has one more choice).
        MatchStep.objects.filter(match_id=pk).delete()
        NewMatch.objects.filter(pk=pk).update(move_number=game.move_number - 1)
        old_apps = _migrate(BEFORE)
        for name, (pk, _) in expected.items():
            assert _row_counts(old_apps, pk) == old_counts[name], name
        first = expected["diamonds-4p"][0]
        rebuilt = old_apps.get_model("league", "Trick").objects.filter(match_id=first).order_by("round", "index")
        assert [t.plays for t in rebuilt] == [
            t["plays"] for r in expected["diamonds-4p"][1]["rounds"] for t in r["tricks"]]
    finally:
        _migrate(AFTER)
        call_command("migrate", verbosity=0)


def _row_counts(apps, match_id: int) -> tuple:
    """The old rows of a match: rounds (with their passes), tricks (with their plays), Suit Actions, choices."""
    rounds = list(apps.get_model("league", "MatchRound").objects.filter(match_id=match_id).order_by("index")
                  .values_list("hands", "pass_count", "passes", "clubs_targets"))
    tricks = list(apps.get_model("league", "Trick").objects.filter(match_id=match_id).order_by("round", "index")
                  .values_list("leader", "plays", "winner"))
    actions = list(apps.get_model("league", "SuitAction").objects.filter(match_id=match_id)
                   .order_by("round", "sequence").values_list("trick", "seat", "suit", "cause", "target", "moved"))
    choices = list(apps.get_model("league", "MatchChoice").objects.filter(match_id=match_id).order_by("index")
                   .values_list("seat", "decision"))
    return rounds, tricks, actions, choices
