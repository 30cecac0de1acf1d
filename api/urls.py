"""API routes, versioned under /api/v1/."""

from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import DefaultRouter

from . import (
    clubs,
    comparisons,
    competitions,
    lobby,
    matches,
    me,
    notifications,
    offline,
    participation,
    play,
    players,
    ratings,
    roster,
)
from .tokens import TokenView

router = DefaultRouter()
router.register("clubs", clubs.ClubViewSet, basename="club")
router.register("players", players.PlayerViewSet, basename="player")
router.register("matches", matches.MatchViewSet, basename="match")
router.register("tournaments", competitions.TournamentOrganiserViewSet, basename="tournament")
router.register("leagues", competitions.LeagueViewSet, basename="league")
router.register("seasons", competitions.SeasonViewSet, basename="season")
router.register("ladders", competitions.LadderViewSet, basename="ladder")
router.register("ratings", ratings.RatingViewSet, basename="rating")
router.register("rating-history", ratings.RatingHistoryViewSet, basename="rating-history")
router.register("me/notifications", notifications.MyNotificationViewSet, basename="my-notification")
router.register("me/webhooks", notifications.MyWebhookViewSet, basename="my-webhook")
router.register("lobby/tables", lobby.LobbyTableViewSet, basename="lobby-table")
router.register("comparisons", comparisons.ComparisonViewSet, basename="comparison")

v1: list[URLPattern | URLResolver] = [
    path("matches/<int:pk>/state/", play.MatchStateView.as_view(), name="match-state"),
    path("matches/<int:pk>/legal/", play.MatchLegalView.as_view(), name="match-legal"),
    path("matches/<int:pk>/decisions/", play.MatchDecisionView.as_view(), name="match-decisions"),
    path("matches/<int:pk>/results/", offline.MatchResultsView.as_view(), name="match-results"),
    path("matches/<int:pk>/results/<int:entry_id>/confirm/", offline.ConfirmResultView.as_view(),
         name="match-result-confirm"),
    path("matches/<int:pk>/offline/", offline.MatchOfflineView.as_view(), name="match-offline"),
    path("me/", me.MeView.as_view(), name="me"),
    path("me/turns/", play.my_turns, name="me-turns"),
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    # People on their own (api/participation.py): sign up, profile, my matches, clubs, self-entry.
    path("auth/signup/", participation.SignupView.as_view(), name="auth-signup"),
    path("me/profile/", participation.ProfileView.as_view(), name="me-profile"),
    path("me/matches/", participation.MyMatchesView.as_view(), name="me-matches"),
    path("clubs/<int:pk>/join/", participation.ClubJoinView.as_view(), name="club-join"),
    path("clubs/<int:pk>/leave/", participation.ClubLeaveView.as_view(), name="club-leave"),
    path("clubs/<int:pk>/membership-policy/", participation.ClubMembershipPolicyView.as_view(),
         name="club-membership-policy"),
    path("clubs/<int:pk>/requests/", participation.ClubRequestsView.as_view(), name="club-requests"),
    path("clubs/<int:pk>/requests/<int:request_id>/accept/", participation.ClubRequestDecisionView.as_view(),
         name="club-request-accept"),
    path("clubs/<int:pk>/requests/<int:request_id>/decline/",
         participation.ClubRequestDecisionView.as_view(accept=False), name="club-request-decline"),
    path("clubs/<int:pk>/guests/", roster.ClubGuestsView.as_view(), name="club-guests"),
    path("clubs/<int:pk>/guests/merge/", roster.ClubGuestsMergeView.as_view(), name="club-guests-merge"),
    path("clubs/<int:pk>/guests/<int:guest_id>/", roster.ClubGuestView.as_view(), name="club-guest"),
    path("tournaments/<int:pk>/links/", roster.TournamentLinksView.as_view(), name="tournament-links"),
    path("tournaments/<int:pk>/links/<int:entry_id>/", roster.TournamentLinkView.as_view(), name="tournament-link"),
    # Accepting an invitation to organise a club (api/clubs.py; sent by POST clubs/{id}/invitations/).
    path("invitations/organise/accept/", clubs.InvitationAcceptView.as_view(), name="organiser-invitation-accept"),
    path("tournaments/<int:pk>/enter/", participation.TournamentEnterView.as_view(), name="tournament-enter"),
    path("tournaments/<int:pk>/leave/", participation.TournamentLeaveView.as_view(), name="tournament-leave"),
    # The schema of this version (committed as api/openapi.yaml): a client generated from it talks to /api/v1/.
    path("schema/", SpectacularAPIView.as_view(), name="schema-v1"),
    path("", include(router.urls)),
]

urlpatterns = [path("v1/", include(v1))]
