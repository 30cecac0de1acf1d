"""The language a request is answered in.

Django's LocaleMiddleware picks it from the language switcher's cookie or the browser's Accept-Language;
`ProfileLanguageMiddleware` then lets a signed-in person's own choice (`user.profile.language`: "", "en" or "fr")
win over both, so their pages read the same on every device. "" means "follow the browser".
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin


def profile_language(user) -> str:
    """The person's chosen language code, or "" when they chose none (or have no profile). Read defensively: the
    profile and its `language` field may not exist on this installation, and a bot or anonymous user has none."""
    if not getattr(user, "is_authenticated", False):
        return ""
    try:
        language = getattr(getattr(user, "profile", None), "language", "") or ""
    except Exception:  # noqa: BLE001 - no profile row (RelatedObjectDoesNotExist) or no table yet: follow the browser
        return ""
    return language if language in dict(settings.LANGUAGES) else ""


class ProfileLanguageMiddleware(MiddlewareMixin):
    """After AuthenticationMiddleware: activates the signed-in person's profile language, if they chose one.
    (MiddlewareMixin runs process_request in a thread under ASGI, where reading the profile queries the database.)"""

    def process_request(self, request):
        language = profile_language(getattr(request, "user", None))
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
