"""Results of games played with real cards: what a table writes on its score slip, checked against the rules.

A club may play a table offline: the server deals nothing and sees no decision, so all it can check is that the
figures a table enters could have come out of a game played by the rules. One pure function per game takes the
game's ruleset and the entry (a dict as a form or the API sends it) and returns the same result a played game
stores (`OfflineResult`: the game's result JSON, as its record's "result", and per seat the standing's score,
tie-break, place and winner flag), or raises `InvalidResult` listing every problem, each with the field it is
about and the rule id where a rule decides it.

    from engine.offline import check_result
    check_result("diamonds", Ruleset(players=4), {"vault": [10, 4, 0, 7], "showroom": [3, 8, 12, 2]})

What each game's entry holds (every list has one number per seat, per team with Diamonds partnerships):
- Diamonds: `vault` and `showroom`, the final totals (R-SCORE-1 gives the score: a `score` given must agree), or
  `rounds`, each round's totals at its end (`[{"vault": [...], "showroom": [...]}, ...]`, every round of the game:
  R-ROUNDS-1), the last being the final ones. Crystals only move between the supply, showrooms and vaults
  (R-ACT-*), so the table's crystals total at least what R-SETUP-1 put out (3 a player) and at most the supply
  (235); round by round no vault shrinks and the table never holds fewer crystals.
- Diamoniak: `castle` (castle cards of the seat's colour, 0-6) and `diamonds` (diamond cards held, 0-20 in all).
  A complete castle (6) ends the game at once (K-WIN-1), so at most one seat has one and that seat is the winner;
  without one the game ended at the turn limit and seats rank by castle, then diamond cards. `winner` (a seat,
  0-based) may be given and must agree.
- The ring race: `dollars` and `set_rings` (G-SCORE-1). Only the 26 loose diamonds can be set (G-SETUP-1), a set
  ring is worth 1,000 to 6,000 dollars, seven rings of each value; without `debts` no total is negative.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .common.referee import ranked_places
from .diamoniak.rules import CASTLE_SIZE, DIAMOND_CARDS
from .ringrace.rules import LOOSE, RINGS_PER_VALUE, VALUES
from .ruleset import STARTING_SHOWROOM, SUPPLY_POINTS

# A figure larger than any game could give is refused before any sum is made of it.
MAX_FIGURE = 10**6


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry: the field (`vault.2` for seat 3's vault), why, and the rule that says so."""

    field: str
    message: str
    rule: str | None = None

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}" if self.rule else self.message


class InvalidResult(ValueError):
    """An entry the rules could not have produced; `problems` lists every reason."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(f"{p.field}: {p}" for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class OfflineResult:
    """A checked entry: `figures` the entry as stored (its numbers only), `result` the game's result JSON (the record's
    "result" of a played game), and per seat `score`, `tiebreak`, `places`, `winners` as engine.games'
    `standing` gives them (Diamonds adds `showroom`)."""

    figures: dict[str, Any]
    result: dict[str, Any]
    score: list[int]
    tiebreak: list[int]
    places: list[int]
    winners: list[int]
    showroom: list[int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class _Checker:
    """Collects problems while reading an entry's fields."""

    def __init__(self, entry: object, allowed: tuple[str, ...], game_title: str):
        self.problems: list[Problem] = []
        if not isinstance(entry, Mapping):
            raise InvalidResult([Problem("result", f"a result is an object of {game_title}'s figures per seat, not "
                                                   f"{type(entry).__name__}")])
        self.entry: Mapping = entry
        for name in sorted(set(self.entry) - set(allowed)):
            self.fail(str(name), f"{game_title} results have no {name!r}: they give {', '.join(allowed)}")

    def fail(self, field_name: str, message: str, rule: str | None = None) -> None:
        self.problems.append(Problem(field_name, message, rule))

    def numbers(self, name: str, count: int, *, minimum: int | None = 0, what: str = "seat",
                negative_rule: str | None = None, negative_note: str = "", source: Mapping | None = None,
                prefix: str = "") -> list[int] | None:
        """The field as `count` whole numbers (none missing, none below `minimum`), or None after noting why. A
        field of a nested object (a round of Diamonds) is read from `source` and named with `prefix`."""
        value = (self.entry if source is None else source).get(name)
        field_name = prefix + name
        if value is None:
            self.fail(field_name, f"give {name} for every {what} ({count})")
            return None
        if not isinstance(value, list | tuple):
            self.fail(field_name, f"{name} is a list of {count} whole numbers, one per {what}")
            return None
        if len(value) != count:
            self.fail(field_name, f"{name} needs one figure per {what}: {count}, not {len(value)}")
            return None
        out, ok = [], True
        for i, v in enumerate(value):
            if v is None or v == "":
                self.fail(f"{field_name}.{i}", f"{what} {i + 1} has no {name}")
                ok = False
            elif isinstance(v, bool) or not isinstance(v, int):
                self.fail(f"{field_name}.{i}", f"{what} {i + 1}'s {name} must be a whole number, not {v!r}")
                ok = False
            elif minimum is not None and v < minimum:
                self.fail(f"{field_name}.{i}", f"{what} {i + 1}'s {name} cannot be negative ({v}){negative_note}",
                          negative_rule)
                ok = False
            elif abs(v) > MAX_FIGURE:
                self.fail(f"{field_name}.{i}", f"{what} {i + 1}'s {name} is far too large ({v})")
                ok = False
            else:
                out.append(v)
        return out if ok else None

    def seat(self, name: str, seats: int) -> int | None:
        value = self.entry.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
            self.fail(name, f"{name} is a seat number from 0 to {seats - 1}, not {value!r}")
        return value

    def done(self) -> None:
        if self.problems:
            raise InvalidResult(self.problems)


def _check_totals(check: _Checker, ruleset, vault: list[int], showroom: list[int], prefix: str = "") -> None:
    """What any moment of a Diamonds game holds: crystals come from the supply and never go back to it (R-ACT-*)."""
    total = sum(vault) + sum(showroom)
    if total > SUPPLY_POINTS:
        check.fail(f"{prefix}vault", f"the table holds {total} points of crystals, more than the supply's "
                                     f"{SUPPLY_POINTS}", "R-ACT-D")
    start = STARTING_SHOWROOM * ruleset.players
    if total < start:
        check.fail(f"{prefix}showroom", f"the table holds {total} points of crystals, fewer than the {start} it "
                                        "started with: crystals never go back to the supply", "R-SETUP-1")


def _diamonds_rounds(check: _Checker, ruleset, what: str) -> tuple[list[int] | None, list[int] | None, list]:
    """Each round's totals at its end (`rounds`, oldest first): every round there (R-ROUNDS-1), each a possible
    moment of the game, no vault ever smaller than the round before (no Suit Action takes from a vault) and no fewer
    crystals on the table (none goes back to the supply). The final totals are the last round's."""
    rounds = check.entry.get("rounds")
    teams = ruleset.team_count
    if "vault" in check.entry or "showroom" in check.entry:
        check.fail("rounds", "give either each round's totals or the final totals, not both")
    if not isinstance(rounds, list | tuple):
        check.fail("rounds", "rounds is a list of each round's totals: {\"vault\": [...], \"showroom\": [...]}")
        return None, None, []
    if len(rounds) != ruleset.rounds:
        check.fail("rounds", f"this game has {ruleset.rounds} rounds, not {len(rounds)}", "R-ROUNDS-1")
        return None, None, []  # nothing more is read of a list that long (or short)
    snapshots, stored = [], []
    for i, r in enumerate(rounds):
        prefix = f"rounds.{i}."
        if not isinstance(r, Mapping):
            check.fail(f"rounds.{i}", f"round {i + 1} is an object of vault and showroom")
            continue
        for name in sorted(set(r) - {"vault", "showroom"}):
            check.fail(f"{prefix}{name}", f"a round's totals are its vault and showroom, not {name!r}")
        v = check.numbers("vault", teams, what=what, source=r, prefix=prefix)
        s = check.numbers("showroom", teams, what=what, source=r, prefix=prefix)
        if v is not None and s is not None:
            _check_totals(check, ruleset, v, s, prefix)
            snapshots.append((i, v, s))
            stored.append({"vault": v, "showroom": s})
    for (i, v0, s0), (j, v1, s1) in zip(snapshots, snapshots[1:]):
        if j != i + 1:
            continue
        for t in range(teams):
            if v1[t] < v0[t]:
                check.fail(f"rounds.{j}.vault.{t}", f"{what} {t + 1}'s vault went down from {v0[t]} to {v1[t]} in "
                                                    f"round {j + 1}: no Suit Action takes from a vault")
        if sum(v1) + sum(s1) < sum(v0) + sum(s0):
            check.fail(f"rounds.{j}", f"the table holds fewer crystals after round {j + 1} than after round {i + 1}: "
                                      "none goes back to the supply")
    if not snapshots or len(snapshots) != len(rounds):
        return None, None, stored
    return snapshots[-1][1], snapshots[-1][2], stored


def diamonds_result(ruleset, entry: object) -> OfflineResult:
    """Diamonds' final totals, or each round's (see the module docstring); `ruleset` is an engine.ruleset.Ruleset."""
    check = _Checker(entry, ("vault", "showroom", "score", "rounds"), "Diamonds")
    teams = ruleset.team_count
    what = "team" if ruleset.partnerships else "seat"
    per_round = None
    if "rounds" in check.entry:
        vault, showroom, per_round = _diamonds_rounds(check, ruleset, what)
    else:
        vault = check.numbers("vault", teams, what=what)
        showroom = check.numbers("showroom", teams, what=what)
        if vault is not None and showroom is not None:
            _check_totals(check, ruleset, vault, showroom)
    given_score = check.numbers("score", teams, what=what) if "score" in check.entry else None
    if vault is not None and showroom is not None:
        score = [2 * v + s for v, s in zip(vault, showroom)]  # R-SCORE-1
        if given_score is not None and given_score != score:
            check.fail("score", f"score is 2 x vault + showroom: {score}, not {given_score}", "R-SCORE-1")
    check.done()
    key = list(zip(score, vault))  # R-WIN-1: score, then vault; still tied: shared
    best = max(key)
    team_winners = [t for t in range(teams) if key[t] == best]
    team_places = ranked_places(key)
    seat_team = [next(t for t, members in enumerate(ruleset.teams) if s in members) for s in range(ruleset.players)]
    places = [team_places[seat_team[s]] for s in range(ruleset.players)]
    figures = {"vault": vault, "showroom": showroom}
    if per_round is not None:
        figures["rounds"] = per_round
    return OfflineResult(
        figures=figures,
        result={"score": score, "vault": vault, "showroom": showroom, "winners": team_winners},
        score=[score[t] for t in seat_team], tiebreak=[vault[t] for t in seat_team], places=places,
        winners=[s for s in range(ruleset.players) if places[s] == 1],
        showroom=[showroom[t] for t in seat_team])


def diamoniak_result(ruleset, entry: object) -> OfflineResult:
    """Diamoniak's castles and diamond cards, and the winner of a castle win (see the module docstring)."""
    check = _Checker(entry, ("castle", "diamonds", "winner"), "Diamoniak")
    n = ruleset.players
    castle = check.numbers("castle", n)
    diamonds = check.numbers("diamonds", n)
    winner = check.seat("winner", n)
    if castle is not None:
        for s, size in enumerate(castle):
            if size > CASTLE_SIZE:
                check.fail(f"castle.{s}", f"a castle has at most {CASTLE_SIZE} cards; seat {s + 1} has {size}",
                           "K-WIN-1")
        complete = [s for s, size in enumerate(castle) if size == CASTLE_SIZE]
        if len(complete) > 1:
            check.fail("castle", f"seats {', '.join(str(s + 1) for s in complete)} each have a complete castle: the "
                                 "first to complete one wins at once, so only one can", "K-WIN-1")
        elif complete and winner is not None and winner != complete[0]:
            check.fail("winner", f"seat {complete[0] + 1} completed a castle, so seat {complete[0] + 1} won, not seat "
                                 f"{winner + 1}", "K-WIN-1")
        elif not complete and winner is not None:
            check.fail("winner", f"nobody completed a castle of {CASTLE_SIZE}: a game ended by the turn limit has no "
                                 "single winner to name; the places follow castles, then diamond cards", "K-WIN-1")
    if diamonds is not None:
        if any(d > DIAMOND_CARDS for d in diamonds) or sum(diamonds) > DIAMOND_CARDS:
            check.fail("diamonds", f"the game has {DIAMOND_CARDS} diamond cards; the table holds {sum(diamonds)}",
                       "K-SETUP-1")
    check.done()
    keys = [(castle[s], diamonds[s]) for s in range(n)]
    complete = [s for s in range(n) if castle[s] == CASTLE_SIZE]
    if complete:
        keys[complete[0]] = (CASTLE_SIZE + 1, 0)  # K-WIN-1: the castle wins, whatever the others hold
    places = ranked_places(keys)
    winners = [s for s in range(n) if places[s] == 1]
    reason = "castle" if complete else "turns"
    return OfflineResult(
        figures={"castle": castle, "diamonds": diamonds},
        result={"winners": winners, "castle": castle, "diamonds": diamonds, "places": places, "reason": reason},
        score=list(castle), tiebreak=list(diamonds), places=places, winners=winners)


def ringrace_result(ruleset, entry: object) -> OfflineResult:
    """The ring race's dollars and set rings (see the module docstring)."""
    check = _Checker(entry, ("dollars", "set_rings"), "The ring race")
    n = ruleset.players
    debts = bool(ruleset.debts)
    dollars = check.numbers("dollars", n, minimum=None if debts else 0, negative_rule="G-SCORE-1",
                            negative_note=": only the debts variant scores an empty ring as minus its value")
    set_rings = check.numbers("set_rings", n)
    if set_rings is not None and sum(set_rings) > LOOSE:
        check.fail("set_rings", f"only the {LOOSE} loose diamonds can be set on rings; the table has "
                                f"{sum(set_rings)} set rings", "G-SETUP-1")
    if dollars is not None:
        step = VALUES[0]
        for s, d in enumerate(dollars):
            if d % step:
                check.fail(f"dollars.{s}", f"rings are worth whole thousands of dollars; seat {s + 1} has {d}",
                           "G-SETUP-1")
    if dollars is not None and set_rings is not None and sum(set_rings) <= LOOSE:
        # The most a seat's set rings can be worth: its count of the highest values (seven rings of each).
        values = sorted((v for v in VALUES for _ in range(RINGS_PER_VALUE)), reverse=True)
        for s in range(n):
            top = sum(values[:set_rings[s]])
            if dollars[s] > top:
                check.fail(f"dollars.{s}", f"seat {s + 1}'s {set_rings[s]} set rings are worth at most {top} "
                                           f"dollars, not {dollars[s]}", "G-SCORE-1")
            elif not debts and set_rings[s] and dollars[s] < set_rings[s] * VALUES[0]:
                check.fail(f"dollars.{s}", f"seat {s + 1}'s {set_rings[s]} set rings are worth at least "
                                           f"{set_rings[s] * VALUES[0]} dollars, not {dollars[s]}", "G-SCORE-1")
        best = sum(values[:sum(set_rings)])
        if sum(dollars) > best:
            check.fail("dollars", f"{sum(set_rings)} set rings are worth at most {best} dollars in all, not "
                                  f"{sum(dollars)}", "G-SCORE-1")
    check.done()
    places = ranked_places(list(zip(dollars, set_rings)))  # G-SCORE-1: dollars, then set rings, then shared
    winners = [s for s in range(n) if places[s] == 1]
    return OfflineResult(
        figures={"dollars": dollars, "set_rings": set_rings},
        result={"totals": dollars, "set_rings": set_rings, "places": places, "winners": winners, "reason": "table"},
        score=list(dollars), tiebreak=list(set_rings), places=places, winners=winners)


CHECKS: dict[str, Callable[[Any, object], OfflineResult]] = {
    "diamonds": diamonds_result,
    "diamoniak": diamoniak_result,
    "ringrace": ringrace_result,
}

# The figures each game's entry asks for, per seat (per team with Diamonds partnerships), in form order.
FIGURES: dict[str, tuple[str, ...]] = {
    "diamonds": ("vault", "showroom"),
    "diamoniak": ("castle", "diamonds"),
    "ringrace": ("dollars", "set_rings"),
}


def check_result(game: str, ruleset, entry: object) -> OfflineResult:
    """The entry of a `game` (a name of engine.games) table with `ruleset`, checked: see the module docstring."""
    try:
        checker = CHECKS[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}; known games: {', '.join(CHECKS)}") from None
    return checker(ruleset, entry)


__all__ = ["CHECKS", "FIGURES", "InvalidResult", "OfflineResult", "Problem", "check_result"]
