"""`python manage.py schedule_tournament`: seat a tournament without playing it (league.scheduling's command).
`--game` seats tables the game can play (Diamoniak at most 4 players)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from engine.games import GAMES
from league.scheduling import FORMATS
from league.scheduling.cli import main as scheduling_main


class Command(BaseCommand):
    help = "Seat N players for R rounds in a format, without playing, and print the seating's quality figures."

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=list(GAMES), default="diamonds")
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--table-size", type=int, default=4)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--format", choices=FORMATS, default="fixed")
        parser.add_argument("--seed", default="0")
        parser.add_argument("--partnership", action="store_true")
        parser.add_argument("--show", action="store_true", help="also print every table of every round")

    def handle(self, *args, **options):
        argv = ["--players", str(options["players"]), "--table-size", str(options["table_size"]),
                "--rounds", str(options["rounds"]), "--format", options["format"], "--seed", options["seed"],
                "--max-players", str(GAMES[options["game"]].max_players)]
        argv += ["--partnership"] * options["partnership"] + ["--show"] * options["show"]
        if scheduling_main(argv) != 0:
            raise CommandError("the seating could not be built (see above)")
