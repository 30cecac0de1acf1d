"""A game's parameters. Variants are parameters, not subclasses: partnerships, Perfect Diamonds, clubs mode."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ..common.ruleset_fields import fields_of, one_of, whole_number, yes_no
from ..errors import InvalidRuleset

ROUNDS_BY_PLAYERS = {2: 4, 3: 6, 4: 4, 5: 5, 6: 6}  # R-ROUNDS-1
# R-PERFECT-1: players -> (deck_ranks, hand_size)
PERFECT_DECK = {5: (15, 12), 4: (13, 13), 3: (9, 12), 2: (8, 16)}
STANDARD_HAND_SIZE = 10
SUPPLY_POINTS = 235  # 110 small + 25 large crystals of 5
STARTING_SHOWROOM = 3  # R-SETUP-1
CLUBS_MODES = ("thief", "choose")
# The bounds of the fields a ruleset may override (R-ROUNDS-1 "a ruleset may override this"). Decision: at most 20
# rounds (more than three times the rulebook's longest game), so a game always ends within a bounded number of
# decisions whatever a request asks for; hand_size is bounded by the deck (every hand dealt from it, R-DEAL-1).
MAX_ROUNDS = 20
MAX_DECK_RANKS = 15
MAX_HAND_SIZE = 4 * MAX_DECK_RANKS // 2  # two players dealt the whole 60-card deck
FIELDS = ("players", "partnerships", "perfect", "clubs", "rounds", "hand_size", "deck_ranks")


@dataclass(frozen=True)
class Ruleset:
    """Everything that decides how a game is played, apart from the seed and the players' choices.

    Leave `clubs`, `rounds`, `hand_size` and `deck_ranks` as None to take the rulebook's values;
    `Ruleset.of(...)` fills them in so that a stored ruleset is always explicit.
    """

    players: int
    partnerships: bool = False
    perfect: bool = False
    # None asks for the rulebook's value, which __post_init__ fills in: a built ruleset always holds one.
    clubs: str = None  # type: ignore[assignment]
    rounds: int = None  # type: ignore[assignment]
    hand_size: int = None  # type: ignore[assignment]
    deck_ranks: int = None  # type: ignore[assignment]
    teams: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)

    if TYPE_CHECKING:  # what the constructor takes, for the type checker (the dataclass writes the real one)
        def __init__(self, players: int, partnerships: bool = False, perfect: bool = False, clubs: str | None = None,
                     rounds: int | None = None, hand_size: int | None = None, deck_ranks: int | None = None) -> None:
            ...

    def __post_init__(self) -> None:
        n = whole_number("players", self.players, 2, 6)
        yes_no("partnerships", self.partnerships, rule="R-TEAM-1")
        yes_no("perfect", self.perfect, rule="R-PERFECT-1")
        if self.partnerships and n not in (4, 6):
            raise InvalidRuleset("R-TEAM-1: partnerships are played with 4 or 6 players")
        if self.perfect and n not in PERFECT_DECK:
            raise InvalidRuleset("R-PERFECT-1: Perfect Diamonds is for 2 to 5 players")
        if self.clubs is not None:
            one_of("clubs", self.clubs, CLUBS_MODES, rule="R-ACT-C")
        clubs = self.clubs or ("choose" if n == 2 or self.partnerships else "thief")
        if clubs == "thief" and (n == 2 or self.partnerships):
            raise InvalidRuleset("R-ACT-C: the Thief is used only with 3-6 players without partners")
        deck_ranks, hand_size = PERFECT_DECK[n] if self.perfect else (15, STANDARD_HAND_SIZE)
        if self.deck_ranks is not None:
            deck_ranks = whole_number("deck_ranks", self.deck_ranks, 1, MAX_DECK_RANKS, rule="R-DEAL-1")
        if self.hand_size is not None:
            hand_size = whole_number("hand_size", self.hand_size, 1, MAX_HAND_SIZE, rule="R-DEAL-1")
        rounds = ROUNDS_BY_PLAYERS[n]
        if self.rounds is not None:
            rounds = whole_number("rounds", self.rounds, 1, MAX_ROUNDS, rule="R-ROUNDS-1")
        if hand_size * n > 4 * deck_ranks:
            raise InvalidRuleset(f"R-DEAL-1: {n} hands of {hand_size} do not fit in a deck of {4 * deck_ranks} cards")
        if n == 2 and hand_size % 2:
            raise InvalidRuleset("R-TWO-1: with 2 players the hand size must be even (two cards each per trick)")
        object.__setattr__(self, "clubs", clubs)
        object.__setattr__(self, "deck_ranks", deck_ranks)
        object.__setattr__(self, "hand_size", hand_size)
        object.__setattr__(self, "rounds", rounds)
        half = n // 2
        teams: tuple[tuple[int, ...], ...]
        teams = tuple((s, s + half) for s in range(half)) if self.partnerships else tuple((s,) for s in range(n))
        object.__setattr__(self, "teams", teams)

    @property
    def team_count(self) -> int:
        return len(self.teams)

    @property
    def tricks_per_round(self) -> int:
        return self.hand_size // 2 if self.players == 2 else self.hand_size

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("teams")
        return d

    @classmethod
    def from_dict(cls, data: object, *, new: bool = False) -> Ruleset:
        """A ruleset from its stored (JSON) fields; InvalidRuleset naming any field that is unknown or out of
        bounds. `new` (a game about to be made rather than a stored one) is the same for Diamonds: none of its
        rules has been corrected since games were stored (see engine.common.ruleset_dict)."""
        return cls(**fields_of(data, FIELDS))
