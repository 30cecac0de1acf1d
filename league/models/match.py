"""A match: one game at one table, from its parameters (ruleset, seed, seats) to its stored result.

Its play is stored as the game's ordered choices, compactly encoded (engine.common.compact): in MatchStep rows while
it is in play, in `moves` once it has ended. Everything else (deals, tricks, Suit Actions, events, the record) is
derived from them by replay (league.selectors.games, league.selectors.records). `move_number` is the engine's count
of decisions applied so far, so a client (or a resumed worker) can tell which state the stored play describes.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class MatchStatus(models.TextChoices):
    # "match status": French agrees the word with "partie" (terminée), a tournament's with "tournoi" (terminé).
    PENDING = "pending", pgettext_lazy("match status", "pending")
    RUNNING = "running", pgettext_lazy("match status", "running")
    FINISHED = "finished", pgettext_lazy("match status", "finished")
    FAILED = "failed", pgettext_lazy("match status", "failed")
    # Stopped by an organiser (league.services.cancellation): terminal like finished and failed, but never counted:
    # standings, ratings and records read finished matches only.
    CANCELLED = "cancelled", pgettext_lazy("match status", "cancelled")


# The statuses of a match still in play, and those after which nothing more is played or stored.
IN_PLAY = (MatchStatus.PENDING, MatchStatus.RUNNING)
ENDED = (MatchStatus.FINISHED, MatchStatus.FAILED, MatchStatus.CANCELLED)


class DeadlineAction(models.TextChoices):
    """What an overdue decision costs the late seat (league.services.decisions.play_overdue)."""

    FALLBACK = "fallback", _("the fallback bot makes the overdue decision")
    FORFEIT = "forfeit", _("the seat forfeits; the fallback bot plays it to the end")


class Match(models.Model):
    game = models.CharField(max_length=20, default="diamonds", help_text="Which game's engine plays it.")
    club = models.ForeignKey("league.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="matches")
    ruleset = models.JSONField(help_text="The engine ruleset with every field explicit.")
    # The deal's secret (engine.fairness): drawn from the CSPRNG unless a person chose it for practice
    # (`seed_chosen`, shown to everyone); `commitment` is public from creation, the seed and `nonce` only once
    # the match and every match sharing its deal have ended (league.selectors.deals.deal_revealed). Matches
    # stored before commitments existed have neither nonce nor commitment.
    seed = models.CharField(max_length=200)
    seed_chosen = models.BooleanField(default=False, help_text="The seed was chosen by whoever created the match.")
    nonce = models.CharField(max_length=32, blank=True)
    commitment = models.CharField(max_length=64, blank=True, help_text="SHA-256 of nonce:seed, hex.")
    seats = models.JSONField(help_text="The seat names, in seat order, as they appear in the record.")
    # The seat that acts first: Diamonds' first dealer; in the newer games the
    # first player (engine.games GameType.first_seat_keyword; league.services.matches.create_match).
    first_dealer = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=MatchStatus.choices, default=MatchStatus.PENDING)
    # The play as its choices in order, compactly encoded: all of it once the match has ended (a few hundred
    # bytes); while it is in play, the steps stored since (MatchStep) follow these (league.selectors.games).
    moves = models.BinaryField(default=b"", blank=True, editable=False,
                               help_text="The match's choices in order, compactly encoded (then its steps).")
    # Hands given rather than dealt from the seed: the league deals every match from its seed, so this stays null
    # (no bytes) but for a match moved from the older storage whose stored hands its seed does not deal.
    deals = models.JSONField(null=True, blank=True, editable=False,
                             help_text="Each round's hands when they were given, not dealt from the seed.")
    move_number = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True, help_text="The record's result: score, vault, showroom, winners.")
    error = models.TextField(blank=True, help_text="Why a failed match failed.")
    # Where the match belongs, if anywhere: a table of a tournament round, or a ladder's table.
    tournament_round = models.ForeignKey("league.TournamentRound", null=True, blank=True, on_delete=models.CASCADE,
                                         related_name="matches")
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # Played with real cards at the club (league.services.offline_results): the server deals nothing, plays no bot
    # and sets no turn deadline; the table enters its result, which another player or an organiser confirms.
    offline = models.BooleanField(default=False, help_text="Played with real cards; its result is entered.")
    ladder = models.ForeignKey("league.Ladder", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="matches")
    # Set once the result has gone into the ratings (league.services.ratings), so a second call does nothing.
    ratings_applied = models.BooleanField(default=False)
    # Set once its bots' missed deadlines have counted towards pausing them (league.services.bot_pausing), so the
    # follow-up of a match, which may run more than once, counts it once.
    conduct_counted = models.BooleanField(default=False)
    # Who runs it now. On PostgreSQL the advisory lock is the claim and this is informative; elsewhere the claim
    # is this pair, and it lapses when lease_expires_at passes without progress.
    claimed_by = models.CharField(max_length=200, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    # Live play (league.services.decisions): how long a person or an external bot may take over a decision, and
    # when the pending one is overdue; then workers.tasks.enforce_turn_deadlines plays it with `deadline_fallback`,
    # once (`deadline_action` fallback) or, the seat having forfeited, for the rest of the match (forfeit). Never
    # None at a table played here with a person or an external bot (league.services.matches.turn_deadline_for):
    # only engine bots' tables and tables of real cards (`offline`) go without.
    turn_deadline_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="Seconds per decision; none only for engine bots' and offline tables.")
    deadline_fallback = models.CharField(max_length=40, default="random", help_text="The engine bot that plays an "
                                         "overdue decision (random or greedy).")
    deadline_action = models.CharField(max_length=10, choices=DeadlineAction.choices,
                                       default=DeadlineAction.FALLBACK)
    deadline_at = models.DateTimeField(null=True, blank=True, help_text="When the pending decision is overdue.")
    # A chess clock (league.services.clocks), beside the turn deadline: every seat a person or an external bot holds
    # starts with the bank (MatchSeat.clock_ms) and earns the increment with each decision of its own; the time a
    # seat takes comes off its bank, and its decision's deadline is its turn's start plus what is left. None: no clock
    # (the turn deadline alone). A seat whose bank runs out gets `deadline_action` (league.services.decisions).
    clock_bank_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="Each seat's time bank in seconds; none: no chess clock.")
    clock_increment_seconds = models.PositiveIntegerField(
        default=0, help_text="Seconds added to a seat's bank with each decision of its own.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now_add=True, help_text="When stored play last moved on.")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        indexes = [
            # Only matches in play, and not on updated_at: it changes with every stored trick, and an indexed
            # column would keep PostgreSQL from updating the row in place (HOT).
            models.Index(fields=["status"], name="match_in_play", condition=Q(status__in=["pending", "running"])),
            # A tournament's finished matches, read by the standings cache's fingerprint
            # (league.selectors.standings_cache) without visiting the rows: written once per match, as it finishes.
            models.Index(fields=["tournament_round", "finished_at"], name="match_finished_by_round",
                         condition=Q(status="finished")),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.status})"

    @property
    def players_count(self) -> int:
        return len(self.seats)
