"""A lobby table: a game a signed-in person opened for others to join, before it becomes a match.

A table is `open` while people join and leave (LobbySeat rows); when its last seat is taken (or its host starts it
with engine bots in the empty seats) league.services.lobby creates its Match and the table is `started` with
`match` set, exactly once: the table row is locked for every join, leave, cancel and start. An open table nobody
fills expires at `expires_at` (the lobby sweep). A private table is not listed; its `token` (the invitation link's
secret) lets someone join it.
"""

from django.db import models
from django.db.models import Q


class LobbyStatus(models.TextChoices):
    OPEN = "open", "open"
    STARTED = "started", "started"
    CANCELLED = "cancelled", "cancelled"
    EXPIRED = "expired", "expired"


class LobbyTable(models.Model):
    game = models.CharField(max_length=20, help_text="A game of engine.games.")
    seats = models.PositiveSmallIntegerField(help_text="How many seats the table has.")
    ruleset = models.JSONField(default=dict, blank=True, help_text="The ruleset's chosen options (players aside).")
    rated = models.BooleanField(default=False, help_text="Its match counts for the players' ratings at the game.")
    public = models.BooleanField(default=True, help_text="Listed in the lobby; a private table is joined by link.")
    bot_kind = models.CharField(max_length=40, blank=True,
                                help_text="If set, the host may start with engine bots of this kind in empty seats.")
    turn_deadline_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="The match's turn deadline; None: the league's default.")
    clock_bank_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="The match's chess clock: each seat's bank in seconds; None: no clock.")
    clock_increment_seconds = models.PositiveIntegerField(
        default=0, help_text="Seconds added to a seat's bank with each decision.")
    host = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="hosted_tables")
    # The invitation link's secret: never shown to anyone but the people at the table.
    token = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=10, choices=LobbyStatus.choices, default=LobbyStatus.OPEN)
    match = models.OneToOneField("league.Match", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="lobby_table")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(help_text="An open table is closed as expired after this.")
    closed_at = models.DateTimeField(null=True, blank=True, help_text="When it started, was cancelled or expired.")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["expires_at"], name="lobby_open_tables", condition=Q(status="open"))]
        constraints = [
            # A started table has its match; no other has one.
            models.CheckConstraint(condition=Q(status="started", match__isnull=False) | ~Q(status="started"),
                                   name="lobby_started_has_match"),
        ]

    def __str__(self) -> str:
        return f"lobby table {self.pk} ({self.game}, {self.status})"
