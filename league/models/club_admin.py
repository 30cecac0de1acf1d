"""Who organises a club: a user who may create its matches and tournaments, register players and correct results.

Site staff (`is_staff`) organise every club; everyone else organises the clubs listed here for them.
"""

from django.conf import settings
from django.db import models


class ClubAdmin(models.Model):
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="admins")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_admin_of")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "user"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="club_admin_unique")]

    def __str__(self) -> str:
        return f"{self.user} organises {self.club}"
