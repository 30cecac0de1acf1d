"""A tournament entry present for one round: with Tournament.check_in_required only checked-in entries are seated.

A check-in is for a round not seated yet (league.services.evening); once the round is seated its check-ins are
closed and stay as the record of who was there."""

from django.conf import settings
from django.db import models


class CheckIn(models.Model):
    entry = models.ForeignKey("league.TournamentEntry", on_delete=models.CASCADE, related_name="check_ins")
    round_index = models.PositiveSmallIntegerField(help_text="The round (1 for the first) the entry is present for.")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+", help_text="Who checked it in: the player, or an organiser.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_index", "entry"]
        constraints = [models.UniqueConstraint(fields=["entry", "round_index"], name="check_in_unique")]

    def __str__(self) -> str:
        return f"{self.entry} present for round {self.round_index}"
