"""Players: people, engine bots and external bots. A person registers themselves, organisers register bots,
anyone signed in makes an external bot of their own and manages its token."""

from __future__ import annotations

import django_filters
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response

from league.models import Player
from league.permissions import (
    admitted_at_once,
    refusal_to_bind_account,
    refusal_to_manage_bot,
    refusal_to_take_part,
)
from league.selectors.players import account_named, is_bot_account, players_listed, players_of_kind
from league.services import create_bot_player, create_person_player
from league.services.bot_pausing import NotPaused, resume_bot
from league.services.membership import add_member
from league.services.names import NameRefused
from league.services.players import create_external_bot, regenerate_bot_token, revoke_bot_token
from runtime.secrecy import never_stored

from .errors import E409, LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, conflict
from .ids import IdFilter
from .permissions import ReadOnlyOrAuthenticated, refuse, require_organiser
from .serializers import PlayerCreateSerializer, PlayerSerializer
from .throttling import WriteThrottle
from .tokens import issue_token


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    club = IdFilter(field_name="clubs")
    kind = django_filters.ChoiceFilter(method="filter_kind", choices=[
        ("person", "person"), ("engine_bot", "engine bot"), ("external_bot", "external bot")])

    class Meta:
        model = Player
        fields = ["name", "club", "bot_kind"]

    def filter_kind(self, queryset, name, value):
        return players_of_kind(queryset, value)


@extend_schema_view(
    list=extend_schema(summary="Players: people, engine bots and external bots",
                       responses={200: PlayerSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One player", responses={200: PlayerSerializer, **READ_ERRORS}),
)
class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = players_listed()
    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(
        summary="Register a player: yourself as a person, or a bot (club organisers; staff without a club; anyone "
                "for their own external bot)",
        description="A person: the caller's own account (`username` is theirs; no one binds another's account), "
                    "joining `club` if given as the club's policy says (on request: a request its organisers "
                    "answer). An engine bot (bot_kind random, greedy or search, with its "
                    "bot_settings), or an external bot: a new bot account whose API token is returned here, once. "
                    "Any signed-in person whose account is verified (a confirmed email address, or made by an "
                    "administrator) may create an external bot without a club: they are its `owner` and may "
                    "enter it in ladders (`POST /api/v1/ladders/{id}/join/`) and take it out; the bot takes part "
                    "only while its owner is verified.",
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
            if is_bot_account(request.user):
                raise PermissionDenied(_("a bot's account cannot create bots"))
            # A bot acts for its owner: only a verified person makes one (the checks on what it enters repeat it).
            refuse(refusal_to_take_part(request.user))
        elif data["kind"] != "person":
            require_organiser(request, club.pk if club else None)
        clubs = [club] if club else []
        name = data.get("name") or data.get("username")
        if not name:
            raise ValidationError({"name": "a player needs a name"})
        token = None
        try:
            if data["kind"] == "person":
                user = account_named(data.get("username", ""))
                if user is None:
                    raise ValidationError({"username": "no such account"})
                refuse(refusal_to_bind_account(request.user, user))
                if club is not None:  # joining a club, as POST clubs/{id}/join/ does: a verified person only
                    refuse(refusal_to_take_part(request.user))
                with transaction.atomic():
                    player = create_person_player(user=user, name=name)
                    if club is not None:
                        # Into the club by its policy, as clubs/{id}/members/: one way into a club for everyone.
                        add_member(club=club, player=player,
                                   admitted_by=request.user if admitted_at_once(request.user, club.pk) else None)
            elif data["kind"] == "engine_bot":
                player = create_bot_player(name=name, kind=data.get("bot_kind", ""),
                                           settings=data.get("bot_settings"), clubs=clubs)
            else:
                player = create_external_bot(name=name, clubs=clubs, owner=request.user)
                token = issue_token(player.user)
        except IntegrityError:  # a duplicate: the name, or the bot's account name, is another's
            return conflict(ValueError("that name (or bot account) is taken"))
        except NameRefused as e:
            if e.taken:
                return conflict(e)
            raise ValidationError({"name": str(e)}) from None
        except ValueError as e:
            raise ValidationError({"bot_kind": str(e)}) from None
        body = PlayerSerializer(player).data
        if token:
            body["token"] = token
            return never_stored(Response(body, status=201))
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
            return never_stored(Response({"token": regenerate_bot_token(player=player)}))
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
