"""`python manage.py demo`: the whole service on a laptop in one command.

Creates the database if needed, a club with a dozen bot players (search, greedy and random bots), and runs a short
seated tournament through the workers with a progress bar, then prints the standings. With nothing configured it
runs embedded (SQLite, tasks in this process); with DATABASE_URL and REDIS_URL set, real workers play it.

`--game diamoniak` or `--game ringrace` plays that game instead, with its bots (heuristic and random) unless
`--bots` says otherwise; tables of 4 suit all three games (Diamoniak seats at most 4).
"""

from __future__ import annotations

from django.core.management import call_command

from engine.games import game_type
from league.models import Club, Player
from league.services import create_bot_player, create_club

from .run_tournament import Command as RunTournament

# A small search budget keeps the demo under a minute; `diamonds play` and the arena use the full default.
DEMO_BOT_SETTINGS = {"search": {"playouts": 100}}
# The demo's field per game: every bot the game has, the strongest first.
DEMO_BOTS = {"diamonds": "search,greedy,random", "diamoniak": "heuristic,random", "ringrace": "heuristic,random"}


class Command(RunTournament):
    help = "Run a short demo tournament of a dozen bots in a demo club and print the standings."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.set_defaults(players=12, rounds=3, table_size=4, top=0, seed="demo")

    def handle(self, *args, **options):
        call_command("migrate", verbosity=0, interactive=False)
        self.club = Club.objects.filter(name="Demo Club").first() or create_club(name="Demo Club")
        game = game_type(options["game"])
        options["bots"] = options["bots"] or DEMO_BOTS[game.name]
        options["name"] = options["name"] or ("Demo Club night" if game.name == "diamonds"
                                              else f"Demo Club {game.title} night")
        return super().handle(*args, **options)

    def _bots(self, n: int, kinds: list[str]) -> list[Player]:
        """The club's bots, `{kind}-{k}` with the kinds in turn; the same players again on a second run."""
        players = []
        for i in range(n):
            kind = kinds[i % len(kinds)]
            name = f"{kind}-{i // len(kinds) + 1}"
            player = Player.objects.filter(name=name).first()
            if player is None:
                player = create_bot_player(name=name, kind=kind, settings=DEMO_BOT_SETTINGS.get(kind, {}),
                                           clubs=[self.club])
            players.append(player)
        return players
