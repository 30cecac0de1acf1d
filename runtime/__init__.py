"""Django-level helpers the layers above the engine share at run time: rate limits and who the client is, the
fail-soft cache, the request's language, error pages, sign-in names for django-axes, static files under ASGI, the
ASGI handlers and the translation catalogues' checks. It imports Django and the engine, never league, workers, api,
web or config (settings name these classes by their dotted paths)."""
