"""A seated tournament: a field of players (or partnerships) seated at tables round after round.

`ruleset` holds the engine ruleset fields shared by every table except `players`, which each table takes from its
size (a field that does not divide into full tables mixes in tables one smaller). `match_points` maps the number of
competitors at a table to {place: points} (JSON keys are strings), plus an optional "bye" value; empty means the
standings default (competitors minus place). `tiebreaks` is the standings precedence (metric names of
league.standings); empty means the default for the format. `turn_deadline_seconds`, `deadline_action` and
`deadline_fallback` are copied onto every table's Match when a round is seated (see Match for what they do).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .match import DeadlineAction


class TournamentFormat(models.TextChoices):
    FIXED = "fixed", _("fixed schedule")
    SWISS = "swiss", _("Swiss")
    DUPLICATE = "duplicate", _("duplicate")


class TournamentStatus(models.TextChoices):
    REGISTERING = "registering", _("registering")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")
    # Stopped by an organiser (league.services.cancellation): no round is seated any more; results so far stay.
    CANCELLED = "cancelled", _("cancelled")


class Tournament(models.Model):
    club = models.ForeignKey("league.Club", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="tournaments")
    season = models.ForeignKey("league.Season", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="tournaments")
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=20, default="diamonds", help_text="Which game every table plays (engine.games).")
    ruleset = models.JSONField(default=dict, blank=True,
                               help_text="Engine ruleset fields for every table (partnerships, perfect, clubs...), "
                                         "without players.")
    format = models.CharField(max_length=10, choices=TournamentFormat.choices, default=TournamentFormat.FIXED)
    rounds = models.PositiveSmallIntegerField()
    table_size = models.PositiveSmallIntegerField(default=4, help_text="Players per table wanted.")
    match_points = models.JSONField(default=dict, blank=True)
    tiebreaks = models.JSONField(default=list, blank=True)
    auto_advance = models.BooleanField(
        default=True, help_text="Seat and start the next round as soon as one closes (else the organiser does).")
    rated = models.BooleanField(default=True, help_text="Its matches update the players' global ratings.")
    turn_deadline_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="How long a seat may take over a decision; none: no deadline.")
    deadline_action = models.CharField(max_length=10, choices=DeadlineAction.choices,
                                       default=DeadlineAction.FALLBACK,
                                       help_text="What a missed deadline costs: one bot decision, or a forfeit.")
    deadline_fallback = models.CharField(max_length=40, default="random",
                                         help_text="The engine bot that plays for a late seat (random or greedy).")
    status = models.CharField(max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.REGISTERING)
    seed = models.CharField(max_length=200, help_text="Orders the seating (tables, Swiss ties); it deals nothing.")
    # The secret its tables' deal seeds are derived from (with the server's key: league.services.tournaments
    # ._with_deal_seeds); never shown. Blank for tournaments made before: their tables draw fresh seeds instead.
    deal_salt = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def partnerships(self) -> bool:
        return bool(self.ruleset.get("partnerships"))
