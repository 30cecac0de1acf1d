"""Django app configuration for the website."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Diamonds League website"

    def ready(self):
        from league.events import league_event  # noqa: PLC0415 - signal registration in ready()

        from .push import on_league_event  # noqa: PLC0415 - signal registration in ready()

        # The live pages' notices (web.push): a match moved, the lobby changed.
        league_event.connect(on_league_event, dispatch_uid="web.push")
