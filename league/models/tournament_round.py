"""One round of a tournament: how it was seated, who had a bye, and whether its matches are all over.

`tables` is the seating as league.scheduling returned it, one object per table: number, units (player ids, or team
numbers at partnership tables, in unit order), seats (player ids in the scheduled seat order), deal_id, seed, group
and rotation (the duplicate deal groups). The table's Match links back with `tournament_round` and `table_number`.
`byes` lists the units that sat out.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class RoundStatus(models.TextChoices):
    SEATED = "seated", _("seated")
    RUNNING = "running", _("running")
    CLOSED = "closed", _("closed")


class TournamentRound(models.Model):
    tournament = models.ForeignKey("league.Tournament", on_delete=models.CASCADE, related_name="tournament_rounds")
    index = models.PositiveSmallIntegerField(help_text="1 for the first round.")
    # 0 for a qualifying round; 1, 2... for the final's stages (seated after the last qualifying round, by rank).
    stage = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.SEATED)
    tables = models.JSONField(default=list, blank=True)
    byes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "index"]
        constraints = [models.UniqueConstraint(fields=["tournament", "index"], name="tournament_round_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.index}"
