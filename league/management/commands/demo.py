"""`python manage.py demo`: the whole service on a laptop in one command.

Creates the database if needed, a club with a dozen bot players (search, greedy and random bots), and runs a short
seated tournament through the workers with a progress bar, then prints the standings. With nothing configured it
runs embedded (SQLite, tasks in this process); with DATABASE_URL and REDIS_URL set, real workers play it.
"""

from __future__ import annotations

from django.core.management import call_command

from league.models import Club, Player
from league.services import create_bot_player, create_club

from .run_tournament import Command as RunTournament

# A small search budget keeps the demo under a minute; `diamonds play` and the arena use the full default.
DEMO_BOT_SETTINGS = {"search": {"playouts": 100}}


class Command(RunTournament):
    help = "Run a short demo tournament of a dozen bots in a demo club and print the standings."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.set_defaults(players=12, rounds=3, table_size=4, bots="search,greedy,random", top=0, seed="demo",
                            name="Demo Club night")

    def handle(self, *args, **options):
        call_command("migrate", verbosity=0, interactive=False)
        self.club = Club.objects.filter(name="Demo Club").first() or create_club(name="Demo Club")
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
