"""A player's current OpenSkill rating in one context: a ladder, or a game's global context (ladder null; one global
rating per game, since skill at Diamonds says little about skill at Diamoniak).

`ordinal` is mu - 3 sigma, the conservative figure players are ranked by. league.services.ratings is the one
place that writes these, with a RatingHistory row per player per rated match.
"""

from django.db import models
from django.db.models import Q


class Rating(models.Model):
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="ratings")
    ladder = models.ForeignKey("league.Ladder", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="ratings", help_text="Empty for the global rating.")
    game = models.CharField(max_length=20, default="diamonds", help_text="The game rated (a ladder's own game).")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["player", "ladder"], name="rating_unique_ladder",
                                    condition=Q(ladder__isnull=False)),
            models.UniqueConstraint(fields=["player", "game"], name="rating_unique_global",
                                    condition=Q(ladder__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.2f}"
