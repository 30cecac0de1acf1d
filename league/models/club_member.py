"""A player's membership of a club (Player.clubs goes through this): since when they are a member.

The table is the one Django made for Player.clubs before memberships had a date (league_player_clubs); members from
then have no date (joined_at null), except those whose request an organiser accepted (the migration takes the
answer's date)."""

from django.db import models
from django.utils import timezone


class ClubMember(models.Model):
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="club_memberships")
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="player_memberships")
    joined_at = models.DateTimeField(null=True, blank=True, default=timezone.now,
                                     help_text="When the player became a member (unknown for the oldest members).")

    class Meta:
        db_table = "league_player_clubs"
        unique_together = [("player", "club")]

    def __str__(self) -> str:
        return f"{self.player} in {self.club}"
