"""Clubs: read by anyone, created by staff; their organisers name more organisers and add bots (a person joins
by their own request: api.participation)."""

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
from league.permissions import is_person, refusal_to_add_member, refusal_to_take_part
from league.selectors.clubs import clubs
from league.selectors.players import account_named
from league.selectors.players import player as player_by_id
from league.services import create_club
from league.services.membership import MembershipError, ask_to_join
from league.services.players import add_club_admin, join_club

from .errors import LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, Conflict, conflict
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

    @extend_schema(summary="Add a player to the club: a person joins by their own request; the club's organisers "
                           "add bots (another club's only if they organise it too)",
                   request={"application/json": {"type": "object", "properties": {"player": {"type": "integer"}}}},
                   responses={201: PlayerSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"], permission_classes=[ReadOnlyOrAuthenticated])
    def members(self, request, pk=None):
        club = self.get_object()
        player = player_by_id(body_id(request.data.get("player"), "player"))
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
