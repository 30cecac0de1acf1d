"""URL routes: the admin, the API (built in api/), the OpenAPI schema with its docs, the health check, and the
website (web/)."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from .health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file of its own: no inline script (the CSP, settings).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    # Redoc's bundle renders from a worker it starts from a blob: allowed on this page only.
    path("api/redoc/", csp_update({"worker-src": ["'self'", "blob:"]})(SpectacularRedocView.as_view(url_name="schema")),
         name="api-redoc"),
    path("healthz", healthz, name="healthz"),
    path("", include("web.urls")),
    # django-allauth's account pages (sign up, email verification, password reset); web.urls serves its sign-in.
    path("accounts/", include("allauth.urls")),
]

handler400 = "runtime.errors.bad_request"
handler403 = "runtime.errors.forbidden"
handler404 = "runtime.errors.not_found"
handler500 = "runtime.errors.server_error"
