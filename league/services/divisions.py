"""A season's divisions: setting how many and how many go up and down, putting players in them, closing the season
(which decides who goes up and down from each division's final standings) and putting the next season's divisions
together from those moves. The rules are league.divisions' (pure); this stores what they decide.

Decisions:
- A season of one division has no Division rows: everyone who plays its tournaments is in its one table, as before
  divisions existed. Splitting it later starts the divisions empty; the organiser places the players.
- The divisions' order is their standings' order: the season's first game (league.selectors.standings.season_game),
  ranked among each division's players over every match of the season's tournaments (a player's results count
  whoever they met). A tie still standing after every tie-break is settled at a zone's edge by that order.
- Up and down must fit each division: a division's promotion and relegation zones may not overlap. Settings that
  would not fit the divisions as they are now are refused (divisions still empty are not counted: they are being
  filled); closing is refused while any division does not fit, an empty one included. Moving players between
  divisions is never refused for that: the page says what does not fit, and closing waits until it does.
- The organiser places only the club's members (guests included) by hand; carrying a season over from the last one
  takes its players as they were, even those who have left the club since (the organiser takes them out).
- A closed season changes no more (its moves are kept with each player: DivisionMember.movement); reopening it
  forgets them, and a season already made from them stays as it is.

Every refusal is a DivisionError (a ValueError) saying why, and changes nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from django.db import transaction
from django.db.models import Q, TextChoices
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..divisions import movements, regrouped, reshuffled, split, zone_problems
from ..limits import MAX_DIVISION_MOVES, MAX_DIVISIONS
from ..models import (
    Division,
    DivisionMember,
    League,
    Player,
    Rating,
    Season,
    Tournament,
    TournamentStatus,
)
from ..selectors.divisions import member_ids, previous_season
from ..selectors.standings import season_division_standings, season_game, season_games, season_standings

DIVISION_NAME_MAX_LENGTH = 60


class DivisionError(ValueError):
    """A change to a season's divisions that is refused: nothing was changed."""


class Placing(TextChoices):
    """How a new season's players are put in its divisions."""

    PREVIOUS = "previous", gettext_lazy("by the last season's finish (with its promotions and relegations)")
    RATING = "rating", gettext_lazy("by rating, best in Division 1")
    HAND = "hand", gettext_lazy("by hand, on the season's divisions page")


def default_name(number: int) -> str:
    return _("Division %(number)s") % {"number": number}


def check_division_settings(count: int, promoted: int, relegated: int) -> None:
    """The bounds of the numbers themselves (their fit with the divisions' sizes is checked where those are known)."""
    if not 1 <= count <= MAX_DIVISIONS:
        raise DivisionError(_("A season has 1 to %(most)s divisions.") % {"most": MAX_DIVISIONS})
    for value in (promoted, relegated):
        if not 0 <= value <= MAX_DIVISION_MOVES:
            raise DivisionError(_("Promotions and relegations are 0 to %(most)s.") % {"most": MAX_DIVISION_MOVES})


def _problem_text(divisions: list[Division], sizes: list[int], promoted: int, relegated: int, *,
                  skip_empty: bool) -> str | None:
    problems = zone_problems(sizes, promoted, relegated, skip_empty=skip_empty)
    if not problems:
        return None
    p = problems[0]
    return _("%(division)s has %(size)s players: %(up)s going up and %(down)s going down do not fit. Lower the "
             "promotions or relegations, or move players into it.") % {
        "division": divisions[p.index].name, "size": p.size, "up": p.up, "down": p.down}


def _locked(season: Season) -> Season:
    return Season.objects.select_for_update().select_related("league").get(pk=season.pk)


def _check_open(season: Season) -> None:
    if season.closed_at is not None:
        raise DivisionError(_("%(season)s is closed: reopen it to change its divisions.") % {"season": season.name})


def _sizes(season: Season, divisions: list[Division]) -> list[int]:
    counts = {d.pk: 0 for d in divisions}
    for division_id in DivisionMember.objects.filter(season=season).values_list("division_id", flat=True):
        counts[division_id] += 1
    return [counts[d.pk] for d in divisions]


@transaction.atomic
def set_divisions(*, season: Season, count: int, promoted: int, relegated: int) -> Season:
    """Split the season into `count` divisions (new ones are added at the bottom, empty; removed ones must be empty
    already; 1 drops the split) with `promoted` up and `relegated` down between each two. DivisionError if refused
    (module docstring)."""
    check_division_settings(count, promoted, relegated)
    season = _locked(season)
    _check_open(season)
    divisions = list(Division.objects.filter(season=season).order_by("number"))
    current = len(divisions) or 1
    if count < current:
        dropped = divisions[count:] if count > 1 else divisions[1:]
        full = [d for d, size in zip(divisions, _sizes(season, divisions)) if d in dropped and size]
        if full:
            raise DivisionError(_("%(division)s still has players: move them to another division first.")
                                % {"division": full[0].name})
        if count == 1:
            DivisionMember.objects.filter(season=season).delete()
            Division.objects.filter(season=season).delete()
            divisions = []
        else:
            Division.objects.filter(pk__in=[d.pk for d in dropped]).delete()
            divisions = divisions[:count]
    elif count > 1:
        taken = {d.name for d in divisions}
        for number in range(len(divisions) + 1, count + 1):
            name = default_name(number)
            while name in taken:
                name = f"{name} ({number})"
            taken.add(name)
            divisions.append(Division.objects.create(season=season, number=number, name=name))
    if divisions:
        problem = _problem_text(divisions, _sizes(season, divisions), promoted, relegated, skip_empty=True)
        if problem:
            raise DivisionError(problem)
    season.promoted, season.relegated = promoted, relegated
    season.save(update_fields=["promoted", "relegated"])
    return season


@transaction.atomic
def rename_divisions(*, season: Season, names: Mapping[int, str]) -> None:
    """Rename divisions by number ({2: "Second division"}): each name non-empty and different from the others."""
    season = _locked(season)
    divisions = {d.number: d for d in Division.objects.filter(season=season)}
    unknown = set(names) - set(divisions)
    if unknown:
        raise DivisionError(_("The season has no division %(number)s.") % {"number": min(unknown)})
    wanted = {number: d.name for number, d in divisions.items()}
    for number, name in names.items():
        name = " ".join(str(name).split())
        if not name or len(name) > DIVISION_NAME_MAX_LENGTH:
            raise DivisionError(_("A division's name is 1 to %(most)s characters.")
                                % {"most": DIVISION_NAME_MAX_LENGTH})
        wanted[number] = name
    if len(set(wanted.values())) < len(wanted):
        raise DivisionError(_("Two divisions cannot have the same name."))
    changed = [d for number, d in divisions.items() if d.name != wanted[number]]
    # Through names nobody would choose first (random ones), so that two divisions may swap theirs (each name is
    # unique in its season).
    for d in changed:
        d.name = uuid.uuid4().hex
        d.save(update_fields=["name"])
    for d in changed:
        d.name = wanted[d.number]
        d.save(update_fields=["name"])


def _club_members(league: League, player_ids) -> set[int]:
    return set(Player.objects.filter(pk__in=player_ids, clubs=league.club_id).values_list("pk", flat=True))


@transaction.atomic
def place_players(*, season: Season, placing: Mapping[int, int | None]) -> int:
    """Put players in divisions: {player id: division number, or None to take them out of every division}. Only
    the club's members are put in; taking out anyone placed is always allowed. Returns how many changed."""
    season = _locked(season)
    _check_open(season)
    divisions = {d.number: d for d in Division.objects.filter(season=season)}
    if not divisions:
        raise DivisionError(_("%(season)s has one division: everyone who plays is in it.") % {"season": season.name})
    bad = [n for n in placing.values() if n is not None and n not in divisions]
    if bad:
        raise DivisionError(_("The season has no division %(number)s.") % {"number": bad[0]})
    current = {m.player_id: m for m in DivisionMember.objects.filter(season=season, player_id__in=list(placing))}
    entering = [pid for pid, number in placing.items() if number is not None and pid not in current]
    outsiders = set(entering) - _club_members(season.league, entering)
    if outsiders:
        names = ", ".join(sorted(Player.objects.filter(pk__in=outsiders).values_list("name", flat=True)))
        raise DivisionError(_("Only the club's members play in its league's divisions: %(names)s.")
                            % {"names": names or ", ".join(map(str, sorted(outsiders)))})
    changed = 0
    for pid, number in placing.items():
        member = current.get(pid)
        if number is None:
            if member is not None:
                member.delete()
                changed += 1
        elif member is None:
            DivisionMember.objects.create(season=season, division=divisions[number], player_id=pid)
            changed += 1
        elif member.division_id != divisions[number].pk:
            member.division = divisions[number]
            member.save(update_fields=["division"])
            changed += 1
    return changed


def _standings_order(season: Season) -> list[int]:
    """A season's players best first: division by division (top first) when it is divided, else its one table."""
    ids = member_ids(season)
    if ids:
        tables = season_division_standings(season=season, divisions=ids)
        return [row.player_ids[0] for rows in tables for row in rows]
    return [row.player_ids[0] for row in season_standings(season=season)]


def _carried_over(season: Season) -> list[list[int]]:
    """The divisions a season hands on: a closed divided season's after its moves, else its players in standings
    order as one list."""
    if season.closed_at is not None:
        rows = (DivisionMember.objects.filter(season=season)
                .order_by("division__number", "final_rank", "id").values_list("division_id", "player_id",
                                                                              "movement"))
        by_division: dict[int, list[tuple[int, str]]] = {
            d.pk: [] for d in Division.objects.filter(season=season).order_by("number")}
        for division_id, pid, move in rows:
            by_division[division_id].append((pid, move))
        if by_division:
            return reshuffled(list(by_division.values()))
    return [_standings_order(season)]


def _league_game(league: League) -> str:
    """The game a league's ratings are read in: that of its newest season with tournaments, else Diamonds."""
    for season in Season.objects.filter(league=league).order_by("-created_at", "-pk"):
        games = season_games(season)
        if games:
            return games[0]
    return "diamonds"


def _by_rating(league: League) -> list[int]:
    """The club's members, best global rating (in the league's game) first, the unrated after them by name."""
    game = _league_game(league)
    members = list(Player.objects.filter(clubs=league.club_id).order_by("name").values_list("pk", flat=True))
    ordinal = dict(Rating.objects.filter(Q(ladder__isnull=True), game=game, player_id__in=members)
                   .values_list("player_id", "ordinal"))
    return sorted(members, key=lambda pid: (pid not in ordinal, -ordinal.get(pid, 0.0)))


def first_divisions(*, season: Season, count: int, placing: str,
                    from_season: Season | None = None) -> list[list[int]]:
    """Who a new season's `count` divisions start with (player ids, top division first), as `placing` says."""
    if placing == Placing.HAND:
        return [[] for _ in range(count)]
    if placing == Placing.RATING:
        return split(_by_rating(season.league), count)
    if placing != Placing.PREVIOUS:
        raise DivisionError(_("Players are put in divisions by the last season, by rating or by hand."))
    source = from_season or previous_season(season)
    if source is None:
        raise DivisionError(_("The league has no season before this one: put the players in by rating or by hand."))
    if source.league_id != season.league_id or source.pk == season.pk:
        raise DivisionError(_("The divisions are carried over from another season of the same league."))
    return regrouped(_carried_over(source), count)


@transaction.atomic
def set_up_divisions(*, season: Season, count: int, promoted: int, relegated: int, placing: str = Placing.HAND,
                     from_season: Season | None = None) -> Season:
    """A new season's divisions and their first players (first_divisions), which the organiser reviews and changes
    (place_players) before it starts; refused if the zones do not fit the divisions so filled. With one division
    there is nothing to place."""
    season = set_divisions(season=season, count=count, promoted=promoted, relegated=relegated)
    if count == 1:
        return season
    divisions = list(Division.objects.filter(season=season).order_by("number"))
    groups = first_divisions(season=season, count=count, placing=placing, from_season=from_season)
    DivisionMember.objects.bulk_create(DivisionMember(season=season, division=division, player_id=pid)
                                       for division, ids in zip(divisions, groups) for pid in ids)
    problem = _problem_text(divisions, [len(ids) for ids in groups], promoted, relegated, skip_empty=True)
    if problem:
        raise DivisionError(problem)
    return season


@transaction.atomic
def close_season(*, season: Season) -> Season:
    """Close the season: each division's final standings (the season's first game) decide who goes up and who goes
    down (league.divisions.movements), kept with each player. Refused while one of its tournaments is running, or
    while a division's zones do not fit its players."""
    season = _locked(season)
    if season.closed_at is not None:
        raise DivisionError(_("%(season)s is closed already.") % {"season": season.name})
    running = Tournament.objects.filter(season=season, status=TournamentStatus.RUNNING).first()
    if running is not None:
        raise DivisionError(_("%(tournament)s is still running: finish or cancel it before closing the season.")
                            % {"tournament": running.name})
    divisions = list(Division.objects.filter(season=season).order_by("number"))
    if divisions:
        ids = member_ids(season)
        problem = _problem_text(divisions, [len(i) for i in ids], season.promoted, season.relegated,
                                skip_empty=False)
        if problem:
            raise DivisionError(problem)
        tables = season_division_standings(season=season, divisions=ids, game=season_game(season, None))
        members = {m.player_id: m for m in DivisionMember.objects.filter(season=season)}
        for index, rows in enumerate(tables):
            order = [row.player_ids[0] for row in rows]
            moves = movements(order, index, len(divisions), season.promoted, season.relegated)
            for place, pid in enumerate(order, start=1):
                member = members[pid]
                member.final_rank, member.movement = place, moves[pid]
        DivisionMember.objects.bulk_update(members.values(), ["final_rank", "movement"])
    season.closed_at = timezone.now()
    season.save(update_fields=["closed_at"])
    return season


@transaction.atomic
def reopen_season(*, season: Season) -> Season:
    """Undo closing: its moves are forgotten (a season already made from them stays as it is)."""
    season = _locked(season)
    if season.closed_at is None:
        raise DivisionError(_("%(season)s is not closed.") % {"season": season.name})
    DivisionMember.objects.filter(season=season).update(final_rank=None, movement="")
    season.closed_at = None
    season.save(update_fields=["closed_at"])
    return season
