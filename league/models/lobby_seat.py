"""A person's seat at an open lobby table. The constraints are the last word on races: one player per seat number
and one seat per player at a table, so two people taking the last seat at once cannot both have it."""

from django.db import models


class LobbySeat(models.Model):
    table = models.ForeignKey("league.LobbyTable", on_delete=models.CASCADE, related_name="lobby_seats")
    seat = models.PositiveSmallIntegerField(help_text="0-based, as the match's seats.")
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="lobby_seats")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="lobby_seat_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="lobby_player_once"),
        ]

    def __str__(self) -> str:
        return f"lobby table {self.table_id} seat {self.seat}"
