"""Tournaments: read by anyone with their standings and rounds; created, changed, entered, started and cancelled
by the club's organisers (people enter themselves: api.participation). The router serves it with the withdrawal
step added (api.competitions.TournamentOrganiserViewSet)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response

from league.models import Player, Tournament, TournamentFormat, TournamentRound
from league.permissions import keeps_to_self_entry_window, refusal_to_enter, refusal_to_link_season
from league.selectors.competitions import has_rounds, round_by_id, rounds_of, tournaments
from league.selectors.players import players_by_id
from league.selectors.standings_cache import cached_tournament_standings
from league.services.advancing import advance_tournament, start_tournament
from league.services.cancellation import NotCancellable, cancel_tournament
from league.services.competition import TournamentError
from league.services.entry import register_entrants
from league.services.tournament_setup import create_tournament, delete_tournament, update_tournament

from .errors import E409, LIST_ERRORS, READ_ERRORS, WRITE_ERRORS, conflict, error_response
from .ids import IdFilter, body_id
from .permissions import ReadOnlyOrAuthenticated, refuse, require_organiser
from .renderers import CSVRenderer, TableResponse
from .serializers import CancelSerializer, StandingSerializer, TournamentRoundSerializer, TournamentSerializer
from .throttling import WriteThrottle


class TournamentFilter(django_filters.FilterSet):
    club = IdFilter(field_name="club")
    season = IdFilter(field_name="season")
    # Not "format": that query parameter chooses the response's format (?format=csv).
    tournament_format = django_filters.ChoiceFilter(field_name="format", choices=TournamentFormat.choices)

    class Meta:
        model = Tournament
        fields = ["club", "season", "status", "tournament_format"]


@extend_schema_view(
    list=extend_schema(summary="Tournaments",
                       responses={200: TournamentSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One tournament", responses={200: TournamentSerializer, **READ_ERRORS}),
    create=extend_schema(summary="Create a tournament of one game (the club's organisers)",
                         responses={201: TournamentSerializer, **WRITE_ERRORS}),
    partial_update=extend_schema(
        summary="Change a tournament's settings (the club's organisers)",
        description="Before the first round any setting may change (checked as on creation). Once it runs only "
                    "`name`, `auto_advance` and the turn deadline settings (for tables seated from then on) may: "
                    "changing another answers 409.",
        responses={200: TournamentSerializer, **WRITE_ERRORS, 409: E409}),
    destroy=extend_schema(summary="Delete a tournament that has seated no round (the club's organisers)",
                          description="A tournament with a seated round keeps its matches and results: 409.",
                          responses={204: None, **WRITE_ERRORS, 409: E409}),
)
class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                        viewsets.GenericViewSet):
    # PATCH, not PUT: a tournament's settings are changed a few at a time, and some can no longer change.
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    queryset = tournaments()
    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter
    permission_classes = [ReadOnlyOrAuthenticated]
    throttle_classes = [WriteThrottle]

    def create(self, request):
        form = TournamentSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        club = data.get("club")
        require_organiser(request, club.pk if club else None)
        refuse(refusal_to_link_season(club.pk if club else None, data.get("season")))
        fields = {k: data[k] for k in ("name", "game", "rounds", "table_size", "format", "ruleset", "club", "season",
                                       "match_points", "tiebreaks", "auto_advance", "rated", "turn_deadline_seconds",
                                       "deadline_action", "deadline_fallback", "check_in_required", "self_check_in",
                                       "late_entry_points", "final_size", "final_stages", "final_advance",
                                       "final_ranking", "offline_tables", "registration_closes_at",
                                       "members_only", "round_minutes", "clock_bank_seconds",
                                       "clock_increment_seconds") if k in data}
        try:
            tournament = create_tournament(**fields)
        except ValueError as e:
            raise ValidationError({"detail": str(e)}) from None
        return Response(TournamentSerializer(tournament).data, status=201)

    def partial_update(self, request, pk=None):
        tournament = self.get_object()
        require_organiser(request, tournament.club_id)
        form = TournamentSerializer(tournament, data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        changes = dict(form.validated_data)
        new_club = changes.get("club", tournament.club)
        if "club" in changes and (new_club.pk if new_club else None) != tournament.club_id:
            require_organiser(request, new_club.pk if new_club else None)  # organisers of both clubs
        refuse(refusal_to_link_season(new_club.pk if new_club else None, changes.get("season", tournament.season)))
        try:
            tournament = update_tournament(tournament=tournament, **changes)
        except TournamentError as e:
            return conflict(e)
        except ValueError as e:
            raise ValidationError({"detail": str(e)}) from None
        return Response(TournamentSerializer(tournament).data)

    def destroy(self, request, pk=None):
        tournament = self.get_object()
        require_organiser(request, tournament.club_id)
        try:
            delete_tournament(tournament=tournament)
        except TournamentError as e:
            return conflict(e)
        return Response(status=204)

    @extend_schema(
        summary="The tournament's standings",
        description="Ranked by the tournament's points and tie-breaks. JSON, or CSV with `?format=csv` or "
                    "`Accept: text/csv`.",
        responses={(200, "application/json"): StandingSerializer(many=True), (200, "text/csv"): OpenApiTypes.STR,
                   **READ_ERRORS},
    )
    # No filter backends: the list's filters mean nothing to one tournament, and building them cost a hot read
    # a fifth of its time.
    # Standings are one table, whole (a page of a ranking would make no CSV): no pagination.
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer, BrowsableAPIRenderer, CSVRenderer],
            filter_backends=[], pagination_class=None)
    def standings(self, request, pk=None, format=None):
        tournament = self.get_object()
        rows: list[dict[str, Any]] = [
            {"rank": r.rank, "shared": r.shared, "name": r.name, "players": list(r.player_ids), "games": r.games,
             "dropped": r.dropped, "metrics": {k: metric_value(v) for k, v in r.metrics.items()}}
            for r in cached_tournament_standings(tournament)]
        csv = getattr(request.accepted_renderer, "format", "") == "csv"
        if csv:  # one column per metric; "dropped" last, so columns that were there before keep their places
            rows = [{**{k: v for k, v in row.items() if k not in ("metrics", "dropped")}, **row["metrics"],
                     "dropped": row["dropped"]} for row in rows]
        response = TableResponse(rows, csv_columns=STANDING_COLUMNS)
        if csv:
            response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
        return response

    @extend_schema(summary="The tournament's rounds with their seating",
                   responses={200: TournamentRoundSerializer(many=True), **READ_ERRORS})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)  # a few rounds: all of them
    def rounds(self, request, pk=None):
        tournament = self.get_object()
        return Response(TournamentRoundSerializer(rounds_of(tournament), many=True).data)

    @extend_schema(summary="Register players, or partnership teams (people themselves; bots by their owners, their "
                           "own tokens or the club's organisers)",
                   description="`players`: player ids, for a tournament without partnerships. `teams`: pairs of "
                               "player ids, for a partnership tournament (each pair plays as one team, R-TEAM-1). "
                               "A person is entered only by their own account (403 otherwise); a bot by its owner, "
                               "its own token, or the club's organisers (the club's bots, its members). Entered on "
                               "their own side, people and bots alike are members of the club when the tournament "
                               "is `members_only`, and keep to the self-entry window (until "
                               "`registration_closes_at`, and before round 1): the club's organisers may register "
                               "late entries until every qualifying round is seated. All or nothing: one refused "
                               "entry registers none. 409 once registration is closed, for an entrant already "
                               "entered, or for the wrong kind of entry.",
                   request={"application/json": {"type": "object", "properties": {
                       "players": {"type": "array", "items": {"type": "integer"}},
                       "teams": {"type": "array", "items": {"type": "array", "items": {"type": "integer"},
                                                            "minItems": 2, "maxItems": 2}}}}},
                   responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS, 409: E409})
    @action(detail=True, methods=["post"])
    def entries(self, request, pk=None):
        tournament = self.get_object()
        body = request.data if isinstance(request.data, dict) else {}
        # Whoever is entered, person or bot, the window is the asker's: the club's organisers register late entries.
        window = keeps_to_self_entry_window(request.user, tournament.club_id)
        if "teams" in body:
            teams = body["teams"]
            if not isinstance(teams, list) or not teams or not all(isinstance(t, list) and len(t) == 2 for t in teams):
                raise ValidationError({"teams": "a list of pairs of player ids"})
            pairs = [_players_by_id([body_id(i, "teams") for i in team], "teams") for team in teams]
            refuse(refusal_to_enter(request.user, tournament.club_id, [p for pair in pairs for p in pair],
                                    members_only=tournament.members_only))
            try:
                entries = register_entrants(tournament=tournament, teams=pairs, self_entry_window=window)
            except TournamentError as e:
                return conflict(e)
            return Response({"tournament": tournament.pk, "entries": [e.player_id for e in entries],
                             "teams": sorted({e.team for e in entries})}, status=201)
        ids = body.get("players")
        if not isinstance(ids, list) or not ids:
            raise ValidationError({"players": "a list of player ids (or `teams`: pairs, with partnerships)"})
        players = _players_by_id([body_id(i, "players") for i in ids], "players")
        refuse(refusal_to_enter(request.user, tournament.club_id, players, members_only=tournament.members_only))
        try:
            entries = register_entrants(tournament=tournament, players=players, self_entry_window=window)
        except TournamentError as e:
            return conflict(e)
        return Response({"tournament": tournament.pk, "entries": [e.player_id for e in entries]}, status=201)

    @extend_schema(
        summary="Cancel a tournament (the club's organisers)",
        description="Its matches in play are cancelled (their play stops within one decision), its open rounds "
                    "close and no round is seated any more; the finished matches' results stay in its standings. "
                    "Cancelling a cancelled tournament changes nothing; 409 for a finished one.",
        request=CancelSerializer, responses={200: TournamentSerializer, **WRITE_ERRORS, 409: E409},
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        tournament = self.get_object()
        require_organiser(request, tournament.club_id)
        form = CancelSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            tournament = cancel_tournament(tournament_id=tournament.pk, by=request.user.get_username(),
                                           reason=form.validated_data.get("reason", ""))
        except NotCancellable as e:
            return conflict(e)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(summary="Seat and start the next round (the first one starts the tournament; organisers)",
                   request=None, responses={201: TournamentRoundSerializer, **WRITE_ERRORS, 409: E409})
    @action(detail=True, methods=["post"], url_path="start-round")
    def start_round(self, request, pk=None):
        tournament = self.get_object()
        require_organiser(request, tournament.club_id)
        rnd: TournamentRound | None
        try:
            if not has_rounds(tournament):
                rnd = start_tournament(tournament=tournament)
            else:
                rnd = advance_tournament(tournament=tournament)
        except (TournamentError, ValueError) as e:
            return conflict(e)
        if rnd is None:
            return error_response(_("the tournament is over"), "conflict", 409)
        return Response(TournamentRoundSerializer(round_by_id(rnd.pk)).data, status=201)


def _players_by_id(ids: list[int], field: str) -> list[Player]:
    """The players in the order of `ids` (400 naming `field` for an unknown id)."""
    found = players_by_id(ids)
    if len(found) != len(set(ids)):
        raise ValidationError({field: f"unknown player ids: {sorted(set(ids) - set(found))}"})
    return [found[i] for i in ids]


# A standings table's first columns (then one per metric): the header of an empty table's CSV.
STANDING_COLUMNS = ("rank", "shared", "name", "players", "games")


def metric_value(value):
    """Metrics may be Fractions (shared points): JSON gets a float, rounded for reading."""
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    try:
        return round(float(value), 4)
    except (TypeError, ValueError):
        return str(value)
