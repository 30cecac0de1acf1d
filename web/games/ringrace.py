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

from engine.ringrace.rules import LOOSE

from .base import GamePresenter, table_of_four
from .choices import (
    Around,
    BoardMove,
    ButtonGroup,
    DecisionButton,
    Frame,
    ResultRow,
    around_the_table,
    board_moves,
    decision_button,
    decision_from_post,
    final_public_view,
    grouped,
    replay_by_turns,
    result_rows,
    seats_around,
    waiting_for,
)

LOG_LENGTH = 12
BOARD_COLUMNS = 7  # the 42 positions (G-SETUP-1) in 6 rows of 7 (without the board's stylesheet)
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
    def number(self) -> int:
        """The position as people count it: 1 to 42 (the decisions' JSON counts from 0)."""
        return self.position + 1

    @property
    def state_label(self) -> str:
        return str(CELL_LABELS.get(self.state, self.state))

    @property
    def underneath_label(self) -> str:
        return str(CELL_LABELS.get(self.underneath, self.underneath))

    @property
    def label(self) -> str:
        return _("position %(position)s: %(state)s") % {"position": self.number, "state": self.state_label}


@dataclass
class Ring:
    card: str
    value: int
    set: bool  # holds a diamond
    button: DecisionButton | None = None  # the viewer's steal of this ring's diamond, when it is theirs to steal

    @property
    def thousands(self) -> int:
        return self.value // 1000

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

    @property
    def number(self) -> int:
        return self.seat + 1


@dataclass
class Pawn:
    """The searcher: it stands on the position tried last, and moves along the track to the next one tried."""

    position: int
    seat: int
    name: str
    outcome: str  # "loose" or "fixed"

    @property
    def number(self) -> int:
        return self.position + 1

    @property
    def label(self) -> str:
        if self.outcome == "loose":
            return _("The searcher: %(who)s tried position %(position)s last, and found a loose diamond.") % {
                "who": self.name, "position": self.number}
        return _("The searcher: %(who)s tried position %(position)s last: a fixed diamond.") % {
            "who": self.name, "position": self.number}


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
    moves: list[BoardMove] = field(default_factory=list)  # the latest events, oldest first (the log: newest first)
    events: int = 0  # how many events the game has had: the page animates those past what it showed
    result: list[ResultRow] | None = None
    ending: str = ""
    columns: int = BOARD_COLUMNS
    around: Around | None = None
    pawn: Pawn | None = None
    loose_left: int = LOOSE  # loose diamonds still on the board: 26 less those taken (public)

    @property
    def log(self) -> list[BoardMove]:
        return self.moves[::-1]

    @property
    def shows_underneath(self) -> bool:
        """A replay's step says what untried positions turned out to be."""
        return any(c.underneath for c in self.board)

    @property
    def card_value(self) -> int | None:
        """The shown card's value when it is a ring card."""
        return ring_value(self.card) if self.card and self.card.startswith("ring-") else None

    @property
    def card_value_thousands(self) -> int | None:
        return None if self.card_value is None else self.card_value // 1000

    @property
    def card_words(self) -> str:
        if not self.card:
            return ""
        if self.card_value is not None:
            return _("ring card worth %(value)s") % {"value": money(self.card_value)}
        return _("steal card")

    @property
    def buttons(self) -> list[DecisionButton]:
        """Every decision the viewer may make, wherever the board puts it."""
        return [*(c.button for c in self.board if c.button), *(r.button for s in self.seats for r in s.rings
                                                              if r.button)]


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
        button = decision_button(label % {"position": p + 1}, tries[p], _("Try a position")) if p in tries else None
        board.append(BoardCell(p, word, symbol, button))
    me = seats[viewer] if viewer is not None else None
    events = state["events"]
    last_try = next((e for e in reversed(events) if e["event"] == "try"), None)
    table = RingTable(
        state=state, seats=seats, me=me, others=around_the_table(seats, viewer, over),
        board=board, prompt="", card=state.get("card"), deck_size=state["deck_size"], aside=len(state["aside"]),
        counts={word: sum(c.state == word for c in board) for word, _ in CELL_WORDS.values()},
        moves=board_moves(events, names, describe=describe, attrs=move_attrs, last=LOG_LENGTH), events=len(events),
        around=seats_around(seats, viewer),
        pawn=None if last_try is None else Pawn(last_try["position"], last_try["seat"], names[last_try["seat"]],
                                                last_try["outcome"]),
    )
    table.loose_left = LOOSE - table.counts["taken"]
    if over:
        table.result = result_rows(state, names, "totals", "set_rings")
        table.ending = ending(state["result"], names)
        table.prompt = _("The game is over.") + " " + table.ending
    elif mine:
        table.decision = state["pending"]["kind"]
        table.prompt = my_prompt(state)
        steals = []
        for d in state["legal"]:
            if d["kind"] != "steal":
                continue
            button = decision_button(_("Steal the %(value)s diamond from %(victim)s") % {
                "value": money(d["value"]), "victim": names[d["victim"]]}, d, _("Steal"))
            # the ring it comes off (G-STEAL-1: the victim's set ring of that value; the first, as the engine takes)
            ring = next(r for r in seats[d["victim"]].rings if r.set and r.value == d["value"])
            ring.button = button
            steals.append(button)
        table.groups = grouped(steals)
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
    if "position" in event:
        words["position"] = event["position"] + 1  # people count positions from 1
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


def move_attrs(event: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """What the board's script needs to show an event moving (web/static/web/board_ringrace.js)."""
    kind = event["event"]
    out: dict[str, Any] = {"kind": kind}
    if "seat" in event:
        out["seat"] = event["seat"]
    if kind in ("draw", "set_aside"):
        out["card"] = event["card"]
        if event["card"].startswith("ring-"):
            out["value"] = ring_value(event["card"]) // 1000
    elif kind == "try":
        out.update(position=event["position"], outcome=event["outcome"], ring=event["ring"])
    elif kind == "steal":
        out.update({"victim": event["victim"], "taken-from": event["taken_from"], "set-on": event["set_on"]})
    return out


def replay_steps(record: dict[str, Any]) -> Iterator[Callable[[], Frame]]:
    """The table turn by turn. A replay is of a finished game, whose board is public by then (the last frame shows
    it whole), so each earlier step also says what its untried positions turned out to be."""
    final = build_table(final_public_view(record), list(record["seats"])).board
    for draw in replay_by_turns(record, build_table=build_table, describe=describe, attrs=move_attrs):
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
    stylesheets=("web/boards.css",), scripts=("web/boards.js", "web/board_ringrace.js"),
)
