"""What the website's presentations of Diamoniak and the ring race share: both are games whose `legal` lists
complete decisions (engine.common), so a seat's buttons are exactly its legal decisions, each posting that
decision's JSON; and both are stored as choices, so a replay steps through the record's choices turn by turn.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from engine.games import by_format

# An event in words (None for one the page does not tell), and what the board's script needs to show it moving.
Describe = Callable[[dict[str, Any], list[str]], str | None]
Attrs = Callable[[dict[str, Any], list[str]], dict[str, Any]]


def _no_attrs(event: dict[str, Any], names: list[str]) -> dict[str, Any]:
    return {}


@dataclass
class DecisionButton:
    label: str  # what the button says: the decision in the game's words
    value: str  # the decision's JSON, as the decisions service takes it
    group: str = ""  # the fieldset it goes in ("Buy", "Discard", ...)


@dataclass
class ButtonGroup:
    legend: str
    buttons: list[DecisionButton] = field(default_factory=list)


def decision_button(label: str, decision: dict[str, Any], group: str = "") -> DecisionButton:
    return DecisionButton(label, json.dumps(decision, separators=(",", ":")), group)


def grouped(buttons: list[DecisionButton]) -> list[ButtonGroup]:
    """Buttons in fieldsets by group, in the order the groups first appear (the engine's order of decisions)."""
    groups: dict[str, ButtonGroup] = {}
    for button in buttons:
        groups.setdefault(button.group, ButtonGroup(button.group)).buttons.append(button)
    return list(groups.values())


def decision_from_post(post: QueryDict) -> Any:
    """The decision a button posted: its `decision` field is the decision's JSON. Anything unreadable is passed on
    as it is, so the decisions service refuses it with its own reason (a malformed decision is a 400 there)."""
    raw = post.get("decision", "")
    try:
        return json.loads(raw)
    except ValueError:
        return raw


@dataclass
class Around:
    """The seats as drawn around the board: the reader's own at the bottom (the first seat's for a spectator), the
    others clockwise from its left, up the left side, along the top and down the right side (on a phone they stack:
    the others above the board, the bottom one below it)."""

    bottom: list
    left: list
    top: list
    right: list


# How many of the other seats go up the left side and along the top (the rest go down the right side), by how many
# others there are: one sits opposite; two face the reader; three are left, opposite, right; and so on.
_SIDES = {0: (0, 0), 1: (0, 1), 2: (0, 2), 3: (1, 1), 4: (1, 2), 5: (2, 1)}


def seats_around(seats: list, viewer: int | None) -> Around:
    n = len(seats)
    bottom = 0 if viewer is None else viewer
    others = [seats[(bottom + i) % n] for i in range(1, n)]
    left, top = _SIDES.get(len(others), (len(others) // 3, len(others) - 2 * (len(others) // 3)))
    return Around([seats[bottom]], others[:left], others[left:left + top], others[left + top:])


@dataclass
class BoardMove:
    """One event of the game for the board: its words (the log's line, what the live region says) and what the
    board's script needs to show it moving (data-* attributes: which card goes from where to where). Every event of
    these two games is public, so nothing here is more than the log already says."""

    index: int  # the event's place in the game's events: a page animates the events it has not shown yet
    text: str
    attrs: dict[str, str] = field(default_factory=dict)


def board_moves(events: list[dict[str, Any]], names: list[str], *, describe: Describe, attrs: Attrs, start: int = 0,
                last: int | None = None) -> list[BoardMove]:
    """The events from `start` on (the newest `last` of them when given) as board moves, oldest first; events the
    game does not put in words are left out."""
    first = start if last is None else max(start, len(events) - last)
    return [BoardMove(i, line, {k: str(v) for k, v in attrs(events[i], names).items()})
            for i in range(first, len(events)) if (line := describe(events[i], names))]


def around_the_table(seats: list, viewer: int | None, over: bool) -> list:
    """The seats drawn around the viewer's own: clockwise from their left (every seat for a spectator). Once the
    game is over every seat, the viewer's too, since their own box with its decisions is gone."""
    n = len(seats)
    if over or viewer is None:
        return list(seats)
    return [seats[(viewer + i) % n] for i in range(1, n)]


def waiting_for(state: dict[str, Any], names: list[str]) -> str:
    pending = state.get("pending") or {}
    return ", ".join(names[s] for s in pending.get("seats") or [])


@dataclass
class ResultRow:
    place: int
    name: str
    score: int
    tiebreak: int
    winner: bool


def result_rows(state: dict[str, Any], names: list[str], score_key: str, tiebreak_key: str) -> list[ResultRow]:
    """The finished game's table, best place first: the game's score and tie-break under their own names."""
    result = state["result"]
    rows = [ResultRow(result["places"][s], names[s], result[score_key][s], result[tiebreak_key][s],
                      s in result["winners"]) for s in range(len(names))]
    return sorted(rows, key=lambda r: (r.place, r.name))


def public_view(state: dict[str, Any]) -> dict[str, Any]:
    """A seat's view dict as anyone watching sees it. In these games the seats' views differ only in whose
    decision it is (neither game has a hand), so this drops just the seat's own part."""
    return {**state, "seat": None, "legal": [], "my_turn": False}


@dataclass
class Frame:
    title: str
    lines: list[str]  # what happened in this step, in words
    table: Any  # the game's table after the step, built as the live page builds it
    moves: list[BoardMove] = field(default_factory=list)  # the same events for the board (what moved where)


def replay_by_turns(record: dict[str, Any], *, build_table: Callable[[dict[str, Any], list[str]], Any],
                    describe: Describe, attrs: Attrs | None = None) -> Iterator[Callable[[], Frame]]:
    """The steps of a finished record: the start, then every turn, each drawn as the table after it with what the
    turn did (web.games.replay: a step is drawn only while the walk stands at it).

    The record's choices are applied one by one to the game its format builds (engine.games.by_format), so each
    frame is what the rules derive, never recomputed here; every frame is the public view at that moment. A turn
    ends when the game's turn counter moves on (or the game ends)."""
    kind = by_format(record.get("format"))
    names = list(record["seats"])
    game = kind.from_record({**record, "choices": []})  # the set-up alone: seed, seats, first player, given cards

    def frame(title: str, since: int) -> Frame:
        moves = board_moves(list(game.events), names, describe=describe, attrs=attrs or _no_attrs, start=since)
        return Frame(title, [m.text for m in moves], build_table(public_view(kind.view(game, 0).to_dict()), names),
                     moves)

    yield partial(frame, _("The start"), 0)
    seen = len(game.events)
    turn, turn_seat = game.turn, game.seat
    for choice in record.get("choices") or []:
        game.apply(choice["seat"], kind.parse_decision(choice))
        if game.turn == turn and not game.over:
            continue
        where = {"turn": turn + 1, "name": names[turn_seat]}
        title = _("Turn %(turn)s: %(name)s — the game ends") if game.over else _("Turn %(turn)s: %(name)s")
        yield partial(frame, title % where, seen)
        seen = len(game.events)
        turn, turn_seat = game.turn, game.seat


def final_public_view(record: dict[str, Any]) -> dict[str, Any]:
    """The public view of a finished record's end, replayed by the engine."""
    kind = by_format(record.get("format"))
    return public_view(kind.view(kind.from_record(record), 0).to_dict())
