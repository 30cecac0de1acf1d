"""A season of a league: the tournaments played between two dates, whose results add up to the season standings.

A season may be split into divisions (league.models.Division), each ranked on its own; `promoted` and `relegated`
say how many move between two adjacent divisions when the organiser closes the season (`closed_at`), and the next
season is put together from those moves (league.services.divisions)."""

from django.db import models


class Season(models.Model):
    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    promoted = models.PositiveSmallIntegerField(
        default=0, help_text="The top N of each division but the first go up one when the season closes.")
    relegated = models.PositiveSmallIntegerField(
        default=0, help_text="The bottom N of each division but the last go down one when the season closes.")
    closed_at = models.DateTimeField(null=True, blank=True,
                                     help_text="When the organiser closed it: its moves between divisions are final.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-starts_on", "name"]
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="season_unique_name")]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"
