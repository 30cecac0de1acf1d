"""A local webhook receiver for tests: http.server in a thread, verifying each signature as a receiver would."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def verify(secret: str, header: str, body: bytes) -> bool:
    """What api/README.md tells receivers to do."""
    parts = dict(item.split("=", 1) for item in header.split(","))
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"])


class Receiver:
    """Collects the POSTs; answers `fail_first` of them with 500 first. `secret` is set once the endpoint exists."""

    def __init__(self, fail_first: int = 0):
        self.received: list[dict] = []  # {"event", "delivery", "body", "verified"}
        self.fail_first = fail_first
        self.secret = ""
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.lock:
                    if receiver.fail_first > 0:
                        receiver.fail_first -= 1
                        self.send_response(500)
                        self.end_headers()
                        return
                    receiver.received.append({
                        "event": self.headers["X-Diamonds-Event"], "delivery": self.headers["X-Diamonds-Delivery"],
                        "body": json.loads(body),
                        "verified": verify(receiver.secret, self.headers["X-Diamonds-Signature"], body)})
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
