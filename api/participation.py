"""People on their own over the API: sign up, their profile and "my" matches, joining clubs (and the organisers'
answers to requests), entering tournaments and leaving them. Each is the website's same action (web/participation.py)
over the same services and league.permissions' rules; api/README.md lists them.

Every action here is for the signed-in account's own person player, except leaving a club, which may name a bot the
account acts for (its owner, or the bot's own token): nobody can enter or remove anyone else (bots join clubs through
clubs/{id}/members/ and are entered through the entries/join endpoints, by the same rules as people)."""

from __future__ import annotations

from collections.abc import Iterable

from allauth.account import app_settings as allauth_settings
from allauth.account.forms import SignupForm
from allauth.account.utils import complete_signup
from allauth.utils import get_form_class
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.models import Language, MembershipRequest
from league.permissions import (
    admitted_at_once,
    keeps_to_self_entry_window,
    organises,
    refusal_to_enter,
    refusal_to_leave_club,
    refusal_to_take_part,
)
from league.selectors.accounts import (
    email_verified,
    made_by_administrator,
    my_page,
    pending_requests,
    players_acted_for,
    requests_of,
)
from league.selectors.clubs import clubs
from league.selectors.competitions import tournaments
from league.selectors.players import player as player_by_id
from league.services.accounts import AccountError, ensure_person, update_profile
from league.services.competition import TournamentError
from league.services.entry import enter_tournament, leave_tournament
from league.services.membership import (
    MembershipError,
    add_member,
    decide_request,
    leave_club,
    set_membership_policy,
)

from .errors import E409, WRITE_ERRORS, ErrorSerializer, conflict
from .ids import body_id
from .permissions import refuse
from .serializers import MatchSerializer, PlayerSerializer
from .throttling import SigninThrottle, WriteThrottle

# ---- sign up -------------------------------------------------------------------------------------------------------


class SignupSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    email = serializers.EmailField()
    password = serializers.CharField(write_only=True, style={"input_type": "password"})


class SignupView(APIView):
    """Make an account (and its player): django-allauth's sign-up form checks it as the website's does (username and
    email free, the password validators) and sends the verification email."""

    permission_classes = [AllowAny]
    authentication_classes = []  # an account is made by whoever asks; no session (so no CSRF) is involved
    # Per client address, as sign-in attempts are (SigninLimit), and every write's budget.
    throttle_classes = [SigninThrottle, WriteThrottle]

    @extend_schema(
        summary="Sign up: a new account and its player; a verification email goes to the address",
        description="Answers 202 when the email is sent. The account may get a token (POST /api/v1/auth/token/) at "
                    "once, but joins clubs, enters competitions, makes bots and sits at rated tables only once the "
                    "address is confirmed (the link in the email); the website signs it in only then. A username "
                    "in use is a 400 naming the field (usernames name players, which are public). An address "
                    "already in use answers the same 202 and makes no account: its owner is emailed that someone "
                    "tried to sign up with it, so the answer never tells whether an address is registered.",
        request=SignupSerializer,
        responses={202: inline_serializer("SignupAccepted", {"detail": serializers.CharField()}),
                   400: OpenApiResponse(ErrorSerializer, description="A field refused (see `errors`)."),
                   429: OpenApiResponse(ErrorSerializer, description="Too many attempts: see Retry-After.")})
    def post(self, request):
        body = SignupSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        # The website's sign-up form (ACCOUNT_FORMS), so both make accounts alike.
        form_class = get_form_class(allauth_settings.FORMS, "signup", SignupForm)
        form = form_class(data={"username": data["username"], "email": data["email"],
                                "password1": data["password"], "password2": data["password"]})
        if not form.is_valid():
            errors = {("password" if f in ("password1", "password2") else f): [str(m) for m in msgs]
                      for f, msgs in form.errors.items()}
            raise ValidationError(errors)
        # An address already in use makes no account: allauth's try_save emails its owner that someone tried to
        # sign up with it ("account already exists") and the answer below is the same as for a new account, so the
        # answer never tells whether an address is registered (ACCOUNT_PREVENT_ENUMERATION).
        user, _response = form.try_save(request._request)
        if user is not None:
            # The website's sign-up flow: the confirmation email goes out; the account is not signed in (mandatory
            # verification), and both paths leave the same traces on the response.
            complete_signup(request._request, user, None, None)
        return Response({"detail": _("Account made: confirm your email address with the link we sent to it.")},
                        status=202)


# ---- profile and "my" matches --------------------------------------------------------------------------------------


class ProfileSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=100, required=False,
                                         help_text="The name at the tables: the person player's name.")
    language = serializers.ChoiceField(choices=Language.choices, required=False, allow_blank=True,
                                       help_text='"" follows the browser.')
    email_notifications = serializers.BooleanField(required=False)
    email_verified = serializers.BooleanField(read_only=True, help_text="One of the account's email addresses is "
                                              "confirmed (the link in the email).")
    made_by_administrator = serializers.BooleanField(
        read_only=True, help_text="An administrator made the account (not a sign-up). The account joins clubs, "
                                  "enters competitions, makes bots and sits at rated tables when this or "
                                  "`email_verified` is true.")


def _profile_data(user) -> dict:
    profile, player = ensure_person(user)
    return {"display_name": player.name if player else user.get_username(), "language": profile.language,
            "email_notifications": profile.email_notifications, "email_verified": email_verified(user),
            "made_by_administrator": made_by_administrator(user)}


class ProfileView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="My profile", responses={200: ProfileSerializer, 401: ErrorSerializer})
    def get(self, request):
        return Response(ProfileSerializer(_profile_data(request.user)).data)

    @extend_schema(summary="Change my profile (display name, language, email notifications)",
                   request=ProfileSerializer, responses={200: ProfileSerializer, **WRITE_ERRORS, 409: E409})
    def patch(self, request):
        form = ProfileSerializer(data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        try:
            update_profile(user=request.user, **form.validated_data)
        except AccountError as e:
            return conflict(e)
        return Response(ProfileSerializer(_profile_data(request.user)).data)


class NextTableSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament.pk")
    tournament_name = serializers.CharField(source="tournament.name")
    match = serializers.IntegerField(source="match.pk", allow_null=True, default=None,
                                     help_text="The table awaiting me (null: not seated yet).")
    round = serializers.IntegerField(source="round_index", allow_null=True,
                                     help_text="The seated round, counted from 1.")
    expected = serializers.CharField(help_text='When not seated: what seats me next, "start" (the organisers start '
                                     'the tournament), "round_closes" (the current round ends) or "organiser".')


class MyMatchesSerializer(serializers.Serializer):
    live = MatchSerializer(many=True, help_text="Not ended; those awaiting my decision first.")
    recent = MatchSerializer(many=True, help_text="My latest ended matches.")
    next_tables = NextTableSerializer(many=True)


class MyMatchesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="My matches: in play (mine to decide first), my next table per tournament, latest results",
                   responses={200: MyMatchesSerializer, 401: ErrorSerializer})
    def get(self, request):
        ensure_person(request.user)
        page = my_page(request.user)
        return Response(MyMatchesSerializer({"live": page.live, "recent": page.recent,
                                             "next_tables": page.next_tables}).data)


# ---- clubs ---------------------------------------------------------------------------------------------------------


def _me(request):
    """The signed-in person's player; a bot's account is refused (403), told the endpoints that name a bot (its owner's
    and its own token's alike)."""
    player = ensure_person(request.user)[1]
    if player is None:
        raise PermissionDenied(_("This is a bot's account: name the bot instead (`player` for clubs/{id}/members/ "
                                 "and leave/, `players` for tournaments/{id}/entries/)."))
    return player


class MembershipRequestSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = MembershipRequest
        fields = ["id", "club", "player", "player_name", "status", "created_at", "decided_at"]


JOINED = inline_serializer("ClubJoined", {"club": serializers.IntegerField(), "member": serializers.BooleanField(),
                                          "request": MembershipRequestSerializer(allow_null=True)})


class ClubJoinView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Join the club myself: at once if it is open (201), else ask its organisers (202)",
                   description="A bot joins the same way through `POST clubs/{id}/members/` naming it, by its owner "
                               "or with its own token; a bot's account is refused here (403).",
                   request=None, responses={201: JOINED, 202: JOINED, **WRITE_ERRORS, 409: E409})
    def post(self, request, pk: int):
        club = get_object_or_404(clubs(), pk=pk)
        player = ensure_person(request.user)[1]
        if player is None:
            raise PermissionDenied(_("This is a bot's account: ask for the bot to join with POST "
                                     "/api/v1/clubs/%(club)s/members/ naming it in `player`; the club's policy "
                                     "answers it as it answers a person.") % {"club": club.pk})
        refuse(refusal_to_take_part(request.user))
        admitted_by = request.user if admitted_at_once(request.user, club.pk) else None
        try:
            outcome = add_member(club=club, player=player, admitted_by=admitted_by)
        except MembershipError as e:
            return conflict(e)
        return Response({"club": club.pk, "member": outcome.joined,
                         "request": MembershipRequestSerializer(outcome.request).data if outcome.request else None},
                        status=201 if outcome.joined else 202)


class ClubLeaveView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Leave the club (or withdraw my pending request); with `player`, one of my bots (its "
                           "owner, or the bot's own token)",
                   request={"application/json": {"type": "object", "properties": {"player": {"type": "integer"}}}},
                   responses={200: JOINED, **WRITE_ERRORS, 409: E409})
    def post(self, request, pk: int):
        club = get_object_or_404(clubs(), pk=pk)
        if isinstance(request.data, dict) and "player" in request.data:
            player = player_by_id(body_id(request.data.get("player"), "player"))
            if player is None:
                raise ValidationError({"player": "no such player"})
            refuse(refusal_to_leave_club(request.user, player))
        else:
            player = _me(request)
        try:
            leave_club(club=club, player=player)
        except MembershipError as e:
            return conflict(e)
        return Response({"club": club.pk, "member": False, "request": None})


class MembershipPolicySerializer(serializers.Serializer):
    membership = serializers.ChoiceField(choices=["open", "request"],
                                         help_text="open: a person joins at once; request: an organiser accepts.")


class ClubMembershipPolicyView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Choose how people join the club (its organisers)", request=MembershipPolicySerializer,
                   responses={200: MembershipPolicySerializer, **WRITE_ERRORS})
    def post(self, request, pk: int):
        club = get_object_or_404(clubs(), pk=pk)
        if not organises(request.user, club.pk):
            raise PermissionDenied(_("Only the club's organisers choose how people join."))
        form = MembershipPolicySerializer(data=request.data)
        form.is_valid(raise_exception=True)
        club = set_membership_policy(club=club, membership=form.validated_data["membership"])
        return Response({"membership": club.membership})


class ClubRequestsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="Requests to join the club: its organisers see every pending one, anyone else their own "
                           "and their bots' (pending or answered), a visitor none",
                   responses={200: MembershipRequestSerializer(many=True), 404: ErrorSerializer})
    def get(self, request, pk: int):
        club = get_object_or_404(clubs(), pk=pk)
        requests: Iterable[MembershipRequest]
        if organises(request.user, club.pk):
            requests = pending_requests(club)
        else:
            requests = requests_of(club, players_acted_for(request.user))
        return Response(MembershipRequestSerializer(requests, many=True).data)


class ClubRequestDecisionView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]
    accept = True

    @extend_schema(summary="Answer a request to join (the club's organisers); 409 when it is no longer pending",
                   request=None, responses={200: MembershipRequestSerializer, **WRITE_ERRORS, 409: E409})
    def post(self, request, pk: int, request_id: int):
        club = get_object_or_404(clubs(), pk=pk)
        if not organises(request.user, club.pk):
            raise PermissionDenied(_("Only the club's organisers answer requests."))
        try:
            req = decide_request(request_id=request_id, club=club, accept=self.accept, by=request.user)
        except MembershipError as e:
            return conflict(e)
        return Response(MembershipRequestSerializer(req).data)


# ---- tournaments ---------------------------------------------------------------------------------------------------

ENTERED = inline_serializer("SelfEntry", {"tournament": serializers.IntegerField(),
                                          "player": PlayerSerializer(),
                                          "entry": serializers.CharField(
                                              help_text="entered, removed (before registration closed) or "
                                                        "withdrawn (from later rounds)")})


class TournamentEnterView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Enter the tournament myself (until registration closes)", request=None,
                   responses={201: ENTERED, **WRITE_ERRORS, 409: E409})
    def post(self, request, pk: int):
        tournament = get_object_or_404(tournaments(), pk=pk)
        player = _me(request)
        refuse(refusal_to_enter(request.user, tournament.club_id, [player], members_only=tournament.members_only))
        try:
            enter_tournament(tournament=tournament, player=player,
                             self_entry_window=keeps_to_self_entry_window(request.user, tournament.club_id))
        except TournamentError as e:
            return conflict(e)
        return Response({"tournament": tournament.pk, "player": PlayerSerializer(player).data, "entry": "entered"},
                        status=201)


class TournamentLeaveView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Leave the tournament myself: before registration closes the entry goes; afterwards I am "
                           "withdrawn from later rounds (a table in play is still mine to finish)",
                   request=None, responses={200: ENTERED, **WRITE_ERRORS, 409: E409})
    def post(self, request, pk: int):
        tournament = get_object_or_404(tournaments(), pk=pk)
        player = _me(request)
        try:
            how = leave_tournament(tournament=tournament, player=player)
        except TournamentError as e:
            return conflict(e)
        return Response({"tournament": tournament.pk, "player": PlayerSerializer(player).data, "entry": how})
