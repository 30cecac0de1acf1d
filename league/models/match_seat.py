"""Who sat where in a match, and how that seat finished.

`score` and `tiebreak` are the game's own (engine.games names them per game: Diamonds' score and vault).
In partnership play the score, vault and showroom are the team's (the record's result is per team). A seat that
forfeited (league.services.decisions: a missed turn deadline under `deadline_action` forfeit, or too many missed in
a row) keeps its score as the game gave it; its `placement` is the table's last (its team's, with partnerships).
"""

from django.db import models


class MatchSeat(models.Model):
    # The unique index below starts with match, so the foreign key needs no index of its own (a match's seats are
    # a few of every stored match's bytes).
    match = models.ForeignKey("league.Match", on_delete=models.CASCADE, related_name="match_seats", db_index=False)
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="match_seats")
    team = models.PositiveSmallIntegerField(help_text="The team index (the seat itself without partnerships).")
    score = models.IntegerField(null=True, blank=True)
    tiebreak = models.IntegerField(
        null=True, blank=True,
        help_text="The game's tie-break after the score: Diamonds' vault, Diamoniak's diamond cards, the ring "
                  "race's set rings (engine.games: GameType.standing).")
    showroom = models.IntegerField(null=True, blank=True)
    placement = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1 for first; ties share.")
    is_winner = models.BooleanField(default=False)
    # Set by live play (league.services.decisions) while the match waits for this seat's decision, so the API
    # finds a player's turns without replaying games. Engine bot seats are never awaited.
    awaiting = models.BooleanField(default=False)
    # Every turn deadline this seat let pass (the fallback bot decided for it, or it forfeited): counted per seat so
    # a bot's page and its pausing (league.services.bot_pausing) read them without replaying the game.
    timeouts = models.PositiveSmallIntegerField(default=0, help_text="Turn deadlines this seat missed.")
    # The deadlines it let pass since its own last decision: at DIAMONDS_FORFEIT_AFTER_MISSES the seat has left and
    # forfeits, whatever the match's deadline_action (league.services.decisions), so no match waits for ever.
    late_in_row = models.PositiveSmallIntegerField(default=0, help_text="Turn deadlines missed in a row.")
    forfeited = models.BooleanField(default=False, help_text="Missed a turn deadline that forfeits: placed last.")
    forfeited_at_move = models.PositiveIntegerField(null=True, blank=True,
                                                    help_text="The move number whose decision it missed.")
    # Its chess clock (Match.clock_bank_seconds; league.services.clocks): `clock_ms` is the bank as it stood when
    # `clock_started_at` was stored (the start of the seat's turn; None while it is not to decide). What is left now
    # is computed from these two (league.selectors.clocks), never kept in any process's memory, so a restart loses
    # nothing. None for a seat without a clock (engine bots', or a match without one). `out_of_time`: its bank ran
    # out; under deadline_action "fallback" the fallback bot plays the seat from then on (without a forfeit).
    clock_ms = models.PositiveIntegerField(null=True, blank=True, help_text="Milliseconds left on the seat's clock "
                                           "when its turn began (or now, while it is not to decide).")
    clock_started_at = models.DateTimeField(null=True, blank=True, help_text="When the seat's running turn began.")
    out_of_time = models.BooleanField(default=False, help_text="The seat's clock ran out.")

    class Meta:
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="match_seat_unique")]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}"
