"""A league: a club's competition that runs season after season. Its division settings are what a new season starts
with (each season keeps its own: league.models.Season, league.services.divisions)."""

from django.db import models


class League(models.Model):
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=100)
    division_count = models.PositiveSmallIntegerField(
        default=1, help_text="How many divisions a new season is split into; 1: one table for everyone.")
    promoted = models.PositiveSmallIntegerField(
        default=2, help_text="A new season's promotions: the top N of each division but the first go up.")
    relegated = models.PositiveSmallIntegerField(
        default=2, help_text="A new season's relegations: the bottom N of each division but the last go down.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="league_unique_name")]

    def __str__(self) -> str:
        return self.name
