"""Store what an engine game has done since the last store: new rounds, tricks, Suit Actions, the result.

Called inside the caller's transaction, so one call is one atomic step: a trick with its plays and the Suit
Actions it caused, or one person's decision. What is already stored is known from `StoredMarks`
(league.selectors.games), so nothing is read back and nothing is written twice; the unique constraints on
(match, round, trick) and (match, round, sequence) would refuse a second copy anyway.
"""

from __future__ import annotations

from django.utils import timezone

from engine import PASS_CARDS, SUITS, Game, card_str

from ..models import Match, MatchRound, MatchSeat, MatchStatus, SuitAction, Trick
from ..selectors.games import RoundMark, StoredMarks


def _cards(cards) -> list[str]:
    return [card_str(c) for c in cards]


def _passes(game: Game, index: int) -> list | None:
    """The round's passes as stored: every seat's cards after the exchange; before it, who has chosen what."""
    log = game.rounds[index]
    if log.passes is not None:
        return [_cards(p) for p in log.passes]
    pending = game.pending
    if index == game.round and pending is not None and pending.kind == PASS_CARDS:
        chosen = [game.passed_by(s) for s in range(game.n)]
        if any(c is not None for c in chosen):
            return [None if c is None else _cards(c) for c in chosen]
    return None


def store_progress(*, match: Match, game: Game, marks: StoredMarks, extra: dict | None = None) -> int:
    """Write everything `game` holds beyond `marks` (and update `marks`). Returns the number of tricks completed
    by this write. `extra` adds fields to the match row's update (a lease renewal). Call inside a transaction."""
    new_rounds: list[MatchRound] = []
    new_tricks: list[Trick] = []
    new_actions: list[SuitAction] = []
    completed = 0
    # Rounds before the last stored one were complete when a later round was stored: they cannot change.
    for index in range(max(len(marks.rounds) - 1, 0), len(game.rounds)):
        log = game.rounds[index]
        passes = _passes(game, index)
        if index == len(marks.rounds):
            mark = RoundMark()
            marks.rounds.append(mark)
            new_rounds.append(MatchRound(
                match=match, index=index, dealer=log.dealer, hands=[_cards(h) for h in log.hands],
                pass_count=log.pass_count, passes=passes, clubs_targets=list(log.clubs_targets),
            ))
        else:
            mark = marks.rounds[index]
            if (log.pass_count, passes, len(log.clubs_targets)) != (mark.pass_count, mark.passes, mark.clubs_targets):
                MatchRound.objects.filter(match=match, index=index).update(
                    pass_count=log.pass_count, passes=passes, clubs_targets=list(log.clubs_targets)
                )
        mark.pass_count, mark.passes, mark.clubs_targets = log.pass_count, passes, len(log.clubs_targets)

        tricks = log.tricks
        if mark.tricks:
            last = tricks[mark.tricks - 1]
            if len(last.plays) != mark.last_plays or (last.winner is not None) != mark.last_has_winner:
                # Only a trick stored unfinished (a person's play at a time) is ever written again.
                Trick.objects.filter(match=match, round=index, index=mark.tricks - 1).update(
                    plays=[{"seat": p.seat, "card": card_str(p.card)} for p in last.plays], winner=last.winner
                )
                completed += last.winner is not None
                mark.last_plays, mark.last_has_winner = len(last.plays), last.winner is not None
        for j in range(mark.tricks, len(tricks)):
            t = tricks[j]
            if not t.plays:
                break  # a trick just begun has nothing to store yet (it is always the last)
            new_tricks.append(Trick(
                match=match, round=index, index=j, leader=t.leader, winner=t.winner,
                plays=[{"seat": p.seat, "card": card_str(p.card)} for p in t.plays],
            ))
            completed += t.winner is not None
            mark.tricks, mark.last_plays, mark.last_has_winner = j + 1, len(t.plays), t.winner is not None

        actions = log.actions
        for k in range(mark.actions, len(actions)):
            a = actions[k]
            new_actions.append(SuitAction(
                match=match, round=index, sequence=k, trick=a.trick, seat=a.seat, suit=SUITS[a.suit],
                cause=a.cause, target=a.target, moved=a.moved,
            ))
        mark.actions = len(actions)

    if new_rounds:
        MatchRound.objects.bulk_create(new_rounds)
    if new_tricks:
        Trick.objects.bulk_create(new_tricks)
    if new_actions:
        SuitAction.objects.bulk_create(new_actions)
    now = timezone.now()
    fields = {"move_number": game.move_number, "updated_at": now, **(extra or {})}
    if game.result is not None:
        fields.update(status=MatchStatus.FINISHED, result=game.result._asdict(), finished_at=now)
        _store_seat_results(match, game)
    Match.objects.filter(pk=match.pk).update(**fields)
    for name, value in fields.items():
        setattr(match, name, value)
    return completed


def _store_seat_results(match: Match, game: Game) -> None:
    result = game.result
    teams = len(result.score)
    # Competition ranking by (score, vault), the order R-WIN-1 decides by: tied teams share a placement.
    key = [(result.score[t], result.vault[t]) for t in range(teams)]
    placement = [1 + sum(1 for u in range(teams) if key[u] > key[t]) for t in range(teams)]
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    for ms in seats:
        t = game.team_of(ms.seat)
        ms.team = t
        ms.score, ms.vault, ms.showroom = result.score[t], result.vault[t], result.showroom[t]
        ms.placement = placement[t]
        ms.is_winner = t in result.winners
    MatchSeat.objects.bulk_update(seats, ["team", "score", "vault", "showroom", "placement", "is_winner"])
