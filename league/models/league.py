"""A league: a club's competition that runs season after season."""

from django.db import models


class League(models.Model):
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="league_unique_name")]

    def __str__(self) -> str:
        return self.name
