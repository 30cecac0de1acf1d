"""The website's routes (mounted at the site's root by config.urls)."""

from allauth.account import views as account_views
from django.urls import path

from config.throttling import SigninLimit, rate_limited

from . import accounts, participation, play, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/<int:pk>/", views.club, name="club"),
    path("leagues/<int:pk>/", views.league, name="league"),
    path("seasons/<int:pk>/", views.season, name="season"),
    path("tournaments/<int:pk>/", views.tournament, name="tournament"),
    path("tournaments/<int:pk>/start-round/", views.tournament_start_round, name="tournament-start-round"),
    path("tournaments/<int:pk>/register/", views.tournament_register, name="tournament-register"),
    path("tournaments/<int:pk>/cancel/", views.tournament_cancel, name="tournament-cancel"),
    path("ladders/<int:pk>/", views.ladder, name="ladder"),
    path("players/<int:pk>/", views.player, name="player"),
    path("matches/<int:pk>/", play.match_page, name="match"),
    path("matches/<int:pk>/live/", play.match_live, name="match-live"),
    path("matches/<int:pk>/decide/", play.match_decide, name="match-decide"),
    path("matches/<int:pk>/replay/", play.match_replay, name="match-replay"),
    path("matches/<int:pk>/cancel/", views.match_cancel, name="match-cancel"),
    path("play/", play.play_bots, name="play-bots"),
    # The one sign-in (django-allauth's, at its own address): attempts are paced per client address here and locked
    # out after failures by django-axes. The rest of /accounts/ (sign up, email, password) is allauth's (config.urls).
    path("accounts/login/", rate_limited(SigninLimit, what="sign-in attempts")(account_views.LoginView.as_view()),
         name="login"),
    path("accounts/logout/", account_views.LogoutView.as_view(), name="logout"),
    # People on their own: profile, My page, and taking part (web/accounts.py, web/participation.py).
    path("accounts/profile/", accounts.profile, name="profile"),
    path("me/", accounts.me, name="me"),
    path("clubs/<int:pk>/join/", participation.club_join, name="club-join"),
    path("clubs/<int:pk>/leave/", participation.club_leave, name="club-leave"),
    path("clubs/<int:pk>/membership/", participation.club_membership_policy, name="club-membership"),
    path("clubs/<int:pk>/requests/<int:request_id>/<str:decision>/", participation.club_request_decide,
         name="club-request-decide"),
    path("tournaments/<int:pk>/enter/", participation.tournament_enter, name="tournament-enter"),
    path("tournaments/<int:pk>/leave/", participation.tournament_leave, name="tournament-leave"),
    path("ladders/<int:pk>/join/", participation.ladder_join, name="ladder-join"),
    path("ladders/<int:pk>/leave/", participation.ladder_leave, name="ladder-leave"),
]
