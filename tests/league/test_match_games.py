"""Matches of the newer games (Diamoniak, the ring race; OTHER-GAMES.md K- and G- rules): bot play stored (at
checkpoints and as it ends) and resumed from its stored choices to exactly the uninterrupted game, the finished
seats' score/tie-break/placement from engine.games' standing (forfeits last), records that replay with no
disagreement, creation checks (players, the game's bots), the live-game cache, and what is refused.

Tests that fill GAME_CACHE run the on-commit callbacks with django_capture_on_commit_callbacks(execute=True)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from django.db import transaction

from engine import InvalidRuleset
from engine.common.referee import result_json
from engine.games import by_format, game_type
from league.models import Match, MatchSeat, MatchStatus, MatchStep, Player
from league.selectors.games import GAME_CACHE, ChoiceMarks, StoredPlayError, _rebuild, load_match_game
from league.selectors.live import legal_decisions, match_game, public_record
from league.selectors.records import match_record
from league.services import create_bot_player, create_match, play_bot_match
from league.services.corrections import NotCorrectable, correct_result
from league.services.decisions import IllegalMove, MalformedDecision, StaleMove, advance_match, submit_decision
from league.services.play import seeded_for
from league.services.players import create_external_bot
from league.services.progress import seat_results_of

from .matches_support import stored_choice_count

pytestmark = pytest.mark.django_db

NEW_GAMES = ("diamoniak", "ringrace")


def bots(kinds: list[str]) -> list[Player]:
    return [Player.objects.filter(name=f"{k}-{i}").first() or create_bot_player(name=f"{k}-{i}", kind=k)
            for i, k in enumerate(kinds)]


def bot_match(game: str, players: int, seed: str, ruleset: dict | None = None) -> Match:
    kinds = ["heuristic" if s % 2 else "random" for s in range(players)]
    return create_match(players=bots(kinds), ruleset={"players": players, **(ruleset or {})}, seed=seed, game=game)


def reference_record(match: Match) -> dict:
    """The match played start to end in memory with the league's bot seeding, never stored."""
    kind = game_type(match.game)
    seats = list(match.match_seats.order_by("seat").select_related("player"))
    game = kind.new_game(kind.stored_ruleset(match.ruleset), match.seed, match.seats, first_seat=match.first_dealer)
    while not game.over:
        seat = game.pending.seats[0]
        bot = seeded_for(kind.make_bot(seats[seat].player.bot_kind), match, seat, game.move_number)
        game.apply(seat, bot.decide(kind.view(game, seat)))
    return kind.to_record(game)


@pytest.mark.parametrize("game, players", [("diamoniak", 2), ("diamoniak", 4), ("ringrace", 3), ("ringrace", 6)])
def test_a_bot_match_is_stored_as_its_choices_and_finishes_as_the_engine_would(game, players):
    match = bot_match(game, players, seed=f"whole/{game}/{players}")
    outcome = play_bot_match(match_id=match.pk)
    assert outcome.status == "finished"
    match.refresh_from_db()
    record = match_record(match)
    assert record == reference_record(match) and record["format"] == f"{game}-record/1"
    assert stored_choice_count(match.pk) == len(record["choices"]) == match.move_number
    assert not MatchStep.objects.filter(match=match).exists()  # all of it in the match row
    assert match.status == MatchStatus.FINISHED and match.result == record["result"]


@pytest.mark.parametrize("game, pause_after", [("diamoniak", 1), ("diamoniak", 9), ("ringrace", 1), ("ringrace", 13)])
def test_a_paused_match_resumes_from_its_choices_to_the_uninterrupted_result(game, pause_after):
    """A kill between two stored turns: the next run replays the stored choices and plays on as if never stopped."""
    match = bot_match(game, 3, seed=f"resume/{game}/{pause_after}")
    first = play_bot_match(match_id=match.pk, max_tricks=pause_after)
    assert first.status == "paused" and first.tricks_written == pause_after
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING and match.result is None
    assert stored_choice_count(match.pk) == match.move_number == first.move_number
    second = play_bot_match(match_id=match.pk)
    assert second.status == "finished"
    match.refresh_from_db()
    assert match_record(match) == reference_record(match)
    assert play_bot_match(match_id=match.pk).status == "already_finished"


def test_many_short_runs_make_the_same_game_as_one_long_one():
    match = bot_match("ringrace", 4, seed="resume/many")
    statuses = []
    while not statuses or statuses[-1] == "paused":
        statuses.append(play_bot_match(match_id=match.pk, max_tricks=3).status)
    assert statuses[-1] == "finished" and len(statuses) > 3
    match.refresh_from_db()
    assert match_record(match) == reference_record(match)


@pytest.mark.parametrize("game", NEW_GAMES)
def test_finished_seats_hold_the_games_standing_and_the_result_is_the_engines_json(game):
    match = bot_match(game, 4, seed=f"seats/{game}")
    play_bot_match(match_id=match.pk)
    match.refresh_from_db()
    replayed, _ = load_match_game(match)
    standing = game_type(game).standing(replayed)
    assert match.result == result_json(replayed.result)
    rows = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    assert [r.team for r in rows] == [0, 1, 2, 3]  # no partnerships: each seat is its own competitor
    assert [r.score for r in rows] == standing["score"] and [r.tiebreak for r in rows] == standing["tiebreak"]
    assert [r.placement for r in rows] == standing["places"]
    assert [r.seat for r in rows if r.is_winner] == standing["winners"]
    assert all(r.showroom is None for r in rows)


@pytest.mark.parametrize("game", NEW_GAMES)
def test_the_record_of_a_finished_match_replays_with_no_disagreement(game):
    match = bot_match(game, 3, seed=f"replay/{game}")
    play_bot_match(match_id=match.pk)
    match.refresh_from_db()
    record = public_record(match)
    assert record["seed"] == match.seed and "result" in record
    replayed, derived, disagreements = by_format(record["format"]).replay(record)
    assert disagreements == [] and replayed.over and derived["result"] == match.result


@pytest.mark.parametrize("game", NEW_GAMES)
def test_an_unfinished_matchs_record_hides_the_seed_and_the_result(game):
    match = bot_match(game, 3, seed=f"unfinished/{game}")
    play_bot_match(match_id=match.pk, max_tricks=2)
    match.refresh_from_db()
    record = public_record(match)
    assert record["seed"] is None and record["complete"] is False
    assert "result" not in record and match.seed not in str(record)
    assert len(record["choices"]) == match.move_number


def test_forfeits_are_placed_last_whatever_they_scored():
    """K-WIN-1 places the rest in the engine's order; a seat that forfeited goes after them all."""
    kind = game_type("ringrace")
    game = kind.new_game({"players": 4}, "forfeit")
    kind.play_game(game, [kind.make_bot("heuristic", seed=s) for s in range(4)])
    standing = kind.standing(game)
    best = standing["winners"][0]
    results = seat_results_of("ringrace", game, forfeited=[best])
    assert results[best]["placement"] == 4 and not results[best]["is_winner"]
    assert results[best]["score"] == standing["score"][best]  # the score stays the game's own
    others = [s for s in range(4) if s != best]
    ranked = sorted(others, key=lambda s: standing["places"][s])
    assert results[ranked[0]]["placement"] == 1 and results[ranked[0]]["is_winner"]
    assert all(results[s]["placement"] <= 3 for s in others)
    assert seat_results_of("ringrace", game) == {
        s: {"score": standing["score"][s], "tiebreak": standing["tiebreak"][s], "placement": standing["places"][s],
            "is_winner": s in standing["winners"]} for s in range(4)}


def test_create_match_checks_players_bots_and_keeps_the_first_player():
    """K-SETUP-1: Diamoniak is for 2 to 4 players; its first player is drawn from the seed unless given."""
    with pytest.raises(InvalidRuleset, match="K-SETUP-1"):
        bot_match("diamoniak", 5, seed="too-many")
    greedy = create_bot_player(name="greedy-x", kind="greedy")
    with pytest.raises(ValueError, match=r"does not play Diamoniak.*heuristic, random"):
        create_match(players=[greedy, *bots(["random"])], ruleset={"players": 2}, game="diamoniak")
    with pytest.raises(ValueError, match="unknown game"):
        create_match(players=bots(["random", "random"]), ruleset={"players": 2}, game="chess")
    match = create_match(players=bots(["random", "heuristic", "random"]), ruleset=3, seed="first", game="ringrace",
                         first_dealer=2)
    assert (match.game, match.first_dealer) == ("ringrace", 2)
    assert match.ruleset == game_type("ringrace").ruleset(3).to_dict()
    drawn = create_match(players=bots(["random", "heuristic", "random"]), ruleset=3, seed="first", game="ringrace")
    assert drawn.first_dealer == game_type("ringrace").new_game(3, "first").first_player
    game, _ = load_match_game(match)
    assert game.first_player == 2


def test_K_BUY_1_a_match_stored_before_the_correction_replays_under_its_rule():
    """K-BUY-1: a Diamoniak match stored before the correction (its ruleset row has no `buy_pays`; its purchases
    paid the discard pile) loads and exports under the rule it was played by: its record replays with no
    disagreement to the result it had. No data migration: absence means the old rule."""
    old = json.loads((Path(__file__).parents[1] / "engine" / "records"
                      / "diamoniak-before-K-BUY-1-correction.json").read_text(encoding="utf-8"))
    match = create_match(players=bots(["heuristic"] * 3), ruleset=3, seed=old["seed"],
                         first_dealer=old["first_player"], game="diamoniak")
    assert match.ruleset["buy_pays"] == "seller"  # a new match stores the corrected rule explicitly
    kind = game_type("diamoniak")
    moves = kind.codec.encode((c["seat"], kind.parse_decision(c)) for c in old["choices"])
    Match.objects.filter(pk=match.pk).update(ruleset=old["ruleset"], status=MatchStatus.FINISHED, moves=moves,
                                             move_number=len(old["choices"]), result=old["result"])
    match.refresh_from_db()
    game, _ = load_match_game(match)
    assert game.ruleset.buy_pays == "discard" and game.over and result_json(game.result) == old["result"]
    record = match_record(match)
    replayed, derived, disagreements = by_format(record["format"]).replay(record)
    assert disagreements == [] and derived["result"] == old["result"] and record["ruleset"]["buy_pays"] == "discard"
    assert [e["paid_to"] for e in record["events"] if e["event"] == "buy"] == ["discard"] * 3


def test_K_BUY_1_a_match_begun_before_the_correction_and_resumed_after_it_keeps_its_rule():
    """K-BUY-1: a worker killed mid-match before the deploy; the next run (after it) replays the stored choices
    under the rule the match began with, and plays on under it, to the uninterrupted game's end."""
    for i in range(20):
        match = bot_match("diamoniak", 3, seed=f"across-the-deploy/{i}")
        Match.objects.filter(pk=match.pk).update(ruleset={"players": 3, "max_turns": 200})  # a row stored before
        match.refresh_from_db()
        reference = reference_record(match)
        if sum(e["event"] == "buy" for e in reference["events"]) >= 2:
            break
    assert reference["ruleset"]["buy_pays"] == "discard"
    assert play_bot_match(match_id=match.pk, max_tricks=5).status == "paused"
    assert play_bot_match(match_id=match.pk).status == "finished"
    match.refresh_from_db()
    record = match_record(match)
    assert record == reference and "buy_pays" not in match.ruleset
    assert {e["paid_to"] for e in record["events"] if e["event"] == "buy"} == {"discard"}


def test_K_BUY_1_a_competition_made_before_the_correction_seats_new_tables_under_the_corrected_rule():
    """K-BUY-1: a tournament's or ladder's shared ruleset stored without `buy_pays` still makes new matches, and a
    new match plays the corrected rule (only stored games keep the old one)."""
    from league.services.competition import table_ruleset

    assert table_ruleset({"players": 4}, 3, "diamoniak").buy_pays == "seller"
    assert table_ruleset({"players": 4, "buy_pays": "discard"}, 3, "diamoniak").buy_pays == "discard"


@pytest.mark.parametrize("game, rule", [("diamoniak", "K-SETUP-1"), ("ringrace", "G-SETUP-1")])
def test_K_SETUP_1_G_SETUP_1_league_records_replay_with_a_drawn_or_a_given_first_player(game, rule, tmp_path,
                                                                                         capsys):
    """K-SETUP-1, G-SETUP-1: `diamonds replay` checks the first player against the seed. A match whose first
    player was drawn exports no mark; one seated with another first player (create_match's first_dealer) is marked
    `first_player_given`; both replay on the command line, and without the mark the given one is refused."""
    from engine.cli import main

    def cli_replay(record: dict) -> tuple[int, str]:
        path = tmp_path / "r.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        code = main(["replay", str(path)])
        return code, capsys.readouterr().err

    kind = game_type(game)
    seed = f"league-first/{game}"
    drawn_seat = kind.new_game(3, seed).first_player
    for first in (None, (drawn_seat + 1) % 3):
        match = create_match(players=bots(["random", "heuristic", "random"]), ruleset=3, seed=seed, game=game,
                             first_dealer=first)
        play_bot_match(match_id=match.pk)
        match.refresh_from_db()
        record = public_record(match)
        assert record["first_player"] == match.first_dealer == (drawn_seat if first is None else first)
        assert record.get("first_player_given", False) is (first is not None)
        assert cli_replay(record) == (0, "")
    code, err = cli_replay({k: v for k, v in record.items() if k != "first_player_given"})
    assert code == 1 and f"[{rule}]" in err


def test_a_stored_choice_the_rules_refuse_fails_the_load():
    """K-TURN-1: a drawing player draws at least once before stopping, so a stored opening stop is refused."""
    match = bot_match("diamoniak", 2, seed="tampered")
    play_bot_match(match_id=match.pk, max_tricks=1)
    play_bot_match(match_id=match.pk, max_tricks=1)  # two stored steps
    match.refresh_from_db()
    codec = game_type("diamoniak").codec
    first, second = MatchStep.objects.filter(match=match).order_by("first")
    choices = codec.decode(first.choices)
    MatchStep.objects.filter(pk=first.pk).update(
        choices=codec.encode([(choices[0][0], game_type("diamoniak").parse_decision({"kind": "stop"})),
                              *choices[1:]]))
    with pytest.raises(StoredPlayError, match="choice 0: stored choice refused: K-TURN-1"):
        _rebuild(match)
    MatchStep.objects.filter(pk=first.pk).delete()
    with pytest.raises(StoredPlayError, match=f"choice 0 is missing \\(the next stored step starts at {second.first}"):
        _rebuild(match)
    MatchStep.objects.filter(pk=second.pk).update(choices=b"\x07\x01")
    MatchStep.objects.create(match=match, first=0, choices=first.choices)
    with pytest.raises(StoredPlayError, match="does not read: unknown encoding version 7"):
        _rebuild(match)


def test_corrections_are_refused_for_the_choices_games():
    match = bot_match("ringrace", 2, seed="correct")
    play_bot_match(match_id=match.pk)
    match.refresh_from_db()
    with pytest.raises(NotCorrectable, match="ringrace"):
        correct_result(match=match, user=None, reason="x", vault=[0, 0], showroom=[0, 0])


@pytest.mark.parametrize("game", NEW_GAMES)
def test_live_play_with_external_bots_and_the_game_cache(game, django_capture_on_commit_callbacks):
    """Every decision over submit_decision; the cached game (GAME_CACHE, clone()) is always the stored one, and
    refusals change nothing. K-TURN-1 / G-RING-1 name the refused rule."""
    GAME_CACHE.clear()
    players = [create_external_bot(name=f"{game}-ext{i}") for i in range(3)]
    match = create_match(players=players, ruleset={"players": 3}, seed=f"live/{game}", game=game)
    advance_match(match_id=match.pk)
    rng = random.Random(5)
    illegal = {"diamoniak": ({"kind": "stop"}, "K-TURN-1"), "ringrace": ({"kind": "try", "position": 99}, "G-RING-1")}
    refused_once = False
    while True:
        match.refresh_from_db()
        if match.status == MatchStatus.FINISHED:
            break
        game_now = match_game(match)
        seat = game_now.pending.seats[0]
        legal = legal_decisions(game_now, seat)
        assert legal["decisions"] == [d.to_json() for d in game_now.legal(seat)] and legal["pass_cards"] is None
        if not refused_once and game_now.pending.kind in ("turn", "try"):
            before = (match.move_number, stored_choice_count(match.pk))
            decision, rule = illegal[game]
            with pytest.raises(IllegalMove) as refusal:
                submit_decision(match=match, player=players[seat], move_number=match.move_number,
                                decision_json=decision, seat=seat)
            assert refusal.value.rule == rule
            with pytest.raises(StaleMove):
                submit_decision(match=match, player=players[seat], move_number=match.move_number + 1,
                                decision_json=legal["decisions"][0], seat=seat)
            with pytest.raises(MalformedDecision):
                submit_decision(match=match, player=players[seat], move_number=match.move_number,
                                decision_json={"kind": "play", "card": "H7"}, seat=seat)
            match.refresh_from_db()
            assert (match.move_number, stored_choice_count(match.pk)) == before
            refused_once = True
        with django_capture_on_commit_callbacks(execute=True):
            submit_decision(match=match, player=players[seat], move_number=legal["move_number"],
                            decision_json=rng.choice(legal["decisions"]), seat=seat)
        match.refresh_from_db()
        if match.status == MatchStatus.RUNNING:
            cached = GAME_CACHE.get(match)
            assert cached is not None and isinstance(cached[1], ChoiceMarks)
            with transaction.atomic():
                rebuilt, marks = _rebuild(match)
            assert game_type(game).to_record(cached[0]) == game_type(game).to_record(rebuilt)
            assert cached[1] == marks
    assert refused_once
    record = match_record(match)
    assert by_format(record["format"]).replay(record)[2] == []
    assert list(MatchSeat.objects.filter(match=match, awaiting=True)) == []


@pytest.mark.parametrize("game, action", [("diamoniak", "fallback"), ("ringrace", "forfeit")])
def test_an_overdue_decision_is_played_by_the_games_counterpart_of_the_fallback_bot(game, action):
    """The fallback "greedy" plays as the game's "heuristic" bot; under forfeit the late seat is played to the end
    (G-END-1 / K-WIN-1: a whole game) and placed last whatever it scored."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from league.services import create_person_player
    from league.services.decisions import fallback_bot_kind, play_overdue, start_live_match

    assert fallback_bot_kind(game, "greedy") == "heuristic" and fallback_bot_kind(game, "random") == "random"
    with pytest.raises(ValueError, match="fallbacks: random, greedy"):
        fallback_bot_kind(game, "search")
    pat = create_person_player(user=get_user_model().objects.create_user(f"pat-{game}"))
    match = create_match(players=[pat, *bots(["heuristic", "random"])], ruleset=3, seed=f"late/{game}", game=game,
                         first_dealer=0)
    Match.objects.filter(pk=match.pk).update(deadline_action=action)
    start_live_match(match=match, turn_deadline_seconds=30, deadline_fallback="greedy")
    advance_match(match_id=match.pk)  # what the worker does once start_live_match's transaction commits
    match.refresh_from_db()
    assert match.deadline_at is not None and MatchSeat.objects.get(match=match, seat=0).awaiting
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    outcome = play_overdue(match_id=match.pk)
    assert outcome.decisions >= 1, outcome
    match.refresh_from_db()
    late = MatchSeat.objects.get(match=match, seat=0)
    if action == "fallback":
        # one decision made for pat; unless the game ended, it waits for pat again with a fresh deadline
        assert not late.forfeited and match.move_number >= 1
        assert match.status == MatchStatus.FINISHED or (late.awaiting and match.deadline_at > timezone.now())
        return
    assert match.status == MatchStatus.FINISHED and late.forfeited and late.forfeited_at_move == 0
    assert late.placement == 3 and not late.is_winner
    others = MatchSeat.objects.filter(match=match).exclude(seat=0)
    assert sorted(o.placement for o in others)[0] == 1 and all(o.placement <= 2 for o in others)
    record = match_record(match)
    assert by_format(record["format"]).replay(record)[2] == []


@pytest.mark.parametrize("game", NEW_GAMES)
def test_a_run_killed_mid_match_loses_only_the_unstored_turn_and_resumes_identically(game, monkeypatch, settings):
    from league.services import play as play_module

    settings.DIAMONDS_BOT_CHECKPOINT_SECONDS = 0  # a checkpoint after every turn
    match = bot_match(game, 3, seed=f"crash/{game}")
    real = play_module.store_progress
    calls = {"n": 0}

    def dies_on_the_seventh_store(**kwargs):
        calls["n"] += 1
        if calls["n"] == 7:
            raise RuntimeError("worker killed")
        return real(**kwargs)

    monkeypatch.setattr(play_module, "store_progress", dies_on_the_seventh_store)
    with pytest.raises(RuntimeError):
        play_bot_match(match_id=match.pk)
    match.refresh_from_db()
    stored_choices = stored_choice_count(match.pk)
    assert 0 < stored_choices == match.move_number and match.status == MatchStatus.RUNNING
    monkeypatch.setattr(play_module, "store_progress", real)
    assert play_bot_match(match_id=match.pk).status == "finished"
    match.refresh_from_db()
    assert match_record(match) == reference_record(match)
