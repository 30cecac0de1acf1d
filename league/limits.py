"""What the league stores may be: the bounds of its integers and the checks of the settings it keeps as JSON.

Every write path (the API, the website, the admin's services) goes through these, so nothing stored can fail a later
read: an integer past its column fails the INSERT on PostgreSQL, and a points table that cannot be read breaks the
standings for good. Each bound sits inside its column (PositiveIntegerField: 2**31 - 1; PositiveSmallIntegerField:
32767) and at what a real competition could use. ValueError, saying what is wrong, for anything else.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from engine.games import GAMES

from .standings import canonical_metrics

# A week per decision: long enough for correspondence play, far inside the column.
MAX_TURN_DEADLINE_SECONDS = 7 * 24 * 3600
# Decision: at most 50 rounds (a round a week for a year). Fixed schedules are computed whole, up front, for every
# round seated, so the bound also bounds that work.
MAX_TOURNAMENT_ROUNDS = 50
# Decision: one tick opens at most 500 tables (2,000 matches at tables of four): a pool bigger than that waits a tick.
MAX_TABLES_PER_TICK = 500
# A Diamonds vault or showroom (corrections): each Suit Action moves one point (R-ACT-*), a few dozen per round, so
# real games stay in the hundreds; the bound keeps 2 x vault + showroom (R-SCORE-1) far inside the score column.
MAX_RESULT_AMOUNT = 100_000
# Match points for a place or a bye, and the competitors of a points table's tables.
MAX_MATCH_POINTS = 1000
MAX_TABLE_COMPETITORS = 16
# A number in a bot's settings (playouts, seconds...): the largest any bot is sensibly given.
MAX_BOT_SETTING = 1_000_000


# A round's clock: up to ten hours, an evening and then some.
MAX_ROUND_MINUTES = 600


def check_round_minutes(minutes: object) -> int | None:
    """A round's clock as stored: None (no clock) or whole minutes from 1 to MAX_ROUND_MINUTES; ValueError."""
    if minutes is None:
        return None
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_ROUND_MINUTES:
        raise ValueError(f"round_minutes must be a whole number from 1 to {MAX_ROUND_MINUTES}, or null for no clock; "
                         f"not {minutes!r}")
    return minutes


def check_turn_deadline(seconds: object) -> int | None:
    """A turn deadline as stored: None (no deadline) or whole seconds within bounds; ValueError naming the bound."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 1 <= seconds <= MAX_TURN_DEADLINE_SECONDS:
        raise ValueError(f"turn_deadline_seconds must be a whole number from 1 to {MAX_TURN_DEADLINE_SECONDS} (a "
                         f"week), or null for no deadline; not {seconds!r}")
    return seconds


# A chess clock (Match.clock_bank_seconds, clock_increment_seconds): a bank of at most a week per seat, as a turn
# deadline may be; an increment of at most an hour per decision. A seat's bank never grows past MAX_CLOCK_MS, which
# keeps it inside its column (MatchSeat.clock_ms, PositiveIntegerField) however many increments it earns.
MAX_CLOCK_BANK_SECONDS = MAX_TURN_DEADLINE_SECONDS
MAX_CLOCK_INCREMENT_SECONDS = 3600
MAX_CLOCK_MS = 2**31 - 1


def check_clock(bank_seconds: object, increment_seconds: object = 0) -> tuple[int | None, int]:
    """A chess clock as stored: (None, 0) for none, else a bank of whole seconds from 1 to MAX_CLOCK_BANK_SECONDS and
    an increment per decision of whole seconds from 0 to MAX_CLOCK_INCREMENT_SECONDS (None: 0). ValueError naming
    the bound; an increment without a bank is refused (it would be a clock that starts at nothing)."""
    if increment_seconds is None:
        increment_seconds = 0
    if isinstance(increment_seconds, bool) or not isinstance(increment_seconds, int) or not (
            0 <= increment_seconds <= MAX_CLOCK_INCREMENT_SECONDS):
        raise ValueError(f"clock_increment_seconds must be a whole number from 0 to {MAX_CLOCK_INCREMENT_SECONDS} "
                         f"(an hour); not {increment_seconds!r}")
    if bank_seconds is None:
        if increment_seconds:
            raise ValueError("clock_increment_seconds needs a clock: give clock_bank_seconds too")
        return None, 0
    if isinstance(bank_seconds, bool) or not isinstance(bank_seconds, int) or not (
            1 <= bank_seconds <= MAX_CLOCK_BANK_SECONDS):
        raise ValueError(f"clock_bank_seconds must be a whole number from 1 to {MAX_CLOCK_BANK_SECONDS} (a week), "
                         f"or null for no clock; not {bank_seconds!r}")
    return bank_seconds, increment_seconds


def check_tables_per_tick(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TABLES_PER_TICK:
        raise ValueError(f"max_tables_per_tick must be a whole number from 1 to {MAX_TABLES_PER_TICK}, not {value!r}")


def _number(value: Any, where: str, low: float, high: float) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{where} is a number, not {value!r}")
    if not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{where} is between {low} and {high}, not {value!r}")
    return value


def _points(value: Any, where: str) -> int | float | str:
    """Match points: a number, or a fraction as text ("3/2": shared points stay exact), as the standings read them
    (Fraction(str(value)))."""
    if isinstance(value, str):
        try:
            exact = Fraction(value) if len(value) <= 20 else None
        except (ValueError, ZeroDivisionError):
            exact = None
        if exact is None or not -MAX_MATCH_POINTS <= exact <= MAX_MATCH_POINTS:
            raise ValueError(f"{where} is a number or a fraction like \"3/2\" within {MAX_MATCH_POINTS}, "
                             f"not {value[:20]!r}")
        return value
    return _number(value, where, -MAX_MATCH_POINTS, MAX_MATCH_POINTS)


def _whole(text: Any, where: str, low: int, high: int) -> int:
    """A JSON object key that names a whole number (keys are strings in JSON)."""
    if isinstance(text, bool) or not isinstance(text, str | int) or not str(text).isdigit():
        raise ValueError(f"{where} is a whole number, not {text!r}")
    number = int(str(text)[:6])  # more digits than that are out of range anyway
    if not low <= number <= high or len(str(text)) > 6:
        raise ValueError(f"{where} is {low} to {high}, not {text!r}")
    return number


def checked_match_points(points: Any) -> dict:
    """A tournament's points table as stored: {"<competitors>": {"<place>": points, ...}, ..., "bye": points}, every
    place of each table size given (the standings look each one up), numbers finite and bounded. Keys stored as
    strings, as JSON has them."""
    if points is None:
        return {}
    if not isinstance(points, Mapping):
        raise ValueError('match_points is an object: {"4": {"1": 3, "2": 2, "3": 1, "4": 0}, "bye": 1}')
    out: dict[str, Any] = {}
    for size_key, places in points.items():
        if size_key == "bye":
            out["bye"] = _points(places, "match_points.bye")
            continue
        size = _whole(size_key, "a match_points table size", 1, MAX_TABLE_COMPETITORS)
        if not isinstance(places, Mapping):
            raise ValueError(f"match_points.{size} maps each place 1..{size} to its points")
        table: dict[str, Any] = {}
        for place_key, value in places.items():
            place = _whole(place_key, f"a place of match_points.{size}", 1, size)
            table[str(place)] = _points(value, f"match_points.{size}.{place}")
        if len(table) != size:
            missing = [p for p in range(1, size + 1) if str(p) not in table]
            raise ValueError(f"match_points.{size} gives every place 1..{size} its points; missing {missing}")
        out[str(size)] = table
    return out


def checked_tiebreaks(tiebreaks: Any) -> list[str]:
    """A tie-break order as stored: distinct metric names of league.standings (aliases as their metric's name)."""
    if isinstance(tiebreaks, str) or not isinstance(tiebreaks, Sequence):
        raise ValueError('tiebreaks is a list of metric names, like ["points", "tiebreak", "wins"]')
    if not all(isinstance(name, str) for name in tiebreaks):
        raise ValueError("tiebreaks names metrics: a list of strings")
    names = canonical_metrics(tiebreaks)  # ValueError naming the known metrics
    if len(set(names)) != len(names):
        raise ValueError("tiebreaks names each metric once")
    return [str(n) for n in names]


def checked_bot_settings(kind: str, settings: Any) -> dict:
    """An engine bot's settings as stored: keyword settings its bot takes in every game that has it, each of the
    type of that setting's default, numbers bounded; the bot is built with them once to let it refuse the rest."""
    if settings is None:
        return {}
    if not isinstance(settings, Mapping):
        raise ValueError("bot_settings is an object of the bot's keyword settings")
    classes = [game.bots[kind] for game in GAMES.values() if kind in game.bots]
    for cls in classes:
        parameters = inspect.signature(cls.__init__).parameters
        for name, value in settings.items():
            param = parameters.get(name)
            if name in ("self", "seed") or param is None or param.kind is not param.POSITIONAL_OR_KEYWORD:
                raise ValueError(f"bot_settings: the {kind} bot takes no setting {name!r}")
            _check_setting(kind, name, value, param.default)
        try:
            cls(seed=0, **settings)
        except (TypeError, ValueError) as e:
            raise ValueError(f"the {kind} bot refuses these settings: {e}") from None
    return dict(settings)


def _check_setting(kind: str, name: str, value: Any, default: Any) -> None:
    where = f"bot_settings: the {kind} bot's {name}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{where} is true or false")
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{where} is a whole number")
        _number(value, where, -MAX_BOT_SETTING, MAX_BOT_SETTING)
    elif isinstance(default, float) or default is None:  # None: an optional number (seconds)
        if value is not None:
            _number(value, where, 0, MAX_BOT_SETTING)
    elif isinstance(default, str):
        if not isinstance(value, str) or len(value) > 40:
            raise ValueError(f"{where} is a short text")
    else:
        raise ValueError(f"{where} cannot be set here")

# Comparisons (league.services.comparisons). Decision: at most 5,000 pairs (10,000 games): fishtest's tests of
# a few Elo take thousands of pairs, and one comparison should not hold the comparison workers for longer.
MAX_COMPARISON_PAIRS = 5000
# Decision: three comparisons running per account at once; organisers too (they share the same workers).
MAX_RUNNING_COMPARISONS_PER_ACCOUNT = 3
# A comparison stops after this many void pairs in a row (a bot that fails every game would otherwise loop).
MAX_VOID_PAIRS_IN_A_ROW = 3

# A season's divisions (league.services.divisions): a club's league of a few hundred players at most, in tiers.
MAX_DIVISIONS = 20
# How many go up or down between two divisions at a season's end (each also bounded by the divisions' sizes).
MAX_DIVISION_MOVES = 100
