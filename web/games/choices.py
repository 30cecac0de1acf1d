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


def replay_by_turns(record: dict[str, Any], *, build_table: Callable[[dict[str, Any], list[str]], Any],
                    describe: Callable[[dict[str, Any], list[str]], str | None]) -> Iterator[Callable[[], Frame]]:
    """The steps of a finished record: the start, then every turn, each drawn as the table after it with what the
    turn did (web.games.replay: a step is drawn only while the walk stands at it).

    The record's choices are applied one by one to the game its format builds (engine.games.by_format), so each
    frame is what the rules derive, never recomputed here; every frame is the public view at that moment. A turn
    ends when the game's turn counter moves on (or the game ends)."""
    kind = by_format(record.get("format"))
    names = list(record["seats"])
    game = kind.from_record({**record, "choices": []})  # the set-up alone: seed, seats, first player, given cards

    def frame(title: str, since: int) -> Frame:
        lines = [line for e in game.events[since:] if (line := describe(e, names))]
        return Frame(title, lines, build_table(public_view(kind.view(game, 0).to_dict()), names))

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
