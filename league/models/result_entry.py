"""One version of a result entered for a table played with real cards (Match.offline), kept as its audit trail.

Tabbycat's ballot confirmation: a player at the table (or an organiser) enters the figures; another player at the
table confirms them, or enters different ones, which flags the table disputed until an organiser picks or enters
the final version. No version is ever deleted or rewritten except for its status: league.services.offline_results
says how one status follows another.
"""

from django.conf import settings
from django.db import models


class EntryStatus(models.TextChoices):
    ENTERED = "entered", "entered, waiting for confirmation"
    CONFIRMED = "confirmed", "confirmed"
    SUPERSEDED = "superseded", "superseded"
    DISPUTED = "disputed", "disputed"
    RESOLVED = "resolved", "resolved by an organiser"


# The versions still waiting for someone: at most one of them is `entered`; `disputed` ones wait for an organiser.
OPEN_STATUSES = (EntryStatus.ENTERED, EntryStatus.DISPUTED)
# The version that made the match finished.
FINAL_STATUSES = (EntryStatus.CONFIRMED, EntryStatus.RESOLVED)


class ResultEntry(models.Model):
    match = models.ForeignKey("league.Match", on_delete=models.CASCADE, related_name="result_entries")
    # The account that entered it, or (through a private link, without an account) the player at the table who did:
    # one of the two is always set.
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    entered_by_player = models.ForeignKey("league.Player", null=True, blank=True, on_delete=models.PROTECT,
                                          related_name="+", help_text="Entered through this player's private link.")
    # The seat the enterer sits at, or None for an organiser entering for the table.
    entered_at_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    by_organiser = models.BooleanField(default=False)
    figures = models.JSONField(help_text="The entry's figures per seat (per team with partners), as checked by "
                                         "engine.offline.")
    result = models.JSONField(help_text="The result they give, as a played match stores it.")
    status = models.CharField(max_length=10, choices=EntryStatus.choices, default=EntryStatus.ENTERED)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", help_text="Who confirmed, resolved or superseded it.")
    decided_by_player = models.ForeignKey("league.Player", null=True, blank=True, on_delete=models.PROTECT,
                                          related_name="+", help_text="Confirmed through this player's private link.")
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created_at", "id"]
        indexes = [models.Index(fields=["status"], name="result_entry_disputed",
                                condition=models.Q(status="disputed"))]
        constraints = [models.CheckConstraint(
            condition=models.Q(entered_by__isnull=False) | models.Q(entered_by_player__isnull=False),
            name="result_entry_has_enterer")]

    @property
    def enterer_name(self) -> str:
        """Who entered it: the account's username, or the name of the player whose private link it came through."""
        if self.entered_by is not None:
            return self.entered_by.get_username()
        return self.entered_by_player.name if self.entered_by_player is not None else ""

    @property
    def decider_name(self) -> str | None:
        """Who confirmed, resolved or superseded it (an account's username or a private link's player), if anyone."""
        if self.decided_by is not None:
            return self.decided_by.get_username()
        return self.decided_by_player.name if self.decided_by_player is not None else None

    @property
    def decided_by_enterer(self) -> bool:
        """Whether whoever decided it (superseded it with a later version, or made it final) is who entered it."""
        if self.entered_by_id is not None:
            return self.decided_by_id == self.entered_by_id
        return self.entered_by_player_id is not None and self.decided_by_player_id == self.entered_by_player_id

    def __str__(self) -> str:
        return f"result entry {self.pk} of match {self.match_id} ({self.status})"
