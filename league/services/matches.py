"""Create clubs, players and matches, of any game of engine.games (Match.game).

`create_match` is the one place every match is made (ladders, the lobby, the API, tournaments and their finals,
comparisons, the website's tables against bots), so it is where the rule "no match waits for ever" holds: a table
with a person or an external bot always gets a turn deadline (`turn_deadline_for`), whoever created it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.conf import settings
from django.db import transaction

from engine import InvalidRuleset
from engine.fairness import commitment, new_nonce, new_seed
from engine.games import GAMES, game_type

from ..limits import check_clock, check_turn_deadline, checked_bot_settings
from ..models import Club, DeadlineAction, Match, MatchSeat, MatchStatus, Player
from .clocks import initial_clock_ms
from .names import checked_name, name_written


@transaction.atomic
def create_club(*, name: str, membership: str = "open") -> Club:
    """A club; `membership` "open" (a person joins at once) or "request" (an organiser accepts each)."""
    return Club.objects.create(name=name, membership=membership)


@transaction.atomic
def create_bot_player(*, name: str, kind: str, settings: dict | None = None, clubs: Iterable[Club] = (),
                      house_slot: str | None = None) -> Player:
    """A bot player; `kind` must be a bot of some game of engine.games (Diamonds' random/greedy/search, the newer
    games' random/heuristic). A player is not tied to a game: create_match checks its kind plays the match's.
    The name follows league.services.names' rule (NameRefused), except for a house bot (`house_slot`, made by
    players.house_bots), whose name is the house's own."""
    known = sorted({name for kind_ in GAMES.values() for name in kind_.bots})
    if kind not in known:
        raise ValueError(f"unknown bot {kind!r}; known bots: {', '.join(known)}")
    settings = checked_bot_settings(kind, settings)
    if house_slot is not None:  # the house's loop (players.house_bots) takes the next name on a clash
        player = Player.objects.create(name=name, bot_kind=kind, bot_settings=settings, house_slot=house_slot)
    else:
        name = checked_name(name)
        with name_written(name):
            player = Player.objects.create(name=name, bot_kind=kind, bot_settings=settings)
    player.clubs.set(list(clubs))
    return player


@transaction.atomic
def create_person_player(*, user, name: str | None = None, clubs: Iterable[Club] = ()) -> Player:
    """A person's player (an organiser's roster); the name follows league.services.names' rule (NameRefused)."""
    name = checked_name(name or user.get_username())
    with name_written(name):
        player = Player.objects.create(name=name, user=user)
    player.clubs.set(list(clubs))
    return player


def default_turn_deadline(players: Iterable[Player]) -> int | None:
    """The league's turn deadline for a table of `players` when whoever made it gave none: a person's
    (DIAMONDS_PERSON_TURN_DEADLINE_SECONDS, a few minutes) if a person sits there, else an external bot's
    (DIAMONDS_BOT_TURN_DEADLINE_SECONDS, seconds); None for engine bots alone (the workers play them, nobody waits)."""
    players = list(players)
    if any(not p.is_bot for p in players):
        return check_turn_deadline(settings.DIAMONDS_PERSON_TURN_DEADLINE_SECONDS)
    if any(p.is_external_bot for p in players):
        return check_turn_deadline(settings.DIAMONDS_BOT_TURN_DEADLINE_SECONDS)
    return None


def turn_deadline_for(players: Iterable[Player], requested: int | None, *, offline: bool = False) -> int | None:
    """The turn deadline a table of `players` is played under: the one asked for (an organiser's, the lobby
    table's: longer or shorter than the default, within league.limits' bounds; ValueError past them), else the
    default (default_turn_deadline). Nobody can ask for none where a person or an external bot sits: that would let
    the match wait for ever. A table of real cards (`offline`) is played at the club, so it keeps what it was given."""
    check_turn_deadline(requested)
    if requested is not None or offline:
        return requested
    return default_turn_deadline(players)


@transaction.atomic
def create_match(
    *,
    players: Sequence[Player],
    ruleset,
    seed: str | None = None,
    seed_chosen: bool = False,
    first_dealer: int | None = None,
    club: Club | None = None,
    game: str = "diamonds",
    turn_deadline_seconds: int | None = None,
    deadline_action: str = DeadlineAction.FALLBACK,
    deadline_fallback: str = "random",
    offline: bool = False,
    clock_bank_seconds: int | None = None,
    clock_increment_seconds: int = 0,
) -> Match:
    """A pending match of `game` (a name of engine.games) with `players[s]` at seat s.

    `ruleset` is the game's Ruleset, its dict, or the number of players; the game's engine checks it (its players
    within the game's min/max) and draws the first seat from the seed unless `first_dealer` gives it, so a stored
    match always holds every parameter explicitly. `first_dealer` (and Match.first_dealer) is the seat that acts
    first: Diamonds' first dealer, the first player in the games stored as choices. An engine bot at the table must
    be one of the game's bots (ValueError naming them).

    The turn deadline is `turn_deadline_for`'s: the one asked for, else the league's default for who is seated, and
    never none at a table with a person or an external bot unless it is played with real cards (`offline`). What a
    missed one costs is `deadline_action`, played by `deadline_fallback` (league.services.decisions checks both).

    A chess clock (`clock_bank_seconds`, with `clock_increment_seconds` earned per decision: league.limits.check_clock
    bounds both, ValueError) gives each seat of a person or an external bot that bank (league.services.clocks); the
    decision's deadline is then its clock's. A table of real cards has none."""
    kind = game_type(game)
    ruleset = kind.make_ruleset(ruleset)  # the game's own checks (InvalidRuleset naming its rule)
    if not kind.min_players <= ruleset.players <= kind.max_players:
        raise InvalidRuleset(f"{kind.title} is for {kind.min_players} to {kind.max_players} players, "
                             f"not {ruleset.players}")
    if len(players) != ruleset.players:
        raise InvalidRuleset(f"{ruleset.players} players need {ruleset.players} seats, got {len(players)}")
    if deadline_action not in DeadlineAction.values:
        raise ValueError(f"deadline_action must be one of {', '.join(DeadlineAction.values)}, not {deadline_action!r}")
    if deadline_fallback not in kind.fallback_bots:
        raise ValueError(f"{deadline_fallback!r} is not a fallback bot of {kind.name!r}; its fallbacks: "
                         f"{', '.join(kind.fallback_bots)}")
    turn_deadline_seconds = turn_deadline_for(players, turn_deadline_seconds, offline=offline)
    clock_bank_seconds, clock_increment_seconds = check_clock(clock_bank_seconds, clock_increment_seconds)
    if offline:
        clock_bank_seconds, clock_increment_seconds = None, 0
    if len({p.pk for p in players}) != len(players):
        raise ValueError("a player can take only one seat at a table")
    for p in players:
        if p.is_engine_bot and p.bot_kind not in kind.bots:
            raise ValueError(f"{p.name} is a {p.bot_kind!r} bot, which does not play {kind.title}; "
                             f"{kind.title} bots: {', '.join(sorted(kind.bots))}")
    # The deal's seed comes from the CSPRNG (engine.fairness), never from public values: a tournament passes the
    # one it drew for the table's deal (duplicate twins share it), and a person may choose one for practice
    # (`seed_chosen`, public). Either way the match commits to it now and reveals it once the deal is safe.
    seed = seed if seed is not None else new_seed()
    nonce = new_nonce()
    names = [p.name for p in players]
    engine_game = kind.new_game(ruleset, seed, names, first_seat=first_dealer)
    match = Match.objects.create(
        game=kind.name, ruleset=ruleset.to_dict(), seed=seed, seed_chosen=seed_chosen, nonce=nonce,
        commitment=commitment(seed, nonce), seats=names,
        first_dealer=kind.first_seat_of(engine_game), status=MatchStatus.PENDING, club=club,
        turn_deadline_seconds=turn_deadline_seconds, deadline_action=deadline_action,
        deadline_fallback=deadline_fallback, offline=offline,
        clock_bank_seconds=clock_bank_seconds, clock_increment_seconds=clock_increment_seconds,
    )
    # Only Diamonds has partnerships; in the other games every seat is its own team.
    team_of = getattr(engine_game, "team_of", lambda seat: seat)
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=s, player=p, team=team_of(s), clock_ms=initial_clock_ms(match, p))
        for s, p in enumerate(players)
    )
    return match
