"""One stored step of a match still in play: the choices made since the step before, as engine.common.compact
encodes them (`first` is the index of its first choice in the game).

Live play appends one small row per step (a person's decision, or a bots' checkpoint: league.services.progress),
never rewriting what is stored. When the match ends its whole play goes into `Match.moves` in the same transaction
and its steps are deleted, so a finished match keeps no row here.
"""

from django.db import models


class MatchStep(models.Model):
    # The unique index below starts with match, so the foreign key needs no index of its own.
    match = models.ForeignKey("league.Match", on_delete=models.CASCADE, related_name="steps", db_index=False)
    first = models.PositiveIntegerField(help_text="The game's index of the step's first choice, from 0.")
    choices = models.BinaryField(help_text="The step's choices, compactly encoded (engine.common.compact).")

    class Meta:
        ordering = ["match", "first"]
        constraints = [models.UniqueConstraint(fields=["match", "first"], name="match_step_unique")]

    def __str__(self) -> str:
        return f"match {self.match_id} step from choice {self.first}"
