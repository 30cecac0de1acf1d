"""Who is asking, by network address: the one place that reads a request's client address, for every rate limit
(the API's throttles, the website's, django-axes' sign-in lockout).

A proxy's `X-Forwarded-For` is believed only when the request came from a proxy named in DIAMONDS_TRUSTED_PROXIES
(addresses or networks; none by default). Anyone can send the header, so without that setting a guesser who
changed it on every try would be a new client each time.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)


def _is_trusted(address: str, networks) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def _valid(address: str) -> str | None:
    try:
        return str(ipaddress.ip_address(address.strip()))
    except ValueError:
        return None


def client_ip(request) -> str | None:
    """The client's address: REMOTE_ADDR, unless that is a trusted proxy; then the nearest address in
    X-Forwarded-For (read from the right, the end our own proxies appended) that is not one of ours. None when
    there is no valid address (a server on a Unix socket, a test request): django-axes stores it in an address
    column."""
    remote = _valid(request.META.get("REMOTE_ADDR") or "")
    networks = _networks(tuple(settings.DIAMONDS_TRUSTED_PROXIES))
    if remote is None or not networks or not _is_trusted(remote, networks):
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, networks):
            # A garbled hop: count the request against the proxy rather than a client made up by the header.
            return _valid(hop) or remote
    return remote
