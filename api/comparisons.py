"""Comparisons (is my new bot better?): create one, list them (by bot), read one with its test state and pairs,
stop one. Anyone reads; bot authors compare their own bots (engine bots: anyone signed in), organisers any
(league.services.comparisons). The comparison's salt never leaves the server."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from league.limits import MAX_COMPARISON_PAIRS
from league.models import Comparison, Player
from league.selectors import comparisons as selectors
from league.selectors.players import player as player_by_id
from league.services.cancellation import stop_comparison
from league.services.comparisons import ComparisonInvalid, ComparisonRefused, create_comparison

from .errors import LIST_ERRORS, READ_ERRORS, WRITE_ERRORS
from .ids import body_id
from .permissions import ReadOnlyOrAuthenticated, refuse
from .throttling import WriteThrottle


class ComparisonCreateSerializer(serializers.Serializer):
    candidate = serializers.IntegerField(help_text="The candidate bot's player id.")
    baseline = serializers.IntegerField(help_text="The baseline bot's player id.")
    game = serializers.CharField(default="diamonds")
    ruleset = serializers.DictField(required=False, help_text="The game's ruleset fields; `players` is the table.")
    players = serializers.IntegerField(required=False, help_text="The table's size (instead of a ruleset).")
    field_kind = serializers.CharField(required=False, help_text="The engine bot in the other seats (default: "
                                       "greedy in Diamonds, heuristic in the other games).")
    field_settings = serializers.DictField(required=False)
    elo0 = serializers.FloatField(default=0.0, help_text="H0: the candidate is stronger by at most this (Elo).")
    elo1 = serializers.FloatField(default=20.0, help_text="H1: the candidate is stronger by this (Elo).")
    difference0 = serializers.FloatField(required=False, help_text="H0 as the candidate's mean placement-score "
                                         "advantage (-1 .. 1) instead of elo0; with difference1.")
    difference1 = serializers.FloatField(required=False, help_text="H1 as a placement-score advantage.")
    alpha = serializers.FloatField(default=0.05)
    beta = serializers.FloatField(default=0.05)
    max_pairs = serializers.IntegerField(default=1000, min_value=1, max_value=MAX_COMPARISON_PAIRS)


class ComparisonSerializer(serializers.ModelSerializer):
    state = serializers.SerializerMethodField(help_text="The test after the latest pair: LLR, its bounds, pairs, "
                                              "the mean placement-score difference with its 95% interval.")

    class Meta:
        model = Comparison
        fields = ["id", "owner", "candidate", "baseline", "game", "ruleset", "field_kind", "field_settings", "elo0",
                  "elo1", "alpha", "beta", "max_pairs", "status", "decision", "state", "created_at", "finished_at"]

    def get_state(self, comparison: Comparison) -> dict:
        return selectors.state(comparison)


class ComparisonDetailSerializer(ComparisonSerializer):
    pairs = serializers.SerializerMethodField(help_text="Every pair: its tested seat (0-based), its two matches, "
                                              "the tested seat's places, the outcome and the LLR after it.")

    class Meta(ComparisonSerializer.Meta):
        fields = [*ComparisonSerializer.Meta.fields, "pairs"]

    def get_pairs(self, comparison: Comparison) -> list[dict]:
        return selectors.pair_rows(comparison)


def _bot(value, name: str) -> Player:
    player = player_by_id(body_id(value, name))
    if player is None:
        raise ValidationError({name: _("no such player")})
    return player


@extend_schema_view(
    list=extend_schema(summary="Comparisons, newest first (filter by bot)", parameters=[
        OpenApiParameter("bot", int, description="Only comparisons this player took part in.")],
        responses={200: ComparisonSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="A comparison with its test state and pairs",
                           responses={200: ComparisonDetailSerializer, **READ_ERRORS}),
)
class ComparisonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    http_method_names = ["get", "post", "head", "options"]
    serializer_class = ComparisonSerializer
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    def get_queryset(self):
        bot = self.request.query_params.get("bot") if self.action == "list" else None
        return selectors.comparisons(bot_id=body_id(bot, "bot") if bot not in (None, "") else None)

    def get_serializer_class(self):
        return ComparisonDetailSerializer if self.action == "retrieve" else ComparisonSerializer

    @extend_schema(summary="Create a comparison and start playing it (bot authors for their own bots, anyone "
                   "signed in for engine bots, organisers for any)", request=ComparisonCreateSerializer,
                   responses={201: ComparisonDetailSerializer, **WRITE_ERRORS})
    def create(self, request):
        form = ComparisonCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        if "ruleset" in data and "players" in data:
            raise ValidationError({"ruleset": _("give a ruleset or a number of players, not both")})
        ruleset = data.get("ruleset") or data.get("players") or 4
        try:
            comparison = create_comparison(
                user=request.user, candidate=_bot(data["candidate"], "candidate"),
                baseline=_bot(data["baseline"], "baseline"), game=data["game"], ruleset=ruleset,
                field_kind=data.get("field_kind"), field_settings=data.get("field_settings"), elo0=data["elo0"],
                elo1=data["elo1"], alpha=data["alpha"], beta=data["beta"], max_pairs=data["max_pairs"],
                difference0=data.get("difference0"), difference1=data.get("difference1"))
        except ComparisonRefused as e:
            refuse(str(e))
        except ComparisonInvalid as e:
            raise ValidationError({"detail": str(e)}) from None
        comparison.refresh_from_db()
        return Response(ComparisonDetailSerializer(comparison).data, status=201)

    @extend_schema(summary="Stop a running comparison (its author or an organiser); the pair in play is void",
                   request=None, responses={200: ComparisonDetailSerializer, **WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def stop(self, request, pk=None):
        comparison = self.get_object()
        try:
            comparison = stop_comparison(user=request.user, comparison_id=comparison.pk)
        except ComparisonRefused as e:
            refuse(str(e))
        return Response(ComparisonDetailSerializer(comparison).data)
