"""A club: the people and bots who play in one league together, and what its organisers say about it on its page."""

from django.db import models

# What a club's page may hold: its name (the column), a few lines about it, where it meets, its own website
# (league.services.clubs checks them; the API's schema and the website's form read these too).
CLUB_NAME_MAX_LENGTH = 100
CLUB_DESCRIPTION_MAX_LENGTH = 2000
CLUB_LOCATION_MAX_LENGTH = 200
CLUB_WEBSITE_MAX_LENGTH = 200


class Membership(models.TextChoices):
    OPEN = "open", "open"  # anyone signed in joins at once
    REQUEST = "request", "on request"  # an organiser accepts or declines each request (MembershipRequest)


class Club(models.Model):
    name = models.CharField(max_length=CLUB_NAME_MAX_LENGTH, unique=True)
    membership = models.CharField(max_length=10, choices=Membership.choices, default=Membership.OPEN,
                                  help_text="How a person joins: at once (open) or when an organiser accepts.")
    description = models.TextField(max_length=CLUB_DESCRIPTION_MAX_LENGTH, blank=True,
                                   help_text="A few lines about the club, shown on its page (plain text).")
    location = models.CharField(max_length=CLUB_LOCATION_MAX_LENGTH, blank=True,
                                help_text="Where and when the club meets.")
    website = models.URLField(max_length=CLUB_WEBSITE_MAX_LENGTH, blank=True,
                              help_text="The club's own website (http or https).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
