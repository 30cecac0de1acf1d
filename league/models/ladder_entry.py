"""A player in a ladder's pool; only active entries are seated."""

from django.db import models


class LadderEntry(models.Model):
    ladder = models.ForeignKey("league.Ladder", on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="ladder_entries")
    active = models.BooleanField(default=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ladder", "id"]
        verbose_name_plural = "ladder entries"
        constraints = [models.UniqueConstraint(fields=["ladder", "player"], name="ladder_entry_unique")]

    def __str__(self) -> str:
        return f"{self.player} on {self.ladder}"
