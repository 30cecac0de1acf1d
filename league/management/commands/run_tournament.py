"""`python manage.py run_tournament`: a bot tournament played through the workers, timed, with its standings.

    python manage.py run_tournament --players 240 --rounds 5 --table-size 4 --bots random,greedy
    python manage.py run_tournament --game diamoniak --players 24 --rounds 3 --table-size 3   # heuristic,random bots

`--game` is a name of engine.games (diamonds by default); without `--bots` the players are the game's own bots
(`DEFAULT_BOTS`), and the table size must be one the game seats (Diamoniak 2 to 4).

Embedded (no REDIS_URL) the tasks run in this process, so starting the first round plays the whole tournament
while a second thread watches the database for the progress bar. With DATABASE_URL and REDIS_URL set the matches
go to the `celery -A workers worker` processes, and this command waits for the tournament to finish, polling the
database, with the same progress bar.
"""

from __future__ import annotations

import sys
import threading
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from engine.games import GAMES, game_type
from league.models import Club, Match, MatchStatus, Player, Tournament, TournamentStatus
from league.models.match import ENDED
from league.scheduling import FORMATS, TableShape, table_sizes
from league.selectors.standings import tournament_standings
from league.services import create_bot_player
from league.services.advancing import start_tournament
from league.services.registration import register_players, register_team
from league.services.tournament_setup import create_tournament

# Bots a tournament of each game is played by when --bots is not given: Diamonds' fast ones (search is slow at 240
# players), and what the newer games have.
DEFAULT_BOTS = {"diamonds": "random,greedy", "diamoniak": "heuristic,random", "ringrace": "heuristic,random"}


class Command(BaseCommand):
    help = "Create bot players and a tournament, run it through the workers, print the standings and the wall time."
    club: Club | None = None  # the club that holds the tournament, if any

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=list(GAMES), default="diamonds", help="which game every table plays")
        parser.add_argument("--players", type=int, default=240)
        parser.add_argument("--rounds", type=int, default=5)
        parser.add_argument("--table-size", type=int, default=4)
        parser.add_argument("--format", choices=FORMATS, default="fixed")
        parser.add_argument("--bots", default=None,
                            help="bot kinds, given to the players in turn (default: the game's, see DEFAULT_BOTS)")
        parser.add_argument("--partnerships", action="store_true", help="players in fixed pairs of partners")
        parser.add_argument("--seed", default=None)
        parser.add_argument("--name", default=None)
        parser.add_argument("--top", type=int, default=20, help="standings lines to print (0: all)")
        parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait for real workers")

    def handle(self, *args, **options):
        # Wide enough for the standings when the output is a file or a pipe.
        console = Console(width=None if sys.stdout.isatty() else 140)
        game = game_type(options["game"])
        kinds = [k.strip() for k in (options["bots"] or DEFAULT_BOTS[game.name]).split(",") if k.strip()]
        n, rounds, size = options["players"], options["rounds"], options["table_size"]
        partnerships = options["partnerships"]
        unknown = [k for k in kinds if k not in game.bots]
        if unknown:
            raise CommandError(f"{game.title} has no bot {', '.join(unknown)}; its bots are "
                               f"{', '.join(sorted(game.bots))}")
        try:
            if not game.min_players <= size <= game.max_players:
                raise ValueError(f"{game.title} seats {game.min_players} to {game.max_players} players at a table, "
                                 f"not {size}")
            shape = TableShape.for_table_size(size, partnership=partnerships, max_players=game.max_players)
        except ValueError as e:
            raise CommandError(str(e)) from None
        if not kinds or n < 2 or (partnerships and n % 2):
            raise CommandError("give at least one bot kind and enough players (an even number with partners)")
        setup_started = time.perf_counter()
        players = self._bots(n, kinds)
        name = options["name"] or (f"{game.title} {options['format']} bot tournament "
                                   f"{time.strftime('%Y-%m-%d %H:%M:%S')}")
        try:
            tournament = create_tournament(
                name=name, game=game.name, rounds=rounds, table_size=size, format=options["format"],
                seed=options["seed"], ruleset={"partnerships": True} if partnerships else {}, auto_advance=True,
                club=self.club,
            )
        except ValueError as e:  # e.g. the duplicate format or partnerships for a game other than Diamonds
            raise CommandError(str(e)) from None
        if partnerships:
            for i in range(0, n, 2):
                register_team(tournament=tournament, players=players[i:i + 2])
        else:
            register_players(tournament=tournament, players=players)
        tables, _ = table_sizes(n // shape.players_per_unit, shape)
        total = len(tables) * rounds
        eager = settings.CELERY_TASK_ALWAYS_EAGER
        where = "in this process (eager)" if eager else "by the workers"
        console.print(f"{name}: {game.title}, {n} players ({', '.join(kinds)}), {rounds} rounds, tables of {size}, "
                      f"{total} matches, played {where} on {connection.vendor}; setup "
                      f"{time.perf_counter() - setup_started:.1f} s")

        started = time.perf_counter()
        self._play(tournament, total, options["timeout"], console, eager=eager)
        elapsed = time.perf_counter() - started

        tournament.refresh_from_db()
        matches = Match.objects.filter(tournament_round__tournament=tournament)
        failed = matches.filter(status=MatchStatus.FAILED).count()
        self._print_standings(tournament, options["top"], console)
        console.print(f"tournament {tournament.pk} {tournament.status}: {matches.count()} matches "
                      f"({failed} failed) in {elapsed:.1f} s wall time, "
                      f"{matches.count() / elapsed if elapsed else 0:.1f} matches a second")
        if tournament.status != TournamentStatus.FINISHED or failed:
            raise CommandError("the tournament did not finish cleanly")

    def _bots(self, n: int, kinds: list[str]) -> list[Player]:
        """`n` bot players, kinds in turn; players of an earlier run with the same names are used again."""
        names = [f"bot-{kinds[i % len(kinds)]}-{i + 1:04d}" for i in range(n)]
        existing = {p.name: p for p in Player.objects.filter(name__in=names)}
        out = []
        for i, name in enumerate(names):
            player = existing.get(name)
            if player is None:
                try:
                    player = create_bot_player(name=name, kind=kinds[i % len(kinds)])
                except ValueError as e:
                    raise CommandError(str(e)) from None
            out.append(player)
        return out

    @staticmethod
    def _play(tournament, total: int, timeout: float, console: Console, *, eager: bool) -> None:
        """Start the tournament and show its finished matches until it is over.

        Eager, the play happens inside start_tournament, so a thread with its own database connection watches;
        with real workers this thread watches after sending the first round, until the tournament finishes."""
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        started = time.perf_counter()
        tenths_said = [0]

        def update(progress: Progress, bar) -> bool:
            done = Match.objects.filter(tournament_round__tournament=tournament, status__in=ENDED).count()
            status = Tournament.objects.filter(pk=tournament.pk).values_list("status", flat=True).get()
            rnd = tournament.tournament_rounds.order_by("-index").values_list("index", flat=True).first()
            progress.update(bar, completed=done, description=f"round {rnd or 0}/{tournament.rounds}")
            if not console.is_terminal and total and done * 10 // total > tenths_said[0]:
                # Into a file or a pipe rich draws no bar until the end: a line at every tenth instead.
                tenths_said[0] = done * 10 // total
                console.print(f"round {rnd or 0}/{tournament.rounds}: {done}/{total} matches, "
                              f"{time.perf_counter() - started:.0f} s")
            return status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)  # an organiser may cancel it

        with Progress(*columns, console=console) as progress:
            bar = progress.add_task("matches", total=total)
            # In-memory SQLite (the tests' database) shares one cache that locks whole tables: a reader thread
            # there would make the players' writes fail, so the bar only moves at the end.
            # is_in_memory_db is the SQLite wrapper's own (its stub's connection is the base wrapper).
            watch_from_thread = eager and not (connection.vendor == "sqlite"
                                               and connection.is_in_memory_db())  # type: ignore[attr-defined]
            if eager and not watch_from_thread:
                start_tournament(tournament=tournament)
                update(progress, bar)
                return
            if eager:
                stop = threading.Event()

                def watch() -> None:
                    try:
                        while not stop.wait(0.25):
                            try:
                                update(progress, bar)
                            except DatabaseError:
                                pass  # a busy database only delays the bar
                    finally:
                        connection.close()

                watcher = threading.Thread(target=watch, name="progress", daemon=True)
                watcher.start()
                try:
                    start_tournament(tournament=tournament)
                finally:
                    stop.set()
                    watcher.join()
                update(progress, bar)
                return
            start_tournament(tournament=tournament)
            deadline = time.monotonic() + timeout
            while not update(progress, bar):
                if time.monotonic() > deadline:
                    raise CommandError(f"gave up after {timeout:.0f} s: are `celery -A workers worker` running?")
                time.sleep(0.25)

    @staticmethod
    def _print_standings(tournament, top: int, console: Console) -> None:
        rows = tournament_standings(tournament=tournament)
        table = Table(title=f"Standings: {tournament.name}")
        metrics = list(rows[0].metrics) if rows else []
        for col in ("rank", "player", "games", *metrics):
            table.add_column(col, justify="left" if col == "player" else "right")
        for row in rows[: top or None]:
            values = []
            for m in metrics:
                v = row.metrics[m]
                values.append("" if v is None else (f"{float(v):g}" if not isinstance(v, int) else str(v)))
            table.add_row(f"{row.rank}{'=' if row.shared else ''}", row.name, str(row.games), *values)
        console.print(table)
