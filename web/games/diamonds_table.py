"""The table as a page draws it, built from one seat's SeatView dict (or the public view of a spectator).

Everything here comes from the engine's view: nothing reads another seat's hand, and what a seat may do is the
view's `legal` list. This module only arranges it for the templates (who sits where around the oval, what lies in
the middle), puts the rules' reasons into words, and lists the recent steps the page animates and reads out
(diamonds_steps.py). The felt (seats, trick, supply) is drawn by the same template for a live table and for a
replay's frame (diamonds_replay.py builds a `Felt` of its own).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..cards import face, suit_name
from .diamonds_steps import recent_steps

CAUSES = {"offsuit": gettext_lazy("an off-suit card"), "trick": gettext_lazy("winning the trick"),
          "majority": gettext_lazy("the most cards at the round's end"), "no_trick": gettext_lazy("winning no trick")}
ACTION_WORDS = {"D": gettext_lazy("supply → vault"), "H": gettext_lazy("supply → showroom"),
                "S": gettext_lazy("showroom → vault"), "C": gettext_lazy("a crystal taken")}

# Where each seat sits around the oval, counted clockwise from the one at the bottom (the viewer; seat 1 for a
# spectator): the next seat on the bottom one's left, as round a real table (R-PASS-2 passes to it).
SLOTS = {2: ("b", "t"), 3: ("b", "l", "r"), 4: ("b", "l", "t", "r"), 5: ("b", "l", "tl", "tr", "r"),
         6: ("b", "l", "tl", "t", "tr", "r")}
# A showroom draws at most this many crystals; its number is always written beside them.
DRAWN_CRYSTALS = 6
DRAWN_BACKS = 6  # a hand of card backs draws at most this many; its count is written beside it


def slot_of(seat: int, bottom: int, n: int) -> str:
    return SLOTS[n][(seat - bottom) % n]


@dataclass
class SeatBox:
    seat: int
    name: str
    showroom: int
    vault: int | None  # only the viewer's own, until the game is over
    hand_size: int
    tricks_won: int
    dealer: bool
    thief: bool
    awaited: bool
    viewer: bool
    team: int
    slot: str = "b"
    faces: list[str] | None = None  # the hand face up (a replay's): else backs and the count

    @property
    def crystals(self) -> range:
        return range(min(self.showroom, DRAWN_CRYSTALS))

    @property
    def backs(self) -> range:
        return range(min(self.hand_size, DRAWN_BACKS))


@dataclass
class HandCard:
    code: str
    enabled: bool
    reason: str  # why it cannot be chosen now ('' when it can)
    selected: bool = False  # chosen to pass (kept across refreshes)
    tilt: str = ""  # its place in the fan, a CSS class: "t0" in the middle, "tm4" left of it, "t4" right
    received: bool = False  # passed to the viewer this round


@dataclass
class Felt:
    """What lies on the table: the seats around it and the middle (the trick, the supply)."""

    seats: list[SeatBox]
    trick: list[dict] = field(default_factory=list)  # [{"seat", "name", "card", "slot"}]: the trick in the middle
    trick_done: bool = False  # the trick shown is complete (it lies gathered by its winner)
    trick_winner: str | None = None
    winner_slot: str | None = None
    led: str | None = None
    supply: int = 0
    round_info: str = ""

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def spots(self) -> list[SeatBox]:
        """Every seat, for the trick's places in the middle (one in front of each seat)."""
        return self.seats


@dataclass
class Table:
    state: dict[str, Any]
    seats: list[SeatBox]
    me: SeatBox | None
    felt: Felt | None = None
    hand: list[HandCard] = field(default_factory=list)
    prompt: str = ""  # what the viewer is asked to do, or what the table waits for
    decision: str | None = None  # the kind of decision the viewer owes now
    options: list = field(default_factory=list)  # pass counts, or target seats with names
    trick: list[dict] = field(default_factory=list)  # the trick on the table (or the last one, complete)
    trick_done: bool = False
    trick_winner: str | None = None
    led: str | None = None
    actions: list[str] = field(default_factory=list)  # this round's Suit Actions, newest first
    tricks_log: list[dict] = field(default_factory=list)  # this round's complete tricks, newest first
    result: list[dict] | None = None
    steps: list[dict] = field(default_factory=list)  # the recent steps (diamonds_steps), oldest first

    @property
    def fan_columns(self) -> int:
        """The cards in each row of the hand on a phone (at most 7 fit in 390 px): rows as even as they can be."""
        n = len(self.hand)
        rows = max(1, -(-n // 7))
        return max(1, -(-n // rows))

    @property
    def last_seq(self) -> int:
        return self.steps[-1]["seq"] if self.steps else 0


def team_of(state: dict[str, Any], seat: int) -> int:
    teams = state.get("teams")
    if not teams:
        return seat
    return next(t for t, members in enumerate(teams) if seat in members)


def build_table(state: dict[str, Any], names: list[str]) -> Table:
    n = len(state["seats"])
    viewer = state.get("seat")
    over = state["over"]
    pending = state.get("pending") or {}
    awaited = set(pending.get("seats") or [])
    vaults = state.get("vaults")
    bottom = viewer if viewer is not None else 0
    boxes = []
    for s in range(n):
        t = team_of(state, s)
        vault = vaults[t] if over and vaults else (state.get("vault") if s == viewer else None)
        boxes.append(SeatBox(
            seat=s, name=names[s], showroom=state["showrooms"][t], vault=vault, hand_size=state["hand_sizes"][s],
            tricks_won=state["tricks_won"][s], dealer=s == state["dealer"], thief=s == state.get("thief"),
            awaited=s in awaited and not over, viewer=s == viewer, team=t, slot=slot_of(s, bottom, n),
        ))
    me = boxes[viewer] if viewer is not None else None
    table = Table(state=state, seats=boxes, me=me)
    _trick(table, state, names)
    _actions(table, state, names)
    table.felt = Felt(seats=boxes, trick=table.trick, trick_done=table.trick_done, trick_winner=table.trick_winner,
                      winner_slot=_winner_slot(table), led=table.led, supply=state["supply"],
                      round_info=_round_info(state))
    table.steps = recent_steps(state, names)
    if over:
        table.result = _result(state, names)
        table.prompt = _("The game is over.")
    elif me is not None:
        _my_decision(table, state, names)
        _fan(table.hand, state.get("received") or [])
    else:
        table.prompt = _waiting(pending, names)
    return table


def _fan(hand: list[HandCard], received: list[str]) -> None:
    """Each card's place in the fan (its tilt, -15 to 15 from the middle), and which were just passed to the
    viewer."""
    n = len(hand)
    for i, card in enumerate(hand):
        offset = max(-15, min(15, 2 * i - (n - 1)))
        card.tilt = f"tm{-offset}" if offset < 0 else f"t{offset}"
        card.received = card.code in received


def _winner_slot(table: Table) -> str | None:
    if not table.trick_done or table.trick_winner is None:
        return None
    return next((s.slot for s in table.seats if s.name == table.trick_winner), None)


def _round_info(state: dict[str, Any]) -> str:
    info = _("Round %(round)s of %(rounds)s") % {"round": state["round"] + 1, "rounds": state["ruleset"]["rounds"]}
    if state.get("pass_count"):
        info += " · " + ngettext("passing %(count)s card", "passing %(count)s cards", state["pass_count"]) % {
            "count": state["pass_count"]}
    return info


def _trick(table: Table, state: dict[str, Any], names: list[str]) -> None:
    rounds = state.get("rounds") or []
    if not rounds:
        return
    tricks = rounds[-1]["tricks"]
    complete = [t for t in tricks if t["winner"] is not None]
    table.tricks_log = [
        {"number": i + 1, "plays": [{"name": names[p["seat"]], "card": p["card"]} for p in t["plays"]],
         "winner": names[t["winner"]]}
        for i, t in enumerate(complete)
    ][::-1]
    # A trick just begun (no card yet) shows the last complete one, so its cards stay in view.
    current = tricks[-1] if tricks and tricks[-1]["winner"] is None and tricks[-1]["plays"] else None
    shown = current or (complete[-1] if complete else None)
    if shown is None:
        return
    slots = {s.seat: s.slot for s in table.seats}
    table.trick = trick_cards(shown["plays"], names, slots)
    table.trick_done = current is None
    table.trick_winner = names[shown["winner"]] if shown["winner"] is not None else None
    if shown["plays"]:
        table.led = shown["plays"][0]["card"][0]


def trick_cards(plays: list[dict], names: list[str], slots: dict[int, str]) -> list[dict]:
    """A trick's cards as the felt lays them, each in front of its player; a seat's second card (two players,
    R-TWO-1) a little aside, so both show."""
    seen: set[int] = set()
    cards = []
    for p in plays:
        cards.append({"name": names[p["seat"]], "seat": p["seat"], "card": p["card"], "slot": slots[p["seat"]],
                      "again": p["seat"] in seen})
        seen.add(p["seat"])
    return cards


def action_line(a: dict, names: list[str]) -> str:
    """One Suit Action in words: who, which suit, why, and what moved."""
    what = str(ACTION_WORDS[a["suit"]])
    if a["suit"] == "C" and a["target"] is not None:
        what = _("a crystal from %(name)s's showroom") % {"name": names[a["target"]]}
    moved = "" if a["moved"] else _(" (nothing moved)")
    return _("%(name)s: %(suit)s action for %(cause)s — %(what)s%(moved)s") % {
        "name": names[a["seat"]], "suit": suit_name(a["suit"]), "cause": CAUSES.get(a["cause"], a["cause"]),
        "what": what, "moved": moved}


def _actions(table: Table, state: dict[str, Any], names: list[str]) -> None:
    rounds = state.get("rounds") or []
    if rounds:
        table.actions = [action_line(a, names) for a in rounds[-1]["actions"]][::-1]


def _result(state: dict[str, Any], names: list[str]) -> list[dict]:
    result = state["result"]
    teams = state.get("teams") or [[s] for s in range(len(names))]
    rows = []
    for t, members in enumerate(teams):
        rows.append({"name": " & ".join(names[s] for s in members), "score": result["score"][t],
                     "vault": result["vault"][t], "showroom": result["showroom"][t],
                     "winner": t in result["winners"]})
    return sorted(rows, key=lambda r: (-r["score"], -r["vault"]))


def _waiting(pending: dict, names: list[str]) -> str:
    if not pending:
        return ""
    who = {"who": ", ".join(names[s] for s in pending["seats"])}
    return {
        "pass_count": _("Waiting for the dealer, %(who)s, to choose how many cards to pass.") % who,
        "pass_cards": _("Waiting for %(who)s to choose the cards to pass.") % who,
        "play": _("Waiting for %(who)s to play.") % who,
        "clubs_target": _("Waiting for %(who)s to choose whose showroom clubs rob.") % who,
    }.get(pending["kind"], _("Waiting for %(who)s.") % who)


def _my_decision(table: Table, state: dict[str, Any], names: list[str]) -> None:
    pending = state.get("pending") or {}
    kind = pending.get("kind")
    legal = state.get("legal") or []
    hand = state.get("hand") or []
    mine = state.get("my_turn")
    n = len(names)
    waiting = _waiting(pending, names)
    table.hand = [HandCard(c, False, waiting or _("not your turn")) for c in hand]
    if not mine:
        table.prompt = waiting
        if kind == "pass_cards" and state.get("passed"):
            table.prompt = _("You have passed your cards. %(waiting)s") % {"waiting": waiting}
        return
    table.decision = kind
    if kind == "pass_count":
        table.options = list(legal)
        table.prompt = _("You are the dealer: choose how many cards everyone passes (R-PASS-1).")
        table.hand = [HandCard(c, False, _("first choose how many cards to pass")) for c in hand]
    elif kind == "pass_cards":
        count = pending["count"]
        if state["ruleset"].get("partnerships"):
            to = names[(state["seat"] + n // 2) % n]
        else:
            to = names[(state["seat"] + 1) % n]
        table.prompt = ngettext("Choose %(count)s card to pass to %(to)s (R-PASS-2).",
                                "Choose %(count)s cards to pass to %(to)s (R-PASS-2).", count) % {
            "count": count, "to": to}
        table.options = [count]
        table.hand = [HandCard(c, True, "") for c in hand]
    elif kind == "play":
        allowed = set(legal)
        led = table.led if table.trick and not table.trick_done else None
        if led is None:
            table.prompt = _("Your lead: play any card (R-LEAD-1).")
            reason = ""
        elif all(face(c).suit == led for c in allowed) and len(allowed) < len(hand):
            table.prompt = _("You must follow %(suit)s (R-FOLLOW-1).") % {"suit": suit_name(led)}
            reason = _("you must follow %(suit)s") % {"suit": suit_name(led)}
        else:
            table.prompt = _("You have no %(suit)s: play any card; an off-suit card earns its Suit Action "
                             "(R-OFFSUIT-1).") % {"suit": suit_name(led)}
            reason = ""
        table.hand = [HandCard(c, c in allowed, "" if c in allowed else reason) for c in hand]
    elif kind == "clubs_target":
        table.prompt = _("Clubs action: choose whose showroom you take a crystal from (R-ACT-C).")
        table.options = [{"seat": s, "name": names[s], "showroom": table.seats[s].showroom} for s in legal]
        table.hand = [HandCard(c, False, _("first choose the clubs target")) for c in hand]
