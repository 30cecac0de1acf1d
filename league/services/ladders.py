"""Ladders: a continuous pool of players; each tick seats tables of players of similar rating from the active
entries who are not at a table already, and sends the matches to the workers. Ratings follow each match
(league.services.ratings, via match_finished.on_match_finished).

Seating: only players who are there (an external bot only while it polls: league.selectors.presence), not paused
and not at a table already. The free players sorted by their ladder ordinal (best first; unrated players at the
model's starting ordinal) are cut into consecutive full tables, so a table holds neighbours in the rating order.
Every table with an external bot or a person has a turn deadline (create_match). When they do not fill whole
tables, those who played on the ladder most recently wait for the next tick (a newcomer never waits for being
unrated). Seat order at a table is drawn from the tick's seed.

A ladder is of one game (Ladder.game): its tables are that game's matches, of its table size within the game's
players, and its ratings are its own (per ladder, so per game).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from datetime import timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ..events import emit
from ..limits import check_tables_per_tick
from ..models import (
    Club,
    Ladder,
    LadderEntry,
    Match,
    MatchSeat,
    MatchStatus,
    OutboxKind,
    Player,
    Rating,
    RatingModel,
)
from ..selectors.presence import absent_bot_ids
from . import outbox
from .competition import (
    check_entrants_can_play,
    check_guests_may_enter,
    check_not_paused,
    competition_game,
    shared_ruleset,
    table_ruleset,
)
from .matches import create_match
from .ratings import initial_ordinal


@transaction.atomic
def create_ladder(
    *, name: str, game: str = "diamonds", table_size: int = 4, ruleset: dict | None = None,
    rating_model: str = RatingModel.PLACKETT_LUCE, club: Club | None = None, max_tables_per_tick: int = 50,
) -> Ladder:
    """A ladder of `game`. ValueError for a game, table size (outside the game's players), ruleset or rating model
    that is not known."""
    ruleset = shared_ruleset(ruleset)
    kind = competition_game(game, table_size, ruleset)
    check_tables_per_tick(max_tables_per_tick)
    if rating_model not in RatingModel.values:
        raise ValueError(_("unknown rating model %(model)s; known: %(models)s") % {
            "model": repr(rating_model), "models": ", ".join(RatingModel.values)})
    return Ladder.objects.create(name=name, game=kind.name, table_size=table_size, ruleset=ruleset,
                                 rating_model=rating_model, club=club, max_tables_per_tick=max_tables_per_tick)


# A ladder's game, tables and ratings model shape every rating it has given; what may change keeps them meaningful.
LADDER_CHANGEABLE = frozenset({"name", "active", "max_tables_per_tick"})


@transaction.atomic
def update_ladder(*, ladder: Ladder, **changes) -> Ladder:
    """Rename a ladder, pause or resume it (`active`: a paused ladder seats no new tables; tables in play finish),
    or change how many tables one tick may open. Its game, table size, ruleset and rating model stay what its
    ratings were earned under: ValueError, nothing changed."""
    fixed = sorted(set(changes) - LADDER_CHANGEABLE)
    if fixed:
        raise ValueError(_("a ladder's %(fields)s cannot change (its ratings were earned under them); start a new "
                           "ladder instead") % {"fields": ", ".join(fixed)})
    if "max_tables_per_tick" in changes:
        check_tables_per_tick(changes["max_tables_per_tick"])
    ladder = Ladder.objects.select_for_update().get(pk=ladder.pk)
    for name, value in changes.items():
        setattr(ladder, name, value)
    ladder.save(update_fields=list(changes))
    emit("ladder.changed", ladder_id=ladder.pk)
    return ladder


@transaction.atomic
def join_ladder(*, ladder: Ladder, players: Iterable[Player]) -> list[LadderEntry]:
    """Put players in the pool (again, if they had left). An engine bot must have a bot of the ladder's game
    (ValueError naming the game's bots)."""
    players = list(players)
    check_entrants_can_play(ladder.game, players)
    check_not_paused(players)
    check_guests_may_enter(players, ladder=True)
    out = []
    for p in players:
        entry, _created = LadderEntry.objects.update_or_create(ladder=ladder, player=p, defaults={"active": True})
        out.append(entry)
    emit("ladder.changed", ladder_id=ladder.pk)
    return out


@transaction.atomic
def leave_ladder(*, ladder: Ladder, player: Player) -> None:
    LadderEntry.objects.filter(ladder=ladder, player=player).update(active=False)
    emit("ladder.changed", ladder_id=ladder.pk)


def _busy_player_ids(ids: list[int]) -> set[int]:
    """Players among `ids` who sit at a match that has not ended, in any competition."""
    return set(
        MatchSeat.objects.filter(player_id__in=ids, match__status__in=[MatchStatus.PENDING, MatchStatus.RUNNING])
        .values_list("player_id", flat=True)
    )


@transaction.atomic
def seat_ladder_tables(*, ladder: Ladder, seed: str | None = None) -> list[Match]:
    """Seat one tick's tables of the ladder and record their play for the workers (league.services.outbox), in one
    transaction. Returns the new matches."""
    ladder = Ladder.objects.select_for_update().get(pk=ladder.pk)  # one tick at a time per ladder
    if not ladder.active:
        return []
    # A paused bot keeps its entry but is not seated until its owner resumes it (league.services.bot_pausing); nor
    # is an external bot that is not there (league.selectors.presence): seated, it would only keep its table waiting
    # on deadlines.
    ids = list(LadderEntry.objects.filter(ladder=ladder, active=True, player__paused_at__isnull=True)
               .values_list("player_id", flat=True))
    # A player sits at one match at a time: whether they are busy is read and acted on holding their rows, or two
    # ladders ticking at once would both find the same bot free and seat it twice. A row another tick (or a lobby
    # seat, league.services.caps) holds now is passed over: that player sits this tick out rather than wait.
    ids = list(Player.objects.select_for_update(skip_locked=True).filter(pk__in=ids).order_by("pk")
               .values_list("pk", flat=True))
    busy = _busy_player_ids(ids)
    free = [pid for pid in ids if pid not in busy]
    absent = absent_bot_ids(free)
    free = [pid for pid in free if pid not in absent]
    n = ladder.table_size
    if len(free) < n:
        return []
    ordinal = dict(Rating.objects.filter(ladder=ladder, player_id__in=free).values_list("player_id", "ordinal"))
    start = initial_ordinal(ladder)
    rng = random.Random(seed if seed is not None else secrets.token_hex(8))
    jitter = {pid: rng.random() for pid in free}  # equal ratings (new players) meet different neighbours each tick
    seats = min(len(free) // n, ladder.max_tables_per_tick) * n
    if seats < len(free):
        # Who sits out this tick: those who played here last. By rating alone the lowest (a newcomer is rated
        # below anyone who has won a little) would wait at every tick and never play (aiarena picks the bot that
        # waited longest too).
        last = dict(MatchSeat.objects.filter(match__ladder=ladder, player_id__in=free).values("player_id")
                    .annotate(last=Max("match__created_at")).values_list("player_id", "last"))
        never = timezone.now() - timedelta(days=36500)
        free = sorted(free, key=lambda pid: (last.get(pid) or never, -ordinal.get(pid, start), jitter[pid]))[:seats]
    order = sorted(free, key=lambda pid: (-ordinal.get(pid, start), jitter[pid]))
    tables = [order[i:i + n] for i in range(0, seats, n)]
    players = Player.objects.in_bulk([pid for t in tables for pid in t])
    ruleset = table_ruleset(ladder.ruleset, n, ladder.game)
    matches = []
    for table in tables:
        rng.shuffle(table)
        # The deal's seed is create_match's own, from the CSPRNG: `seed` orders the seating only.
        match = create_match(players=[players[pid] for pid in table], ruleset=ruleset, club=ladder.club,
                             game=ladder.game)
        matches.append(match)
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(ladder=ladder)
    for m in matches:
        m.ladder = ladder
        outbox.record(kind=OutboxKind.PLAY_MATCH, match_id=m.pk)
    return matches


def ladder_tick(*, seed: str | None = None) -> dict[str, int]:
    """Seat tables on every active ladder: {ladder name: tables seated}. Each ladder in its own transaction."""
    out = {}
    for ladder in Ladder.objects.filter(active=True).order_by("pk"):
        out[ladder.name] = len(seat_ladder_tables(ladder=ladder, seed=None if seed is None else f"{seed}/{ladder.pk}"))
    return out
