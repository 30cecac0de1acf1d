"""The language switcher's view: Django's set_language (the choice kept in a cookie, back to the page it came
from), and for a signed-in person with a profile, the choice also kept as their profile's language, so that it
wins everywhere they sign in (runtime.language) instead of being overridden by it."""

from __future__ import annotations

from django.conf import settings
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language


@require_POST
def set_language(request):
    response = django_set_language(request)
    language = request.POST.get("language", "")
    profile = getattr(request.user, "profile", None) if request.user.is_authenticated else None
    if language in dict(settings.LANGUAGES) and profile is not None and hasattr(profile, "language"):
        profile.language = language
        profile.save(update_fields=["language"])
    return response
