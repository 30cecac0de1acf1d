"""A season of a league: the tournaments played between two dates, whose results add up to the season standings."""

from django.db import models


class Season(models.Model):
    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-starts_on", "name"]
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="season_unique_name")]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"
