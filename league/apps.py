"""Django app registration for the league."""

from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_save

from .events import league_event, league_event_stored


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"

    def ready(self) -> None:
        # Who listens to the league's events (league.events): notifications after the commit, webhook deliveries
        # written in the event's own transaction.
        # The listeners' modules import the models, which are loaded only once the registry is ready.
        from .services.accounts import on_account_saved  # noqa: PLC0415 - signal registration in ready()
        from .services.notifications import on_league_event  # noqa: PLC0415 - signal registration in ready()
        from .services.webhooks import on_event_stored  # noqa: PLC0415 - signal registration in ready()

        league_event.connect(on_league_event, dispatch_uid="league.notifications")
        league_event_stored.connect(on_event_stored, dispatch_uid="league.webhooks")
        # An account made as staff or superuser is marked as made by an administrator (league.selectors.accounts).
        post_save.connect(on_account_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="league.admin_made")
