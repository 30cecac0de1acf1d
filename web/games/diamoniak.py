"""Diamoniak on the website (OTHER-GAMES.md, K- rules): the table drawn from a seat's view dict, the buttons of its
legal decisions, and the replay turn by turn.

Everything on a Diamoniak table is face up but the draw pile, which the view gives only as a size: so the page
shows every castle, side pile and the discard pile, and the draw pile as a number. Witches only ever lie in the
draw or the discard pile, so how many are still to come is public too (8 less those discarded).

Where a purchase's diamond cards go (K-BUY-1) is the match's ruleset: to the seller in every new match, to the
discard pile in a match stored before the spec's correction; the page says which, and its log and replay too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from engine.diamoniak.rules import CASTLE_SIZE, FAIRY_CARDS, PRICE, SELLER, WITCH_CARDS, WITCH_TOLL

from .base import GamePresenter, table_of_four
from .choices import (
    ButtonGroup,
    DecisionButton,
    Frame,
    ResultRow,
    around_the_table,
    decision_button,
    decision_from_post,
    grouped,
    replay_by_turns,
    result_rows,
    waiting_for,
)

# The engine's card kinds and castle colours (engine.diamoniak.rules: card names "red-3", "witch-2") in the reader's
# language; the French are the rulebook's cartes « château », « diamant », « sorcière », « fée ».
WORDS = {"red": gettext_lazy("red"), "blue": gettext_lazy("blue"), "green": gettext_lazy("green"),
         "yellow": gettext_lazy("yellow"), "diamond": gettext_lazy("diamond"), "witch": gettext_lazy("witch"),
         "fairy": gettext_lazy("fairy")}


def word(engine_word: str) -> str:
    return str(WORDS.get(engine_word, engine_word))


def card_label(name: str) -> str:
    """A card as a reader sees it: "red-3" in English, "rouge-3" in French."""
    head, _dash, number = name.rpartition("-")
    return f"{word(head)}-{number}" if head else name


LOG_LENGTH = 12  # events shown on the live table, newest first (the replay has them all)


@dataclass
class CardChip:
    name: str  # the engine's card name: "red-3", "diamond-7", "witch-2", "fairy-1"
    kind: str  # "castle", "diamond", "witch" or "fairy"
    colour: str  # a castle card's colour, else ""

    @property
    def label(self) -> str:
        return card_label(self.name)


def chip(name: str) -> CardChip:
    head = name.rsplit("-", 1)[0]
    if head in ("diamond", "witch", "fairy"):
        return CardChip(name, head, "")
    return CardChip(name, "castle", head)


@dataclass
class CastleSeat:
    seat: int
    name: str
    colour: str | None  # the castle's colour once the seat has one (K-CASTLE-1)
    castle: list[CardChip]
    side_castle_cards: list[CardChip]  # castle cards of other colours in the side pile: what others may buy
    diamonds: int
    fairies: list[CardChip]
    awaited: bool
    viewer: bool

    @property
    def castle_size(self) -> int:
        return len(self.castle)

    @property
    def colour_name(self) -> str:
        return word(self.colour) if self.colour else ""


@dataclass
class DiamoniakTable:
    state: dict[str, Any]
    seats: list[CastleSeat]
    me: CastleSeat | None
    others: list[CastleSeat]
    prompt: str
    decision: str  # the pending kind the viewer owes ("" when none): the form's data-kind
    groups: list[ButtonGroup] = field(default_factory=list)
    draw_size: int = 0
    discard_size: int = 0
    discard_top: CardChip | None = None
    witches_to_come: int = 0
    fairies_to_come: int = 0
    turn: int = 0
    max_turns: int = 0
    log: list[str] = field(default_factory=list)
    result: list[ResultRow] | None = None
    ending: str = ""
    castle_target: int = CASTLE_SIZE
    witch_toll: int = WITCH_TOLL
    price: int = PRICE
    pays_seller: bool = True  # K-BUY-1: a purchase's diamond cards go to the seller (else to the discard pile)


def build_table(state: dict[str, Any], names: list[str]) -> DiamoniakTable:
    n = len(state["seats"])
    viewer = state.get("seat")
    over = state["over"]
    awaited = set((state.get("pending") or {}).get("seats") or [])
    seats = []
    for s in range(n):
        colour = state["colours"][s]
        side = [chip(c) for c in state["sides"][s]]
        seats.append(CastleSeat(
            seat=s, name=names[s], colour=colour, castle=[chip(c) for c in state["castles"][s]],
            side_castle_cards=[c for c in side if c.kind == "castle"],
            diamonds=sum(c.kind == "diamond" for c in side), fairies=[c for c in side if c.kind == "fairy"],
            awaited=s in awaited and not over, viewer=s == viewer,
        ))
    discard = [chip(c) for c in state["discard_pile"]]
    fairies_out = sum(len(s.fairies) for s in seats) + sum(c.kind == "fairy" for c in discard)
    me = seats[viewer] if viewer is not None else None
    table = DiamoniakTable(
        state=state, seats=seats, me=me, others=around_the_table(seats, viewer, over),
        prompt="", decision="", draw_size=state["draw_size"], discard_size=len(discard),
        discard_top=discard[-1] if discard else None,
        witches_to_come=WITCH_CARDS - sum(c.kind == "witch" for c in discard),
        fairies_to_come=FAIRY_CARDS - fairies_out, turn=state["turn"], max_turns=state["ruleset"]["max_turns"],
        pays_seller=state["ruleset"]["buy_pays"] == SELLER,
        log=[line for e in state["events"][::-1] if (line := describe(e, names))][:LOG_LENGTH],
    )
    if over:
        table.result = result_rows(state, names, "castle", "diamonds")
        table.ending = ending(state["result"], names)
        table.prompt = _("The game is over.") + " " + table.ending
    elif me is not None and state.get("my_turn"):
        table.decision = state["pending"]["kind"]
        table.prompt = my_prompt(state, me)
        table.groups = grouped(buttons(state, me, names))
    else:
        table.prompt = waiting_prompt(state, names)
    return table


def my_prompt(state: dict[str, Any], me: CastleSeat) -> str:
    pending = state["pending"]
    kinds = {d["kind"] for d in state["legal"]}
    if pending["kind"] == "turn":
        if "pass" in kinds:
            return (_("Both the draw pile and the discard pile are empty: buy a castle card, or pass (K-DECK-1).")
                    if "buy" in kinds else
                    _("Both the draw pile and the discard pile are empty: you pass (K-DECK-1)."))
        if "buy" in kinds:
            if state["ruleset"]["buy_pays"] == SELLER:
                text = _("Your turn: draw a card (K-TURN-1), or buy a %(colour)s castle card from another player's "
                         "side pile for %(price)s diamond cards, paid to the seller (K-BUY-1).")
            else:
                text = _("Your turn: draw a card (K-TURN-1), or buy a %(colour)s castle card from another player's "
                         "side pile for %(price)s diamond cards, paid to the discard pile (K-BUY-1).")
            return text % {"colour": me.colour_name, "price": PRICE}
        return _("Your turn: draw a card (K-TURN-1).")
    if pending["kind"] == "draw_more":
        if "draw" not in kinds:
            return _("Nothing is left to draw: stop (K-DECK-1).")
        return _("Draw again, or stop and keep what you have (K-TURN-1). A witch would end your turn.")
    due = pending["count"]
    if "fairy" in kinds:
        text = ngettext("A witch! Discard %(count)s more card from your castle or side pile — or use a fairy to "
                        "discard the witch and the fairy and keep everything (K-WITCH-1).",
                        "A witch! Discard %(count)s more cards from your castle or side pile — or use a fairy to "
                        "discard the witch and the fairy and keep everything (K-WITCH-1).", due)
    else:
        text = ngettext("A witch! Discard %(count)s more card from your castle or side pile (K-WITCH-1).",
                        "A witch! Discard %(count)s more cards from your castle or side pile (K-WITCH-1).", due)
    return text % {"count": due}


def buttons(state: dict[str, Any], me: CastleSeat, names: list[str]) -> list[DecisionButton]:
    in_castle = {c.name for c in me.castle}
    again = state["pending"]["kind"] == "draw_more"
    out = []
    for d in state["legal"]:
        kind = d["kind"]
        if kind == "draw":
            out.append(decision_button(_("Draw again") if again else _("Draw a card"), d))
        elif kind == "stop":
            out.append(decision_button(_("Stop: end my turn"), d))
        elif kind == "pass":
            out.append(decision_button(_("Pass"), d))
        elif kind == "buy":
            out.append(decision_button(_("%(card)s from %(seller)s") % {"card": card_label(d["card"]),
                                                                        "seller": names[d["seller"]]}, d,
                                       _("Buy for %(price)s diamond cards") % {"price": PRICE}))  # who is paid: prompt
        elif kind == "fairy":
            out.append(decision_button(_("Use a fairy: keep everything"), d, _("Pay the witch")))
        elif kind == "discard":
            label = (_("Discard %(card)s (castle)") if d["card"] in in_castle else _("Discard %(card)s (side pile)"))
            out.append(decision_button(label % {"card": card_label(d["card"])}, d, _("Pay the witch")))
    return out


def waiting_prompt(state: dict[str, Any], names: list[str]) -> str:
    who = {"who": waiting_for(state, names)}
    kind = (state.get("pending") or {}).get("kind", "")
    return {
        "turn": _("Waiting for %(who)s to draw or buy.") % who,
        "draw_more": _("Waiting for %(who)s to draw again or stop.") % who,
        "witch": _("%(who)s drew a witch and is choosing what to discard.") % who,
    }.get(kind, _("Waiting for %(who)s.") % who)


def ending(result: dict[str, Any], names: list[str]) -> str:
    winners = {"winners": _(" and ").join(names[s] for s in result["winners"]), "size": CASTLE_SIZE}
    if result["reason"] == "castle":
        return _("%(winners)s completed a castle of %(size)s and won at once (K-WIN-1).") % winners
    return _("No castle was completed within the turn limit: places go by castle size, then diamond cards "
             "(K-WIN-1); %(winners)s won.") % winners


def describe(event: dict[str, Any], names: list[str]) -> str | None:
    """One event of the game in words (the events are public: every drawn card is shown, K-TURN-1)."""
    kind = event["event"]
    if kind == "reshuffle":
        return _("The discard pile (%(count)s cards) is shuffled into a new draw pile (K-DECK-1).") % {
            "count": event["cards"]}
    if kind == "end":
        return _("The game ends.")
    words = {"who": names[event["seat"]], "card": card_label(event["card"]) if "card" in event else ""}
    if kind == "draw":
        if event["to"] == "discard":
            return _("%(who)s draws %(card)s: a witch! It goes to the discard pile.") % words
        if event["to"] == "castle":
            return _("%(who)s draws %(card)s → castle.") % words
        return _("%(who)s draws %(card)s → side pile.") % words
    if kind == "colour":
        return _("%(who)s now builds the %(colour)s castle (K-CASTLE-1).") % {**words, "colour": word(event["colour"])}
    if kind == "discard":
        if event["source"] == "castle":
            return _("%(who)s discards %(card)s from the castle.") % words
        return _("%(who)s discards %(card)s from the side pile.") % words
    if kind == "fairy":
        return _("%(who)s uses %(card)s: the witch takes nothing else.") % words
    if kind == "buy":
        words.update(seller=names[event["seller"]], paid=", ".join(card_label(c) for c in event["paid"]))
        # records made before the correction have no `paid_to`: their payment went to the discard pile
        if event.get("paid_to") == SELLER:
            return _("%(who)s buys %(card)s from %(seller)s, paying %(paid)s to %(seller)s (K-BUY-1).") % words
        return _("%(who)s buys %(card)s from %(seller)s, paying %(paid)s to the discard pile (K-BUY-1).") % words
    if kind == "stop":
        return _("%(who)s stops.") % words
    if kind == "pass":
        return _("%(who)s passes: nothing is left to draw (K-DECK-1).") % words
    return None


def replay_steps(record: dict[str, Any]) -> Iterator[Callable[[], Frame]]:
    return replay_by_turns(record, build_table=build_table, describe=describe)


DIAMONIAK = GamePresenter(
    name="diamoniak", table_template="web/games/diamoniak_table.html",
    replay_template="web/games/diamoniak_replay.html", build_table=build_table, decision_json=decision_from_post,
    replay_steps=replay_steps,
    replay_step=gettext_lazy("turn"), default_bot="heuristic", bot_table_ruleset=table_of_four,
    blurb=gettext_lazy("Draw cards to build a castle of six in your colour; witches take "
                       "three of your cards, fairies save them."),
)
