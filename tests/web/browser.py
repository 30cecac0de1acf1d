"""A real headless Chromium for end-to-end tests: Debian's /usr/bin/chromium driven by Playwright (never a browser
Playwright downloads), and a live server whose requests take turns when the test database is in-memory SQLite.

Without the browser the tests skip with the reason on a laptop, and FAIL under CI (env CI set), where a silent
skip would hide a broken set-up.
"""

from __future__ import annotations

import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the end-to-end tests must run; .ci/run installs chromium)")
    pytest.skip(reason)


@pytest.fixture
def chromium(transactional_db, monkeypatch):
    """The browser, started after the test database is ready and closed before it is flushed: Django's calls in
    between run while Playwright's event loop is about, and a connection opened then would outlive the test."""
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        unavailable(f"no Chromium at {CHROMIUM}: apt-get install chromium to run the end-to-end tests")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed: pip install -e '.[dev]'")
    # Playwright's sync API keeps an event loop running in this thread, which makes Django refuse database calls
    # here ("async context"). The test's own calls are plain synchronous ones, so allow them while the browser runs.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class _OneAtATime:
    """A WSGI app that serves one request at a time, reading the whole response inside the lock."""

    def __init__(self, app, lock: threading.Lock):
        self.app, self.lock = app, lock

    def __call__(self, environ, start_response):
        with self.lock:
            result = self.app(environ, start_response)
            try:
                return [b"".join(result)]
            finally:
                if hasattr(result, "close"):
                    result.close()


@pytest.fixture
def site_server(transactional_db, live_server):
    """The live server, and a context manager for the test's own database reads while the browser is busy.

    With in-memory SQLite the server's request threads and the test share one connection (pytest-django passes it
    to the server), and two requests using it at once would break each other's transactions; so then every request,
    and the test's reads, take one lock. PostgreSQL gives each thread its own connection: no lock needed."""
    from django.db import connection

    lock = threading.Lock()
    httpd = live_server.thread.httpd
    original = httpd.get_app()
    shared = connection.vendor == "sqlite" and connection.is_in_memory_db()
    if shared:
        httpd.set_app(_OneAtATime(original, lock))

    @contextmanager
    def quiet():
        if shared:
            with lock:
                yield
        else:
            yield

    try:
        yield live_server, quiet
    finally:
        httpd.set_app(original)


def shoot(page, name: str) -> None:
    """Screenshots of the page at desktop and phone width, for people to look at (artifacts/, not committed)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{label}.png"), full_page=True)
        # Usable at that width: nothing sticks out sideways (wide tables scroll inside their own box).
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{name} is {overflow}px wider than a {label} screen"
    page.set_viewport_size(DESKTOP)


# WCAG 2.0 and 2.1, levels A and AA: what axe-core checks on a page (issue 28: no violation on the new pages).
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def assert_accessible(page, name: str) -> None:
    """Run axe-core (axe-playwright-python bundles it) on the page as it stands; fail naming every violation, its
    impact and the first elements it found."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_AA}, "resultTypes": ["violations"]})
    found = [f"{v['id']} ({v['impact']}): {v['help']}; at {[n['target'] for n in v['nodes'][:3]]}"
             for v in results.response["violations"]]
    assert not found, f"{name}: " + "\n".join(found)
