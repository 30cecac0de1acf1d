"""One trick: who led, every play in order, who won it. Written whole, once, when the trick is complete
(an unfinished trick appears only in a match a person is playing, and has no winner yet)."""

from django.db import models


class Trick(models.Model):
    # The unique index below starts with match, so the foreign key needs no index of its own.
    match = models.ForeignKey("league.Match", on_delete=models.CASCADE, related_name="tricks", db_index=False)
    round = models.PositiveSmallIntegerField()
    index = models.PositiveSmallIntegerField(help_text="The trick's index within its round.")
    leader = models.PositiveSmallIntegerField()
    plays = models.JSONField(help_text='Every play in order: [{"seat": 3, "card": "H9"}, ...].')
    winner = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "round", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "round", "index"], name="trick_unique")]

    def __str__(self) -> str:
        return f"match {self.match_id} round {self.round} trick {self.index}"
