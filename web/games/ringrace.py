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

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
# ... and those words in the reader's language (the state itself stays English: it is the cell's CSS class)
CELL_LABELS = {"untried": gettext_lazy("untried"), "fixed": gettext_lazy("fixed"), "taken": gettext_lazy("taken"),
               "loose": gettext_lazy("loose")}


def money(dollars: int) -> str:
    """Dollars the reader's way: "$4,000" in English, "4 000 $" in French."""
    amount = formats.number_format(abs(dollars), force_grouping=True)
    return (_("-$%(amount)s") if dollars < 0 else _("$%(amount)s")) % {"amount": amount}


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
    def state_label(self) -> str:
        return str(CELL_LABELS.get(self.state, self.state))

    @property
    def underneath_label(self) -> str:
        return str(CELL_LABELS.get(self.underneath, self.underneath))

    @property
    def label(self) -> str:
        return _("position %(position)s: %(state)s") % {"position": self.position, "state": self.state_label}


@dataclass
class Ring:
    card: str
    value: int
    set: bool  # holds a diamond

    @property
    def label(self) -> str:
        if self.set:
            return _("%(value)s ring, set with a diamond") % {"value": money(self.value)}
        return _("%(value)s ring, empty") % {"value": money(self.value)}


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
        label = _("Try position %(position)s (known fixed: a wasted try)") if seen == "fixed" else _(
            "Try position %(position)s")
        button = decision_button(label % {"position": p}, tries[p]) if p in tries else None
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
        table.prompt = _("The game is over.") + " " + table.ending
    elif mine:
        table.decision = state["pending"]["kind"]
        table.prompt = my_prompt(state)
        table.groups = grouped([decision_button(
            _("Steal the %(value)s diamond from %(victim)s") % {"value": money(d["value"]),
                                                                 "victim": names[d["victim"]]},
            d, _("Steal")) for d in state["legal"] if d["kind"] == "steal"])
    else:
        table.prompt = waiting_prompt(state, names)
    return table


def my_prompt(state: dict[str, Any]) -> str:
    card = state["card"]
    if state["pending"]["kind"] == "try":
        return _("You drew %(card)s, a %(value)s ring: try one position still holding a diamond (G-RING-1). A "
                 "loose diamond goes on your ring; a fixed one stays, and your ring stays empty.") % {
            "card": card, "value": money(ring_value(card))}
    return _("You drew %(card)s: take a diamond from another player's set ring onto your empty ring of the same "
             "value (G-STEAL-1). The player you rob plays next.") % {"card": card}


def waiting_prompt(state: dict[str, Any], names: list[str]) -> str:
    who = waiting_for(state, names)
    kind = (state.get("pending") or {}).get("kind")
    card = state.get("card")
    if kind == "try" and card:
        return _("Waiting for %(who)s to try a position with %(card)s, a %(value)s ring.") % {
            "who": who, "card": card, "value": money(ring_value(card))}
    if kind == "steal":
        return _("%(who)s drew %(card)s and is choosing whom to rob.") % {"who": who, "card": card}
    return _("Waiting for %(who)s.") % {"who": who}


def ending(result: dict[str, Any], names: list[str]) -> str:
    why = {"deck": _("The deck is used up"), "board": _("No loose diamond is left on the board")}.get(
        result["reason"], _("The game ends"))
    winners = _(" and ").join(names[s] for s in result["winners"])
    return _("%(why)s (G-END-1): %(winners)s won, by dollars, then set rings (G-SCORE-1).") % {
        "why": why, "winners": winners}


def describe(event: dict[str, Any], names: list[str]) -> str | None:
    """One event in words. Every drawn card is shown to all (G-TURN-1), and a try's outcome is seen by all."""
    kind = event["event"]
    if kind == "end":
        return {"deck": _("The deck is used up: the game ends (G-END-1)."),
                "board": _("No loose diamond is left: the game ends (G-END-1).")}.get(event["reason"],
                                                                                      _("The game ends."))
    words = {**event, "who": names[event["seat"]]}
    if kind == "draw":
        return _("%(who)s draws %(card)s.") % words
    if kind == "set_aside":
        return _("%(card)s is set aside: no steal is possible, so %(who)s draws again (G-STEAL-1).") % words
    if kind == "try":
        if event["outcome"] == "loose":
            return _("%(who)s tries position %(position)s: loose! The diamond goes on %(ring)s.") % words
        return _("%(who)s tries position %(position)s: fixed. It stays, and %(ring)s stays empty.") % words
    if kind == "steal":
        words.update(victim=names[event["victim"]], money=money(event["value"]))
        return _("%(who)s steals the %(money)s diamond from %(victim)s (%(taken_from)s → %(set_on)s); %(victim)s "
                 "plays next.") % words
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
    replay_steps=replay_steps,
    replay_step=gettext_lazy("turn"), default_bot="heuristic", bot_table_ruleset=table_of_four,
    blurb=gettext_lazy("Draw ring cards and guess which of 42 diamonds are loose; steal "
                       "cards rob a set ring of the same value."),
)
