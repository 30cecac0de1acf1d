"""The ring-card diamond race on the website (OTHER-GAMES.md, G- rules): the 42-position board as the seat may know
it, everyone's rings, the buttons of its legal decisions, and the replay turn by turn.

The board comes from the view dict, which says per position only "empty" (taken), "fixed" (a try showed it) or
"unknown" while the game runs: the page can tell nobody which untried positions are loose, since it never has
that. Once the game is over the view reveals every position, and so does the page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .base import GamePresenter, table_of_four
from .choices import (
    ButtonGroup,
    DecisionButton,
    Frame,
    ResultRow,
    around_the_table,
    decision_button,
    decision_from_post,
    final_public_view,
    grouped,
    replay_by_turns,
    result_rows,
    waiting_for,
)

LOG_LENGTH = 12
BOARD_COLUMNS = 7  # the 42 positions (G-SETUP-1) in 6 rows of 7
# A position's state in the view -> what the page calls it (words and a symbol, never colour alone)
CELL_WORDS = {"unknown": ("untried", "◇"), "fixed": ("fixed", "■"), "empty": ("taken", "·"), "loose": ("loose", "◆")}


def money(dollars: int) -> str:
    return f"-${-dollars:,}" if dollars < 0 else f"${dollars:,}"


def ring_value(card: str) -> int:
    """ "ring-4000-3" -> 4000."""
    return int(card.split("-")[1])


@dataclass
class BoardCell:
    position: int
    state: str  # "untried", "fixed", "taken", or after the game "loose"
    symbol: str
    button: DecisionButton | None  # the viewer's try of this position, when it is theirs to try
    underneath: str = ""  # in a finished game's replay only: what an untried position turned out to be

    @property
    def label(self) -> str:
        return f"position {self.position}: {self.state}"


@dataclass
class Ring:
    card: str
    value: int
    set: bool  # holds a diamond

    @property
    def label(self) -> str:
        return f"{money(self.value)} ring, {'set with a diamond' if self.set else 'empty'}"


@dataclass
class RingSeat:
    seat: int
    name: str
    rings: list[Ring]
    total: int  # dollars so far (G-SCORE-1)
    awaited: bool
    viewer: bool

    @property
    def set_count(self) -> int:
        return sum(r.set for r in self.rings)


@dataclass
class RingTable:
    state: dict[str, Any]
    seats: list[RingSeat]
    me: RingSeat | None
    others: list[RingSeat]
    board: list[BoardCell]
    prompt: str
    decision: str = ""  # the pending kind the viewer owes ("" when none): the form's data-kind
    groups: list[ButtonGroup] = field(default_factory=list)  # the steal buttons (tries are on the board)
    card: str | None = None  # the card shown this turn
    deck_size: int = 0
    aside: int = 0
    counts: dict[str, int] = field(default_factory=dict)  # positions per state
    log: list[str] = field(default_factory=list)
    result: list[ResultRow] | None = None
    ending: str = ""
    columns: int = BOARD_COLUMNS


def build_table(state: dict[str, Any], names: list[str]) -> RingTable:
    n = len(state["seats"])
    viewer = state.get("seat")
    over = state["over"]
    awaited = set((state.get("pending") or {}).get("seats") or [])
    seats = [RingSeat(s, names[s], [Ring(r["card"], r["value"], r["set"]) for r in state["rings"][s]],
                      state["totals"][s], s in awaited and not over, s == viewer) for s in range(n)]
    mine = bool(state.get("my_turn")) and not over
    tries = {d["position"]: d for d in state.get("legal") or [] if d["kind"] == "try"} if mine else {}
    board = []
    for p, seen in enumerate(state["board"]):
        word, symbol = CELL_WORDS[seen]
        button = (decision_button(f"Try position {p}" + (" (known fixed: a wasted try)" if seen == "fixed" else ""),
                                  tries[p]) if p in tries else None)
        board.append(BoardCell(p, word, symbol, button))
    me = seats[viewer] if viewer is not None else None
    table = RingTable(
        state=state, seats=seats, me=me, others=around_the_table(seats, viewer, over),
        board=board, prompt="", card=state.get("card"), deck_size=state["deck_size"], aside=len(state["aside"]),
        counts={word: sum(c.state == word for c in board) for word, _ in CELL_WORDS.values()},
        log=[line for e in state["events"][::-1] if (line := describe(e, names))][:LOG_LENGTH],
    )
    if over:
        table.result = result_rows(state, names, "totals", "set_rings")
        table.ending = ending(state["result"], names)
        table.prompt = "The game is over. " + table.ending
    elif mine:
        table.decision = state["pending"]["kind"]
        table.prompt = my_prompt(state)
        table.groups = grouped([decision_button(f"Steal the {money(d['value'])} diamond from {names[d['victim']]}",
                                                d, "Steal") for d in state["legal"] if d["kind"] == "steal"])
    else:
        table.prompt = waiting_prompt(state, names)
    return table


def my_prompt(state: dict[str, Any]) -> str:
    card = state["card"]
    if state["pending"]["kind"] == "try":
        return (f"You drew {card}, a {money(ring_value(card))} ring: try one position still holding a diamond "
                "(G-RING-1). A loose diamond goes on your ring; a fixed one stays, and your ring stays empty.")
    return (f"You drew {card}: take a diamond from another player's set ring onto your empty ring of the same "
            "value (G-STEAL-1). The player you rob plays next.")


def waiting_prompt(state: dict[str, Any], names: list[str]) -> str:
    who = waiting_for(state, names)
    kind = (state.get("pending") or {}).get("kind")
    card = state.get("card")
    if kind == "try" and card:
        return f"Waiting for {who} to try a position with {card}, a {money(ring_value(card))} ring."
    if kind == "steal":
        return f"{who} drew {card} and is choosing whom to rob."
    return f"Waiting for {who}."


def ending(result: dict[str, Any], names: list[str]) -> str:
    why = {"deck": "The deck is used up", "board": "No loose diamond is left on the board"}.get(result["reason"],
                                                                                                "The game ends")
    winners = " and ".join(names[s] for s in result["winners"])
    return f"{why} (G-END-1): {winners} won, by dollars, then set rings (G-SCORE-1)."


def describe(event: dict[str, Any], names: list[str]) -> str | None:
    """One event in words. Every drawn card is shown to all (G-TURN-1), and a try's outcome is seen by all."""
    who = names[event["seat"]]
    kind = event["event"]
    if kind == "draw":
        return f"{who} draws {event['card']}."
    if kind == "set_aside":
        return f"{event['card']} is set aside: no steal is possible, so {who} draws again (G-STEAL-1)."
    if kind == "try":
        if event["outcome"] == "loose":
            return f"{who} tries position {event['position']}: loose! The diamond goes on {event['ring']}."
        return f"{who} tries position {event['position']}: fixed. It stays, and {event['ring']} stays empty."
    if kind == "steal":
        victim = names[event["victim"]]
        return (f"{who} steals the {money(event['value'])} diamond from {victim} ({event['taken_from']} → "
                f"{event['set_on']}); {victim} plays next.")
    if kind == "end":
        return {"deck": "The deck is used up: the game ends (G-END-1).",
                "board": "No loose diamond is left: the game ends (G-END-1)."}.get(event["reason"], "The game ends.")
    return None


def replay_steps(record: dict[str, Any]) -> Iterator[Callable[[], Frame]]:
    """The table turn by turn. A replay is of a finished game, whose board is public by then (the last frame shows
    it whole), so each earlier step also says what its untried positions turned out to be."""
    final = build_table(final_public_view(record), list(record["seats"])).board
    for draw in replay_by_turns(record, build_table=build_table, describe=describe):
        yield partial(_with_underneath, draw, final)


def _with_underneath(draw: Callable[[], Frame], final: list[BoardCell]) -> Frame:
    frame = draw()
    for cell, end in zip(frame.table.board, final):
        if cell.state == "untried":
            cell.underneath = "fixed" if end.state == "fixed" else "loose"
    return frame


RINGRACE = GamePresenter(
    name="ringrace", table_template="web/games/ringrace_table.html",
    replay_template="web/games/ringrace_replay.html", build_table=build_table, decision_json=decision_from_post,
    replay_steps=replay_steps, replay_step="turn", default_bot="heuristic", bot_table_ruleset=table_of_four,
    blurb="Draw ring cards and guess which of 42 diamonds are loose; steal cards rob a set ring of the same value.",
)
