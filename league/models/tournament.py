"""A seated tournament: a field of players (or partnerships) seated at tables round after round.

`ruleset` holds the engine ruleset fields shared by every table except `players`, which each table takes from its
size (a field that does not divide into full tables mixes in tables one smaller). `match_points` maps the number of
competitors at a table to {place: points} (JSON keys are strings), plus an optional "bye" value; empty means the
standings default (competitors minus place). `tiebreaks` is the standings precedence (metric names of
league.standings); empty means the default for the format. `turn_deadline_seconds`, `deadline_action` and
`deadline_fallback` are copied onto every table's Match when a round is seated (see Match for what they do), and so
are `clock_bank_seconds` and `clock_increment_seconds` (a chess clock per seat).

A club evening (docs/organisers.md): with `check_in_required` only the active entries checked in for a
round (league.models.CheckIn) are seated in it; entries registered once it runs join at the next round and are
given `late_entry_points` for the rounds they missed; `final_size` > 0 adds a final stage after the `rounds`
qualifying rounds (league.services.finals).
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


class LateEntryPoints(models.TextChoices):
    ZERO = "zero", "zero"
    BYE = "bye", "a bye's points per round missed"


class FinalRanking(models.TextChoices):
    # The final decides places 1..N, everyone else keeps their qualifying order.
    FINAL_DECIDES = "final_decides", "the final decides places 1..N"
    # The final's matches count in the standings like any other round.
    ADDED = "added", "final results added to the standings"


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
        null=True, blank=True,
        help_text="How long a seat may take over a decision; none: the league's default for who is seated.")
    deadline_action = models.CharField(max_length=10, choices=DeadlineAction.choices,
                                       default=DeadlineAction.FALLBACK,
                                       help_text="What a missed deadline costs: one bot decision, or a forfeit.")
    deadline_fallback = models.CharField(max_length=40, default="random",
                                         help_text="The engine bot that plays for a late seat (random or greedy).")
    # A chess clock for every table (Match.clock_bank_seconds), copied onto each table's match as it is seated.
    clock_bank_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="Each seat's chess clock bank in seconds; none: no clock.")
    clock_increment_seconds = models.PositiveIntegerField(
        default=0, help_text="Seconds added to a seat's bank with each decision.")
    # Every table seated from now on is played with real cards (Match.offline); an organiser may switch a table
    # that has not begun either way (league.services.offline_results.set_offline), for a mixed evening.
    offline_tables = models.BooleanField(default=False, help_text="Tables are played with real cards at the club; "
                                                                  "their results are entered.")
    # A round on the clock, as clubs call time: shown counting down on every table page and the projector from the
    # round's start. Nothing is stopped when it runs out: the organiser calls time at the table.
    round_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Minutes a round lasts on the clock shown at the tables; none: no clock.")
    status = models.CharField(max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.REGISTERING)
    # ---- a club evening: check-in, late entries, a final stage (league.services.evening, league.services.finals)
    check_in_required = models.BooleanField(
        default=False, help_text="Only entries checked in for a round are seated in it (the organiser seats each).")
    self_check_in = models.BooleanField(default=False, help_text="Players may check themselves in.")
    late_entry_points = models.CharField(
        max_length=8, choices=LateEntryPoints.choices, default=LateEntryPoints.ZERO,
        help_text="What a late entry gets for each round it missed: nothing, or a bye's points.")
    final_size = models.PositiveSmallIntegerField(
        default=0, help_text="How many go on to the final stage by qualifying standings; 0: no final.")
    final_stages = models.PositiveSmallIntegerField(
        default=1, help_text="Stages of the final; the last is one table.")
    final_advance = models.PositiveSmallIntegerField(
        default=1, help_text="How many of each table go on to the next stage of the final.")
    final_ranking = models.CharField(max_length=16, choices=FinalRanking.choices, default=FinalRanking.FINAL_DECIDES)
    # Self-entry (league.services.entry): people enter and leave until this moment, or until the first round starts.
    registration_closes_at = models.DateTimeField(null=True, blank=True,
                                                  help_text="When people may no longer enter or leave; empty: at "
                                                            "the start.")
    members_only = models.BooleanField(default=False, help_text="Only the club's members may enter.")
    seed = models.CharField(max_length=200, help_text="Orders the seating (tables, Swiss ties); it deals nothing.")
    # The secret its tables' deal seeds are derived from (with the server's key: league.services.rounds
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
