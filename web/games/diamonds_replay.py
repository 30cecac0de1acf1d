"""A finished game's replay: the table after each step of its record (the deal, the pass, every trick).

Each frame is the engine's own replay of the record cut off after that step (engine.from_record), so the hands,
showrooms, vaults and the Thief are what the rules derive, never recomputed here. A step's replay is run only when
the page's window holds the step (web.games.replay).

Each frame also carries what happened since the frame before it, as the live table's steps (diamonds_steps, told as a
spectator knows them): the page moves and reads out those steps when the reader steps forward by one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import card_str, from_record

from .diamonds_steps import all_steps
from .diamonds_table import Felt, SeatBox, action_line, slot_of, trick_cards


@dataclass
class Frame:
    title: str
    hands: list[list[str]]
    showrooms: list[int]  # per seat (a partnership's seats show their team's)
    vaults: list[int]
    supply: int
    thief: int | None
    trick: list[dict]  # the step's trick: [{"name", "card", "seat"}]
    winner: str | None
    passes: list[list[str]] | None
    actions: list[str]
    names: list[str] = field(default_factory=list)
    dealer: int | None = None
    tricks_won: list[int] = field(default_factory=list)
    round_info: str = ""
    steps: list[dict] = field(default_factory=list)  # what happened since the previous frame (diamonds_steps)

    @cached_property
    def felt(self) -> Felt:
        """The frame on the live page's table: the first seat at the bottom, every hand face up (a finished
        game's record is public), the step's trick in the middle, gathered by its winner."""
        n = len(self.names)
        seats = [SeatBox(seat=s, name=self.names[s], showroom=self.showrooms[s], vault=self.vaults[s],
                         hand_size=len(self.hands[s]), tricks_won=self.tricks_won[s] if self.tricks_won else 0,
                         dealer=s == self.dealer, thief=s == self.thief, awaited=False, viewer=False, team=s,
                         slot=slot_of(s, 0, n), faces=self.hands[s])
                 for s in range(n)]
        trick = trick_cards([p for p in self.trick if "seat" in p], self.names,
                            {s: slot_of(s, 0, n) for s in range(n)})
        winner_slot = next((b.slot for b in seats if b.name == self.winner), None) if self.winner else None
        return Felt(seats=seats, trick=trick, trick_done=self.winner is not None, trick_winner=self.winner,
                    winner_slot=winner_slot, led=trick[0]["card"][0] if trick else None, supply=self.supply,
                    round_info=self.round_info)


def _cut(record: dict[str, Any], r: int, rnd: dict[str, Any]) -> dict[str, Any]:
    cut = {k: v for k, v in record.items() if k not in ("result", "complete")}
    cut["rounds"] = [*record["rounds"][:r], rnd]
    return cut


def _told(record: dict[str, Any], r: int) -> list[list[dict[str, Any]]]:
    """Round r's steps as a spectator of the live table was told them, in the replay's frames: the deal, the pass,
    then each trick from its first card to the Suit Actions its end brought (the last with the round's end). The
    rounds before it stand in as bare deals: their steps are not wanted."""
    bare = [{"dealer": rnd["dealer"], "tricks": [], "actions": []} for rnd in record["rounds"][:r]]
    state = {"seat": None, "ruleset": record["ruleset"], "seats": record["seats"],
             "rounds": [*bare, record["rounds"][r]]}
    steps = all_steps(state, list(record["seats"]))[r:]
    frames: list[list[dict[str, Any]]] = [steps[:1], [s for s in steps if s["kind"] in ("pass_count", "pass")]]
    trick_over = True  # a play after a trick's end (or the round's first) starts the next trick's frame
    for step in steps:
        if step["kind"] == "play" and trick_over:
            frames.append([])
        if step["kind"] in ("play", "trick"):
            trick_over = step["kind"] == "trick"
        if len(frames) > 2:
            frames[-1].append(step)
    return frames


def replay_steps(record: dict[str, Any]) -> Iterator[Callable[[], Frame]]:
    """Every step of the record, each drawn on demand (web.games.replay)."""
    names = list(record["seats"])
    n = len(names)
    rounds = len(record["rounds"])
    told: dict[int, list[list[dict[str, Any]]]] = {}  # a round's steps by frame, told once a window needs them

    def snap(title, rnd_cut, r, *, trick=None, winner=None, passes=None, actions=(), round_over=False,
             part: int) -> Frame:
        game = from_record(_cut(record, r, rnd_cut))
        hands = [[] for _ in range(n)] if round_over else [sorted_cards(h) for h in game.hands]
        teams = [game.team_of(s) for s in range(n)]  # showrooms and vaults are per team: shown per seat
        return Frame(title, hands, [game.showroom[t] for t in teams], [game.vault[t] for t in teams],
                     game.supply, game.thief,
                     trick or [], winner, passes, [action_line(a, names) for a in actions], names=names,
                     dealer=rnd_cut["dealer"], tricks_won=[game.tricks_won(s) for s in range(n)],
                     round_info=_("Round %(round)s of %(rounds)s") % {"round": r + 1, "rounds": rounds},
                     steps=steps_of(r, part))

    def steps_of(r: int, part: int) -> list[dict[str, Any]]:
        """What frame `part` of round r shows happening (0: the deal, 1: the pass, 2 on: each trick)."""
        if r not in told:
            told[r] = _told(record, r)
        parts = told[r]
        return parts[part] if part < len(parts) else []

    for r, rnd in enumerate(record["rounds"]):
        dealt = {**rnd, "pass_count": None, "passes": None, "clubs_targets": [], "tricks": [], "actions": []}
        yield partial(snap, _("Round %(round)s: the deal (%(dealer)s deals)") % {"round": r + 1,
                                                                              "dealer": names[rnd["dealer"]]}, dealt, r,
                      part=0)
        if rnd.get("passes") is None:
            continue
        passed = {**rnd, "tricks": [], "actions": []}
        count = rnd["pass_count"]
        title = ngettext("Round %(round)s: everyone passes %(count)s card",
                         "Round %(round)s: everyone passes %(count)s cards", count) % {"round": r + 1, "count": count}
        yield partial(snap, title, passed, r, passes=rnd["passes"], part=1)
        tricks = rnd["tricks"]
        for t, trick in enumerate(tricks):
            last = t == len(tricks) - 1
            upto = {**rnd, "tricks": tricks[:t + 1]}
            acts = [a for a in rnd["actions"] if a["trick"] == t or (last and a["trick"] is None)]
            winner = names[trick["winner"]] if trick["winner"] is not None else None
            where = {"round": r + 1, "trick": t + 1, "winner": winner}
            if not winner:
                title = _("Round %(round)s, trick %(trick)s") % where
            elif last:
                title = _("Round %(round)s, trick %(trick)s: %(winner)s wins it, and the round ends") % where
            else:
                title = _("Round %(round)s, trick %(trick)s: %(winner)s wins it") % where
            yield partial(snap, title, upto, r,
                          trick=[{"name": names[p["seat"]], "card": p["card"], "seat": p["seat"]}
                                 for p in trick["plays"]],
                          winner=winner, actions=acts, round_over=last and winner is not None,
                          part=2 + t)


def sorted_cards(hand) -> list[str]:
    return [card_str(c) for c in sorted(hand)]
