"""One round of a match: the deal and the choices made before and around the tricks.

`passes` holds each seat's passed cards, or null for a seat that has not chosen yet (a human mid-pass);
`clubs_targets` is the record's list of seats named by clubs actions in choose mode.
"""

from django.db import models


class MatchRound(models.Model):
    match = models.ForeignKey("league.Match", on_delete=models.CASCADE, related_name="rounds", db_index=False)
    index = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    hands = models.JSONField(help_text="Each seat's hand as dealt, before passing.")
    pass_count = models.PositiveSmallIntegerField(null=True, blank=True)
    passes = models.JSONField(null=True, blank=True)
    clubs_targets = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="match_round_unique")]

    def __str__(self) -> str:
        return f"match {self.match_id} round {self.index}"
