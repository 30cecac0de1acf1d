"""A tournament entrant's private link (Tabbycat's private URLs): a page reached without an account, showing the
entrant's table and seat, the form for their table's result, and the standings, and nothing else.

The token in the link is never stored: it is HMAC-SHA256 under the server's key (DIAMONDS_DEAL_KEY, by default
SECRET_KEY) of this row's random `salt` (league.selectors.private_links.link_token), and the row keeps only the
token's SHA-256 `digest` to find it by. So a copy of the database alone opens no one's page, while an organiser can
print the same link again on every round's sheet and slips (a hashed random token could only be shown once, and
reprinting would break the link in the player's pocket). Revoking sets `revoked_at`; issuing again draws a new salt,
so the old link is dead for good."""

from django.db import models


class PrivateLink(models.Model):
    entry = models.OneToOneField("league.TournamentEntry", on_delete=models.CASCADE, related_name="private_link")
    salt = models.CharField(max_length=64, help_text="Random; the token is derived from it with the server's key.")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the token, hex: the link's lookup.")
    issued_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True, help_text="Set when an organiser revoked the link.")

    def __str__(self) -> str:
        return f"private link of {self.entry}"
