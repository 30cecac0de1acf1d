"""The lobby over the API: open tables (`/api/v1/lobby/tables/`), opening one, joining (a private one with its
invitation token), leaving, cancelling and starting with bots. Thin: league.services.lobby decides every refusal
(its LobbyRefused carries the status), league.selectors.lobby what a caller may see."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from league.models import LobbyTable
from league.selectors.lobby import open_public_tables, table_for, table_summary
from league.services.lobby import (
    LobbyRefused,
    cancel_table,
    create_table,
    join_table,
    leave_table,
    start_with_bots,
)
from runtime.secrecy import never_stored

from .errors import ErrorSerializer, error_response
from .permissions import ReadOnlyOrAuthenticated
from .throttling import WriteThrottle

E = {code: OpenApiResponse(ErrorSerializer, description=why) for code, why in (
    (400, "Invalid input."), (401, "Not signed in."),
    (403, "Not the table's host, or not seated at it; or a rated table, and your account is not verified."),
    (404, "No such table (a private table without its token is not found)."),
    (409, "The table's state does not allow it: started, cancelled, expired, full, or you sit there already."),
    (429, "Too many writes: see Retry-After."))}


class LobbyTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    game_title = serializers.CharField()
    seats = serializers.IntegerField()
    ruleset = serializers.DictField(help_text="The game's ruleset, every field explicit.")
    rated = serializers.BooleanField()
    public = serializers.BooleanField()
    bot_kind = serializers.CharField(help_text="Empty: people only; else the host may start with these bots.")
    turn_deadline_seconds = serializers.IntegerField(allow_null=True)
    clock_bank_seconds = serializers.IntegerField(allow_null=True, help_text="The match's chess clock: each seat's "
                                                  "bank in seconds; null: no clock.")
    clock_increment_seconds = serializers.IntegerField(help_text="Seconds added to a bank with each decision.")
    host = serializers.CharField(help_text="The host's player name.")
    players = serializers.ListField(child=serializers.CharField(), help_text="Seated, in seat order (0-based).")
    free_seats = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["open", "started", "cancelled", "expired"])
    match = serializers.IntegerField(allow_null=True, help_text="The match once the table has started.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    seated = serializers.BooleanField(help_text="Whether the caller sits at the table.")
    is_host = serializers.BooleanField()
    token = serializers.CharField(allow_null=True, help_text="The invitation token: for those seated only.")


class LobbyTableCreateSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=20)
    seats = serializers.IntegerField(min_value=1, max_value=100)
    options = serializers.DictField(required=False, default=dict,
                                    help_text="The game's ruleset fields, players aside (Diamonds: rounds, clubs...).")
    rated = serializers.BooleanField(required=False, default=False)
    public = serializers.BooleanField(required=False, default=True)
    bot_kind = serializers.CharField(required=False, default="", allow_blank=True, max_length=40)
    turn_deadline_seconds = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="Seconds per decision; null (the default): the league's for a table of people, a few minutes.")
    clock_bank_seconds = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="A chess clock: each seat's time bank in seconds (a decision is due when its seat's runs out); "
                  "null (the default): no clock.")
    clock_increment_seconds = serializers.IntegerField(
        required=False, default=0, help_text="Seconds added to a seat's bank with each decision of its own.")


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(required=False, default="", allow_blank=True, max_length=100,
                                  help_text="The invitation token: needed for a private table.")


def _refused(error: LobbyRefused) -> Response:
    return error_response(error.message, error.code, error.status)


class LobbyTableViewSet(viewsets.ViewSet):
    queryset = LobbyTable.objects.none()  # for the schema's path parameter only: reads go through the selectors
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]
    serializer_class = LobbyTableSerializer

    def finalize_response(self, request, response, *args, **kwargs):
        # An answer names the table's invitation token to those seated there: no cache keeps it.
        return never_stored(super().finalize_response(request, response, *args, **kwargs))

    def _answer(self, request, table, status: int = 200) -> Response:
        # Read again as the caller sees it: the table the service acted on, with its token, unless deleted since.
        seen = table_for(table.pk, request.user, table.token)
        if seen is None:
            return error_response(_("No such table."), "not_found", 404)
        return Response(LobbyTableSerializer(table_summary(seen, request.user)).data, status=status)

    @extend_schema(summary="The open public tables, the newest first (at most 100)",
                   responses={200: LobbyTableSerializer(many=True)})
    def list(self, request):
        return Response(LobbyTableSerializer([table_summary(t, request.user) for t in open_public_tables()],
                                             many=True).data)

    @extend_schema(summary="One table: a public one, or a private one you sit at or hold the token of",
                   parameters=[OpenApiParameter("token", str, description="A private table's invitation token.")],
                   responses={200: LobbyTableSerializer, 404: E[404]})
    def retrieve(self, request, pk=None):
        table = table_for(_id(pk), request.user, request.query_params.get("token", ""))
        if table is None:
            return error_response(_("No such table."), "not_found", 404)
        return Response(LobbyTableSerializer(table_summary(table, request.user)).data)

    @extend_schema(summary="Open a table (you take its first seat)",
                   description="A rated table is for verified people only (a confirmed email address, or an "
                               "account an administrator made: 403 otherwise, when opening or joining one); an unrated "
                               "table for anyone signed in. With `bot_kind` the host may start before the table is "
                               "full, bots of that kind taking the empty seats.",
                   request=LobbyTableCreateSerializer, responses={201: LobbyTableSerializer, **E})
    def create(self, request):
        form = LobbyTableCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            table = create_table(user=request.user, **form.validated_data)
        except LobbyRefused as e:
            return _refused(e)
        return self._answer(request, table, 201)

    def _act(self, request, pk, service, **kwargs) -> Response:
        try:
            table = service(user=request.user, table_id=_id(pk), **kwargs)
        except LobbyRefused as e:
            return _refused(e)
        return self._answer(request, table)

    @extend_schema(summary="Take a seat (a private table with its invitation token); the last seat starts the match",
                   request=TokenSerializer, responses={200: LobbyTableSerializer, **E})
    @action(detail=True, methods=["post"])
    def join(self, request, pk=None):
        form = TokenSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        return self._act(request, pk, join_table, token=form.validated_data["token"])

    @extend_schema(summary="Leave an open table (the host cancels instead)", request=None,
                   responses={200: LobbyTableSerializer, **E})
    @action(detail=True, methods=["post"])
    def leave(self, request, pk=None):
        return self._act(request, pk, leave_table)

    @extend_schema(summary="Cancel an open table (its host)", request=None, responses={200: LobbyTableSerializer, **E})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        return self._act(request, pk, cancel_table)

    @extend_schema(summary="Start now, bots taking the empty seats (its host; a table that allows bots)",
                   request=None, responses={200: LobbyTableSerializer, **E})
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        return self._act(request, pk, start_with_bots)


def _id(pk) -> int:
    try:
        value = int(pk)
    except (TypeError, ValueError):
        value = 0
    return value if 0 < value < 2**31 else 0  # 0 names no table: 404
