"""What one seat may see: its own hand and vault, every showroom, the Thief, the cards played, the decision
it owes. Other hands and vaults appear only once the game is over. Bots and the API see games only this way.
"""

from __future__ import annotations

from typing import Any, cast

from ..common.seat_view import SeatViewBase
from .cards import SUITS, Card, card_str
from .game import CLUBS_TARGET, PASS_CARDS, PASS_COUNT, PLAY, Action, Game, Play, RoundLog
from .ruleset import Ruleset


class SeatView(SeatViewBase):
    """A read-only window on a game for one seat. Fields are computed on demand (bots read only a few).

    The seat, the decision it owes (`pending`, `my_turn`, `legal`), `move_number`, `players` and `over` come
    from `SeatViewBase`, which the other games' views share. `cards_to_play()` answers in one call what the
    bots ask most (is a card owed, and which may be played), for the speed of playouts and benchmarks.
    """

    __slots__ = ()
    _game: Game

    def cards_to_play(self) -> list[Card] | None:
        """`legal` (the same cards in the same order) when a card play is what this seat owes, else None.

        The bots' hot path: one call tells both that a card is owed and which cards may be played.
        """
        g, seat = self._game, self.seat
        if g.phase is not PLAY or g._order[g._pos] != seat:
            return None
        hand = g.hands[seat]
        led = g._led
        if led >= 0 and g._suit_count[seat][led]:
            return [c for c in hand if c >> 4 == led]  # R-FOLLOW-1, as Game.legal
        return hand[:]  # R-OFFSUIT-1 (or leading)

    # the table ----------------------------------------------------------------------------------------
    @property
    def ruleset(self) -> Ruleset:
        return self._game.ruleset

    @property
    def hand(self) -> list[Card]:
        return sorted(self._game.hands[self.seat])

    @property
    def team(self) -> int:
        return self._game.team_of(self.seat)

    @property
    def vault(self) -> int:
        """This seat's own (team's) vault."""
        return self._game.vault[self._game.team_of(self.seat)]

    @property
    def showrooms(self) -> list[int]:
        """Per team (per seat without partnerships)."""
        return list(self._game.showroom)

    @property
    def supply(self) -> int:
        return self._game.supply

    @property
    def thief(self) -> int | None:
        return self._game.thief

    @property
    def round(self) -> int:
        return self._game.round

    @property
    def dealer(self) -> int:
        return self._game.dealer

    @property
    def pass_count(self) -> int | None:
        return self._game.pass_count

    @property
    def passed(self) -> list[Card] | None:
        """The cards this seat chose to pass this round."""
        return self._game.passed_by(self.seat)

    @property
    def received(self) -> list[Card] | None:
        """The cards passed to this seat this round, once the exchange has happened."""
        g = self._game
        if g.phase == PASS_CARDS or not all(g.pending_passes):
            return None
        giver = (self.seat - g.n // 2) % g.n if g.ruleset.partnerships else (self.seat - 1) % g.n
        return g.passed_by(giver)

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        t = self._game.current_trick
        return [(p.seat, p.card) for p in t.plays] if t is not None else []

    @property
    def led_suit(self) -> int | None:
        t = self.current_trick
        return t[0][1] >> 4 if t else None

    @property
    def tricks_won(self) -> list[int]:
        return [self._game.tricks_won(s) for s in range(self._game.n)]

    # what the whole table has seen, for bots that remember -----------------------------------------------
    @property
    def trick_index(self) -> int:
        """The index of the current trick in this round (-1 before the first lead)."""
        return self._game.trick_index

    @property
    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self._game.hands]

    @property
    def round_plays(self) -> list[tuple[int, int, Card]]:
        """Every card played this round as (trick index, seat, card), in order; the current trick's too."""
        log = self._game.rounds[-1] if self._game.rounds else None
        if log is None or not self._game._logging:
            return []
        return [(p.trick, p.seat, p.card) for t in log.tricks for p in t.plays]

    @property
    def trick_leaders(self) -> list[int]:
        """The leader of each trick of this round so far (the led suit is the first card's)."""
        log = self._game.rounds[-1] if self._game.rounds else None
        return [t.leader for t in log.tricks] if log is not None and self._game._logging else []

    @property
    def won_cards(self) -> list[list[int]]:
        """Per seat, the cards of each suit (D, H, S, C) won in tricks this round: seen by all as they fell."""
        return [self._game.won_cards(s) for s in range(self._game.n)]

    @property
    def events(self) -> list[Play | Action]:
        """Every card played and every Suit Action taken since the game began (all of them public)."""
        return list(self._game.events)

    def determinize(self, hands: list[list[Card]], seed: str) -> Game:
        """A copy of the game for search in which what this seat cannot see is replaced by guesses.

        `hands[s]` replaces seat s's hand for every other seat (this seat's own entry is ignored); `seed`
        replaces the game's seed, so later deals are fresh guesses too. The copy keeps no record. While cards
        are being passed, the other seats' choices are hidden: in the copy they have not chosen yet.
        """
        g = self._game
        if g.phase not in (PLAY, CLUBS_TARGET, PASS_COUNT, PASS_CARDS):
            raise ValueError("the game is over")
        copy = g.clone(logging=False)
        own, n = self.seat, g.n
        copy.set_hidden_hands([g.hands[s] if s == own else hands[s] for s in range(n)])
        copy.seed = seed
        copy._deals = []
        if g.phase in (PASS_COUNT, PASS_CARDS):
            copy._passes = [list(p) if s == own and p is not None else None for s, p in enumerate(g._passes)]
        else:  # only this seat's pass and the one it received are known; the others are spent anyway
            giver = (own - n // 2) % n if g.ruleset.partnerships else (own - 1) % n
            passes = cast("list[list[Card]]", g._passes)  # every seat chose its cards before the play began
            copy._passes = [list(passes[s]) if s in (own, giver) else [] for s in range(n)]
        return copy

    def to_dict(self) -> dict[str, Any]:
        """The JSON the API sends to this seat. Nothing here belongs to another seat while the game runs."""
        g, seat = self._game, self.seat
        pending = g.pending
        data: dict[str, Any] = {
            "seat": seat,
            "seats": list(g.seats),
            "ruleset": g.ruleset.to_dict(),
            "teams": [list(t) for t in g.ruleset.teams] if g.ruleset.partnerships else None,
            "move_number": g.move_number,
            "round": g.round,
            "dealer": g.dealer,
            "thief": g.thief,
            "supply": g.supply,
            "showrooms": list(g.showroom),
            "vault": self.vault,
            "hand": [card_str(c) for c in self.hand],
            "hand_sizes": [len(h) for h in g.hands],
            "pass_count": g.pass_count,
            "passed": _cards(self.passed),
            "received": _cards(self.received),
            "rounds": [_public_round(r) for r in g.rounds],
            "tricks_won": self.tricks_won,
            "pending": None if pending is None else {
                "kind": pending.kind, "seats": list(pending.seats), "count": pending.count,
            },
            "my_turn": self.my_turn,
            "legal": [_option(x, pending.kind) for x in self.legal] if pending else [],
            "over": g.over,
        }
        if g.over and g.result is not None:
            data["result"] = {k: list(v) for k, v in g.result._asdict().items()}
            data["vaults"] = list(g.vault)
            data["dealt_hands"] = [[card_str(c) for c in h] for h in g.rounds[-1].hands] if g.rounds else None
        return data


def _cards(cards: list[Card] | None) -> list[str] | None:
    return None if cards is None else [card_str(c) for c in cards]


def _option(x: int, kind: str) -> str | int:
    return card_str(x) if kind in ("play", "pass_cards") else x


def _public_round(r: RoundLog) -> dict[str, Any]:
    """What the whole table saw of a round: who led, every card played, every Suit Action."""
    return {
        "dealer": r.dealer,
        "pass_count": r.pass_count,
        "tricks": [
            {"leader": t.leader, "plays": [{"seat": p.seat, "card": card_str(p.card)} for p in t.plays],
             "winner": t.winner}
            for t in r.tricks
        ],
        "actions": [
            {"seat": a.seat, "suit": SUITS[a.suit], "cause": a.cause, "trick": a.trick, "target": a.target,
             "moved": a.moved}
            for a in r.actions
        ],
    }
