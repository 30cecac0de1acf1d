"""Sending one webhook POST: the URL's check against private addresses (SSRF), the signature, and the request.

The address is resolved once, checked, and the connection made to that very address (the Host header and TLS name
stay the URL's), so a name that resolves to a public address when checked and to 127.0.0.1 a moment later (DNS
rebinding) still cannot reach this machine. Redirects are not followed: a 3xx is a failed delivery.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

USER_AGENT = "DiamondsLeague-Webhooks/1"


class WebhookURLError(ValueError):
    """A URL webhooks may not be sent to; the message says why (shown to the user)."""


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The X-Diamonds-Signature header's value: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


# RFC 6052's well-known NAT64 prefix: the last 32 bits are the IPv4 address a NAT64 gateway connects to.
NAT64_PREFIX = ipaddress.IPv6Network("64:ff9b::/96")


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address leads to by its form: mapped, 6to4, Teredo (server and client), NAT64."""
    embedded = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
    if ip in NAT64_PREFIX:
        embedded.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return [v4 for v4 in embedded if v4 is not None]


def _forbidden(address: str) -> bool:
    """True unless the address is globally routable, by the standard library's tables rather than our own list.
    An IPv6 address must also not be reserved (IPv4-compatible ::/96 and the other ::/8 forms), site-local
    (fec0::/10) or multicast, and every IPv4 address it embeds must be allowed too; an IPv4-mapped address is
    judged as the IPv4 address it is."""
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return _forbidden(str(ip.ipv4_mapped))
        if ip.is_reserved or ip.is_site_local or any(_forbidden(str(v4)) for v4 in _embedded_ipv4(ip)):
            return True
    return not ip.is_global or ip.is_multicast


def check_url(url: str, *, resolve: bool = True) -> tuple[str, int, str]:
    """(host, port, the address to connect to) for an http(s) URL webhooks may be sent to, or WebhookURLError.
    Without DIAMONDS_WEBHOOKS_ALLOW_PRIVATE, every address the host resolves to must be public."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookURLError(_("The URL must start with http:// or https:// and name a host."))
    if parts.username or parts.password:
        raise WebhookURLError(_("The URL must not contain a user name or password."))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as e:
        raise WebhookURLError(_("The URL's port is not a number.")) from e
    host = parts.hostname
    if not resolve:
        return host, port, host
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise WebhookURLError(_("The URL's host name could not be resolved.")) from e
    addresses = [str(info[4][0]) for info in infos]
    if not settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE and any(_forbidden(a) for a in addresses):
        raise WebhookURLError(_("The URL leads to a private, loopback or reserved address: webhooks are sent to "
                                "public addresses only."))
    return host, port, addresses[0]


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host, port, address, **kwargs):
        super().__init__(host, port, **kwargs)
        self._address = address

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host, port, address, **kwargs):
        context = ssl.create_default_context()
        super().__init__(host, port, context=context, **kwargs)
        self._address = address
        self._ssl_context = context

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._ssl_context.wrap_socket(sock, server_hostname=self.host)


@dataclass
class PostResult:
    status_code: int | None
    error: str

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float) -> PostResult:
    """POST `body` to `url` (checked again now: the name may resolve elsewhere since it was saved)."""
    try:
        host, port, address = check_url(url)
    except WebhookURLError as e:
        return PostResult(None, str(e))
    parts = urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    cls = _PinnedHTTPSConnection if parts.scheme == "https" else _PinnedHTTPConnection
    conn = cls(host, port, address, timeout=timeout)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json",
                                                        "User-Agent": USER_AGENT, **headers})
        response = conn.getresponse()
        response.read(64 * 1024)  # a little of the answer, then hang up: nobody reads it
        if 200 <= response.status < 300:
            return PostResult(response.status, "")
        return PostResult(response.status, f"HTTP {response.status} {response.reason}"[:300])
    except (OSError, http.client.HTTPException) as e:
        return PostResult(None, f"{type(e).__name__}: {e}"[:300])
    finally:
        conn.close()
