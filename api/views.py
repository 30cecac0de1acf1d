"""The league's resources: clubs, players, matches (with their tricks, records and corrections), tournaments (with
standings), ratings with history. Reads are open to everyone; writes are for organisers (api.permissions).

Views only translate HTTP: reads go through league.selectors or plain querysets, writes through league.services.
"""

from __future__ import annotations

import django_filters
from django import forms
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response

from engine import InvalidRuleset
from engine.games import GAMES
from league.models import (
    Club,
    Match,
    Player,
    Rating,
    RatingHistory,
    ResultCorrection,
    Tournament,
    TournamentFormat,
    TournamentRound,
)
from league.models.player import EXTERNAL_BOT
from league.permissions import (
    is_person,
    organises,
    refusal_to_add_member,
    refusal_to_bind_account,
    refusal_to_enter,
    refusal_to_link_season,
    refusal_to_manage_bot,
    refusal_to_seat,
    refusal_to_take_part,
)
from league.selectors.live import public_record, seats_of_user
from league.selectors.records import match_tricks
from league.selectors.standings_cache import cached_tournament_standings
from league.services import create_bot_player, create_club, create_match, create_person_player
from league.services.advancing import advance_tournament, start_tournament
from league.services.bot_pausing import NotPaused, resume_bot
from league.services.cancellation import NotCancellable, cancel_match, cancel_tournament
from league.services.competition import TournamentError
from league.services.corrections import CorrectionError, NotCorrectable, correct_result
from league.services.decisions import set_turn_deadline, start_live_match
from league.services.entry import refusal_to_self_enter
from league.services.membership import MembershipError, ask_to_join
from league.services.players import (
    add_club_admin,
    create_external_bot,
    join_club,
    regenerate_bot_token,
    revoke_bot_token,
)
from league.services.registration import register_players, register_team
from league.services.tournament_setup import create_tournament, delete_tournament, update_tournament

from .errors import Conflict, ErrorSerializer, error_response
from .permissions import IsStaffForWrites, ReadOnlyOrAuthenticated, refuse
from .play import refuse_spectator_of_shared_deal
from .renderers import CSVRenderer
from .serializers import (
    CancelSerializer,
    ClubSerializer,
    CorrectionRequestSerializer,
    DeadlineSerializer,
    MatchCreateSerializer,
    MatchSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    RatingHistorySerializer,
    RatingSerializer,
    ResultCorrectionSerializer,
    StandingSerializer,
    TournamentRoundSerializer,
    TournamentSerializer,
    TrickSerializer,
)
from .throttling import WriteThrottle
from .tokens import issue_token

E400 = OpenApiResponse(ErrorSerializer, description="Invalid input.")
E403 = OpenApiResponse(ErrorSerializer, description="Not signed in, or not an organiser of the club.")
E404 = OpenApiResponse(ErrorSerializer, description="No such object.")
E409 = OpenApiResponse(ErrorSerializer, description="The object's state does not allow it.")
E429 = OpenApiResponse(ErrorSerializer, description="Too many writes: see Retry-After.")
READ_ERRORS = {404: E404}
# A list answers 400 for a filter value it cannot take and 404 for a page past the end.
LIST_ERRORS = {400: OpenApiResponse(ErrorSerializer, description="A filter value it cannot take."),
               404: OpenApiResponse(ErrorSerializer, description="No such page.")}
WRITE_ERRORS = {400: E400, 401: E403, 403: E403, 404: E404, 429: E429}


def conflict(error: Exception) -> Response:
    """409: what was asked is well formed, but the object's state does not allow it (the error says why)."""
    return error_response(str(error), "conflict", 409)


def _require_organiser(request, club_id: int | None) -> None:
    if not organises(request.user, club_id):
        raise PermissionDenied(_("only the club's organisers (and staff) may do this"))


# ---- clubs --------------------------------------------------------------------------------------------------


class IdField(forms.IntegerField):
    """An id in a query parameter: a whole number the database can hold (a larger one is a 400, not a 500)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", 2**63 - 1)
        super().__init__(*args, **kwargs)


class IdFilter(django_filters.NumberFilter):
    field_class = IdField


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Club
        fields = ["name"]


@extend_schema_view(
    list=extend_schema(summary="Clubs",
                       responses={200: ClubSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One club", responses={200: ClubSerializer, **READ_ERRORS}),
    create=extend_schema(summary="Create a club (staff)", responses={201: ClubSerializer, **WRITE_ERRORS}),
)
class ClubViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    filterset_class = ClubFilter
    permission_classes = [IsStaffForWrites]
    throttle_classes = [WriteThrottle]

    def perform_create(self, serializer):
        try:
            serializer.instance = create_club(name=serializer.validated_data["name"],
                                              membership=serializer.validated_data.get("membership", "open"))
        except IntegrityError:
            raise Conflict(_("a club of that name exists")) from None

    @extend_schema(summary="Make an account an organiser of the club (staff or the club's organisers)",
                   request={"application/json": {"type": "object", "properties": {"username": {"type": "string"}}}},
                   responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS})
    @action(detail=True, methods=["post"], permission_classes=[ReadOnlyOrAuthenticated])
    def admins(self, request, pk=None):
        club = self.get_object()
        _require_organiser(request, club.pk)
        user = get_user_model().objects.filter(username=request.data.get("username", "")).first()
        if user is None:
            raise ValidationError({"username": "no such account"})
        add_club_admin(club=club, user=user)
        return Response({"club": club.pk, "username": user.get_username()}, status=201)

    @extend_schema(summary="Add a player to the club: a person joins by their own request; the club's organisers "
                           "add bots (another club's only if they organise it too)",
                   request={"application/json": {"type": "object", "properties": {"player": {"type": "integer"}}}},
                   responses={201: PlayerSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"], permission_classes=[ReadOnlyOrAuthenticated])
    def members(self, request, pk=None):
        club = self.get_object()
        player = Player.objects.filter(pk=_int(request.data.get("player"), "player")).first()
        if player is None:
            raise ValidationError({"player": "no such player"})
        refuse(refusal_to_add_member(request.user, club.pk, player))
        if is_person(player):
            # A person joins as POST clubs/{id}/join/ has them: an open club at once, else a request (202).
            refuse(refusal_to_take_part(request.user))
            try:
                outcome = ask_to_join(club=club, player=player)
            except MembershipError as e:
                return conflict(e)
            if not outcome.joined:
                return Response(PlayerSerializer(player).data, status=202)
        else:
            join_club(club=club, player=player)
        return Response(PlayerSerializer(player).data, status=201)


def _int(value, name: str) -> int:
    """An id from a body: a whole number the id column can hold (a larger one is a 400, not a database error)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise ValidationError({name: "an integer id"})
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValidationError({name: "an integer id"}) from None
    if not 0 <= number < 2**63:
        raise ValidationError({name: "an id is a whole number from 0 to 2**63 - 1"})
    return number


# ---- players ------------------------------------------------------------------------------------------------


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    club = IdFilter(field_name="clubs")
    kind = django_filters.ChoiceFilter(method="filter_kind", choices=[
        ("person", "person"), ("engine_bot", "engine bot"), ("external_bot", "external bot")])

    class Meta:
        model = Player
        fields = ["name", "club", "bot_kind"]

    def filter_kind(self, queryset, name, value):
        if value == "person":
            return queryset.filter(bot_kind="")
        if value == "external_bot":
            return queryset.filter(bot_kind=EXTERNAL_BOT)
        return queryset.exclude(bot_kind__in=["", EXTERNAL_BOT])


@extend_schema_view(
    list=extend_schema(summary="Players: people, engine bots and external bots",
                       responses={200: PlayerSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One player", responses={200: PlayerSerializer, **READ_ERRORS}),
)
class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = Player.objects.select_related("owner").prefetch_related("clubs")
    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(
        summary="Register a player: yourself as a person, or a bot (club organisers; staff without a club; anyone "
                "for their own external bot)",
        description="A person: the caller's own account (`username` is theirs; no one binds another's account), "
                    "joining `club` if given. An engine bot (bot_kind random, greedy or search, with its "
                    "bot_settings), or an external bot: a new bot account whose API token is returned here, once. "
                    "Any signed-in person may create an external bot without a club: they are its `owner` and may "
                    "enter it in ladders (`POST /api/v1/ladders/{id}/join/`) and take it out.",
        request=PlayerCreateSerializer,
        responses={201: PlayerSerializer, **WRITE_ERRORS},
    )
    def create(self, request):
        form = PlayerCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        club = data.get("club")
        if data["kind"] == "external_bot" and club is None:
            # A bot author makes their own bot, in no club: any person's account may; a bot's account may not
            # (a leaked bot token must not breed bots).
            if Player.objects.filter(user=request.user, bot_kind=EXTERNAL_BOT).exists():
                raise PermissionDenied(_("a bot's account cannot create bots"))
        elif data["kind"] != "person":
            _require_organiser(request, club.pk if club else None)
        clubs = [club] if club else []
        name = data.get("name") or data.get("username")
        if not name:
            raise ValidationError({"name": "a player needs a name"})
        token = None
        try:
            if data["kind"] == "person":
                user = get_user_model().objects.filter(username=data.get("username", "")).first()
                if user is None:
                    raise ValidationError({"username": "no such account"})
                refuse(refusal_to_bind_account(request.user, user))
                player = create_person_player(user=user, name=name, clubs=clubs)
            elif data["kind"] == "engine_bot":
                player = create_bot_player(name=name, kind=data.get("bot_kind", ""),
                                           settings=data.get("bot_settings"), clubs=clubs)
            else:
                player = create_external_bot(name=name, clubs=clubs, owner=request.user)
                token = issue_token(player.user)
        except IntegrityError:  # a duplicate: the name, or the bot's account name, is another's
            return conflict(ValueError("that name (or bot account) is taken"))
        except ValueError as e:
            raise ValidationError({"bot_kind": str(e)}) from None
        body = PlayerSerializer(player).data
        if token:
            body["token"] = token
        return Response(body, status=201)

    def _managed_bot(self, request) -> Player:
        player = self.get_object()
        refuse(refusal_to_manage_bot(request.user, player))
        return player

    @extend_schema(summary="Give an external bot a new API token (its owner): the old one is refused at once",
                   request=None, responses={200: inline_serializer("NewToken", {"token": serializers.CharField()}),
                                            409: E409, **WRITE_ERRORS})
    @action(detail=True, methods=["post"], url_path="regenerate-token")
    def regenerate_token(self, request, pk=None):
        player = self._managed_bot(request)
        try:
            return Response({"token": regenerate_bot_token(player=player)})
        except ValueError as e:
            return conflict(e)

    @extend_schema(summary="Revoke an external bot's API token (its owner): the bot can no longer sign in until "
                           "it is given a new one", request=None, responses={200: PlayerSerializer, 409: E409,
                                                                              **WRITE_ERRORS})
    @action(detail=True, methods=["post"], url_path="revoke-token")
    def revoke_token(self, request, pk=None):
        player = self._managed_bot(request)
        try:
            revoke_bot_token(player=player)
        except ValueError as e:
            return conflict(e)
        return Response(PlayerSerializer(player).data)

    @extend_schema(summary="Resume a paused bot (its owner): ladders seat it again and its count of matches with a "
                           "missed deadline starts from zero", request=None,
                   responses={200: PlayerSerializer, 409: E409, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        player = self._managed_bot(request)
        try:
            player = resume_bot(player=player)
        except NotPaused as e:
            return conflict(e)
        return Response(PlayerSerializer(player).data)


# ---- matches ------------------------------------------------------------------------------------------------


class MatchFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Match._meta.get_field("status").choices)
    club = IdFilter(field_name="club")
    player = IdFilter(field_name="match_seats__player", distinct=True)
    tournament = IdFilter(field_name="tournament_round__tournament")
    tournament_round = IdFilter(field_name="tournament_round")
    ladder = IdFilter(field_name="ladder")

    class Meta:
        model = Match
        fields = ["status", "club", "player", "tournament", "tournament_round", "ladder"]


@extend_schema_view(
    list=extend_schema(summary="Matches (filter by status, club, player, tournament, round, ladder)",
                       responses={200: MatchSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One match", responses={200: MatchSerializer, **READ_ERRORS}),
)
class MatchViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = Match.objects.select_related("tournament_round").prefetch_related("match_seats__player")
    serializer_class = MatchSerializer
    filterset_class = MatchFilter
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(
        summary="Create and start a match (the club's organisers)",
        description="Engine bots play at once; a table with people or external bots waits for them (with the "
                    "turn deadline, if set, after which the fallback bot decides for a late seat).",
        request=MatchCreateSerializer,
        responses={201: MatchSerializer, **WRITE_ERRORS},
    )
    def create(self, request):
        form = MatchCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        club = data.get("club")
        players = data["players"]
        refuse(refusal_to_seat(request.user, club.pk if club else None, players))
        ruleset = {**data.get("ruleset", {}), "players": len(players)}
        try:
            # create_match checks the ruleset with the game's own Ruleset and the bots with the game's bots
            match = create_match(players=players, ruleset=ruleset, seed=data.get("seed"),
                                 seed_chosen=data.get("seed") is not None, club=club,
                                 game=data["game"])
        except (InvalidRuleset, ValueError, TypeError) as e:
            raise ValidationError({"ruleset": str(e)}) from None
        start_live_match(match=match, turn_deadline_seconds=data.get("turn_deadline_seconds"),
                         deadline_fallback=data.get("deadline_fallback", "random"))
        return Response(MatchSerializer(self.get_queryset().get(pk=match.pk)).data, status=201)

    @extend_schema(
        summary="Set or clear the match's turn deadline (the club's organisers)",
        description="A person's or external bot's decision left past the deadline is made by the fallback bot "
                    "(`deadline_action` fallback), or the late seat forfeits: the fallback bot plays it to the end "
                    "and it is placed last (`forfeit`). A decision awaited now gets the full time from now.",
        request=DeadlineSerializer, responses={200: MatchSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def deadline(self, request, pk=None):
        match = self.get_object()
        _require_organiser(request, match.club_id)
        form = DeadlineSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        set_turn_deadline(match=match, turn_deadline_seconds=form.validated_data["turn_deadline_seconds"],
                          deadline_fallback=form.validated_data.get("deadline_fallback", match.deadline_fallback),
                          deadline_action=form.validated_data.get("deadline_action", match.deadline_action))
        return Response(MatchSerializer(self.get_queryset().get(pk=match.pk)).data)

    @extend_schema(
        summary="Cancel a match in play (the club's organisers)",
        description="The match ends as `cancelled`: play stops within one decision, decisions are refused, and it "
                    "never counts (standings, ratings); its round closes without it. Cancelling a cancelled match "
                    "changes nothing; 409 for a finished or failed one.",
        request=CancelSerializer, responses={200: MatchSerializer, **WRITE_ERRORS, 409: E409},
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        match = self.get_object()
        _require_organiser(request, match.club_id)
        form = CancelSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            cancel_match(match_id=match.pk, by=request.user.get_username(),
                         reason=form.validated_data.get("reason", ""))
        except NotCancellable as e:
            return conflict(e)
        return Response(MatchSerializer(self.get_queryset().get(pk=match.pk)).data)

    @extend_schema(summary="The match's tricks so far, in order (public: every card played is seen by all)",
                   description="Diamonds matches only: the other games have no tricks, and their matches answer 404 "
                               "(code `no_tricks`); their play is in record/ (the choices and events) and state/. "
                               "403 for a spectator of a duplicate table whose deal other tables still play.",
                   responses={200: TrickSerializer(many=True), 403: E403, **READ_ERRORS})
    @action(detail=True, methods=["get"], filter_backends=[])
    def tricks(self, request, pk=None):
        match = self.get_object()
        if match.game != "diamonds":
            return error_response(_("match %(match)s is a %(game)s match, which has no tricks: see its record/ and "
                                    "state/") % {"match": match.pk, "game": match.game}, "no_tricks", 404)
        if not seats_of_user(match, request.user):
            refuse_spectator_of_shared_deal(match)
        page = self.paginate_queryset(match_tricks(match))
        return self.get_paginated_response(TrickSerializer(page, many=True).data)

    @extend_schema(
        summary="The match's game record in its game's format (diamonds-, diamoniak- or ringrace-record/1)",
        description="Whole once the match is finished. Before that, only what the table saw: no hands, no passes, "
                    "no seed, no result (the newer games: the choices and events only), and `\"complete\": false`. "
                    "A duplicate table's record stays so until its round closes, and spectators get 403 meanwhile. "
                    "A table played with real cards has none (404, code `offline`).",
        responses={200: OpenApiTypes.OBJECT, 403: E403, **READ_ERRORS},
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def record(self, request, pk=None):
        match = self.get_object()
        if match.offline:  # played with real cards: the server saw no play; its result is in results/
            return error_response(f"match {match.pk} was played with real cards: it has no record of play, only its "
                                  "entered result (results/)", "offline", 404)
        if not seats_of_user(match, request.user):
            refuse_spectator_of_shared_deal(match)
        return Response(public_record(match))

    @extend_schema(methods=["get"], summary="Corrections of the match's result (the audit trail)",
                   responses={200: ResultCorrectionSerializer(many=True), **READ_ERRORS})
    @extend_schema(methods=["post"], summary="Correct a finished match's result (the club's organisers)",
                   request=CorrectionRequestSerializer,
                   description="Vaults and showrooms per seat (per team with partners); the scores follow by "
                               "R-SCORE-1 (a `score` given must agree); winners and placements by R-WIN-1. 409 for "
                               "a match that is not finished.",
                   responses={201: ResultCorrectionSerializer, **WRITE_ERRORS, 409: E409})
    # A match's corrections are few (one per organiser's fix): the whole list, never a page.
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def corrections(self, request, pk=None):
        match = self.get_object()
        if request.method == "GET":
            rows = ResultCorrection.objects.filter(match=match).select_related("corrected_by")
            return Response(ResultCorrectionSerializer(rows, many=True).data)
        _require_organiser(request, match.club_id)
        form = CorrectionRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            correction = correct_result(match=match, user=request.user, **form.validated_data)
        except NotCorrectable as e:
            return conflict(e)
        except CorrectionError as e:
            raise ValidationError({"detail": str(e)}) from None
        return Response(ResultCorrectionSerializer(correction).data, status=201)


# ---- tournaments --------------------------------------------------------------------------------------------


class TournamentFilter(django_filters.FilterSet):
    club = IdFilter(field_name="club")
    season = IdFilter(field_name="season")
    # Not "format": that query parameter chooses the response's format (?format=csv).
    tournament_format = django_filters.ChoiceFilter(field_name="format", choices=TournamentFormat.choices)

    class Meta:
        model = Tournament
        fields = ["club", "season", "status", "tournament_format"]


@extend_schema_view(
    list=extend_schema(summary="Tournaments",
                       responses={200: TournamentSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One tournament", responses={200: TournamentSerializer, **READ_ERRORS}),
    create=extend_schema(summary="Create a tournament of one game (the club's organisers)",
                         responses={201: TournamentSerializer, **WRITE_ERRORS}),
    partial_update=extend_schema(
        summary="Change a tournament's settings (the club's organisers)",
        description="Before the first round any setting may change (checked as on creation). Once it runs only "
                    "`name`, `auto_advance` and the turn deadline settings (for tables seated from then on) may: "
                    "changing another answers 409.",
        responses={200: TournamentSerializer, **WRITE_ERRORS, 409: E409}),
    destroy=extend_schema(summary="Delete a tournament that has seated no round (the club's organisers)",
                          description="A tournament with a seated round keeps its matches and results: 409.",
                          responses={204: None, **WRITE_ERRORS, 409: E409}),
)
class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                        viewsets.GenericViewSet):
    # PATCH, not PUT: a tournament's settings are changed a few at a time, and some can no longer change.
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    queryset = Tournament.objects.all()
    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    def create(self, request):
        form = TournamentSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        club = data.get("club")
        _require_organiser(request, club.pk if club else None)
        refuse(refusal_to_link_season(club.pk if club else None, data.get("season")))
        fields = {k: data[k] for k in ("name", "game", "rounds", "table_size", "format", "ruleset", "club", "season",
                                       "match_points", "tiebreaks", "auto_advance", "rated", "turn_deadline_seconds",
                                       "deadline_action", "deadline_fallback", "check_in_required", "self_check_in",
                                       "late_entry_points", "final_size", "final_stages", "final_advance",
                                       "final_ranking", "offline_tables", "registration_closes_at",
                                       "members_only") if k in data}
        try:
            tournament = create_tournament(**fields)
        except ValueError as e:
            raise ValidationError({"detail": str(e)}) from None
        return Response(TournamentSerializer(tournament).data, status=201)

    def partial_update(self, request, pk=None):
        tournament = self.get_object()
        _require_organiser(request, tournament.club_id)
        form = TournamentSerializer(tournament, data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        changes = dict(form.validated_data)
        new_club = changes.get("club", tournament.club)
        if "club" in changes and (new_club.pk if new_club else None) != tournament.club_id:
            _require_organiser(request, new_club.pk if new_club else None)  # organisers of both clubs
        refuse(refusal_to_link_season(new_club.pk if new_club else None, changes.get("season", tournament.season)))
        try:
            tournament = update_tournament(tournament=tournament, **changes)
        except TournamentError as e:
            return conflict(e)
        except ValueError as e:
            raise ValidationError({"detail": str(e)}) from None
        return Response(TournamentSerializer(tournament).data)

    def destroy(self, request, pk=None):
        tournament = self.get_object()
        _require_organiser(request, tournament.club_id)
        try:
            delete_tournament(tournament=tournament)
        except TournamentError as e:
            return conflict(e)
        return Response(status=204)

    @extend_schema(
        summary="The tournament's standings",
        description="Ranked by the tournament's points and tie-breaks. JSON, or CSV with `?format=csv` or "
                    "`Accept: text/csv`.",
        responses={(200, "application/json"): StandingSerializer(many=True), (200, "text/csv"): OpenApiTypes.STR,
                   **READ_ERRORS},
    )
    # No filter backends: the list's filters mean nothing to one tournament, and building them cost a hot read
    # a fifth of its time.
    # Standings are one table, whole (a page of a ranking would make no CSV): no pagination.
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer, BrowsableAPIRenderer, CSVRenderer],
            filter_backends=[], pagination_class=None)
    def standings(self, request, pk=None, format=None):
        tournament = self.get_object()
        rows = [{"rank": r.rank, "shared": r.shared, "name": r.name, "players": list(r.player_ids), "games": r.games,
                 "dropped": r.dropped, "metrics": {k: _number(v) for k, v in r.metrics.items()}}
                for r in cached_tournament_standings(tournament)]
        csv = getattr(request.accepted_renderer, "format", "") == "csv"
        if csv:  # one column per metric; "dropped" last, so columns that were there before keep their places
            rows = [{**{k: v for k, v in row.items() if k not in ("metrics", "dropped")}, **row["metrics"],
                     "dropped": row["dropped"]} for row in rows]
        response = Response(rows)
        response.csv_columns = STANDING_COLUMNS
        if csv:
            response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
        return response

    @extend_schema(summary="The tournament's rounds with their seating",
                   responses={200: TournamentRoundSerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)  # a few rounds: all of them
    def rounds(self, request, pk=None):
        tournament = self.get_object()
        return Response(TournamentRoundSerializer(tournament.tournament_rounds.order_by("index"), many=True).data)

    @extend_schema(summary="Register players, or partnership teams (people themselves; bots by organisers)",
                   description="`players`: player ids, for a tournament without partnerships. `teams`: pairs of "
                               "player ids, for a partnership tournament (each pair plays as one team, R-TEAM-1). "
                               "Every entrant is a member of the tournament's club; a person is entered only by "
                               "their own account (403 otherwise), bots by the club's organisers. "
                               "All or nothing: one refused entry registers none. 409 once registration is closed, "
                               "for an entrant already entered, or for the wrong kind of entry.",
                   request={"application/json": {"type": "object", "properties": {
                       "players": {"type": "array", "items": {"type": "integer"}},
                       "teams": {"type": "array", "items": {"type": "array", "items": {"type": "integer"},
                                                            "minItems": 2, "maxItems": 2}}}}},
                   responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS, 409: E409})
    @action(detail=True, methods=["post"])
    def entries(self, request, pk=None):
        tournament = self.get_object()
        body = request.data if isinstance(request.data, dict) else {}
        if "teams" in body:
            teams = body["teams"]
            if not isinstance(teams, list) or not teams or not all(isinstance(t, list) and len(t) == 2 for t in teams):
                raise ValidationError({"teams": "a list of pairs of player ids"})
            pairs = [[_players_by_id([_int(i, "teams") for i in team], "teams")] for team in teams]
            refuse(refusal_to_enter(request.user, tournament.club_id, [p for (pair,) in pairs for p in pair]))
            try:
                with transaction.atomic():
                    entries = [e for (pair,) in pairs for e in register_team(tournament=tournament, players=pair)]
            except TournamentError as e:
                return conflict(e)
            return Response({"tournament": tournament.pk, "entries": [e.player_id for e in entries],
                             "teams": sorted({e.team for e in entries})}, status=201)
        ids = body.get("players")
        if not isinstance(ids, list) or not ids:
            raise ValidationError({"players": "a list of player ids (or `teams`: pairs, with partnerships)"})
        players = _players_by_id([_int(i, "players") for i in ids], "players")
        refuse(refusal_to_enter(request.user, tournament.club_id, players, members_only=tournament.members_only))
        if any(is_person(p) for p in players) and not organises(request.user, tournament.club_id):
            # A person entering themselves here keeps to the self-entry window (as POST .../enter/ does).
            closed = refusal_to_self_enter(tournament)
            if closed:
                return conflict(TournamentError(closed))
        try:
            entries = register_players(tournament=tournament, players=players)
        except TournamentError as e:
            return conflict(e)
        return Response({"tournament": tournament.pk, "entries": [e.player_id for e in entries]}, status=201)

    @extend_schema(
        summary="Cancel a tournament (the club's organisers)",
        description="Its matches in play are cancelled (their play stops within one decision), its open rounds "
                    "close and no round is seated any more; the finished matches' results stay in its standings. "
                    "Cancelling a cancelled tournament changes nothing; 409 for a finished one.",
        request=CancelSerializer, responses={200: TournamentSerializer, **WRITE_ERRORS, 409: E409},
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        tournament = self.get_object()
        _require_organiser(request, tournament.club_id)
        form = CancelSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            tournament = cancel_tournament(tournament_id=tournament.pk, by=request.user.get_username(),
                                           reason=form.validated_data.get("reason", ""))
        except NotCancellable as e:
            return conflict(e)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(summary="Seat and start the next round (the first one starts the tournament; organisers)",
                   request=None, responses={201: TournamentRoundSerializer, **WRITE_ERRORS, 409: E409})
    @action(detail=True, methods=["post"], url_path="start-round")
    def start_round(self, request, pk=None):
        tournament = self.get_object()
        _require_organiser(request, tournament.club_id)
        try:
            if not tournament.tournament_rounds.exists():
                rnd = start_tournament(tournament=tournament)
            else:
                rnd = advance_tournament(tournament=tournament)
        except (TournamentError, ValueError) as e:
            return conflict(e)
        if rnd is None:
            return error_response(_("the tournament is over"), "conflict", 409)
        return Response(TournamentRoundSerializer(TournamentRound.objects.get(pk=rnd.pk)).data, status=201)


def _players_by_id(ids: list[int], field: str) -> list[Player]:
    """The players in the order of `ids` (400 naming `field` for an unknown id)."""
    found = Player.objects.in_bulk(ids)
    if len(found) != len(set(ids)):
        raise ValidationError({field: f"unknown player ids: {sorted(set(ids) - set(found))}"})
    return [found[i] for i in ids]


# A standings table's first columns (then one per metric): the header of an empty table's CSV.
STANDING_COLUMNS = ("rank", "shared", "name", "players", "games")


def _number(value):
    """Metrics may be Fractions (shared points): JSON gets a float, rounded for reading."""
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    try:
        return round(float(value), 4)
    except (TypeError, ValueError):
        return str(value)


# ---- ratings ------------------------------------------------------------------------------------------------


class RatingFilter(django_filters.FilterSet):
    player = IdFilter(field_name="player")
    ladder = IdFilter(field_name="ladder")
    scope = django_filters.ChoiceFilter(method="filter_scope", choices=[("global", "global"), ("ladder", "ladder")])
    game = django_filters.ChoiceFilter(choices=[(name, kind.title) for name, kind in GAMES.items()])

    class Meta:
        model = Rating
        fields = ["player", "ladder", "game"]

    def filter_scope(self, queryset, name, value):
        return queryset.filter(ladder__isnull=value == "global")


@extend_schema_view(
    list=extend_schema(summary="Ratings, best first (filter by player, ladder, game, scope=global|ladder); a player "
                               "has one global rating per game",
                       responses={200: RatingSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One rating", responses={200: RatingSerializer, **READ_ERRORS}),
)
class RatingViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = Rating.objects.select_related("player")
    serializer_class = RatingSerializer
    filterset_class = RatingFilter

    @extend_schema(summary="The rating's history: one entry per rated match, oldest first",
                   responses={200: RatingHistorySerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"], filter_backends=[])
    def history(self, request, pk=None):
        rating = self.get_object()
        rows = RatingHistory.objects.filter(player_id=rating.player_id, ladder_id=rating.ladder_id)
        if rating.ladder_id is None:
            rows = rows.filter(match__game=rating.game)  # the global rating of this game, not the player's others
        page = self.paginate_queryset(rows.order_by("created_at", "id"))
        return self.get_paginated_response(RatingHistorySerializer(page, many=True).data)


class RatingHistoryFilter(django_filters.FilterSet):
    player = IdFilter(field_name="player")
    ladder = IdFilter(field_name="ladder")
    match = IdFilter(field_name="match")
    game = django_filters.ChoiceFilter(field_name="match__game",
                                       choices=[(name, kind.title) for name, kind in GAMES.items()])

    class Meta:
        model = RatingHistory
        fields = ["player", "ladder", "match", "game"]


@extend_schema_view(list=extend_schema(summary="Rating history entries (filter by player, ladder, match, game)",
                       responses={200: RatingHistorySerializer(many=True), **LIST_ERRORS}),
                    retrieve=extend_schema(summary="One rating history entry", responses={
                        200: RatingHistorySerializer, **READ_ERRORS}))
class RatingHistoryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = RatingHistory.objects.order_by("created_at", "id")
    serializer_class = RatingHistorySerializer
    filterset_class = RatingHistoryFilter
