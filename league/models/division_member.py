"""A player's place in one division of a season, and, once the season is closed, where they finished in it and
whether they went up or down (league.services.divisions.close_season keeps it, so the move stays what was decided
even if a result is corrected later). `season` repeats the division's so that the database keeps a player in one
division of a season at most."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Movement(models.TextChoices):
    UP = "up", _("promoted")
    DOWN = "down", _("relegated")
    STAYS = "stays", _("stays")


class DivisionMember(models.Model):
    division = models.ForeignKey("league.Division", on_delete=models.CASCADE, related_name="members")
    season = models.ForeignKey("league.Season", on_delete=models.CASCADE, related_name="division_members")
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="division_places")
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True,
                                                  help_text="Place in the division when the season closed.")
    movement = models.CharField(max_length=5, choices=Movement.choices, blank=True,
                                help_text="Up, down or staying, decided when the season closed.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["division", "final_rank", "id"]
        constraints = [models.UniqueConstraint(fields=["season", "player"], name="division_member_one_per_season")]

    def __str__(self) -> str:
        return f"{self.player} in {self.division}"
