"""The rules every competition keeps, tournaments and ladders alike: the game can seat the table size with the shared
ruleset, its engine-bot entrants have a bot of that game, and no paused bot is entered.

A competition is of one game (a name of engine.games): its tables seat between the game's min_players and
max_players, its ruleset is the game's, and every table's Match is of that game.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from engine.games import GameType, game_type

from ..models import Player


class TournamentError(ValueError):
    """An operation the tournament's state does not allow (registering once it runs, seating past the last round)."""


def table_ruleset(base: dict, players: int, game: str = "diamonds"):
    """The `game`'s engine ruleset of a table of `players` from the competition's shared fields (ValueError,
    the engine's InvalidRuleset for Diamonds, when the game cannot play it)."""
    return game_type(game).make_ruleset({**{k: v for k, v in base.items() if k != "players"}, "players": players})


def shared_ruleset(ruleset: object) -> dict:
    """A competition's ruleset as stored: the game's fields shared by every table, without `players` (each table's
    own). ValueError when it is not an object; its fields are the game's to judge (competition_game)."""
    if ruleset is None:
        return {}
    if not isinstance(ruleset, dict):
        raise ValueError(_("ruleset must be an object of the game's fields, not %(type)s") % {
            "type": type(ruleset).__name__})
    return {k: v for k, v in ruleset.items() if k != "players"}


def competition_game(game: str, table_size: int, ruleset: dict) -> GameType:
    """Check that `game` is one of engine.games and can seat tables of `table_size` with the shared `ruleset`
    (ValueError naming what is wrong); returns its GameType. Shared by tournaments and ladders."""
    kind = game_type(game)
    if not kind.min_players <= table_size <= kind.max_players:
        raise ValueError(_("%(game)s seats %(least)s to %(most)s players at a table, not %(size)s") % {
            "game": kind.title, "least": kind.min_players, "most": kind.max_players, "size": table_size})
    table_ruleset(ruleset, table_size, game)  # the game refuses a ruleset it cannot play
    return kind


def check_entrants_can_play(game: str, players: Iterable[Player]) -> None:
    """An engine bot plays only a game that has its bot kind (search is Diamonds', heuristic the newer games');
    people and external bots play any game. ValueError naming the players and the game's bots."""
    kind = game_type(game)
    wrong = [p for p in players if p.is_engine_bot and p.bot_kind not in kind.bots]
    if wrong:
        names = ", ".join(f"{p.name} ({p.bot_kind})" for p in wrong)
        raise TournamentError(_("%(game)s has no bot for %(names)s; its bots are %(bots)s") % {
            "game": kind.title, "names": names, "bots": ", ".join(sorted(kind.bots))})


def check_not_paused(players: Iterable[Player]) -> None:
    """A paused bot (league.services.bot_pausing) is entered nowhere until its owner resumes it: TournamentError
    naming it. Entrants already in a running tournament stay (see there)."""
    paused = [p.name for p in players if p.is_paused]
    if paused:
        raise TournamentError(_("%(names)s paused: its owner resumes it before it is entered anywhere.")
                              % {"names": ", ".join(paused)})


def check_guests_may_enter(players: Iterable[Player], *, club_id: int | None = None, offline: bool = False,
                           ladder: bool = False) -> None:
    """A guest (a person without an account, on a club's roster) plays only their own club's tournaments whose tables
    are played with real cards (`offline`): they never sign in, so they cannot play online, and the lobby and ladders
    are online. TournamentError naming them."""
    guests = [p for p in players if p.is_guest]
    if not guests:
        return
    names = ", ".join(p.name for p in guests)
    if ladder:
        raise TournamentError(_("%(names)s: a guest has no account, so plays no ladder (ladders are played online); "
                                "enter them in the club's evenings with real cards.") % {"names": names})
    strangers = [p.name for p in guests if p.guest_club_id != club_id]
    if strangers:
        raise TournamentError(_("%(names)s: a guest plays only their own club's tournaments.")
                              % {"names": ", ".join(strangers)})
    if not offline:
        raise TournamentError(_("%(names)s: a guest has no account, so plays only at tables with real cards; this "
                                "tournament's tables are played online.") % {"names": names})
