"""`python manage.py create_external_bot NAME [--club CLUB] [--owner USERNAME] [--ladder LADDER]`: an external bot
account, its API token printed (the only output, so `TOKEN=$(python manage.py create_external_bot ...)` works),
and optionally its place in a ladder's pool. Over the API a signed-in person does the same with
`POST /api/v1/players/ {"kind": "external_bot", "name": ...}` and `POST /api/v1/ladders/{id}/join/`."""

from django.core.management.base import BaseCommand, CommandError
from django.db import IntegrityError, transaction

from api.tokens import issue_token
from league.selectors import clubs as club_reads
from league.selectors import competitions
from league.selectors.players import account_named
from league.services.ladders import join_ladder
from league.services.names import NameRefused
from league.services.players import create_external_bot


def _by_name_or_id(by_name, by_id, value: str, what: str):
    found = by_name(value)
    if found is None and value.isdigit():
        found = by_id(int(value))
    if found is None:
        raise CommandError(f"no {what} named {value!r}")
    return found


class Command(BaseCommand):
    help = "Create an external bot (a Player of kind external with its own account) and print its API token."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--club", help="the name of a club to register it in")
        parser.add_argument("--owner", help="the username of its author (who may enter it in ladders over the API)")
        parser.add_argument("--ladder", help="a ladder (name or id) whose pool it joins")

    def handle(self, *args, name, club=None, owner=None, ladder=None, **options):
        clubs = [_by_name_or_id(club_reads.club_named, club_reads.club, club, "club")] if club else []
        the_ladder = (_by_name_or_id(competitions.ladder_named, competitions.ladder, ladder, "ladder") if ladder
                      else None)
        author = None
        if owner:
            author = account_named(owner)
            if author is None:
                raise CommandError(f"no account named {owner!r}")
        try:
            with transaction.atomic():  # all or nothing: no bot left behind outside the ladder it was meant for
                player = create_external_bot(name=name, clubs=clubs, owner=author)
                if the_ladder is not None:
                    join_ladder(ladder=the_ladder, players=[player])
        except IntegrityError:
            raise CommandError(f"the name {name!r} (or its account bot-{name}) is taken") from None
        except NameRefused as e:
            raise CommandError(f"the name {name!r} is taken: {e}" if e.taken else str(e)) from None
        except ValueError as e:
            raise CommandError(str(e)) from None
        if the_ladder is not None:
            self.stderr.write(f"{name} (player {player.pk}) joined the ladder {the_ladder.name!r}")
        self.stdout.write(issue_token(player.user))
