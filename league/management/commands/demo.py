"""`python manage.py demo`: the whole service on a laptop in one command.

Creates the database if needed, a club with a dozen bot players (search, greedy and random bots), and runs a short
seated tournament through the workers with a progress bar, then prints the standings. With nothing configured it
runs embedded (SQLite, tasks in this process); with DATABASE_URL and REDIS_URL set, real workers play it.

`--game diamoniak` or `--game ringrace` plays that game instead, with its bots (heuristic and random) unless
`--bots` says otherwise; tables of 4 suit all three games (Diamoniak seats at most 4).

It also opens the club's ladder of the game ("Demo ladder"; the fast bots join it), which the web process's ladder
ticks seat (workers/embedded_beat.py) as soon as `python manage.py runserver` runs, and ends by naming the pages to
open and an account that organises the club ("demo-organiser", with a new random password each run: the demo makes
it an organiser of the Demo Club, not staff, so it sees the club's pages as any organiser does).

Safe to run twice: the club, its players and its ladder are reused, and a club night already played is shown again
rather than played a second time (`--again` plays another).
"""

from __future__ import annotations

import secrets
import sys

from django.conf import settings
from django.core.management import call_command
from rich.console import Console

from engine.games import game_type
from league.models import Club, Ladder, Player, Tournament, TournamentStatus
from league.services import create_bot_player, create_club
from league.services.accounts import account_made_by_command
from league.services.ladders import create_ladder, join_ladder
from league.services.players import add_club_admin

from .run_tournament import Command as RunTournament

# A small search budget keeps the demo under a minute; `diamonds play` and the arena use the full default.
DEMO_BOT_SETTINGS = {"search": {"playouts": 100}}
# The account the demo prints to sign in with: it organises the Demo Club.
DEMO_ORGANISER = "demo-organiser"
# The demo's field per game: every bot the game has, the strongest first.
DEMO_BOTS = {"diamonds": "search,greedy,random", "diamoniak": "heuristic,random", "ringrace": "heuristic,random"}


class Command(RunTournament):
    help = "Run a short demo tournament of a dozen bots in a demo club and print the standings."
    club: Club  # the demo club, found or made first thing in handle()

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.set_defaults(players=12, rounds=3, table_size=4, top=0, seed="demo")
        parser.add_argument("--again", action="store_true",
                            help="play another club night even if the demo's has been played")
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server the pages are named on")

    def handle(self, *args, **options):
        call_command("migrate", verbosity=0, interactive=False)
        self.club = Club.objects.filter(name="Demo Club").first() or create_club(name="Demo Club")
        game = game_type(options["game"])
        options["bots"] = options["bots"] or DEMO_BOTS[game.name]
        name = options["name"] or ("Demo Club night" if game.name == "diamonds" else f"Demo Club {game.title} night")
        played = Tournament.objects.filter(name__startswith=name, club=self.club)
        if options["again"] and played.exists():
            name = f"{name} {played.count() + 1}"
        options["name"] = name
        tournament = Tournament.objects.filter(name=name, club=self.club).first()
        if tournament is not None and tournament.status == TournamentStatus.FINISHED:
            # A second run makes no second identical night: it shows the first (and --again plays another).
            self.stdout.write(f"{name} has been played already (tournament {tournament.pk}); its standings again "
                              f"(`python manage.py demo --again` plays another night):")
            self._print_standings(tournament, options["top"], self._console())
        else:
            if tournament is not None:  # an interrupted run's tournament: a fresh one under the next free name
                options["name"] = name = f"{name} {played.count() + 1}"
            super().handle(*args, **options)
            tournament = Tournament.objects.filter(name=name, club=self.club).get()
        ladder = self._ladder(game, options["bots"])
        self._print_pages(options["url"].rstrip("/"), tournament, ladder)
        self._print_organiser(options["url"].rstrip("/"))

    def _print_organiser(self, url: str) -> None:
        """An account that organises the Demo Club, made (or given a new password) now. The password is random, so
        a demo run against a shared database leaves no account anyone could guess into."""
        password = secrets.token_urlsafe(12)
        user = account_made_by_command(username=DEMO_ORGANISER, password=password)
        add_club_admin(club=self.club, user=user)
        self.stdout.write(f"\nSign in as the club's organiser at {url}/accounts/login/")
        self.stdout.write(f"  username: {DEMO_ORGANISER}\n  password: {password}   (a new one on each run)")
        self.stdout.write(f"then open {url}/clubs/{self.club.pk}/ and use \"Run the club\": members, organisers, "
                          f"the club's details.")

    def _ladder(self, game, bots: str) -> Ladder:
        """The club's ladder of this game, its pool the demo's quick bots (search thinks too long for a ladder that
        should show tables within seconds of the server starting). Reused as it is on a second run."""
        name = "Demo ladder" if game.name == "diamonds" else f"Demo {game.title} ladder"
        ladder = Ladder.objects.filter(name=name).first()
        if ladder is None:
            ladder = create_ladder(name=name, game=game.name, table_size=4, club=self.club)
            quick = [p for p in self.club.players.filter(bot_kind__in=[k for k in bots.split(",") if k != "search"])
                     if p.bot_kind in game.bots]
            join_ladder(ladder=ladder, players=quick)
        return ladder

    def _print_pages(self, url: str, tournament, ladder: Ladder) -> None:
        entries = ladder.entries.filter(active=True).count()
        beat = ("its tables are seated every few seconds by the web process itself (no REDIS_URL, so no celery "
                "beat needed)" if settings.CELERY_TASK_ALWAYS_EAGER else "`celery -A workers beat` seats its tables")
        pages = [("/", "the home page"), (f"/tournaments/{tournament.pk}/", tournament.name),
                 (f"/ladders/{ladder.pk}/", f"{ladder.name}: {entries} bots; {beat}"), ("/api/docs/", "the API")]
        self.stdout.write("\nNow start the website and the API:  python manage.py runserver\nand open:")
        for path, what in pages:
            self.stdout.write(f"  {url + path:<42} {what}")
        self.stdout.write('Your own bot in that ladder: docs/bot-authors.md, "Your first bot game in five minutes".')

    def _console(self):
        return Console(width=None if sys.stdout.isatty() else 140)

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
