"""A division of a season: a tier of its players, ranked on their own (league.selectors.divisions). Division 1 is the
top; at the season's end the top `Season.promoted` of each division but the first go up one, and the bottom
`Season.relegated` of each but the last go down one (league.services.divisions). A season with one division (today's
behaviour) has no Division rows: everyone who played is in its one table."""

from django.db import models


class Division(models.Model):
    season = models.ForeignKey("league.Season", on_delete=models.CASCADE, related_name="divisions")
    number = models.PositiveSmallIntegerField(help_text="1 is the top division.")
    name = models.CharField(max_length=60, help_text="Shown on the league's pages (Division 1 by default).")

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="division_unique_number"),
            models.UniqueConstraint(fields=["season", "name"], name="division_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.season} {self.name}"
