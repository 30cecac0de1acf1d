"""Create clubs, players and matches."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence

from django.db import transaction

from engine import Game, InvalidRuleset, Ruleset
from engine.bots import BOTS

from ..models import Club, Match, MatchSeat, MatchStatus, Player


@transaction.atomic
def create_club(*, name: str) -> Club:
    return Club.objects.create(name=name)


@transaction.atomic
def create_bot_player(*, name: str, kind: str, settings: dict | None = None, clubs: Iterable[Club] = ()) -> Player:
    """A bot player; `kind` must be one of the engine's bots (engine.bots.BOTS)."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r}; known bots: {', '.join(sorted(BOTS))}")
    player = Player.objects.create(name=name, bot_kind=kind, bot_settings=dict(settings or {}))
    player.clubs.set(list(clubs))
    return player


@transaction.atomic
def create_person_player(*, user, name: str | None = None, clubs: Iterable[Club] = ()) -> Player:
    player = Player.objects.create(name=name or user.get_username(), user=user)
    player.clubs.set(list(clubs))
    return player


@transaction.atomic
def create_match(
    *,
    players: Sequence[Player],
    ruleset: Ruleset | dict,
    seed: str | None = None,
    first_dealer: int | None = None,
    club: Club | None = None,
) -> Match:
    """A pending match with `players[s]` at seat s. The engine checks the ruleset and draws the first dealer
    from the seed (unless given), so a stored match always holds every parameter explicitly."""
    if isinstance(ruleset, dict):
        ruleset = Ruleset.from_dict(ruleset)
    if len(players) != ruleset.players:
        raise InvalidRuleset(f"{ruleset.players} players need {ruleset.players} seats, got {len(players)}")
    if len({p.pk for p in players}) != len(players):
        raise ValueError("a player can take only one seat at a table")
    seed = seed if seed is not None else secrets.token_hex(8)
    names = [p.name for p in players]
    game = Game(ruleset, seed, names, first_dealer=first_dealer)
    match = Match.objects.create(
        ruleset=ruleset.to_dict(), seed=seed, seats=names, first_dealer=game.first_dealer,
        status=MatchStatus.PENDING, club=club,
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=s, player=p, team=game.team_of(s)) for s, p in enumerate(players)
    )
    return match
