"""Rate limits on writes (DRF throttling): reads are not limited, every write is counted per account, and
decisions have their own, larger budget since a game is many of them. Rates come from settings
(REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]); past them the answer is a plain 429 with Retry-After."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import UserRateThrottle


class WriteThrottle(UserRateThrottle):
    scope = "writes"

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


class DecisionThrottle(WriteThrottle):
    scope = "decisions"
