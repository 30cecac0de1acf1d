"""The one page a refused request of the website gets: the site's error page with the reason, and its status (403 by
default; 404 for something the visitor may not even know exists)."""

from django.shortcuts import render


def refused_page(request, message: str, status: int = 403):
    return render(request, "web/error.html", {"message": message}, status=status)
