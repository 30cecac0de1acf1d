"""Django app registration for the league."""

from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"

    def ready(self) -> None:
        # Who listens to the league's events (league.events): notifications after the commit, webhook deliveries
        # written in the event's own transaction.
        from .events import league_event, league_event_stored
        from .services.notifications import on_league_event
        from .services.webhooks import on_event_stored

        league_event.connect(on_league_event, dispatch_uid="league.notifications")
        league_event_stored.connect(on_event_stored, dispatch_uid="league.webhooks")
