"""One Suit Action, in the order taken within its round (`sequence`).

`trick` is the index of the trick that caused it, or null for an end-of-round action (majority, no trick);
`target` is the seat robbed by clubs; `moved` is 1 or 0 as in the record.
"""

from django.db import models


class SuitAction(models.Model):
    SUITS = [("D", "diamonds"), ("H", "hearts"), ("S", "spades"), ("C", "clubs")]
    CAUSES = [("offsuit", "offsuit"), ("trick", "trick"), ("majority", "majority"), ("no_trick", "no trick")]

    # The unique index below starts with match, so the foreign key needs no index of its own.
    match = models.ForeignKey("league.Match", on_delete=models.CASCADE, related_name="suit_actions", db_index=False)
    round = models.PositiveSmallIntegerField()
    sequence = models.PositiveSmallIntegerField()
    trick = models.PositiveSmallIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField()
    suit = models.CharField(max_length=1, choices=SUITS)
    cause = models.CharField(max_length=10, choices=CAUSES)
    target = models.PositiveSmallIntegerField(null=True, blank=True)
    moved = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["match", "round", "sequence"]
        constraints = [models.UniqueConstraint(fields=["match", "round", "sequence"], name="suit_action_unique")]

    def __str__(self) -> str:
        return f"match {self.match_id} round {self.round} action {self.sequence}"
