"""API routes. A placeholder: the API's views are still to be written."""

urlpatterns: list = []
