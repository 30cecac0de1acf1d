"""The site's stylesheet: one class per look, so styling one thing cannot recolour another (issue 28: the header's
unread-notifications count was styled as `.badge`, which turned the table's Dealer and Thief markers into red
pills)."""

import re
from pathlib import Path

import pytest

import web

CSS = re.sub(r"/\*.*?\*/", "", (Path(web.__file__).parent / "static" / "web" / "site.css").read_text(encoding="utf-8"),
             flags=re.S)


def rules_for(selector: str) -> list[str]:
    """The bodies of the rules whose selector list names `selector` exactly (not `.badges`, not `.badge.thief`)."""
    found = []
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", CSS):
        names = [s.strip() for s in selectors.split(",")]
        if selector in names:
            found.append(body)
    return found


def test_the_games_markers_are_not_restyled_by_the_unread_count():
    # One rule styles the markers (with .tag); before, a second one further down made every .badge a red pill.
    assert len(rules_for(".badge")) == 1
    assert any("background" in body for body in rules_for(".unread-count"))


@pytest.mark.django_db
def test_the_header_count_uses_its_own_class(client):
    from django.contrib.auth.models import User

    user = User.objects.create_user("reader", password="pw-site-css-1")
    client.force_login(user)
    page = client.get("/").content.decode()
    assert 'class="unread-count"' in page and 'class="badge"' not in page
