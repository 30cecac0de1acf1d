"""API routes, versioned under /api/v1/."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import DefaultRouter

from . import comparisons, competitions, me, play, views
from .tokens import TokenView

router = DefaultRouter()
router.register("clubs", views.ClubViewSet, basename="club")
router.register("players", views.PlayerViewSet, basename="player")
router.register("matches", views.MatchViewSet, basename="match")
router.register("tournaments", competitions.TournamentOrganiserViewSet, basename="tournament")
router.register("leagues", competitions.LeagueViewSet, basename="league")
router.register("seasons", competitions.SeasonViewSet, basename="season")
router.register("ladders", competitions.LadderViewSet, basename="ladder")
router.register("ratings", views.RatingViewSet, basename="rating")
router.register("rating-history", views.RatingHistoryViewSet, basename="rating-history")
router.register("comparisons", comparisons.ComparisonViewSet, basename="comparison")

v1 = [
    path("matches/<int:pk>/state/", play.MatchStateView.as_view(), name="match-state"),
    path("matches/<int:pk>/legal/", play.MatchLegalView.as_view(), name="match-legal"),
    path("matches/<int:pk>/decisions/", play.MatchDecisionView.as_view(), name="match-decisions"),
    path("me/", me.MeView.as_view(), name="me"),
    path("me/turns/", play.my_turns, name="me-turns"),
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    # The schema of this version (committed as api/openapi.yaml): a client generated from it talks to /api/v1/.
    path("schema/", SpectacularAPIView.as_view(), name="schema-v1"),
    path("", include(router.urls)),
]

urlpatterns = [path("v1/", include(v1))]
