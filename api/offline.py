"""Results of tables played with real cards (Match.offline): enter one, confirm one, settle a dispute, and switch a
table that has not begun between real cards and online play. The rules of who may do what, and what follows, are
league.services.offline_results'; the figures are checked by the game's offline check (engine/<game>/offline.py)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.common.offline import InvalidResult
from league.models import Match, ResultEntry
from league.permissions import organises
from league.selectors.matches import match_with_seat_players, matches_with_round
from league.selectors.offline import result_entry, result_trail
from league.services.offline_results import (
    NotAtTable,
    OfflineResultError,
    confirm_result,
    enter_result,
    may_report,
    may_see,
    set_offline,
)

from .errors import ErrorSerializer, error_body, error_response
from .serializers import MatchSerializer
from .throttling import WriteThrottle

E400 = OpenApiResponse(ErrorSerializer, description="Figures the rules could not have produced: `errors` names "
                                                    "each field (`vault.2`), `rule` the first rule broken.")
E403 = OpenApiResponse(ErrorSerializer, description="Not a player at the table nor an organiser of its club.")
E404 = OpenApiResponse(ErrorSerializer, description="No such match, or no such version.")
E409 = OpenApiResponse(ErrorSerializer, description="The table is played online, or its result is already final, "
                                                    "or the version is not one this caller may confirm.")


class ResultEntrySerializer(serializers.ModelSerializer):
    # An account's username, or the player's name for a version entered or confirmed through a private link.
    entered_by = serializers.CharField(source="enterer_name", read_only=True)
    decided_by = serializers.CharField(source="decider_name", read_only=True, allow_null=True, default=None)

    class Meta:
        model = ResultEntry
        fields = ["id", "match", "entered_by", "entered_at_seat", "by_organiser", "figures", "result", "status",
                  "decided_by", "decided_at", "created_at"]


def _figures_field(help_text: str):
    return serializers.ListField(child=serializers.IntegerField(), required=False, max_length=6,
                                 help_text=help_text)


class ResultFiguresSerializer(serializers.Serializer):
    """The schema of an entry: the figures of the match's game only (any other game's field is refused)."""

    vault = _figures_field("Diamonds: each seat's vault (each team's with partners) at the end.")
    showroom = _figures_field("Diamonds: each seat's showroom (each team's with partners) at the end.")
    score = _figures_field("Diamonds, optional: must be 2 x vault + showroom (R-SCORE-1).")
    rounds = serializers.ListField(
        child=serializers.DictField(child=serializers.ListField(child=serializers.IntegerField())), required=False,
        max_length=20, help_text="Diamonds, instead of vault and showroom: each round's totals at its end, "
                                 "[{\"vault\": [...], \"showroom\": [...]}, ...], every round of the game.")
    castle = _figures_field("Diamoniak: each seat's castle cards of its colour (0-6).")
    diamonds = _figures_field("Diamoniak: each seat's diamond cards.")
    winner = serializers.IntegerField(required=False, help_text="Diamoniak, optional: the seat (0-based) that "
                                                                "completed its castle (K-WIN-1).")
    dollars = _figures_field("The ring race: each seat's dollars (G-SCORE-1).")
    set_rings = _figures_field("The ring race: each seat's set rings.")


class OfflineSwitchSerializer(serializers.Serializer):
    offline = serializers.BooleanField(help_text="True: played with real cards, its result entered.")


def _invalid(error: InvalidResult) -> Response:
    errors: dict[str, list[str]] = {}
    for p in error.problems:
        errors.setdefault(p.field, []).append(str(p))
    rule = next((p.rule for p in error.problems if p.rule), None)
    detail = ". ".join(f"{p.field}: {p}" for p in error.problems)
    return Response(error_body(detail, "invalid", rule=rule, errors=errors), status=400)


def _offline_match(pk: int, user, *, reading: bool = False) -> Match:
    match = get_object_or_404(matches_with_round(), pk=pk)
    if not (may_see(match, user) if reading else may_report(match, user)):
        raise PermissionDenied(_("only the players at this table and the club's organisers see and enter its "
                                 "results"))
    return match


class MatchResultsView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Every version of an offline table's result (the accounts at the table, the organisers)",
                   description="The audit trail, oldest first: who entered what, when, and its status (entered, "
                               "confirmed, superseded, disputed, resolved).",
                   responses={200: ResultEntrySerializer(many=True), 401: E403, 403: E403, 404: E404})
    def get(self, request, pk: int):
        match = _offline_match(pk, request.user, reading=True)
        rows = result_trail(match)
        return Response(ResultEntrySerializer(rows, many=True).data)

    @extend_schema(summary="Enter an offline table's result (a player at the table, or an organiser)",
                   description="The figures of the match's game, one per seat (per team with Diamonds partners), "
                               "checked against the rules. A player's entry waits for another player's confirmation "
                               "(the same figures from another player confirm it; different ones flag the table "
                               "disputed for the organisers); an organiser's is final at once. A final result "
                               "finishes the match and counts like a played one.",
                   request=ResultFiguresSerializer,
                   responses={201: ResultEntrySerializer, 400: E400, 401: E403, 403: E403, 404: E404, 409: E409})
    def post(self, request, pk: int):
        match = _offline_match(pk, request.user)
        try:
            entry = enter_result(match=match, user=request.user, figures=request.data)
        except InvalidResult as e:
            return _invalid(e)
        except NotAtTable as e:
            raise PermissionDenied(str(e)) from None
        except OfflineResultError as e:
            return error_response(str(e), "conflict", 409)
        return Response(ResultEntrySerializer(entry).data, status=201)


class ConfirmResultView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Confirm a version of an offline table's result",
                   description="Another player at the table than its enterer confirms an entered version; an "
                               "organiser confirms any open one, which settles a dispute (`resolved`). The match "
                               "finishes with it; the other open versions are superseded.",
                   request=None,
                   responses={200: ResultEntrySerializer, 401: E403, 403: E403, 404: E404, 409: E409})
    def post(self, request, pk: int, entry_id: int):
        match = _offline_match(pk, request.user)
        if result_entry(match, entry_id) is None:
            raise Http404("No ResultEntry matches the given query.")
        try:
            entry = confirm_result(match=match, user=request.user, entry_id=entry_id)
        except NotAtTable as e:
            raise PermissionDenied(str(e)) from None
        except OfflineResultError as e:
            return error_response(str(e), "conflict", 409)
        except InvalidResult as e:  # only if the rules changed under a stored version
            return _invalid(e)
        return Response(ResultEntrySerializer(entry).data)


class MatchOfflineView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Play a table with real cards, or online (the club's organisers)",
                   description="Only a table that has not begun switches. A table switched online in a running "
                               "round is sent to the workers.",
                   request=OfflineSwitchSerializer,
                   responses={200: MatchSerializer, 400: E400, 401: E403, 403: E403, 404: E404, 409: E409})
    def post(self, request, pk: int):
        match = get_object_or_404(matches_with_round(), pk=pk)
        if not organises(request.user, match.club_id):
            raise PermissionDenied(_("only the club's organisers (and staff) may do this"))
        form = OfflineSwitchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            set_offline(match=match, offline=form.validated_data["offline"])
        except OfflineResultError as e:
            return error_response(str(e), "conflict", 409)
        match = match_with_seat_players(pk)
        return Response(MatchSerializer(match).data)
