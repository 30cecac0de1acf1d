"""The signed-in account: who it is, which players it plays as, and (for a person) their clubs, tournaments and
ladders. Their matches are /api/v1/me/matches/ and their profile /api/v1/me/profile/ (api.participation)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.permissions import organises_any
from league.selectors.accounts import my_page
from league.selectors.players import players_of_account

from .errors import ErrorSerializer
from .serializers import PlayerSerializer


class MyClubSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MyTournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="tournament_id")
    name = serializers.CharField(source="tournament.name")
    status = serializers.CharField(source="tournament.status")
    active = serializers.BooleanField(help_text="False once withdrawn from later rounds.")


class MyLadderSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="ladder_id")
    name = serializers.CharField(source="ladder.name")
    game = serializers.CharField(source="ladder.game")


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
    organiser = serializers.BooleanField()
    players = PlayerSerializer(many=True)
    clubs = MyClubSerializer(many=True, help_text="The person's clubs (empty for a bot's account).")
    pending_clubs = MyClubSerializer(many=True, help_text="Clubs the person asked to join, not answered yet.")
    tournaments = MyTournamentSerializer(many=True, help_text="The person's tournament entries, newest first.")
    ladders = MyLadderSerializer(many=True, help_text="The ladders whose pool the person is in.")


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="The signed-in account, its players, and the person's clubs, tournaments and ladders",
                   responses={200: MeSerializer, 401: ErrorSerializer})
    def get(self, request):
        players = players_of_account(request.user)
        page = my_page(request.user)
        return Response(MeSerializer({"username": request.user.get_username(), "is_staff": request.user.is_staff,
                                      "organiser": organises_any(request.user), "players": players,
                                      "clubs": page.clubs, "pending_clubs": [r.club for r in page.requests],
                                      "tournaments": page.tournaments, "ladders": page.ladders}).data)
