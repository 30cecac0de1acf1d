"""A person's profile: what they choose about themselves beyond their account. Their display name is their person
Player's name (league.selectors.accounts.person_player), kept there and nowhere else.

Made when an account signs up (league.services.accounts.ensure_person), and for accounts made before profiles
existed the first time they are needed.

Whether an account takes part as a verified person is a positive fact (league.selectors.accounts.verified): a
confirmed email address, or `made_by_administrator`, set where an administrator makes an account (createsuperuser,
the admin, commands and tools that make people's accounts) and never by signing up.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Language(models.TextChoices):
    BROWSER = "", _("as my browser asks")
    ENGLISH = "en", "English"
    FRENCH = "fr", "Français"


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    language = models.CharField(max_length=8, choices=Language.choices, default=Language.BROWSER, blank=True,
                                help_text="The website's language for this person; empty follows the browser.")
    email_notifications = models.BooleanField(default=True, help_text="Whether the league may email this person.")
    made_by_administrator = models.BooleanField(
        default=False, help_text="An administrator made this account (not a sign-up): it takes part without a "
                                 "confirmed email address.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"profile of {self.user}"
