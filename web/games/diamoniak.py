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
    grouped,
    replay_by_turns,
    result_rows,
    seats_around,
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

# A castle colour is told by a shape too, drawn on its cards and its castle (the board's stylesheet): never by the
# colour alone.
SHAPES = {"red": "triangle", "blue": "circle", "green": "square", "yellow": "cross"}


@dataclass
class CardChip:
    name: str  # the engine's card name: "red-3", "diamond-7", "witch-2", "fairy-1"
    kind: str  # "castle", "diamond", "witch" or "fairy"
    colour: str  # a castle card's colour, else ""
    button: DecisionButton | None = None  # the viewer's decision on this card, when it is one of theirs now

    @property
    def label(self) -> str:
        return card_label(self.name)

    @property
    def number(self) -> str:
        return self.name.rpartition("-")[2]

    @property
    def shape(self) -> str:
        return SHAPES.get(self.colour, "")

    @property
    def words(self) -> str:
        """The card named for a screen reader: "red castle card 3", "diamond card", "witch card"."""
        return card_words(self.name)


def card_words(name: str) -> str:
    head, _dash, number = name.rpartition("-")
    if head in ("diamond", "witch", "fairy"):
        return {"diamond": _("diamond card"), "witch": _("witch card"), "fairy": _("fairy card")}[head]
    return _("%(colour)s castle card %(number)s") % {"colour": word(head), "number": number}


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
    diamond_button: DecisionButton | None = None  # the witch takes one of the viewer's diamond cards (alike)
    fairy_button: DecisionButton | None = None  # use a fairy against the witch (or give one to it)

    @property
    def castle_size(self) -> int:
        return len(self.castle)

    @property
    def colour_name(self) -> str:
        return word(self.colour) if self.colour else ""

    @property
    def shape(self) -> str:
        return SHAPES.get(self.colour or "", "")

    @property
    def slots(self) -> list[CardChip | None]:
        """The castle's six places (K-WIN-1), built ones first."""
        return [*self.castle, *[None] * max(0, CASTLE_SIZE - len(self.castle))]

    @property
    def tower(self) -> list[CardChip | None]:
        """The castle drawn as a tower of six floors, from the top down: each built floor is a card."""
        return self.slots[::-1]

    @property
    def castle_words(self) -> str:
        """The castle for a screen reader: its size and its cards."""
        if not self.castle:
            return _("Castle: no card yet")
        return _("Castle, %(size)s of %(target)s: %(cards)s") % {
            "size": len(self.castle), "target": CASTLE_SIZE, "cards": ", ".join(c.words for c in self.castle)}

    @property
    def number(self) -> int:
        return self.seat + 1


@dataclass
class DiamoniakTable:
    state: dict[str, Any]
    seats: list[CastleSeat]
    me: CastleSeat | None
    others: list[CastleSeat]
    around: Around
    prompt: str
    decision: str  # the pending kind the viewer owes ("" when none): the form's data-kind
    draw_button: DecisionButton | None = None  # the draw pile, when drawing is the viewer's to do
    actions: list[DecisionButton] = field(default_factory=list)  # the viewer's decisions not on a card or pile
    draw_size: int = 0
    discard_size: int = 0
    discard_top: CardChip | None = None
    witches_to_come: int = 0
    fairies_to_come: int = 0
    turn: int = 0
    max_turns: int = 0
    moves: list[BoardMove] = field(default_factory=list)  # the latest events, oldest first (the log: newest first)
    events: int = 0  # how many events the game has had: the page animates those past what it showed
    result: list[ResultRow] | None = None
    ending: str = ""
    castle_target: int = CASTLE_SIZE
    witch_toll: int = WITCH_TOLL
    price: int = PRICE
    pays_seller: bool = True  # K-BUY-1: a purchase's diamond cards go to the seller (else to the discard pile)

    @property
    def log(self) -> list[BoardMove]:
        return self.moves[::-1]

    @property
    def turn_number(self) -> int:
        """The turn as people count it (from 1); a game ended by the turn limit stays on its last turn."""
        return min(self.turn + 1, self.max_turns)

    @property
    def buttons(self) -> list[DecisionButton]:
        """Every decision the viewer may make, wherever the board puts it."""
        on_cards = [c.button for s in self.seats for c in (*s.castle, *s.side_castle_cards) if c.button]
        on_stacks = [b for s in self.seats for b in (s.diamond_button, s.fairy_button) if b]
        return [*([self.draw_button] if self.draw_button else []), *on_cards, *on_stacks, *self.actions]

    @property
    def groups(self) -> list[ButtonGroup]:
        return grouped(self.buttons)


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
    events = state["events"]
    table = DiamoniakTable(
        state=state, seats=seats, me=me, others=around_the_table(seats, viewer, over),
        around=seats_around(seats, viewer), prompt="", decision="", draw_size=state["draw_size"],
        discard_size=len(discard), discard_top=discard[-1] if discard else None,
        witches_to_come=WITCH_CARDS - sum(c.kind == "witch" for c in discard),
        fairies_to_come=FAIRY_CARDS - fairies_out, turn=state["turn"], max_turns=state["ruleset"]["max_turns"],
        pays_seller=state["ruleset"]["buy_pays"] == SELLER,
        moves=board_moves(events, names, describe=describe, attrs=move_attrs, last=LOG_LENGTH), events=len(events),
    )
    if over:
        table.result = result_rows(state, names, "castle", "diamonds")
        table.ending = ending(state["result"], names)
        table.prompt = _("The game is over.") + " " + table.ending
    elif me is not None and state.get("my_turn"):
        table.decision = state["pending"]["kind"]
        table.prompt = my_prompt(state, me)
        place_buttons(table, state, me, names)
    else:
        table.prompt = waiting_prompt(state, names)
    return table


def place_buttons(table: DiamoniakTable, state: dict[str, Any], me: CastleSeat, names: list[str]) -> None:
    """Each of the viewer's legal decisions on the card or pile it acts on: the draw pile draws, a card in another
    seat's side pile is bought, a card of the viewer's own is given to the witch. Diamond cards are alike (so are
    fairies): the witch takes one of them from the stack, whichever. What acts on no card (stop, pass) is a button
    of its own."""
    again = state["pending"]["kind"] == "draw_more"
    own_cards = {c.name: (c, "castle") for c in me.castle} | {c.name: (c, "side") for c in me.side_castle_cards}
    fairy_discard = None
    for d in state["legal"]:
        kind = d["kind"]
        if kind == "draw":
            table.draw_button = decision_button(
                (_("Draw again from the draw pile (%(count)s cards)") if again else
                 _("Draw a card from the draw pile (%(count)s cards)")) % {"count": table.draw_size}, d, _("Draw"))
        elif kind == "stop":
            table.actions.append(decision_button(_("Stop: end my turn"), d, _("Your move")))
        elif kind == "pass":
            table.actions.append(decision_button(_("Pass"), d, _("Your move")))
        elif kind == "buy":
            seller = table.seats[d["seller"]]
            card = next(c for c in seller.side_castle_cards if c.name == d["card"])
            card.button = decision_button(
                _("Buy the %(card)s from %(seller)s for %(price)s diamond cards") % {
                    "card": card.words, "seller": names[d["seller"]], "price": PRICE},
                d, _("Buy for %(price)s diamond cards") % {"price": PRICE})
        elif kind == "fairy":
            me.fairy_button = decision_button(_("Use a fairy: the witch and the fairy go, you keep everything"), d,
                                              _("Pay the witch"))
        elif kind == "discard":
            name = d["card"]
            if name in own_cards:
                card, where = own_cards[name]
                text = (_("Give the %(card)s from your castle to the witch") if where == "castle" else
                        _("Give the %(card)s from your side pile to the witch"))
                card.button = decision_button(text % {"card": card.words}, d, _("Pay the witch"))
            elif name.startswith("diamond-"):
                if me.diamond_button is None:  # alike: one of them stands for all
                    me.diamond_button = decision_button(
                        _("Give a diamond card to the witch (you have %(count)s)") % {"count": me.diamonds}, d,
                        _("Pay the witch"))
            elif fairy_discard is None:  # a fairy given to the witch as one of the cards it takes
                fairy_discard = decision_button(_("Give a fairy card to the witch"), d, _("Pay the witch"))
    if fairy_discard is not None:
        if me.fairy_button is None:
            me.fairy_button = fairy_discard
        else:
            table.actions.append(fairy_discard)


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


def move_attrs(event: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """What the board's script needs to show an event moving (web/static/web/board_diamoniak.js): the card, from
    where to where, and how it looks and is called while it flies."""
    kind = event["event"]
    out: dict[str, Any] = {"kind": kind}
    if "seat" in event:
        out["seat"] = event["seat"]
    if "card" in event:
        card = chip(event["card"])
        out.update(card=card.name, look=f"castle c-{card.colour}" if card.colour else card.kind, num=card.number,
                   shape=card.shape)
    if kind == "draw":
        out["to"] = event["to"]
    elif kind == "discard":
        out["from"] = event["source"]
    elif kind == "buy":
        out.update({"seller": event["seller"], "paid": len(event["paid"]),
                    "paid-to": "seller" if event.get("paid_to") == SELLER else "discard"})
    elif kind == "reshuffle":
        out["count"] = event["cards"]
    return out


def replay_steps(record: dict[str, Any]) -> Iterator[Callable[[], Frame]]:
    return replay_by_turns(record, build_table=build_table, describe=describe, attrs=move_attrs)


DIAMONIAK = GamePresenter(
    name="diamoniak", table_template="web/games/diamoniak_table.html",
    replay_template="web/games/diamoniak_replay.html", build_table=build_table, decision_json=decision_from_post,
    replay_steps=replay_steps,
    replay_step=gettext_lazy("turn"), default_bot="heuristic", bot_table_ruleset=table_of_four,
    blurb=gettext_lazy("Draw cards to build a castle of six in your colour; witches take "
                       "three of your cards, fairies save them."),
    stylesheets=("web/boards.css",), scripts=("web/boards.js", "web/board_diamoniak.js"),
)
