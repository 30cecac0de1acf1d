"""The API's rate limits (DRF throttles), defined with the website's in runtime.throttling: reads are not limited,
every write is counted per account (or per client address without one), decisions have their own, larger budget
since a game is many of them, and token requests are also counted per client address. Every API view gets
WriteThrottle by default (REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]); past a limit the answer is a plain 429 with
Retry-After. Failed sign-ins lock an account and an address out for a while (django-axes, config/settings.py)."""

from __future__ import annotations

from runtime.throttling import DecisionLimit as DecisionThrottle
from runtime.throttling import SigninLimit as SigninThrottle
from runtime.throttling import WriteLimit as WriteThrottle

__all__ = ["DecisionThrottle", "SigninThrottle", "WriteThrottle"]
