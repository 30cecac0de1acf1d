"""Django app configuration for the website."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Diamonds League website"
