"""A player registered in a tournament. At partnership tables the two entries sharing `team` play as one unit.
An entry no longer `active` has dropped: it is not seated any more, its results stay (marked dropped)."""

from django.db import models


class TournamentEntry(models.Model):
    tournament = models.ForeignKey("league.Tournament", on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="tournament_entries")
    team = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The partnership's number.")
    active = models.BooleanField(default=True, help_text="Withdrawn players are not seated in later rounds.")
    # A late entry (registered once the tournament ran) is first seated in this round; everyone else in round 1.
    joined_round = models.PositiveSmallIntegerField(default=1, help_text="The first round it may be seated in.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name_plural = "tournament entries"
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="tournament_entry_unique")]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"
