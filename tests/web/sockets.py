"""A WebSocket test client for the website's sockets: Channels' WebsocketCommunicator, written again on asgiref's
ApplicationCommunicator because importing channels.testing imports daphne (its live server), which this project
does not install (uvicorn serves the sockets)."""

from __future__ import annotations

import json
from unittest import mock
from urllib.parse import unquote, urlparse

from asgiref.testing import ApplicationCommunicator


def _keep_connections():
    """channels.db closes the thread's old connections around each read; the test database's must stay open."""


class WebsocketCommunicator(ApplicationCommunicator):
    def __init__(self, application, path: str, headers=None):
        parsed = urlparse(path)
        super().__init__(application, {"type": "websocket", "path": unquote(parsed.path),
                                       "query_string": parsed.query.encode(), "headers": headers or [],
                                       "subprotocols": []})

    async def send_input(self, message):
        with mock.patch("channels.db.close_old_connections", _keep_connections):
            return await super().send_input(message)

    async def receive_output(self, timeout=1):
        with mock.patch("channels.db.close_old_connections", _keep_connections):
            return await super().receive_output(timeout)

    async def connect(self, timeout=10) -> tuple[bool, object]:
        """(True, subprotocol) when accepted, (False, close code) when refused."""
        await self.send_input({"type": "websocket.connect"})
        response = await self.receive_output(timeout)
        if response["type"] == "websocket.close":
            return False, response.get("code", 1000)
        assert response["type"] == "websocket.accept", response
        return True, response.get("subprotocol")

    async def send_to(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is not None:
            await self.send_input({"type": "websocket.receive", "text": text_data})
        else:
            await self.send_input({"type": "websocket.receive", "bytes": bytes_data})

    async def receive_from(self, timeout=1) -> str:
        response = await self.receive_output(timeout)
        assert response["type"] == "websocket.send", response
        return response.get("text") or response.get("bytes")

    async def receive_json_from(self, timeout=1):
        return json.loads(await self.receive_from(timeout))

    async def disconnect(self, code=1000, timeout=5) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": code})
        await self.wait(timeout)
