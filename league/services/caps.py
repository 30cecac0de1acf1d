"""Per-person caps (open lobby tables, webhooks, running comparisons...) counted under a lock.

A cap is a count followed by an insert. Two requests of one person that count at the same moment both see room for
one more, and both insert: six simultaneous requests against a cap of three opened four or more tables (issue 27).
So the count is taken while holding the row of whoever the cap is for (their Player, or their account), locked in
the caller's transaction until it commits: a second request of the same person waits at the lock, then counts what
the first one stored. Other people's requests lock other rows and never wait. Callers run inside a transaction.

On SQLite select_for_update does nothing, but SQLite lets one writer at a time, so the embedded default is
serialised by the database itself.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from ..models import Player


def hold_player(player: Player) -> None:
    """Lock the player's row until the caller's transaction ends (a cap counted per player)."""
    Player.objects.select_for_update().filter(pk=player.pk).values_list("pk").first()


def hold_account(user) -> None:
    """Lock the account's row until the caller's transaction ends (a cap counted per account)."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
