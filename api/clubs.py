"""Clubs: read by anyone, created by staff; their organisers name more organisers and add the club's bots (a
person, or a bot by its owner or its own token, joins by its own request, as the club's policy says:
api.participation)."""

from __future__ import annotations

import django_filters
from django.db import IntegrityError
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from league.models import Club
from league.permissions import admitted_at_once, is_person, refusal_to_add_member, refusal_to_take_part
from league.selectors.clubs import clubs
from league.selectors.players import account_named
from league.selectors.players import player as player_by_id
from league.services import create_club
from league.services.membership import MembershipError, add_member
from league.services.players import add_club_admin

from .errors import E409, LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, Conflict, conflict
from .ids import body_id
from .permissions import IsStaffForWrites, ReadOnlyOrAuthenticated, refuse, require_organiser
from .serializers import ClubSerializer, PlayerSerializer
from .throttling import WriteThrottle


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
    queryset = clubs()
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
        require_organiser(request, club.pk)
        user = account_named(request.data.get("username", ""))
        if user is None:
            raise ValidationError({"username": "no such account"})
        add_club_admin(club=club, user=user)
        return Response({"club": club.pk, "username": user.get_username()}, status=201)

    @extend_schema(summary="Add a player to the club: a person, or a bot by its owner or its own token, joins as the "
                           "club's membership policy says (an open club at once: 201; one on request records a "
                           "request its organisers answer: 202); the club's organisers add the club's bots at once",
                   request={"application/json": {"type": "object", "properties": {"player": {"type": "integer"}}}},
                   responses={201: PlayerSerializer, 202: PlayerSerializer, **WRITE_ERRORS, 409: E409})
    @action(detail=True, methods=["post"], permission_classes=[ReadOnlyOrAuthenticated])
    def members(self, request, pk=None):
        club = self.get_object()
        player = player_by_id(body_id(request.data.get("player"), "player"))
        if player is None:
            raise ValidationError({"player": "no such player"})
        refuse(refusal_to_add_member(request.user, club.pk, player))
        if is_person(player):
            refuse(refusal_to_take_part(request.user))
        # One rule for people and bots: the club's policy decides, unless its organisers add the player themselves.
        admitted_by = request.user if admitted_at_once(request.user, club.pk) else None
        try:
            outcome = add_member(club=club, player=player, admitted_by=admitted_by)
        except MembershipError as e:
            return conflict(e)
        return Response(PlayerSerializer(player).data, status=201 if outcome.joined else 202)
