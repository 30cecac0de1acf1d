"""`python manage.py create_external_bot NAME [--club CLUB]`: an external bot account and its API token."""

from django.core.management.base import BaseCommand, CommandError

from api.tokens import issue_token
from league.models import Club
from league.services.players import create_external_bot


class Command(BaseCommand):
    help = "Create an external bot (a Player of kind external with its own account) and print its API token."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--club", help="the name of a club to register it in")

    def handle(self, *args, name, club=None, **options):
        clubs = []
        if club:
            found = Club.objects.filter(name=club).first()
            if found is None:
                raise CommandError(f"no club named {club!r}")
            clubs = [found]
        player = create_external_bot(name=name, clubs=clubs)
        self.stdout.write(issue_token(player.user))
