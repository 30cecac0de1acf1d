"""Matches: read by anyone (a shared deal stays hidden from spectators: api.play), created, given a turn deadline,
cancelled and corrected by the club's organisers; their tricks and game records. Play itself is api.play's."""

from __future__ import annotations

from typing import Any

import django_filters
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from engine import InvalidRuleset
from league.models import DeadlineAction, Match
from league.permissions import refusal_to_seat
from league.selectors.live import public_record, seats_of_user
from league.selectors.matches import corrections_of, match_with_players, matches_with_players
from league.selectors.records import match_tricks
from league.services import create_match
from league.services.cancellation import NotCancellable, cancel_match
from league.services.corrections import CorrectionError, NotCorrectable, correct_result
from league.services.decisions import set_turn_deadline, start_live_match

from .errors import E403, E409, LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, conflict, error_response
from .ids import IdFilter
from .permissions import ReadOnlyOrAuthenticated, refuse, require_organiser
from .play import refuse_spectator_of_shared_deal, refuse_while_result_withheld
from .serializers import (
    CancelSerializer,
    CorrectionRequestSerializer,
    DeadlineSerializer,
    MatchCreateSerializer,
    MatchSerializer,
    ResultCorrectionSerializer,
    TrickSerializer,
)
from .throttling import WriteThrottle


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
    queryset = matches_with_players()
    serializer_class = MatchSerializer
    filterset_class = MatchFilter
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(
        summary="Create and start a match (the club's organisers)",
        description="Engine bots play at once; a table with people or external bots waits for them, each decision "
                    "for at most its turn deadline (`turn_deadline_seconds`; left out or null: the league's default, "
                    "a few minutes with a person at the table, seconds for external bots), after which the fallback "
                    "bot decides for the late seat. With a chess clock (`clock_bank_seconds`, plus "
                    "`clock_increment_seconds` per decision) each seat of a person or an external bot has that bank "
                    "instead, and its decisions are due when it runs out: then `deadline_action` applies (fallback: "
                    "the fallback bot plays the seat to the end; forfeit: the seat forfeits).",
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
            # and gives a table with a person or an external bot its deadline: the one asked for, else the default.
            match = create_match(players=players, ruleset=ruleset, seed=data.get("seed"),
                                 seed_chosen=data.get("seed") is not None, club=club,
                                 game=data["game"], turn_deadline_seconds=data.get("turn_deadline_seconds"),
                                 deadline_fallback=data.get("deadline_fallback", "random"),
                                 deadline_action=data.get("deadline_action", DeadlineAction.FALLBACK),
                                 clock_bank_seconds=data.get("clock_bank_seconds"),
                                 clock_increment_seconds=data.get("clock_increment_seconds", 0))
        except (InvalidRuleset, ValueError, TypeError) as e:
            raise ValidationError({"ruleset": str(e)}) from None
        start_live_match(match=match, deadline_fallback=match.deadline_fallback)
        return Response(MatchSerializer(match_with_players(match.pk)).data, status=201)

    @extend_schema(
        summary="Set the match's turn deadline (the club's organisers)",
        description="A person's or external bot's decision left past the deadline is made by the fallback bot "
                    "(`deadline_action` fallback), or the late seat forfeits: the fallback bot plays it to the end "
                    "and it is placed last (`forfeit`). A seat that misses DIAMONDS_FORFEIT_AFTER_MISSES (3) in a "
                    "row forfeits either way. null is the league's default for who is seated: a table with a person "
                    "or an external bot always has a deadline (only engine bots' and offline tables go without). A "
                    "decision awaited now gets the full time from now.",
        request=DeadlineSerializer, responses={200: MatchSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def deadline(self, request, pk=None):
        match = self.get_object()
        require_organiser(request, match.club_id)
        form = DeadlineSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        set_turn_deadline(match=match, turn_deadline_seconds=form.validated_data["turn_deadline_seconds"],
                          deadline_fallback=form.validated_data.get("deadline_fallback", match.deadline_fallback),
                          deadline_action=form.validated_data.get("deadline_action", match.deadline_action))
        return Response(MatchSerializer(match_with_players(match.pk)).data)

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
        require_organiser(request, match.club_id)
        form = CancelSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            cancel_match(match_id=match.pk, by=request.user.get_username(),
                         reason=form.validated_data.get("reason", ""))
        except NotCancellable as e:
            return conflict(e)
        return Response(MatchSerializer(match_with_players(match.pk)).data)

    @extend_schema(summary="The match's tricks so far, in order (public: every card played is seen by all)",
                   description="Diamonds matches only: the other games have no tricks, and their matches answer 404 "
                               "(code `no_tricks`); their play is in record/ (the choices and events) and state/. "
                               "403 for a spectator of a duplicate table whose deal other tables still play, and for "
                               "anyone while a comparison's game that has ended waits for its twin.",
                   responses={200: TrickSerializer(many=True), 403: E403, **READ_ERRORS})
    @action(detail=True, methods=["get"], filter_backends=[])
    def tricks(self, request, pk=None):
        match = self.get_object()
        if match.game != "diamonds":
            return error_response(_("match %(match)s is a %(game)s match, which has no tricks: see its record/ and "
                                    "state/") % {"match": match.pk, "game": match.game}, "no_tricks", 404)
        if not seats_of_user(match, request.user):
            refuse_spectator_of_shared_deal(match)
        refuse_while_result_withheld(match)
        # DRF pages any sequence (through Django's Paginator); the stubs take only a QuerySet.
        page: list[dict[str, Any]] | None = self.paginate_queryset(match_tricks(match))  # type: ignore[arg-type]
        return self.get_paginated_response(TrickSerializer(page, many=True).data)

    @extend_schema(
        summary="The match's game record in its game's format (diamonds-, diamoniak- or ringrace-record/1)",
        description="Whole once the match is finished. Before that, only what the table saw: no hands, no passes, "
                    "no seed, no result (the newer games: the choices and events only), and `\"complete\": false`. "
                    "A duplicate table's record stays so until its round closes, and spectators get 403 meanwhile. "
                    "A table played with real cards has none (404, code `offline`). A comparison's game that "
                    "has ended answers 403 to everyone, its own seats too, until its twin has ended.",
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
        refuse_while_result_withheld(match)
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
            rows = corrections_of(match)
            return Response(ResultCorrectionSerializer(rows, many=True).data)
        require_organiser(request, match.club_id)
        form = CorrectionRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            correction = correct_result(match=match, user=request.user, **form.validated_data)
        except NotCorrectable as e:
            return conflict(e)
        except CorrectionError as e:
            raise ValidationError({"detail": str(e)}) from None
        return Response(ResultCorrectionSerializer(correction).data, status=201)
