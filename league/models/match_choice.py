"""One decision of a match of a game stored as its choices (Diamoniak, the ring race): which seat decided what, in
order. The engine re-derives everything else by replaying them, as it replays a choices record
(engine.common.choices_record). Diamonds matches are stored as rounds, tricks and Suit Actions instead, which the API
serves trick by trick."""

from django.db import models


class MatchChoice(models.Model):
    # The unique index below starts with match, so the foreign key needs no index of its own.
    match = models.ForeignKey("league.Match", on_delete=models.CASCADE, related_name="choices", db_index=False)
    index = models.PositiveIntegerField(help_text="The choice's place in the game, from 0.")
    seat = models.PositiveSmallIntegerField()
    decision = models.JSONField(help_text='The decision as the game\'s JSON, e.g. {"kind": "draw"}.')

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="match_choice_unique")]

    def __str__(self) -> str:
        return f"match {self.match_id} choice {self.index}"
