"""An organiser's correction of a finished match's result, kept as an audit trail.

The stored play is never rewritten; a correction replaces the match's result (and its seats' scores and
placements) and records who changed what, when and why, with the result before and after.
"""

from django.conf import settings
from django.db import models


class ResultCorrection(models.Model):
    match = models.ForeignKey("league.Match", on_delete=models.CASCADE, related_name="corrections")
    corrected_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    before = models.JSONField(help_text="The match's result before the correction.")
    after = models.JSONField(help_text="The match's result after it.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created_at", "id"]

    def __str__(self) -> str:
        return f"correction of match {self.match_id} by {self.corrected_by}"
