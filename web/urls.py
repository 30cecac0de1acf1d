"""The website's routes (mounted at the site's root by config.urls)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from config.throttling import SigninLimit, rate_limited

from . import language, play, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("language/", language.set_language, name="set-language"),
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
    # Sign-in attempts are paced per client address here and locked out after failures by django-axes.
    path("accounts/login/", rate_limited(SigninLimit, what="sign-in attempts")(auth_views.LoginView.as_view()),
         name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]
