"""Load a stored match back into an engine `Game` by replaying its stored choices.

This is how a resumed worker continues a match and how a person's decision is applied: the rows hold the
choices (deals, pass counts, passes, plays, clubs targets), the engine re-derives everything else, and what it
derives must agree with the stored rows. Alongside the game comes `StoredMarks`, a note of how much of the game
is already stored, so the writer (league.services.progress) stores only what is new.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import CLUBS_TARGET, Game, IllegalDecision, Ruleset, parse_card, parse_cards

from ..models import Match, MatchRound, MatchStatus, SuitAction, Trick


class StoredPlayError(Exception):
    """The stored rows of a match cannot be replayed, or disagree with what the rules derive from them."""


@dataclass
class RoundMark:
    """How much of one round is stored."""

    pass_count: int | None = None
    passes: list | None = None
    clubs_targets: int = 0
    tricks: int = 0  # trick rows stored
    last_plays: int = 0  # plays in the last stored trick row
    last_has_winner: bool = False
    actions: int = 0  # SuitAction rows stored


@dataclass
class StoredMarks:
    """How much of a match is stored: one RoundMark per stored round."""

    rounds: list[RoundMark] = field(default_factory=list)


def load_match_game(match: Match) -> tuple[Game, StoredMarks]:
    """The match's game as its stored rows leave it, and the marks of what is stored. Raises StoredPlayError."""
    if match.status == MatchStatus.PENDING:
        # Nothing is stored before a match leaves `pending` (services mark it running first): no rows to read.
        return replay_stored(match, [], {}), StoredMarks()
    rounds = list(MatchRound.objects.filter(match=match).order_by("index"))
    tricks: dict[int, list[Trick]] = {}
    for t in Trick.objects.filter(match=match).order_by("round", "index"):
        tricks.setdefault(t.round, []).append(t)
    action_counts: dict[int, int] = {}
    for r in SuitAction.objects.filter(match=match).values_list("round", flat=True):
        action_counts[r] = action_counts.get(r, 0) + 1
    game = replay_stored(match, rounds, tricks)
    marks = StoredMarks()
    for r in rounds:
        stored_tricks = tricks.get(r.index, [])
        log = game.rounds[r.index]
        if action_counts.get(r.index, 0) != len(log.actions):
            raise StoredPlayError(
                f"match {match.pk} round {r.index}: {action_counts.get(r.index, 0)} Suit Actions stored, "
                f"the rules derive {len(log.actions)}"
            )
        for t in stored_tricks:
            if t.winner is not None and t.winner != log.tricks[t.index].winner:
                raise StoredPlayError(f"match {match.pk} round {r.index} trick {t.index}: stored winner disagrees")
        last = stored_tricks[-1] if stored_tricks else None
        marks.rounds.append(RoundMark(
            pass_count=r.pass_count,
            passes=r.passes,
            clubs_targets=len(r.clubs_targets),
            tricks=len(stored_tricks),
            last_plays=len(last.plays) if last else 0,
            last_has_winner=last is not None and last.winner is not None,
            actions=len(log.actions),
        ))
    return game, marks


def replay_stored(match: Match, rounds: list[MatchRound], tricks: dict[int, list[Trick]]) -> Game:
    """Feed the stored choices to a fresh game, in the order they were made.

    The game keeps `auto_clubs` on, as in live play, so a clubs target with one option is applied without a
    decision exactly as it was live, and `move_number` comes out as it was live: bots are seeded from it.
    """
    try:
        game = Game(
            Ruleset.from_dict(match.ruleset), match.seed, match.seats,
            deals=[r.hands for r in rounds], first_dealer=match.first_dealer,
        )
    except (IllegalDecision, ValueError) as e:
        raise StoredPlayError(f"match {match.pk}: cannot set up its game: {e}") from None
    for r in rounds:
        index = r.index
        if game.round != index:
            raise StoredPlayError(f"match {match.pk}: round {index} is stored but the game is in round {game.round}")
        targets = r.clubs_targets or []

        try:
            if r.pass_count is None:
                break
            game.choose_pass_count(game.dealer, r.pass_count)
            for seat, cards in enumerate(r.passes or []):
                if cards is not None:
                    game.pass_cards(seat, parse_cards(cards))
            for t in tricks.get(index, []):
                for play in t.plays:
                    _settle_clubs(game, index, targets)
                    game.play(play["seat"], parse_card(play["card"]))
            _settle_clubs(game, index, targets)
        except (IllegalDecision, ValueError, KeyError, TypeError) as e:
            raise StoredPlayError(f"match {match.pk} round {index}: stored choice refused: {e}") from None
    return game


def _settle_clubs(game: Game, index: int, targets: list) -> None:
    """Answer pending clubs targets of round `index` from its stored list; stop where the stored choices end."""
    while game.pending is not None and game.pending.kind == CLUBS_TARGET and game.round == index:
        k = len(game.rounds[index].clubs_targets)
        if k >= len(targets):
            return
        game.choose_clubs_target(game.pending.seats[0], targets[k])
