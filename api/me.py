"""The signed-in account: who it is and which players it plays as."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.models import Player
from league.permissions import organises_any

from .errors import ErrorSerializer
from .serializers import PlayerSerializer


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
    organiser = serializers.BooleanField()
    players = PlayerSerializer(many=True)


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="The signed-in account and its players", responses={200: MeSerializer,
                                                                                401: ErrorSerializer})
    def get(self, request):
        players = Player.objects.filter(user=request.user).prefetch_related("clubs")
        return Response(MeSerializer({"username": request.user.get_username(), "is_staff": request.user.is_staff,
                                      "organiser": organises_any(request.user), "players": players}).data)
