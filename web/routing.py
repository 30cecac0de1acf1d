"""The website's WebSocket routes (web.consumers), and the application config/asgi.py hands WebSocket connections
to: the session's user (channels' AuthMiddlewareStack, the page's own session cookie) and the allowed-hosts origin
check (a page of another site cannot open a socket with the reader's cookies)."""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from .consumers import ComparisonSocket, LadderSocket, LobbySocket, LobbyTableSocket, MatchSocket, TournamentSocket

websocket_urlpatterns = [
    path("ws/matches/<int:pk>/", MatchSocket.as_asgi(), name="match-socket"),
    path("ws/lobby/", LobbySocket.as_asgi(), name="lobby-socket"),
    path("ws/lobby/tables/<int:pk>/", LobbyTableSocket.as_asgi(), name="lobby-table-socket"),
    path("ws/tournaments/<int:pk>/", TournamentSocket.as_asgi(), name="tournament-socket"),
    path("ws/ladders/<int:pk>/", LadderSocket.as_asgi(), name="ladder-socket"),
    path("ws/comparisons/<int:pk>/", ComparisonSocket.as_asgi(), name="comparison-socket"),
]


def websocket_application():
    return AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
