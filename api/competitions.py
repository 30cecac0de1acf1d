"""Leagues, seasons (with season standings) and ladders: read by anyone, organised by the club's organisers.

Ladder tables are seated by the workers' ladder_tick; the ladder's ranking is its ratings (/api/v1/ratings/?ladder=).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import IntegrityError
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response

from engine.games import GAMES
from league.divisions import zone_sizes
from league.models import Ladder, League, Player, Season, Tournament, TournamentEntry
from league.permissions import may_act_for, refusal_to_check_in, refusal_to_enter
from league.selectors.competitions import entries_for_round, ladders_with_pools, leagues, pool_ids, seasons
from league.selectors.divisions import season_divisions
from league.selectors.players import player as player_by_id
from league.selectors.players import players_with_ids
from league.selectors.ranking import tournament_ranking
from league.selectors.standings import season_games
from league.selectors.standings_cache import cached_season_standings
from league.services.accounts import ensure_person
from league.services.evening import CheckInError, check_in, check_out, checked_in_ids, next_round_index
from league.services.ladders import create_ladder, join_ladder, leave_ladder, update_ladder
from league.services.leagues import (
    NotEmpty,
    create_league,
    create_season,
    delete_league,
    delete_season,
    rename_league,
    update_season,
)
from league.services.registration import withdraw_player

from .errors import E409, LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, Conflict, conflict
from .ids import body_id
from .permissions import ReadOnlyOrAuthenticated, refuse, require_organiser
from .renderers import CSVRenderer, TableResponse
from .serializers import StandingSerializer
from .throttling import WriteThrottle
from .tournaments import STANDING_COLUMNS, TournamentViewSet, metric_value


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "club", "name", "division_count", "promoted", "relegated", "created_at"]
        # What a new season starts with; set on the website's league settings (organisers).
        read_only_fields = ["division_count", "promoted", "relegated"]
        validators: list[Callable[..., Any]] = []  # a taken name is a 409 from the database's constraint


class DivisionPlayerSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    final_rank = serializers.IntegerField(allow_null=True, help_text="Place in the division when the season closed.")
    movement = serializers.CharField(help_text="Once the season is closed: up, down or stays; empty before.")


class DivisionSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1 is the top division.")
    name = serializers.CharField()
    promotion_places = serializers.IntegerField(help_text="How many at the top go up when the season closes (0 in "
                                                          "Division 1).")
    relegation_places = serializers.IntegerField(help_text="How many at the bottom go down (0 in the last "
                                                           "division).")
    players = DivisionPlayerSerializer(many=True)


class SeasonSerializer(serializers.ModelSerializer):
    games = serializers.SerializerMethodField(help_text="The games its tournaments play: its standings are per game.")
    divisions = serializers.SerializerMethodField(help_text=(
        "Its divisions, top first, with their players and zones (empty for a season of one table). Their standings: "
        "standings/?division=N. Set by the club's organisers on the website."))

    class Meta:
        model = Season
        fields = ["id", "league", "name", "starts_on", "ends_on", "games", "promoted", "relegated", "closed_at",
                  "divisions", "created_at"]
        read_only_fields = ["promoted", "relegated", "closed_at"]
        validators: list[Callable[..., Any]] = []  # a taken name is a 409 from the database's constraint

    def get_games(self, season: Season) -> list[str]:
        return season_games(season)

    @extend_schema_field(DivisionSerializer(many=True))
    def get_divisions(self, season: Season) -> list[dict]:
        divisions = sorted(season.divisions.all(), key=lambda d: d.number)
        out = []
        for index, division in enumerate(divisions):
            up, down = zone_sizes(index, len(divisions), season.promoted, season.relegated)
            members = sorted(division.members.all(), key=lambda m: (m.final_rank is None, m.final_rank, m.pk))
            out.append({"number": division.number, "name": division.name, "promotion_places": up,
                        "relegation_places": down,
                        "players": [{"player": m.player_id, "name": m.player.name, "final_rank": m.final_rank,
                                     "movement": m.movement} for m in members]})
        return out


class LadderSerializer(serializers.ModelSerializer):
    # An object, as the schema says (a JSON model field would take any JSON, and a list here was a 500).
    ruleset = serializers.DictField(required=False, help_text="The game's ruleset fields (without `players`: the "
                                    "table size).")
    entries = serializers.SerializerMethodField(help_text="Active players in the pool.")

    class Meta:
        model = Ladder
        fields = ["id", "club", "name", "game", "ruleset", "table_size", "active", "rating_model",
                  "max_tables_per_tick", "entries", "created_at"]
        read_only_fields = ["active"]
        # a taken name is a 409 from the database's constraint
        extra_kwargs: dict[str, dict[str, Any]] = {"name": {"validators": []}}

    def get_entries(self, ladder: Ladder) -> list[int]:
        return pool_ids(ladder)


PLAYERS_BODY = {"application/json": {"type": "object", "properties": {
    "players": {"type": "array", "items": {"type": "integer"}}}}}
PLAYER_BODY = {"application/json": {"type": "object", "properties": {"player": {"type": "integer"}}}}


def _players(data) -> list[Player]:
    ids = data.get("players") if isinstance(data, dict) else None
    if not isinstance(ids, list) or not ids:
        raise ValidationError({"players": "a list of player ids"})
    ids = [body_id(i, "players") for i in ids]
    players = players_with_ids(ids)
    if len(players) != len(set(ids)):
        raise ValidationError({"players": "unknown player ids"})
    return players


def _player(data) -> Player:
    player = player_by_id(body_id(data.get("player") if isinstance(data, dict) else None, "player"))
    if player is None:
        raise ValidationError({"player": "no such player"})
    return player


@extend_schema_view(
    list=extend_schema(summary="Leagues (filter by club)",
                       responses={200: LeagueSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One league", responses={200: LeagueSerializer, **READ_ERRORS}),
    create=extend_schema(summary="Create a league (the club's organisers)",
                         responses={201: LeagueSerializer, **WRITE_ERRORS}),
    partial_update=extend_schema(summary="Rename a league (the club's organisers)",
                                 responses={200: LeagueSerializer, **WRITE_ERRORS}),
    destroy=extend_schema(summary="Delete a league without seasons (the club's organisers; 409 otherwise)",
                          responses={204: None, **WRITE_ERRORS, 409: E409}),
)
class LeagueViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                    viewsets.GenericViewSet):
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    queryset = leagues()
    serializer_class = LeagueSerializer
    filterset_fields = {"club": ["exact"]}
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    def create(self, request):
        form = LeagueSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        require_organiser(request, form.validated_data["club"].pk)
        try:
            league = create_league(club=form.validated_data["club"], name=form.validated_data["name"])
        except IntegrityError:
            return conflict(ValueError("the club has a league of that name"))
        return Response(LeagueSerializer(league).data, status=201)

    def partial_update(self, request, pk=None):
        league = self.get_object()
        require_organiser(request, league.club_id)
        form = LeagueSerializer(league, data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        if set(form.validated_data) - {"name"}:
            raise ValidationError({"detail": "only a league's name can change"})
        try:
            if "name" in form.validated_data:
                league = rename_league(league=league, name=form.validated_data["name"])
        except IntegrityError:
            return conflict(ValueError("the club has a league of that name"))
        return Response(LeagueSerializer(league).data)

    def destroy(self, request, pk=None):
        league = self.get_object()
        require_organiser(request, league.club_id)
        try:
            delete_league(league=league)
        except NotEmpty as e:
            return conflict(e)
        return Response(status=204)


@extend_schema_view(
    list=extend_schema(summary="Seasons (filter by league)",
                       responses={200: SeasonSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One season", responses={200: SeasonSerializer, **READ_ERRORS}),
    create=extend_schema(summary="Create a season of a league (the club's organisers)",
                         responses={201: SeasonSerializer, **WRITE_ERRORS}),
    partial_update=extend_schema(summary="Rename a season or move its dates (the club's organisers)",
                                 responses={200: SeasonSerializer, **WRITE_ERRORS}),
    destroy=extend_schema(summary="Delete a season without tournaments (the club's organisers; 409 otherwise)",
                          responses={204: None, **WRITE_ERRORS, 409: E409}),
)
class SeasonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                    viewsets.GenericViewSet):
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    queryset = seasons().prefetch_related("divisions__members__player")
    serializer_class = SeasonSerializer
    filterset_fields = {"league": ["exact"]}
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    def create(self, request):
        form = SeasonSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        require_organiser(request, data["league"].club_id)
        try:
            season = create_season(league=data["league"], name=data["name"], starts_on=data.get("starts_on"),
                                   ends_on=data.get("ends_on"))
        except IntegrityError:
            return conflict(ValueError("the league has a season of that name"))
        except ValueError as e:
            raise ValidationError({"ends_on": str(e)}) from None
        return Response(SeasonSerializer(season).data, status=201)

    def partial_update(self, request, pk=None):
        season = self.get_object()
        require_organiser(request, season.league.club_id)
        form = SeasonSerializer(season, data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        changes = {k: v for k, v in form.validated_data.items() if k in ("name", "starts_on", "ends_on")}
        if set(form.validated_data) - set(changes):
            raise ValidationError({"detail": "a season's name and dates can change, not its league"})
        try:
            season = update_season(season=season, **changes)
        except IntegrityError:
            return conflict(ValueError("the league has a season of that name"))
        except ValueError as e:
            raise ValidationError({"ends_on": str(e)}) from None
        return Response(SeasonSerializer(season).data)

    def destroy(self, request, pk=None):
        season = self.get_object()
        require_organiser(request, season.league.club_id)
        try:
            delete_season(season=season)
        except NotEmpty as e:
            return conflict(e)
        return Response(status=204)

    @extend_schema(summary="The season's standings over its tournaments of one game (JSON, or CSV with ?format=csv)",
                   parameters=[OpenApiParameter("game", str, enum=list(GAMES), description=(
                       "Which game's standings: a season that mixes games is ranked one game at a time (by "
                       "default the first of the season's `games`).")),
                               OpenApiParameter("division", int, description=(
                                   "One division's standings (its number: 1 is the top), ranked among its players, "
                                   "each row with its `zone`: up or down (the zone while the season runs; once it is "
                                   "closed, the move decided), or empty. 400 for a division the season has not."))],
                   responses={(200, "application/json"): StandingSerializer(many=True),
                              (200, "text/csv"): OpenApiTypes.STR, **READ_ERRORS})
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer, BrowsableAPIRenderer, CSVRenderer],
            filter_backends=[], pagination_class=None)  # one whole table, like a tournament's
    def standings(self, request, pk=None, format=None):
        season = self.get_object()
        game = request.query_params.get("game") or None
        if game is not None and game not in GAMES:
            raise ValidationError({"game": f"unknown game {game!r}; games: {', '.join(GAMES)}"})
        division = request.query_params.get("division")
        csv = getattr(request.accepted_renderer, "format", "") == "csv"
        zones: dict[int, str] | None = None
        if division is None:
            standings = cached_season_standings(season, game)
        else:
            if not (division.isdigit() and len(division) <= 4):
                raise ValidationError({"division": "a division's number: 1 is the top"})
            number = int(division)
            tables = season_divisions(season, game).tables
            table = next((t for t in tables if t.division.number == number), None)
            if table is None:
                raise ValidationError({"division": f"the season has no division {number}"
                                       if tables else "the season has one table: no divisions"})
            standings, zones = table.rows, table.zones
        rows = []
        for r in standings:
            metrics = {k: metric_value(v) for k, v in r.metrics.items()}
            row: dict[str, Any] = {"rank": r.rank, "shared": r.shared, "name": r.name, "players": list(r.player_ids),
                                   "games": r.games}
            if zones is not None:
                row["zone"] = zones.get(r.player_ids[0], "")
            rows.append({**row, **metrics} if csv else {**row, "metrics": metrics})
        columns = STANDING_COLUMNS if zones is None else (*STANDING_COLUMNS, "zone")
        return TableResponse(rows, csv_columns=columns)


@extend_schema_view(
    list=extend_schema(summary="Ladders (their rankings: /api/v1/ratings/?ladder=ID)",
                       responses={200: LadderSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One ladder", responses={200: LadderSerializer, **READ_ERRORS}),
    create=extend_schema(summary="Create a ladder of one game (the club's organisers; staff without a club)",
                         responses={201: LadderSerializer, **WRITE_ERRORS}),
    partial_update=extend_schema(
        summary="Rename, pause or resume a ladder, or change its tables per tick (the club's organisers)",
        description="`active`: false pauses it (no new tables; tables in play finish). Its game, table size, ruleset "
                    "and rating model cannot change: its ratings were earned under them (400).",
        request={"application/json": {"type": "object", "properties": {
            "name": {"type": "string"}, "active": {"type": "boolean"},
            "max_tables_per_tick": {"type": "integer", "minimum": 1}}}},
        responses={200: LadderSerializer, **WRITE_ERRORS}),
)
class LadderViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                    viewsets.GenericViewSet):
    http_method_names = ["get", "post", "patch", "head", "options"]
    queryset = ladders_with_pools()
    serializer_class = LadderSerializer
    filterset_fields = {"club": ["exact"], "active": ["exact"]}
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    def create(self, request):
        form = LadderSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        club = data.get("club")
        require_organiser(request, club.pk if club else None)
        fields = {k: data[k] for k in ("name", "game", "table_size", "ruleset", "rating_model", "club",
                                       "max_tables_per_tick") if k in data}
        try:
            ladder = create_ladder(**fields)
        except IntegrityError:
            return conflict(ValueError("a ladder of that name exists"))
        except ValueError as e:
            raise ValidationError({"detail": str(e)}) from None
        return Response(LadderSerializer(ladder).data, status=201)

    def partial_update(self, request, pk=None):
        ladder = self.get_object()
        require_organiser(request, ladder.club_id)
        body = request.data if isinstance(request.data, dict) else {}
        changes = {}
        for name, kind in (("name", str), ("active", bool), ("max_tables_per_tick", int)):
            if name in body:
                if not isinstance(body[name], kind) or (kind is int and isinstance(body[name], bool)):
                    raise ValidationError({name: f"must be a {kind.__name__}"})
                changes[name] = body[name]
        other = sorted(set(body) - set(changes))
        try:
            ladder = update_ladder(ladder=ladder, **changes, **{k: body[k] for k in other})
        except IntegrityError:
            return conflict(ValueError("a ladder of that name exists"))
        except ValueError as e:
            raise ValidationError({"detail": str(e)}) from None
        return Response(LadderSerializer(ladder).data)

    @extend_schema(summary="Put players in the pool (people themselves; the club's bots by its organisers); "
                           "without `players`, the signed-in person themselves",
                   request=PLAYERS_BODY, responses={201: LadderSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def join(self, request, pk=None):
        ladder = self.get_object()
        players = _players(request.data) if _names(request.data, "players") else [_own_player(request)]
        refuse(refusal_to_enter(request.user, ladder.club_id, players))
        try:
            join_ladder(ladder=ladder, players=players)
        except ValueError as e:  # a paused bot, or an engine bot without a bot for the ladder's game
            raise Conflict(str(e)) from None
        return Response(LadderSerializer(ladder).data, status=201)

    @extend_schema(summary="Take a player out of the pool before the next seating (organisers; anyone for their own "
                           "player; without `player`, the signed-in person). A match in play is played to its end.",
                   request=PLAYER_BODY, responses={200: LadderSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def leave(self, request, pk=None):
        ladder = self.get_object()
        player = _player(request.data) if _names(request.data, "player") else _own_player(request)
        _require_organiser_or_own(request, ladder.club_id, [player])
        leave_ladder(ladder=ladder, player=player)
        return Response(LadderSerializer(ladder).data)


def _names(data, field: str) -> bool:
    """The body names `field` (an empty body, or none, means "myself")."""
    return isinstance(data, dict) and field in data


def _own_player(request) -> Player:
    """The signed-in account's person player (made now for an account older than sign-up); 403 for a bot's."""
    player = ensure_person(request.user)[1]
    if player is None:
        raise PermissionDenied("a bot's account is entered by its owner: name the bot in `players`")
    return player


def _require_organiser_or_own(request, club_id, players: list[Player]) -> None:
    """Organisers act for anyone; an account acts for its own players."""
    if not may_act_for(request.user, club_id, players):
        refuse("only the player's own account or the club's organisers may do this")


class TournamentOrganiserViewSet(TournamentViewSet):
    """The tournament resource with the withdrawal step (kept here beside the other entry changes)."""

    @extend_schema(summary="Withdraw a player from later rounds (organisers; anyone for their own player)",
                   request=PLAYER_BODY, responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        tournament = self.get_object()
        player = _player(request.data)
        _require_organiser_or_own(request, tournament.club_id, [player])
        try:
            withdraw_player(tournament=tournament, player=player)
        except TournamentEntry.DoesNotExist:
            raise ValidationError({"player": "not entered in this tournament"}) from None
        return Response({"tournament": tournament.pk, "withdrawn": player.pk})

    @extend_schema(
        summary="Who is checked in for the next round (GET); check a player in (POST: organisers, or the player "
                "where the tournament allows self check-in)",
        description="A check-in is for the next round not seated yet; seating it closes its check-ins. With "
                    "`check_in_required`, only the active entries checked in are seated. 409 when the tournament "
                    "takes no check-in, is over, or the player dropped; 400 for a player not entered.",
        request=PLAYER_BODY, responses={200: OpenApiTypes.OBJECT, 201: OpenApiTypes.OBJECT, **WRITE_ERRORS,
                                        409: E409})
    @action(detail=True, methods=["get", "post"], url_path="check-ins", filter_backends=[], pagination_class=None)
    def check_ins(self, request, pk=None):
        tournament = self.get_object()
        if request.method == "POST":
            player = _player(request.data)
            refuse(refusal_to_check_in(request.user, tournament, player))
            try:
                check_in(tournament=tournament, player=player, by=request.user)
            except TournamentEntry.DoesNotExist:
                raise ValidationError({"player": _("not entered in this tournament")}) from None
            except CheckInError as e:
                return conflict(e)
            return Response(_check_in_list(tournament), status=201)
        return Response(_check_in_list(tournament))

    @extend_schema(summary="Undo a player's check-in for the next round (organisers, or the player with self "
                           "check-in)",
                   request=PLAYER_BODY, responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS, 409: E409})
    @action(detail=True, methods=["post"], url_path="check-outs")
    def check_outs(self, request, pk=None):
        tournament = self.get_object()
        player = _player(request.data)
        refuse(refusal_to_check_in(request.user, tournament, player))
        try:
            check_out(tournament=tournament, player=player)
        except TournamentEntry.DoesNotExist:
            raise ValidationError({"player": _("not entered in this tournament")}) from None
        except CheckInError as e:
            return conflict(e)
        return Response(_check_in_list(tournament))

    @extend_schema(
        summary="The tournament's final ranking: qualifying standings, then what its final decided",
        description="`rows`: the ranking (rank, shared, name, players, dropped, qualifying_rank, stage: the last "
                    "final stage played or 0, stage_place, metrics). Without a final it is the standings. "
                    "`provisional` until the tournament is finished. `mode`: final_decides (the final decides "
                    "places 1..N, the rest by qualifying standings) or added (the final's results added to the "
                    "standings).",
        responses={200: OpenApiTypes.OBJECT, **READ_ERRORS})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def ranking(self, request, pk=None):
        tournament = self.get_object()
        ranking = tournament_ranking(tournament=tournament)
        return Response({
            "tournament": tournament.pk, "final": ranking.final, "provisional": ranking.provisional,
            "mode": ranking.mode,
            "rows": [{"rank": r.rank, "shared": r.shared, "name": r.name, "players": list(r.player_ids),
                      "dropped": r.dropped, "qualifying_rank": r.qualifying_rank, "stage": r.stage,
                      "stage_place": r.stage_place, "metrics": {k: metric_value(v) for k, v in r.metrics.items()}}
                     for r in ranking.rows]})


def _check_in_list(tournament: Tournament) -> dict:
    """The next round's check-in list: every active entry that may play it, and whether it is checked in."""
    index = next_round_index(tournament)
    present = checked_in_ids(tournament, index)
    entries = entries_for_round(tournament, index)
    return {"tournament": tournament.pk, "round": index, "check_in_required": tournament.check_in_required,
            "players": [{"player": e.player_id, "name": e.player.name, "checked_in": e.player_id in present}
                        for e in entries]}
