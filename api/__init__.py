"""The REST API (Django REST Framework): serializers, views, urls, permissions. Thin over league services."""
