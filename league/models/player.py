"""A player: a person (a user account) or a bot (an engine bot kind with its settings)."""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Player(models.Model):
    name = models.CharField(max_length=100, unique=True, help_text="The name shown at the table and in records.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="players"
    )
    bot_kind = models.CharField(
        max_length=40, blank=True, help_text="For a bot: the engine bot's name (random, greedy, search, ...)."
    )
    bot_settings = models.JSONField(default=dict, blank=True, help_text="For a bot: keyword settings for make_bot.")
    clubs = models.ManyToManyField("league.Club", blank=True, related_name="players")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # A player is exactly one of the two: a person or a bot.
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot_kind="")) | (Q(user__isnull=True) & ~Q(bot_kind="")),
                name="player_is_person_or_bot",
            ),
        ]

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_kind)

    def __str__(self) -> str:
        return f"{self.name} ({self.bot_kind})" if self.bot_kind else self.name
