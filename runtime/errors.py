"""Error pages: under /api/ a JSON body that says what went wrong ({"detail": ...}), as DRF answers its own errors,
so that a client gets JSON for a URL no view matched (a non-numeric id) or a failure outside DRF; the website keeps
Django's pages."""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext
from django.views import defaults


def _api(request) -> bool:
    return request.path.startswith("/api/")


def not_found(request, exception=None):
    if _api(request):
        return JsonResponse({"detail": gettext("Not found."), "code": "not_found"}, status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request, exception=None):
    if _api(request):
        return JsonResponse({"detail": gettext("Bad request."), "code": "bad_request"}, status=400)
    return defaults.bad_request(request, exception)


def forbidden(request, exception=None):
    if _api(request):
        return JsonResponse({"detail": gettext("Forbidden."), "code": "permission_denied"}, status=403)
    return defaults.permission_denied(request, exception)


def server_error(request):
    if _api(request):
        return JsonResponse({"detail": gettext("Server error."), "code": "error"}, status=500)
    return defaults.server_error(request)
