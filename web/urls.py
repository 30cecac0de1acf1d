"""The website's routes (mounted at the site's root by config.urls)."""

from allauth.account import views as account_views
from django.urls import path

from runtime.throttling import SigninLimit, rate_limited

from . import accounts, bots, comparisons, evening, language, lobby, notifications, offline, participation, play, views

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
    path("tournaments/<int:pk>/check-in/", evening.check_in_list, name="tournament-check-in"),
    path("tournaments/<int:pk>/check-in/toggle/", evening.check_in_toggle, name="tournament-check-in-toggle"),
    path("ladders/<int:pk>/", views.ladder, name="ladder"),
    path("players/<int:pk>/", views.player, name="player"),
    path("matches/<int:pk>/", play.match_page, name="match"),
    path("matches/<int:pk>/live/", play.match_live, name="match-live"),
    path("matches/<int:pk>/decide/", play.match_decide, name="match-decide"),
    path("matches/<int:pk>/replay/", play.match_replay, name="match-replay"),
    path("matches/<int:pk>/cancel/", views.match_cancel, name="match-cancel"),
    # A club evening with real cards (web/offline.py): an offline table's result, and the printable sheets.
    path("matches/<int:pk>/result/", offline.result_enter, name="match-result-enter"),
    path("matches/<int:pk>/result/<int:entry_id>/confirm/", offline.result_confirm, name="match-result-confirm"),
    path("matches/<int:pk>/offline/", offline.offline_switch, name="match-offline"),
    path("tournaments/<int:pk>/rounds/<int:number>/sheet/", offline.round_sheet_page, name="round-sheet"),
    path("tournaments/<int:pk>/rounds/<int:number>/slips/", offline.round_slips_page, name="round-slips"),
    path("tournaments/<int:pk>/standings/print/", offline.standings_print_page, name="standings-print"),
    path("play/", play.play_bots, name="play-bots"),
    path("lobby/", lobby.lobby, name="lobby"),
    path("lobby/live/", lobby.lobby_live, name="lobby-live"),
    path("lobby/tables/<int:pk>/", lobby.lobby_table, name="lobby-table"),
    path("lobby/tables/<int:pk>/live/", lobby.lobby_table_live, name="lobby-table-live"),
    path("lobby/tables/<int:pk>/join/", lobby.lobby_join, name="lobby-join"),
    path("lobby/tables/<int:pk>/leave/", lobby.lobby_leave, name="lobby-leave"),
    path("lobby/tables/<int:pk>/cancel/", lobby.lobby_cancel, name="lobby-cancel"),
    path("lobby/tables/<int:pk>/start/", lobby.lobby_start, name="lobby-start"),
    path("lobby/invite/<str:token>/", lobby.lobby_invite, name="lobby-invite"),
    # A bot author's bots (web/bots.py).
    path("bots/", bots.bots, name="bots"),
    path("bots/create/", bots.bot_create, name="bot-create"),
    path("bots/<int:pk>/regenerate-token/", bots.bot_regenerate_token, name="bot-regenerate-token"),
    path("bots/<int:pk>/revoke-token/", bots.bot_revoke_token, name="bot-revoke-token"),
    path("bots/<int:pk>/resume/", bots.bot_resume, name="bot-resume"),
    path("bots/<int:pk>/enter/", bots.bot_enter, name="bot-enter"),
    path("bots/<int:pk>/leave/", bots.bot_leave, name="bot-leave"),
    path("notifications/", notifications.notification_list, name="notifications"),
    path("notifications/unread/", notifications.unread_badge, name="notifications-unread"),
    path("notifications/read-all/", notifications.notification_read_all, name="notifications-read-all"),
    path("notifications/<int:pk>/read/", notifications.notification_read, name="notification-read"),
    path("webhooks/", notifications.webhook_list, name="webhooks"),
    path("webhooks/<int:pk>/", notifications.webhook_detail, name="webhook"),
    path("webhooks/<int:pk>/ping/", notifications.webhook_ping, name="webhook-ping"),
    path("webhooks/<int:pk>/active/", notifications.webhook_active, name="webhook-active"),
    path("comparisons/", comparisons.comparison_list, name="comparisons"),
    path("comparisons/new/", comparisons.comparison_new, name="comparison-new"),
    path("comparisons/<int:pk>/", comparisons.comparison_detail, name="comparison"),
    path("comparisons/<int:pk>/state.json", comparisons.comparison_state, name="comparison-state"),
    path("comparisons/<int:pk>/stop/", comparisons.comparison_stop, name="comparison-stop"),
    path("comparisons/<int:pk>/pairs/<int:index>/", comparisons.comparison_pair, name="comparison-pair"),
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
