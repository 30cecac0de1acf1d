"""The OpenAPI schema's generator: drf-spectacular's, told which operations anyone may call without credentials
(it recognises only DRF's own AllowAny and IsAuthenticatedOrReadOnly), so the schema says so and a client or a
fuzzer knows that no credentials is a valid way to call them."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework.permissions import SAFE_METHODS

from .permissions import IsStaffForWrites, ReadOnlyOrAuthenticated

OPEN_FOR_READS = (ReadOnlyOrAuthenticated, IsStaffForWrites)


class AutoSchema(SpectacularAutoSchema):
    def get_auth(self):
        auths = super().get_auth()
        perms = self.view.get_permissions()
        anonymous = not perms or (self.method in SAFE_METHODS and all(isinstance(p, OPEN_FOR_READS) for p in perms))
        if anonymous and {} not in auths:
            auths.append({})
        return auths
