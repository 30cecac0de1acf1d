"""Ratings, best first, and their history: one global rating per player and game, one per ladder."""

from __future__ import annotations

import django_filters
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.decorators import action

from engine.games import GAMES
from league.models import Rating, RatingHistory
from league.selectors.ratings import history_rows, rating_history, ratings, ratings_in_scope

from .errors import LIST_ERRORS, READ_ERRORS
from .ids import IdFilter
from .serializers import RatingHistorySerializer, RatingSerializer


class RatingFilter(django_filters.FilterSet):
    player = IdFilter(field_name="player")
    ladder = IdFilter(field_name="ladder")
    scope = django_filters.ChoiceFilter(method="filter_scope", choices=[("global", "global"), ("ladder", "ladder")])
    game = django_filters.ChoiceFilter(choices=[(name, kind.title) for name, kind in GAMES.items()])

    class Meta:
        model = Rating
        fields = ["player", "ladder", "game"]

    def filter_scope(self, queryset, name, value):
        return ratings_in_scope(queryset, value)


@extend_schema_view(
    list=extend_schema(summary="Ratings, best first (filter by player, ladder, game, scope=global|ladder); a player "
                               "has one global rating per game",
                       responses={200: RatingSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One rating", responses={200: RatingSerializer, **READ_ERRORS}),
)
class RatingViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = ratings()
    serializer_class = RatingSerializer
    filterset_class = RatingFilter

    @extend_schema(summary="The rating's history: one entry per rated match, oldest first",
                   responses={200: RatingHistorySerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"], filter_backends=[])
    def history(self, request, pk=None):
        rating = self.get_object()
        page = self.paginate_queryset(rating_history(rating))
        return self.get_paginated_response(RatingHistorySerializer(page, many=True).data)


class RatingHistoryFilter(django_filters.FilterSet):
    player = IdFilter(field_name="player")
    ladder = IdFilter(field_name="ladder")
    match = IdFilter(field_name="match")
    game = django_filters.ChoiceFilter(field_name="match__game",
                                       choices=[(name, kind.title) for name, kind in GAMES.items()])

    class Meta:
        model = RatingHistory
        fields = ["player", "ladder", "match", "game"]


@extend_schema_view(list=extend_schema(summary="Rating history entries (filter by player, ladder, match, game)",
                       responses={200: RatingHistorySerializer(many=True), **LIST_ERRORS}),
                    retrieve=extend_schema(summary="One rating history entry", responses={
                        200: RatingHistorySerializer, **READ_ERRORS}))
class RatingHistoryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = history_rows()
    serializer_class = RatingHistorySerializer
    filterset_class = RatingHistoryFilter
