"""Serializers: how league rows look in the API, and the shapes of requests and errors (for the schema too).

A match's seed is shown only once its deal is safe (it and every match sharing its deal have ended: the seed
decides every deal, so knowing it during play would show every hand); its commitment is shown from the start, so
anyone can check afterwards that the revealed seed (with its nonce) is the one the match was created with.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework import serializers

from engine.games import GAMES, game_type
from league.limits import (
    MAX_CLOCK_BANK_SECONDS,
    MAX_CLOCK_INCREMENT_SECONDS,
    MAX_RESULT_AMOUNT,
    MAX_ROUND_MINUTES,
    MAX_TURN_DEADLINE_SECONDS,
)
from league.models import (
    Club,
    DeadlineAction,
    Match,
    MatchSeat,
    Player,
    Rating,
    RatingHistory,
    ResultCorrection,
    Tournament,
    TournamentRound,
)
from league.models.club import CLUB_WEBSITE_MAX_LENGTH
from league.selectors import clubs as club_reads
from league.selectors import players as player_reads
from league.selectors.deals import RevealedSeed, revealed_seed, shown_tables, without_withheld_results


class ClubSerializer(serializers.ModelSerializer):
    # Checked (and normalised) by league.services.clubs, which also takes "club.example.org" for https://...
    website = serializers.CharField(required=False, allow_blank=True, max_length=CLUB_WEBSITE_MAX_LENGTH,
                                    help_text="The club's own website: an http or https address.")

    class Meta:
        model = Club
        fields = ["id", "name", "membership", "description", "location", "website", "created_at"]
        # A taken name is a 409 from the database's constraint.
        extra_kwargs: dict[str, dict[str, object]] = {"name": {"validators": []}}


class OrganiserSerializer(serializers.Serializer):
    """One organiser of a club (league.models.ClubAdmin)."""

    username = serializers.CharField(source="user.username")
    since = serializers.DateTimeField(source="created_at")


class OrganiserInvitationSerializer(serializers.Serializer):
    """An invitation to organise a club, without its link (only the invited address received it)."""

    id = serializers.IntegerField()
    email = serializers.EmailField()
    status = serializers.CharField(help_text="pending, accepted or revoked")
    invited_by = serializers.CharField(source="invited_by.username", allow_null=True, default=None)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


def player_kind(player: Player) -> str:
    if player.is_external_bot:
        return "external_bot"
    if player.is_guest:
        return "guest"
    return "engine_bot" if player.is_bot else "person"


class PlayerSerializer(serializers.ModelSerializer):
    kind = serializers.SerializerMethodField(help_text="person, engine_bot, external_bot or guest (a player "
                                                       "without an account on a club's roster)")
    clubs: serializers.PrimaryKeyRelatedField[Club] = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    owner: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True,
        help_text="An external bot's author (the account that created it), or null.")

    class Meta:
        model = Player
        fields = ["id", "name", "kind", "bot_kind", "bot_settings", "clubs", "owner", "status", "paused_at",
                  "paused_reason", "created_at"]

    status = serializers.SerializerMethodField(help_text="active, or paused (a bot that kept missing turn "
                                               "deadlines: league.services.bot_pausing) until its owner resumes it")

    def get_kind(self, player: Player) -> str:
        return player_kind(player)

    def get_status(self, player: Player) -> str:
        return "paused" if player.is_paused else "active"


class PlayerCreateSerializer(serializers.Serializer):
    """Register a player in a club: a person (an existing account), an engine bot, or an external bot (a new bot
    account whose API token is in the answer, once)."""

    kind = serializers.ChoiceField(choices=["person", "engine_bot", "external_bot"])
    name = serializers.CharField(max_length=100, required=False)
    club = serializers.PrimaryKeyRelatedField(queryset=club_reads.clubs(), required=False, allow_null=True)
    username = serializers.CharField(required=False, help_text="For a person: the account to register.")
    bot_kind = serializers.CharField(required=False, help_text="For an engine bot: random, greedy, search "
                                     "(Diamonds), heuristic (Diamoniak, the ring race); random plays every game.")
    bot_settings = serializers.DictField(required=False)


def clock_bank_field() -> serializers.IntegerField:
    return serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_CLOCK_BANK_SECONDS,
        help_text="A chess clock: each seat's time bank in seconds (a person's or an external bot's; engine bots "
                  "have none); its decisions are due when it runs out, and the table's `deadline_action` applies "
                  "then. null (the default): no clock, the turn deadline alone.")


def clock_increment_field() -> serializers.IntegerField:
    return serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_CLOCK_INCREMENT_SECONDS,
        help_text="Seconds added to a seat's bank with each decision of its own (0, the default: none); only with "
                  "`clock_bank_seconds`.")


class SeatClockSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    remaining_ms = serializers.IntegerField(help_text="Milliseconds left on the seat's clock at `server_time`.")
    running = serializers.BooleanField(help_text="The seat is to decide and its time is going.")
    out_of_time = serializers.BooleanField(help_text="Its time ran out: the table's deadline_action applied.")


class ClockSerializer(serializers.Serializer):
    """A match's chess clocks as they stood at `server_time` (league.selectors.clocks)."""

    bank_seconds = serializers.IntegerField()
    increment_seconds = serializers.IntegerField()
    server_time = serializers.DateTimeField(help_text="When the figures were taken, on the server's clock.")
    seats = SeatClockSerializer(many=True, help_text="Each clocked seat (engine bots' seats have no clock).")


class MatchSeatSerializer(serializers.ModelSerializer):
    """A seat and how it finished. `score` and `tiebreak` are the game's own (the match's `score_label` and
    `tiebreak_label` name them); `vault` repeats `tiebreak` for Diamonds, where clients know it by that name, and is
    null for the other games; `showroom` is Diamonds' only."""

    name = serializers.CharField(source="player.name", read_only=True)
    kind = serializers.SerializerMethodField()
    vault = serializers.SerializerMethodField(help_text="Diamonds: the vault (= tiebreak); other games: null.")

    class Meta:
        model = MatchSeat
        fields = ["seat", "player", "name", "kind", "team", "score", "tiebreak", "vault", "showroom", "placement",
                  "is_winner", "awaiting", "forfeited", "forfeited_at_move"]

    def get_kind(self, ms: MatchSeat) -> str:
        return player_kind(ms.player)

    def get_vault(self, ms: MatchSeat) -> int | None:
        return ms.tiebreak if ms.match.game == "diamonds" else None


def _revealed_seed(match: Match) -> RevealedSeed | None:
    """revealed_seed, asked once per match however many fields need it."""
    if not hasattr(match, "_revealed_seed"):
        setattr(match, "_revealed_seed", revealed_seed(match))  # noqa: B010  (an attribute of our own on the instance)
    revealed: RevealedSeed | None = getattr(match, "_revealed_seed")  # noqa: B009
    return revealed


class MatchListSerializer(serializers.ListSerializer):
    def to_representation(self, data):
        # A page's comparison games whose result is withheld, found in one query (league.selectors.deals).
        return super().to_representation(without_withheld_results(data.all() if hasattr(data, "all") else data))


class MatchSerializer(serializers.ModelSerializer):
    seat_players = MatchSeatSerializer(source="match_seats", many=True, read_only=True)
    tournament = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField(help_text="Revealed once the match and every match sharing its deal "
                                             "(duplicate twins) have ended: it decides every deal.")
    nonce = serializers.SerializerMethodField(help_text="Revealed with the seed: the commitment is SHA-256 of "
                                              "`nonce:seed` (UTF-8), in hex.")
    commitment = serializers.CharField(read_only=True, help_text="SHA-256 of `nonce:seed`, public from the match's "
                                       "creation (empty for matches stored before commitments).")
    seed_chosen = serializers.BooleanField(read_only=True, help_text="Whoever created the match chose its seed "
                                           "(practice): they could know every deal.")
    score_label = serializers.SerializerMethodField(help_text="What the seats' `score` is in this game.")
    tiebreak_label = serializers.SerializerMethodField(help_text="What the seats' `tiebreak` is in this game.")

    result_withheld = serializers.SerializerMethodField(
        help_text="A comparison's game that has ended while the other game of its pair is still played: its result "
                  "(`result`, the seats' scores, vaults, showrooms, placements, winners and forfeits) is held back, "
                  "read as in play, until the pair has ended.")

    class Meta:
        model = Match
        list_serializer_class = MatchListSerializer
        fields = ["id", "game", "club", "status", "move_number", "ruleset", "commitment", "seed", "nonce",
                  "seed_chosen", "seats", "first_dealer", "score_label", "tiebreak_label", "seat_players", "result",
                  "result_withheld", "error", "tournament", "tournament_round", "table_number", "ladder", "offline",
                  "turn_deadline_seconds", "deadline_fallback", "deadline_action", "deadline_at",
                  "clock_bank_seconds", "clock_increment_seconds", "created_at", "started_at",
                  "updated_at", "finished_at"]

    def to_representation(self, match: Match):
        if not hasattr(match, "result_withheld"):  # one match (a list's are looked at together)
            without_withheld_results([match])
        return super().to_representation(match)

    def get_result_withheld(self, match: Match) -> bool:
        return bool(getattr(match, "result_withheld", False))

    def get_tournament(self, match: Match) -> int | None:
        rnd = match.tournament_round  # None without a query when the match has no round
        return rnd.tournament_id if rnd is not None else None

    def get_seed(self, match: Match) -> str | None:
        revealed = _revealed_seed(match)
        return revealed.seed if revealed else None

    def get_nonce(self, match: Match) -> str | None:
        revealed = _revealed_seed(match)
        return revealed.nonce if revealed else None

    def get_score_label(self, match: Match) -> str:
        return game_type(match.game).score_label

    def get_tiebreak_label(self, match: Match) -> str:
        return game_type(match.game).tiebreak_label


class MatchCreateSerializer(serializers.Serializer):
    players = serializers.PrimaryKeyRelatedField(queryset=player_reads.players(), many=True,
                                                 help_text="Player ids in seat order.")
    game = serializers.ChoiceField(choices=list(GAMES), default="diamonds", help_text="The game (engine.games).")
    ruleset = serializers.DictField(required=False, help_text='The game\'s ruleset fields; "players" follows the '
                                    'seats.')
    club = serializers.PrimaryKeyRelatedField(queryset=club_reads.clubs(), required=False, allow_null=True)
    seed = serializers.CharField(required=False, max_length=200)
    turn_deadline_seconds = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                                     max_value=MAX_TURN_DEADLINE_SECONDS)
    deadline_fallback = serializers.ChoiceField(choices=["random", "greedy"], required=False)
    deadline_action = serializers.ChoiceField(
        choices=DeadlineAction.choices, required=False,
        help_text="What a missed deadline (or a clock run out) costs: fallback (the default: the bot decides once; "
                  "a clock run out: the bot plays the seat to the end) or forfeit.")
    clock_bank_seconds = clock_bank_field()
    clock_increment_seconds = clock_increment_field()

    def validate(self, attrs):
        if attrs.get("clock_increment_seconds") and attrs.get("clock_bank_seconds") is None:
            raise serializers.ValidationError({"clock_increment_seconds": "an increment needs a clock: give "
                                                                          "clock_bank_seconds too"})
        return attrs


class DeadlineSerializer(serializers.Serializer):
    turn_deadline_seconds = serializers.IntegerField(allow_null=True, min_value=1, max_value=MAX_TURN_DEADLINE_SECONDS,
                                                     help_text="Seconds per decision; null: the league's default for "
                                                               "who is seated.")
    deadline_fallback = serializers.ChoiceField(choices=["random", "greedy"], required=False)
    deadline_action = serializers.ChoiceField(
        choices=DeadlineAction.choices, required=False,
        help_text="fallback: the bot makes the overdue decision only; forfeit: the late seat forfeits (placed last) "
                  "and the bot plays it to the end. Unchanged when left out.")


# One trick of a Diamonds match, as its record derives it (league.selectors.records.match_tricks); the fields and
# their schema are those of the trick rows it replaced, so the API answers as it did.
class TrickSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=0, max_value=32767)
    index = serializers.IntegerField(min_value=0, max_value=32767, help_text="The trick's index within its round.")
    leader = serializers.IntegerField(min_value=0, max_value=32767)
    plays = serializers.JSONField(help_text='Every play in order: [{"seat": 3, "card": "H9"}, ...].')
    winner = serializers.IntegerField(min_value=0, max_value=32767, allow_null=True, required=False)


class DecisionRequestSerializer(serializers.Serializer):
    """A decision: the move number of the state it answers and the decision itself, e.g.
    `{"move_number": 12, "decision": {"kind": "play", "card": "H7"}}`. `seat` only if the account holds several."""

    move_number = serializers.IntegerField()
    decision = serializers.JSONField(help_text='{"kind": "play", "card": "H7"}, {"kind": "pass_count", "count": 2}, '
                                               '{"kind": "pass_cards", "cards": ["D3", "S1"]}, '
                                               '{"kind": "clubs_target", "target": 3}')
    seat = serializers.IntegerField(required=False)


class PendingSerializer(serializers.Serializer):
    kind = serializers.CharField()
    seats = serializers.ListField(child=serializers.IntegerField())
    count = serializers.IntegerField(allow_null=True)


class LegalSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    move_number = serializers.IntegerField()
    my_turn = serializers.BooleanField()
    pending = PendingSerializer(allow_null=True)
    decisions = serializers.ListField(child=serializers.DictField())
    pass_cards = serializers.DictField(allow_null=True, help_text='{"count": 2, "from": ["D3", ...]}: choose count.')
    clock = ClockSerializer(allow_null=True, required=False,
                            help_text="The match's chess clocks now (null: no clock): the seat's own time left.")


class DecisionResultSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    seat = serializers.IntegerField()
    move_number = serializers.IntegerField()
    pending = PendingSerializer(allow_null=True)
    over = serializers.BooleanField()
    legal = LegalSerializer(
        allow_null=True,
        help_text="What GET legal/ would answer now for the first of the caller's seats the match awaits (null if "
                  "none is): the next decision can be made without asking for it.")
    clock = ClockSerializer(allow_null=True, help_text="The match's chess clocks after the decision (null: no "
                                                       "clock).")


class TurnSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    seat = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    move_number = serializers.IntegerField()
    deadline_at = serializers.DateTimeField(allow_null=True)
    clock_remaining_ms = serializers.IntegerField(
        allow_null=True, help_text="Milliseconds left on this seat's chess clock now (its decision is due when it "
                                   "runs out); null: the match has no clock.")
    legal = LegalSerializer(
        allow_null=True, required=False,
        help_text="With ?legal=1: what GET legal/?seat= would answer now for this seat, so the decision can be "
                  "made without asking for it; otherwise null.")


class TurnsSerializer(serializers.Serializer):
    turns = TurnSerializer(many=True)
    waited = serializers.FloatField(help_text="Seconds the request waited.")


class TournamentSerializer(serializers.ModelSerializer):
    turn_deadline_seconds = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_TURN_DEADLINE_SECONDS,
        help_text="Seconds per decision at every table; null (the default): the league's default for who is seated "
                  "at each table (a few minutes with a person, seconds for external bots).")
    deadline_fallback = serializers.ChoiceField(
        choices=["random", "greedy"], required=False,
        help_text="The engine bot that plays for a late seat (once, or to the end after a forfeit).")
    round_minutes = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_ROUND_MINUTES,
        help_text="Minutes a round lasts on the clock shown at every table and on the projector (counted from the "
                  "round's start); null (the default): no clock. Nothing stops when it runs out.")
    clock_bank_seconds = clock_bank_field()
    clock_increment_seconds = clock_increment_field()
    # An object, as the schema says (a JSON model field would take any JSON, and a list here was a 500).
    ruleset = serializers.DictField(required=False, help_text="The game's ruleset fields (without `players`: the "
                                    "table size).")

    class Meta:
        model = Tournament
        fields = ["id", "name", "club", "season", "game", "ruleset", "format", "rounds", "table_size", "match_points",
                  "tiebreaks", "auto_advance", "rated", "turn_deadline_seconds", "deadline_action",
                  "deadline_fallback", "offline_tables", "status", "created_at", "started_at", "finished_at",
                  "registration_closes_at", "members_only",
                  # a club evening: check-in, late entries, the final stage (docs/organisers.md)
                  "check_in_required", "self_check_in", "late_entry_points", "final_size", "final_stages",
                  "final_advance", "final_ranking", "round_minutes", "clock_bank_seconds", "clock_increment_seconds"]


class CancelSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500,
                                   help_text="Why: kept with the match (its `error`) for whoever looks later.")


class TournamentRoundSerializer(serializers.ModelSerializer):
    tables = serializers.SerializerMethodField(help_text="The seating; each table's seed once the round is closed.")

    class Meta:
        model = TournamentRound
        fields = ["id", "tournament", "index", "stage", "status", "tables", "byes", "created_at", "started_at",
                  "closed_at"]

    def get_tables(self, rnd: TournamentRound) -> list[dict]:
        return shown_tables(rnd)


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField())
    games = serializers.IntegerField()
    dropped = serializers.BooleanField(required=False, help_text="Left the tournament: not seated any more, results "
                                       "kept (tournament standings only).")
    zone = serializers.CharField(required=False, help_text="A division's standings only: up or down (the promotion "
                                 "or relegation zone; once the season is closed, the move decided), or empty.")
    metrics = serializers.DictField()


class RatingSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Rating
        fields = ["id", "player", "name", "ladder", "game", "mu", "sigma", "ordinal", "matches", "updated_at"]


class RatingHistorySerializer(serializers.ModelSerializer):
    class Meta:
        model = RatingHistory
        fields = ["id", "player", "ladder", "match", "mu_before", "sigma_before", "mu", "sigma", "ordinal",
                  "created_at"]


class ResultCorrectionSerializer(serializers.ModelSerializer):
    corrected_by = serializers.CharField(source="corrected_by.get_username", read_only=True)

    class Meta:
        model = ResultCorrection
        fields = ["id", "match", "corrected_by", "reason", "before", "after", "created_at"]
        read_only_fields = ["match", "before", "created_at"]


class CorrectionRequestSerializer(serializers.Serializer):
    reason = serializers.CharField()
    vault = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=MAX_RESULT_AMOUNT),
                                  max_length=6, help_text="Per seat (per team with partners).")
    showroom = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=MAX_RESULT_AMOUNT),
                                     max_length=6)
    score = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=3 * MAX_RESULT_AMOUNT),
                                  max_length=6, required=False,
                                  help_text="Optional: must be 2 x vault + showroom (R-SCORE-1).")
