"""`diamonds-record/1`: export a game, and replay a record (choices only, or whole) into a checked game.

Replaying feeds every choice of the record to a fresh `Game`, so the engine's own rule checks are the checks;
what the record says beyond its choices (dealers, winners, actions, result) is compared with what the rules
derive, and any disagreement is reported by its path in the document.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..common.records import ReplayError, carry_attestation, differences
from ..errors import IllegalDecision, InvalidRuleset
from .cards import SUITS, Card, card_str, parse_cards
from .game import CLUBS_TARGET, Game, RoundLog, seeded_hands
from .ruleset import Ruleset

FORMAT = "diamonds-record/1"


def to_record(game: Game) -> dict[str, Any]:
    """The whole record of `game` (finished or not) as a JSON-ready dict."""
    ruleset = game.ruleset
    record: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": ruleset.to_dict(),
        "seed": game.seed,
        "seats": list(game.seats),
        "teams": [list(t) for t in ruleset.teams] if ruleset.partnerships else None,
        "first_dealer": game.first_dealer,
        "rounds": [_round_json(r) for r in game.rounds],
    }
    if game.result is not None:
        record["result"] = {k: list(v) for k, v in game.result._asdict().items()}  # copies: not the game's lists
    return record


def _round_json(r: RoundLog) -> dict[str, Any]:
    return {
        "dealer": r.dealer,
        "hands": [card_str_list(h) for h in r.hands],
        "pass_count": r.pass_count,
        "passes": [card_str_list(p) for p in r.passes] if r.passes is not None else None,
        "clubs_targets": list(r.clubs_targets),
        "tricks": [
            {
                "leader": t.leader,
                "plays": [{"seat": p.seat, "card": card_str(p.card)} for p in t.plays],
                "winner": t.winner,
            }
            for t in r.tricks
        ],
        "actions": [
            {"seat": a.seat, "suit": SUITS[a.suit], "cause": a.cause, "trick": a.trick,
             "target": a.target, "moved": a.moved}
            for a in r.actions
        ],
    }


def card_str_list(cards: Iterable[Card]) -> list[str]:
    return [card_str(c) for c in cards]


def from_record(record: dict[str, Any]) -> Game:
    """Replay a record's choices into a game, checking each against the rules. Raises ReplayError."""
    if not isinstance(record, dict):
        raise ReplayError("a record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise ReplayError(f"unknown format {record.get('format')!r}; expected {FORMAT!r}")
    try:
        ruleset = Ruleset.from_dict(record["ruleset"])  # anything but an object of fields: InvalidRuleset
    except (KeyError, TypeError, ValueError, InvalidRuleset) as e:
        raise ReplayError(f"bad ruleset: {e}") from None
    rounds = record.get("rounds") or []
    if not isinstance(rounds, list) or len(rounds) > ruleset.rounds:
        raise ReplayError(f"the record has {len(rounds)} rounds; the ruleset plays {ruleset.rounds}", rule="R-ROUNDS-1")
    teams = record.get("teams")
    expected_teams = [list(t) for t in ruleset.teams] if ruleset.partnerships else None
    if teams is not None and teams != expected_teams:
        raise ReplayError(f"teams {teams} do not sit opposite; expected {expected_teams}", rule="R-TEAM-1")
    try:
        deals = [parse_cards_2d(r["hands"]) for r in rounds]
    except (KeyError, TypeError, ValueError) as e:
        raise ReplayError(f"bad hands: {e}", rule="R-DEAL-1") from None
    try:
        game = Game(
            ruleset, str(record.get("seed", "")), record.get("seats"),
            deals=deals, first_dealer=record.get("first_dealer"), auto_clubs=False,
        )
    except IllegalDecision as e:
        raise ReplayError(e.message, rule=e.rule, round=0) from None
    except ValueError as e:
        raise ReplayError(str(e)) from None
    for index, r in enumerate(rounds):
        _replay_round(game, index, r, last=index == len(rounds) - 1)
    game.auto_clubs = True
    return game


def parse_cards_2d(hands: object) -> list[list[int]]:
    if not isinstance(hands, list):
        raise ValueError("expected a list of hands")
    return [parse_cards(h) for h in hands]


def _replay_round(game: Game, index: int, r: dict[str, Any], last: bool = False) -> None:
    if game.round < index and not game.over:
        raise ReplayError(f"round {game.round} is not finished before this round starts", rule="R-ROUND-1",
                          round=index)
    if game.round != index or game.over:
        raise ReplayError("the game is over before this round", rule="R-ROUNDS-1", round=index)
    targets = r.get("clubs_targets") or []

    def fail(e: Exception, trick: int | None = None, seat: int | None = None) -> ReplayError:
        if isinstance(e, IllegalDecision):
            return ReplayError(e.message, rule=e.rule, round=index, trick=trick, seat=seat)
        return ReplayError(str(e), round=index, trick=trick, seat=seat)

    def settle_clubs(trick: int | None, at_end: bool = False) -> None:
        while game.phase == CLUBS_TARGET and game.round == index:
            pending = game.pending
            assert pending is not None  # a clubs target is pending
            seat = pending.seats[0]
            k = len(game.rounds[index].clubs_targets)
            if at_end and k >= len(targets):
                return  # an unfinished game's record ends while this clubs target is still to be chosen
            target = targets[k] if k < len(targets) else None
            if target is None:
                raise ReplayError("a clubs action here must name a target (clubs_targets is short or null)",
                                  rule="R-ACT-C", round=index, trick=trick, seat=seat)
            forced = len(game.legal(seat)) == 1
            try:
                game.choose_clubs_target(seat, target)
            except IllegalDecision as e:
                raise fail(e, trick, seat) from None
            if forced:  # the recorded game took this target without a decision (auto_clubs): so no move
                game.move_number -= 1

    pass_count = r.get("pass_count")
    if pass_count is None:
        return
    try:
        game.choose_pass_count(game.dealer, pass_count)
    except IllegalDecision as e:
        raise fail(e, None, game.dealer) from None
    passes = r.get("passes")
    if passes is None:
        return
    if not isinstance(passes, list) or len(passes) != game.n:
        raise ReplayError(f"passes must list {game.n} seats' cards", rule="R-PASS-2", round=index)
    for seat, cards in enumerate(passes):
        try:
            game.pass_cards(seat, parse_cards(cards))
        except (IllegalDecision, ValueError, TypeError) as e:
            raise fail(e, None, seat) from None
    tricks = r.get("tricks") or []
    if len(tricks) > game.ruleset.tricks_per_round:
        raise ReplayError(f"{len(tricks)} tricks in a round of {game.ruleset.tricks_per_round}",
                          rule="R-ROUND-1", round=index)
    for t, trick in enumerate(tricks):
        for play in trick.get("plays") or []:
            settle_clubs(t)
            if game.round != index or game.over:
                raise ReplayError("a play after the round ended", rule="R-ROUND-1", round=index, trick=t)
            player = game.to_play  # None while a clubs target waits (a corrupt record): play() refuses that phase
            if "seat" in play and play["seat"] != player:
                raise ReplayError(f"seat {play['seat']} plays out of turn; it is seat {player}'s turn",
                                  rule="R-TRICK-2" if t else "R-LEAD-1", round=index, trick=t, seat=play["seat"])
            try:
                # A None seat reaches play() on purpose: it raises the phase's IllegalDecision (a ReplayError here)
                # before it reads the seat.
                game.play(player, parse_cards([play.get("card")])[0])  # type: ignore[arg-type]
            except (IllegalDecision, ValueError) as e:
                raise fail(e, t, player) from None
    settle_clubs(len(tricks) - 1 if tricks else None, at_end=last)
    if game.round > index or game.over:  # the round is complete: its clubs targets must all be accounted for
        produced = game.rounds[index].clubs_targets
        if list(targets) != produced:
            raise ReplayError(f"clubs_targets {targets} disagree with the clubs actions taken {produced}",
                              rule="R-ACT-C", round=index)


def replay(record: dict[str, Any]) -> tuple[Game, dict[str, Any], list[str]]:
    """Replay and check: the game, its whole derived record, and where the given record disagrees with it."""
    game = from_record(record)
    derived = carry_attestation(record, to_record(game))
    return game, derived, differences(record, derived)


def check_deal(record: dict[str, Any], seed: str) -> tuple[list[str], list[str]]:
    """Whether every round's hands in `record` are the ones `seed` deals: (problems, notes), for
    engine.fairness.verify_record."""
    ruleset = Ruleset.from_dict(record.get("ruleset"))  # InvalidRuleset for anything but an object of fields
    problems = []
    rounds = record.get("rounds") or []
    if not isinstance(rounds, list):
        return ["the record's rounds are not a list"], []
    for r, rnd in enumerate(rounds):
        dealt = [[card_str(c) for c in hand] for hand in seeded_hands(ruleset, seed, r)]
        hands = rnd.get("hands") if isinstance(rnd, dict) else None
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            problems.append(f"round {r + 1}: the record shows no hands")
            continue
        for s, (shown, expected) in enumerate(zip(hands, dealt)):
            if list(shown) != expected:
                problems.append(f"round {r + 1}, seat {s}: the record's hand {' '.join(shown)} is not the one the "
                                f"seed deals ({' '.join(expected)})")
    return problems, [f"Diamonds: {len(rounds)} round(s) of hands match the seed's shuffle"] if not problems else []
