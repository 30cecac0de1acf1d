"""The outbox: work that must follow a stored change, written in the same transaction as that change.

A row says "a worker must now do `kind` to this match" (play its bots, or advance it after a decision). It is sent
to the broker by a relay (workers.outbox) once the transaction commits, sent again after a failed send, and again
while it has not taken effect; it is done (`done_at`) once a worker has carried it out. So a round seated while the
broker is down loses nothing: its rows wait here until the broker is back. See workers/README.md.
"""

from django.db import models
from django.db.models import Q
from django.utils import timezone


class OutboxKind(models.TextChoices):
    PLAY_MATCH = "play_match", "play the match's engine bots to its end (workers.tasks.run_match)"
    ADVANCE_MATCH = "advance_match", "play a live match's engine bots up to a person (workers.tasks.advance_match)"


class OutboxMessage(models.Model):
    kind = models.CharField(max_length=20, choices=OutboxKind.choices)
    match = models.ForeignKey("league.Match", on_delete=models.CASCADE, related_name="outbox_messages")
    created_at = models.DateTimeField(default=timezone.now)
    # When the relay may (re)send it: now for a new row; after a send, when to send again if it has not taken
    # effect by then; after a failed send, when to try again.
    send_after = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True, help_text="The last send the broker accepted.")
    sends = models.PositiveIntegerField(default=0, help_text="Send attempts, failed ones included.")
    last_error = models.CharField(max_length=300, blank=True)
    done_at = models.DateTimeField(null=True, blank=True, help_text="When a worker carried it out.")

    class Meta:
        indexes = [
            # The relay's one question: which open rows are due. Done rows are left out of the index.
            models.Index(fields=["send_after"], condition=Q(done_at__isnull=True), name="outbox_open_due"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} match {self.match_id} ({'done' if self.done_at else 'open'})"
