"""A player's rating after one rated match (and before it), in the match's context. One row per player per match:
the unique constraint is what keeps a redelivered task from rating a match twice."""

from django.db import models


class RatingHistory(models.Model):
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="rating_history")
    ladder = models.ForeignKey("league.Ladder", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="rating_history")
    match = models.ForeignKey("league.Match", on_delete=models.CASCADE, related_name="rating_history")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "created_at", "id"]
        verbose_name_plural = "rating history"
        constraints = [models.UniqueConstraint(fields=["player", "match"], name="rating_history_unique")]

    def __str__(self) -> str:
        return f"{self.player} after match {self.match_id}: {self.ordinal:.2f}"
