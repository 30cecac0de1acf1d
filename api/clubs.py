"""Clubs: read by anyone, created by staff, their details changed (PATCH) by their organisers; their organisers
name more organisers (by username, or by an email invitation the invited person accepts), remove them (never the
last one) and add the club's bots (a person, or a bot by its owner or its own token, joins by its own request, as
the club's policy says: api.participation). The same services as the website's club pages (web/club_admin.py):
league.services.clubs, league.services.organisers and league.services.membership."""

from __future__ import annotations

import django_filters
from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.models import Club, ClubAdmin
from league.permissions import admitted_at_once, is_person, organises, refusal_to_add_member, refusal_to_take_part
from league.selectors.clubs import clubs, open_invitations, organisers_of
from league.selectors.players import player as player_by_id
from league.services import create_club
from league.services.clubs import ClubDetailsRefused, update_club_details
from league.services.membership import MembershipError, add_member, set_membership_policy
from league.services.organisers import (
    OrganiserError,
    accept_invitation,
    add_organiser,
    invite_organiser,
    remove_organiser,
    revoke_invitation,
)

from .errors import E409, LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, Conflict, conflict
from .ids import body_id
from .permissions import IsStaffForWrites, ReadOnlyOrAuthenticated, refuse, require_organiser
from .serializers import ClubSerializer, OrganiserInvitationSerializer, OrganiserSerializer, PlayerSerializer
from .throttling import WriteThrottle

DETAILS = ("name", "description", "location", "website")


def _organiser_error(e: OrganiserError):
    """A refused change to the organisers: 409 when the club's state does not allow it, else 400."""
    if e.conflict:
        raise Conflict(str(e))
    raise ValidationError({"detail": str(e)})


def _details_refused(e: ClubDetailsRefused):
    raise ValidationError(e.errors)


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Club
        fields = ["name"]


ORGANISER_ADDED = inline_serializer("OrganiserAdded", {"club": serializers.IntegerField(),
                                                       "username": serializers.CharField()})
USERNAME = inline_serializer("OrganiserUsername", {"username": serializers.CharField()})
INVITE = inline_serializer("OrganiserInvite", {"email": serializers.EmailField()})


@extend_schema_view(
    list=extend_schema(summary="Clubs",
                       responses={200: ClubSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One club", responses={200: ClubSerializer, **READ_ERRORS}),
    create=extend_schema(summary="Create a club (staff)", responses={201: ClubSerializer, **WRITE_ERRORS}),
    partial_update=extend_schema(summary="Change the club's details: name, description, location, website, "
                                         "membership (its organisers)",
                                 responses={200: ClubSerializer, **WRITE_ERRORS}),
)
class ClubViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    queryset = clubs()
    serializer_class = ClubSerializer
    filterset_class = ClubFilter
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    def get_permissions(self):
        # Creating a club is staff's; changing one is its organisers' (partial_update checks which club).
        if self.action == "create":
            return [IsStaffForWrites()]
        return super().get_permissions()

    @transaction.atomic
    def perform_create(self, serializer):
        data = serializer.validated_data
        try:
            with transaction.atomic():
                club = create_club(name=data["name"], membership=data.get("membership", "open"))
        except IntegrityError:
            raise Conflict(_("a club of that name exists")) from None
        try:
            # The name as stored (normalised), and the details given with it, by the same rules as a change.
            serializer.instance = update_club_details(club=club, changes={k: data[k] for k in DETAILS if k in data})
        except ClubDetailsRefused as e:
            transaction.set_rollback(True)
            _details_refused(e)

    def partial_update(self, request, pk=None):
        club = self.get_object()
        require_organiser(request, club.pk)
        form = ClubSerializer(club, data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        if set(data) - {*DETAILS, "membership"}:
            raise ValidationError({"detail": _("A club's name, description, location, website and membership "
                                               "change; nothing else.")})
        with transaction.atomic():
            try:
                club = update_club_details(club=club, changes={k: data[k] for k in DETAILS if k in data})
            except ClubDetailsRefused as e:
                _details_refused(e)
            if "membership" in data:
                try:
                    club = set_membership_policy(club=club, membership=data["membership"])
                except MembershipError as e:
                    raise ValidationError({"membership": str(e)}) from None
        return Response(ClubSerializer(club).data)

    @extend_schema(methods=["GET"], summary="Who organises the club (site staff aside, who organise every club)",
                   request=None, responses={200: OrganiserSerializer(many=True), **READ_ERRORS})
    @extend_schema(methods=["POST"], summary="Make an existing account an organiser of the club at once (staff or "
                                             "the club's organisers)",
                   request=USERNAME, responses={201: ORGANISER_ADDED, **WRITE_ERRORS})
    @action(detail=True, methods=["get", "post"], permission_classes=[ReadOnlyOrAuthenticated],
            pagination_class=None, filter_backends=[])
    def admins(self, request, pk=None):
        club = self.get_object()
        if request.method == "GET":  # public, as a club's page is: who to turn to
            return Response(OrganiserSerializer(organisers_of(club), many=True).data)
        require_organiser(request, club.pk)
        try:
            admin, _new = add_organiser(club=club, username=request.data.get("username", ""))
        except OrganiserError as e:
            raise ValidationError({"username": str(e)}) from None
        return Response({"club": club.pk, "username": admin.user.get_username()}, status=201)

    @extend_schema(summary="Stop an account organising the club (any of its organisers, themselves too); 409 for "
                           "its last organiser (staff excepted)",
                   request=None, responses={204: None, **WRITE_ERRORS, 409: E409})
    @action(detail=True, methods=["delete"], url_path=r"admins/(?P<username>[^/]+)",
            permission_classes=[IsAuthenticated])
    def remove_admin(self, request, pk=None, username=None):
        club = self.get_object()
        require_organiser(request, club.pk)
        admin = get_object_or_404(ClubAdmin.objects.select_related("user"), club=club, user__username=username)
        try:
            remove_organiser(club=club, user=admin.user, by=request.user)
        except OrganiserError as e:
            _organiser_error(e)
        return Response(status=204)

    @extend_schema(methods=["GET"], summary="The invitations to organise the club still open: its organisers see "
                                            "them, anyone else none",
                   request=None, responses={200: OrganiserInvitationSerializer(many=True), **READ_ERRORS})
    @extend_schema(methods=["POST"], summary="Invite someone to organise the club by email: they get a one-time link "
                                             "to accept while signed in with an account that has confirmed that "
                                             "address (a pending invitation to it is replaced)",
                   request=INVITE, responses={201: OrganiserInvitationSerializer, **WRITE_ERRORS, 409: E409})
    @action(detail=True, methods=["get", "post"], permission_classes=[ReadOnlyOrAuthenticated],
            pagination_class=None, filter_backends=[])
    def invitations(self, request, pk=None):
        club = self.get_object()
        if request.method == "GET":  # the addresses invited are the organisers' to see
            shown = open_invitations(club) if organises(request.user, club.pk) else []
            return Response(OrganiserInvitationSerializer(shown, many=True).data)
        require_organiser(request, club.pk)
        try:
            invitation = invite_organiser(club=club, email=request.data.get("email"), by=request.user,
                                          site_url=request.build_absolute_uri("/"))
        except OrganiserError as e:
            if e.conflict:
                raise Conflict(str(e)) from None
            raise ValidationError({"email": str(e)}) from None
        return Response(OrganiserInvitationSerializer(invitation).data, status=201)

    @extend_schema(summary="Withdraw an invitation to organise the club: its link stops working (409 when it is no "
                           "longer pending)",
                   request=None, responses={204: None, **WRITE_ERRORS, 409: E409})
    @action(detail=True, methods=["delete"], url_path=r"invitations/(?P<invitation_id>[0-9]+)",
            permission_classes=[IsAuthenticated])
    def revoke_invitation(self, request, pk=None, invitation_id=None):
        club = self.get_object()
        require_organiser(request, club.pk)
        try:
            revoke_invitation(club=club, invitation_id=int(invitation_id))
        except OrganiserError as e:
            _organiser_error(e)
        return Response(status=204)

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


class InvitationAcceptView(APIView):
    """An invitation's token (from its link: /invitations/organise/<token>/) accepted by the signed-in account,
    which must have confirmed the address the invitation was sent to."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Accept an invitation to organise a club, with its link's token: 409 when it is used, "
                           "revoked, expired or for an address the account has not confirmed",
                   request=inline_serializer("InvitationToken", {"token": serializers.CharField()}),
                   responses={200: ORGANISER_ADDED, **WRITE_ERRORS, 409: E409})
    def post(self, request):
        token = request.data.get("token") if isinstance(request.data, dict) else None
        if not isinstance(token, str) or not token:
            raise ValidationError({"token": _("Give the invitation's token.")})
        try:
            invitation = accept_invitation(token=token, user=request.user)
        except OrganiserError as e:
            if not e.conflict:
                raise ValidationError({"token": str(e)}) from None
            raise Conflict(str(e)) from None
        return Response({"club": invitation.club_id, "username": request.user.get_username()})
