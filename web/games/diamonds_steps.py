"""What happened at a Diamonds table, step by step, as its reader may know it: the steps the page animates and
reads out ("Ben played the 7 of diamonds", "Carla won the trick").

The steps are derived from the reader's own view dict (a seat's SeatView, or a spectator's public view), never
from the game itself: the deals, passes, cards played and Suit Actions every seat saw, plus, for a seat, the cards
it passed and received this round. So a spectator's steps name no passed card, and no step names a vault's total.

Steps are numbered from the game's start (`seq`) and only ever appended to, so a page that shows step 41 animates
the steps after 41 when the table it is sent shows step 44, however many moves one push folded together.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..cards import face, suit_name

# The steps a table carries: enough for the moves a push folds together (a trick and the bots after it).
RECENT_STEPS = 24


def card_words(code: str) -> str:
    return face(code).label


def _list(codes: list[str]) -> str:
    return _(", ").join(card_words(c) for c in codes)


def receiver(seat: int, n: int, partnerships: bool) -> int:
    """Whom `seat` passes to (R-PASS-2): the next seat, or the partner opposite."""
    return (seat + n // 2) % n if partnerships else (seat + 1) % n


def all_steps(state: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """Every step of the game so far, oldest first, each with its `seq` (1-based) and its sentence (`text`)."""
    viewer = state.get("seat")
    partnerships = bool(state.get("ruleset", {}).get("partnerships"))
    pending = state.get("pending") or {}
    rounds = state.get("rounds") or []
    steps: list[dict[str, Any]] = []

    def who(seat: int) -> str:
        return names[seat]

    for r, rnd in enumerate(rounds):
        last = r == len(rounds) - 1
        dealer = rnd["dealer"]
        steps.append({"kind": "deal", "seat": dealer, "round": r + 1, "text": _(
            "Round %(round)s: %(dealer)s deals.") % {"round": r + 1, "dealer": who(dealer)}})
        count = rnd.get("pass_count")
        if count is not None:
            steps.append({"kind": "pass_count", "seat": dealer, "count": count, "text": ngettext(
                "%(dealer)s, the dealer, chose to pass %(count)s card.",
                "%(dealer)s, the dealer, chose to pass %(count)s cards.", count) % {
                "dealer": who(dealer), "count": count}})
            exchanged = not (last and pending.get("kind") == "pass_cards")
            if exchanged:
                steps.append(_pass_step(state, names, count, last, viewer, partnerships))
        actions = list(rnd["actions"])
        i = 0
        tricks = rnd["tricks"]
        for t, trick in enumerate(tricks):
            for play in trick["plays"]:
                seat, code = play["seat"], play["card"]
                text = (_("You played the %(card)s.") % {"card": card_words(code)} if seat == viewer else
                        _("%(name)s played the %(card)s.") % {"name": who(seat), "card": card_words(code)})
                steps.append({"kind": "play", "seat": seat, "card": code, "text": text})
                while i < len(actions) and actions[i]["trick"] == t and actions[i]["cause"] == "offsuit" \
                        and actions[i]["seat"] == seat:
                    steps.append(_action_step(actions[i], names))
                    i += 1
            if trick["winner"] is not None:
                winner = trick["winner"]
                text = _("You won the trick.") if winner == viewer else _("%(name)s won the trick.") % {
                    "name": who(winner)}
                steps.append({"kind": "trick", "seat": winner, "cards": [p["card"] for p in trick["plays"]],
                              "from": [p["seat"] for p in trick["plays"]], "text": text})
                while i < len(actions) and actions[i]["trick"] == t:
                    steps.append(_action_step(actions[i], names))
                    i += 1
        steps.extend(_action_step(a, names) for a in actions[i:])  # the round's end (R-END-2)
    if state.get("over"):
        steps.append({"kind": "over", "text": _("The game is over.")})
    for seq, step in enumerate(steps, 1):
        step["seq"] = seq
    return steps


def recent_steps(state: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    return all_steps(state, names)[-RECENT_STEPS:]


def _pass_step(state: dict[str, Any], names: list[str], count: int, current: bool, viewer: int | None,
               partnerships: bool) -> dict[str, Any]:
    n = len(state["seats"])
    step: dict[str, Any] = {"kind": "pass", "count": count,
                            "moves": [[s, receiver(s, n, partnerships)] for s in range(n)]}
    if partnerships:
        text = ngettext("Everyone passed %(count)s card to their partner.",
                        "Everyone passed %(count)s cards to their partner.", count) % {"count": count}
    else:
        text = ngettext("Everyone passed %(count)s card to the next player.",
                        "Everyone passed %(count)s cards to the next player.", count) % {"count": count}
    # A seat knows what it gave and what it got this round (its view's passed and received), and nothing else.
    gave, got = state.get("passed"), state.get("received")
    if current and viewer is not None and gave and got:
        giver = next(s for s in range(n) if receiver(s, n, partnerships) == viewer)
        to = receiver(viewer, n, partnerships)
        step.update(seat=viewer, gave=list(gave), got=list(got), to=to, giver=giver)
        text += " " + _("You gave %(gave)s to %(to)s and got %(got)s from %(giver)s.") % {
            "gave": _list(gave), "to": names[to], "got": _list(got), "giver": names[giver]}
    step["text"] = text
    return step


def _action_step(a: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A Suit Action: which crystal went where (R-ACT-D/H/S/C). The vault a crystal enters is named, never its
    total."""
    seat, suit, moved, target = a["seat"], a["suit"], a["moved"], a.get("target")
    words = {"name": names[seat], "suit": suit_name(suit), "target": names[target] if target is not None else ""}
    if not moved:
        text = _("%(name)s's %(suit)s action: nothing to move.") % words
        source = destination = None
    elif suit == "D":
        text = _("%(name)s's diamonds action: a crystal from the supply into the vault.") % words
        source, destination = "supply", "vault"
    elif suit == "H":
        text = _("%(name)s's hearts action: a crystal from the supply into the showroom.") % words
        source, destination = "supply", "showroom"
    elif suit == "S":
        text = _("%(name)s's spades action: a crystal from the showroom into the vault.") % words
        source, destination = "showroom", "vault"
    else:
        text = _("%(name)s's clubs action: a crystal taken from %(target)s's showroom.") % words
        source, destination = "showroom", "showroom"
    step = {"kind": "action", "seat": seat, "suit": suit, "moved": moved, "text": text,
            "source": source, "destination": destination}
    if suit == "C" and target is not None:
        step["target"] = target
    return step
