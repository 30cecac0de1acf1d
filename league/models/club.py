"""A club: the people and bots who play in one league together."""

from django.db import models


class Membership(models.TextChoices):
    OPEN = "open", "open"  # anyone signed in joins at once
    REQUEST = "request", "on request"  # an organiser accepts or declines each request (MembershipRequest)


class Club(models.Model):
    name = models.CharField(max_length=100, unique=True)
    membership = models.CharField(max_length=10, choices=Membership.choices, default=Membership.OPEN,
                                  help_text="How a person joins: at once (open) or when an organiser accepts.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
