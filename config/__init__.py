"""Django project configuration: settings from the environment, URL routes, WSGI and ASGI entry points."""
