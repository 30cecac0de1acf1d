"""With DEBUG off a missing page and a failing one are the site's own pages (web/templates/404.html, 500.html), not
Django's bare ones; the API keeps answering JSON."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_an_unknown_address_is_the_sites_404_page(client, settings):
    settings.DEBUG = False
    r = client.get("/no/such/page/")
    html = r.content.decode()
    assert r.status_code == 404
    assert "Page not found" in html and "Diamonds League" in html and "/no/such/page/" in html
    assert 'href="/"' in html or "Back to the home page" in html
    r = client.get("/ladders/999999/")
    assert r.status_code == 404 and "Page not found" in r.content.decode()


def test_the_api_still_answers_404_in_json(client, settings):
    settings.DEBUG = False
    r = client.get("/api/v1/matches/999999/")
    assert r.status_code == 404 and r["Content-Type"].startswith("application/json")


def test_a_failing_page_is_the_sites_500_page(settings):
    settings.DEBUG = False
    r = server_error(RequestFactory().get("/"))
    html = r.content.decode()
    assert r.status_code == 500 and "Something went wrong" in html and "Diamonds League" in html
    assert "site.css" in html
