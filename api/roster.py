"""A club's roster of guests (people without accounts: league.services.roster) and its tournaments' private links
(league.services.private_links), for the club's organisers: the roster listed and added to, a guest renamed, two
guests who are one person merged; links issued for everyone, one issued again, or revoked. Who may is
league.permissions' (refusal_to_keep_roster)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.models import Club, Player, TournamentEntry
from league.permissions import refusal_to_keep_roster
from league.selectors.clubs import clubs
from league.selectors.competitions import tournaments
from league.selectors.roster import guest_of, guests_of
from league.services.names import NameRefused
from league.services.private_links import issue_link, issue_links, revoke_link
from league.services.roster import ROSTER_LINES_MAX, RosterError, add_guests, merge_guests, rename_guest
from runtime.secrecy import never_stored

from .errors import WRITE_ERRORS, Conflict
from .ids import body_id
from .permissions import refuse
from .serializers import PlayerSerializer
from .throttling import WriteThrottle


class GuestsAddSerializer(serializers.Serializer):
    names = serializers.ListField(child=serializers.CharField(max_length=1000, allow_blank=True, trim_whitespace=False),
                                  min_length=1, max_length=ROSTER_LINES_MAX,
                                  help_text="The guests' names: all are added, or none (400 naming each bad one).")


class ClubGuestsView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="The club's roster of guests, players without accounts (its organisers)",
                   responses={200: PlayerSerializer(many=True), **WRITE_ERRORS})
    def get(self, request, pk: int):
        club = get_object_or_404(clubs(), pk=pk)
        refuse(refusal_to_keep_roster(request.user, club.pk))
        return Response(PlayerSerializer(guests_of(club).prefetch_related("clubs"), many=True).data)

    @extend_schema(summary="Add guests to the club's roster (its organisers): every name follows the rule of every "
                           "player's name; all are added or none",
                   request=GuestsAddSerializer, responses={201: PlayerSerializer(many=True), **WRITE_ERRORS})
    def post(self, request, pk: int):
        club = get_object_or_404(clubs(), pk=pk)
        refuse(refusal_to_keep_roster(request.user, club.pk))
        body = GuestsAddSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            made = add_guests(club=club, names=body.validated_data["names"])
        except RosterError as e:
            raise ValidationError({"names": [str(e)]}) from None
        return Response(PlayerSerializer(made, many=True).data, status=201)


def _roster_of(request, pk: int) -> Club:
    club = get_object_or_404(clubs(), pk=pk)
    refuse(refusal_to_keep_roster(request.user, club.pk))
    return club


class GuestRenameSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=1000, trim_whitespace=False,
                                 help_text="The guest's new name: the rule of every player's name (stored tidied; "
                                           "409 when another player has it, or one that looks like it).")


class ClubGuestView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Rename a guest of the club's roster (its organisers); their matches show the new name, "
                           "their records keep the one they were played with",
                   request=GuestRenameSerializer, responses={200: PlayerSerializer, **WRITE_ERRORS})
    def patch(self, request, pk: int, guest_id: int):
        club = _roster_of(request, pk)
        guest = guest_of(club, guest_id)
        if guest is None:
            raise NotFound(_("No such guest on this club's roster."))
        body = GuestRenameSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            guest = rename_guest(guest=guest, name=body.validated_data["name"])
        except NameRefused as e:
            if e.taken:
                raise Conflict(str(e)) from None
            raise ValidationError({"name": [str(e)]}) from None
        except RosterError as e:
            raise ValidationError({"name": [str(e)]}) from None
        return Response(PlayerSerializer(Player.objects.prefetch_related("clubs").get(pk=guest.pk)).data)


# (A serializer class cannot declare a field called `source`, every field's own attribute: the schema's body only.)
GUEST_MERGE = inline_serializer("GuestMerge", {
    "source": serializers.IntegerField(help_text="The guest whose history moves: they are no more afterwards."),
    "target": serializers.IntegerField(help_text="The guest who keeps both histories (and their own name).")})


class ClubGuestsMergeView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Merge two guests of the club's roster who are one person (its organisers): the source's "
                           "matches, entries, results and rating go to the target; 409 when they sat at the same "
                           "match, are entered in the same tournament, or both have rated results",
                   operation_id="clubs_guests_merge", request=GUEST_MERGE,
                   responses={200: PlayerSerializer, **WRITE_ERRORS})
    def post(self, request, pk: int):
        club = _roster_of(request, pk)
        data = request.data if isinstance(request.data, dict) else {}
        ids = {name: body_id(data.get(name), name) for name in ("source", "target")}
        guests = {name: guest_of(club, number) for name, number in ids.items()}
        missing = {name: [_("No such guest on this club's roster.")] for name, guest in guests.items() if guest is None}
        if missing:
            raise ValidationError(missing)
        if ids["source"] == ids["target"]:
            raise ValidationError({"target": [_("A player is merged into another player.")]})
        source, target = guests["source"], guests["target"]
        assert source is not None and target is not None
        try:
            merged = merge_guests(club=club, source=source, target=target)
        except RosterError as e:
            raise Conflict(str(e)) from None
        return Response(PlayerSerializer(Player.objects.prefetch_related("clubs").get(pk=merged.pk)).data)


ISSUED = inline_serializer("LinksIssued", {"issued": serializers.IntegerField(
    help_text="How many entrants who had no live link got one (live links stay as they are).")})
LINK = inline_serializer("PrivateLinkIssued", {
    "entry": serializers.IntegerField(), "player": serializers.IntegerField(),
    "url": serializers.CharField(help_text="The entrant's private link: shown to organisers, never stored "
                                           "by a cache; issuing it again makes the old one answer 404.")})


class TournamentLinksView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(summary="Issue a private link to every entrant who has none (the club's organisers)",
                   operation_id="tournaments_links_issue", request=None, responses={200: ISSUED, **WRITE_ERRORS})
    def post(self, request, pk: int):
        tournament = get_object_or_404(tournaments(), pk=pk)
        refuse(refusal_to_keep_roster(request.user, tournament.club_id))
        return Response({"issued": issue_links(tournament=tournament)})


class TournamentLinkView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]

    def _entry(self, request, pk: int, entry_id: int) -> TournamentEntry:
        tournament = get_object_or_404(tournaments(), pk=pk)
        refuse(refusal_to_keep_roster(request.user, tournament.club_id))
        return get_object_or_404(TournamentEntry.objects.all(), tournament=tournament, pk=entry_id)

    @extend_schema(summary="Issue the entrant a new private link (the club's organisers); the old one stops",
                   operation_id="tournaments_link_issue", request=None, responses={200: LINK, **WRITE_ERRORS})
    def post(self, request, pk: int, entry_id: int):
        entry = self._entry(request, pk, entry_id)
        token = issue_link(entry=entry)
        url = request.build_absolute_uri(reverse("web:private-link", args=[token]))
        return never_stored(Response({"entry": entry.pk, "player": entry.player_id, "url": url}))

    @extend_schema(summary="Revoke the entrant's private link (the club's organisers): it answers 404 from now on",
                   operation_id="tournaments_link_revoke", request=None, responses={204: None, **WRITE_ERRORS})
    def delete(self, request, pk: int, entry_id: int):
        revoke_link(entry=self._entry(request, pk, entry_id))
        return Response(status=204)
