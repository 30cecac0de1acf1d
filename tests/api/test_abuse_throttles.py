"""Throttles that can't be dodged and don't break (issue 15, "Password guessing"): 140 token guesses each with its
own X-Forwarded-For all got 400; the website took 150 wrong passwords, then the right one; /play/ made 130 tables in
3 s; and the limits must hold when the cache is down."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory, override_settings
from rest_framework.test import APIClient

from league.models import Match
from runtime.client_address import client_ip

TOKEN = "/api/v1/auth/token/"


def guess(client, password: str, username: str = "ann", **extra) -> int:
    return client.post(TOKEN, {"username": username, "password": password}, format="json", **extra).status_code


# ---- who the client is ---------------------------------------------------------------------------------------------
def test_the_client_address_ignores_forwarded_headers_unless_the_proxy_is_trusted(settings):
    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="1.2.3.4")
    settings.DIAMONDS_TRUSTED_PROXIES = []
    assert client_ip(request) == "203.0.113.9"
    settings.DIAMONDS_TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_ip(request) == "203.0.113.9"  # not from our proxy: its header is anyone's
    behind = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7, 10.0.0.5")
    # Read from the right: the first hop our own proxies did not add is the client (6.6.6.6 is what it claimed).
    assert client_ip(behind) == "198.51.100.7"
    garbled = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="not-an-address")
    assert client_ip(garbled) == "10.0.0.2"
    assert client_ip(RequestFactory().get("/", REMOTE_ADDR="")) is None  # e.g. a Unix socket: no address to store


# ---- the token endpoint ---------------------------------------------------------------------------------------------
def test_guesses_with_a_new_x_forwarded_for_each_are_still_locked_out(accounts, settings):
    settings.DIAMONDS_RATE_LIMITS = {**settings.DIAMONDS_RATE_LIMITS, "signin": "1000/min"}  # axes alone here
    client = APIClient()
    codes = [guess(client, f"wrong-{i}", HTTP_X_FORWARDED_FOR=f"10.9.{i // 250}.{i % 250}") for i in range(140)]
    assert codes.count(400) < settings.AXES_FAILURE_LIMIT  # the failures up to the lockout
    assert set(codes[settings.AXES_FAILURE_LIMIT:]) == {429}
    # Locked out: the right password is refused too, from any claimed address.
    response = client.post(TOKEN, {"username": "ann", "password": "pw-ann-123"}, format="json",
                           HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert response.status_code == 429 and "token" not in response.json() and response["Retry-After"]


def test_a_lockout_holds_the_pair_of_username_and_address_only(accounts, settings):
    """Ten wrong passwords for ann from one address lock ann out there only: not ann from another address (nobody
    can lock a rival out before a round), nor bob at the same address (a club's venue is one address)."""
    settings.DIAMONDS_RATE_LIMITS = {**settings.DIAMONDS_RATE_LIMITS, "signin": "1000/min"}
    settings.DIAMONDS_TRUSTED_PROXIES = ["127.0.0.1"]  # so that each client below is a different address
    venue, home = "203.0.113.50", "198.51.100.7"
    codes = [guess(APIClient(), "wrong", HTTP_X_FORWARDED_FOR=venue) for _ in range(settings.AXES_FAILURE_LIMIT)]
    assert set(codes[:-1]) == {400}  # wrong passwords, up to the lockout
    assert guess(APIClient(), "pw-ann-123", HTTP_X_FORWARDED_FOR=venue) == 429  # ann, there: locked out
    assert guess(APIClient(), "pw-ann-123", HTTP_X_FORWARDED_FOR=home) == 200  # ann, from elsewhere
    assert guess(APIClient(), "pw-bob-123", username="bob", HTTP_X_FORWARDED_FOR=venue) == 200  # bob, there
    # The same for the website's sign-in.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post("/accounts/login/", {"login": "bob", "password": "wrong"}, HTTP_X_FORWARDED_FOR=venue)
    assert Client().post("/accounts/login/", {"login": "bob", "password": "pw-bob-123"},
                         HTTP_X_FORWARDED_FOR=venue).status_code == 429
    assert Client().post("/accounts/login/", {"login": "bob", "password": "pw-bob-123"},
                         HTTP_X_FORWARDED_FOR=home).status_code == 302
    assert Client().post("/accounts/login/", {"login": "olga", "password": "pw-olga-123"},
                         HTTP_X_FORWARDED_FOR=venue).status_code == 302  # ann and bob are locked out there


def test_one_address_trying_many_usernames_is_bounded_by_the_per_address_rate(accounts, settings):
    settings.DIAMONDS_RATE_LIMITS = {**settings.DIAMONDS_RATE_LIMITS, "signin": "12/min"}
    settings.DIAMONDS_TRUSTED_PROXIES = ["127.0.0.1"]
    codes = [guess(APIClient(), "wrong", username=f"user-{i}", HTTP_X_FORWARDED_FOR="203.0.113.50")
             for i in range(15)]
    assert codes[:12] == [400] * 12 and codes[12:] == [429] * 3
    assert guess(APIClient(), "pw-bob-123", username="bob", HTTP_X_FORWARDED_FOR="198.51.100.9") == 200


def test_token_requests_are_paced_per_address_whatever_the_username(accounts, settings):
    settings.DIAMONDS_RATE_LIMITS = {**settings.DIAMONDS_RATE_LIMITS, "signin": "5/min"}
    codes = [guess(APIClient(), "wrong", username=f"nobody-{i}", HTTP_X_FORWARDED_FOR=f"1.1.1.{i}")
             for i in range(8)]
    assert codes[:5] == [400] * 5 and codes[5:] == [429] * 3


# ---- the website ----------------------------------------------------------------------------------------------------
def test_the_website_login_locks_out_after_failures_even_for_the_right_password(accounts, settings):
    settings.DIAMONDS_RATE_LIMITS = {**settings.DIAMONDS_RATE_LIMITS, "signin": "1000/min"}
    browser = Client()
    codes = [browser.post("/accounts/login/", {"login": "ann", "password": f"wrong-{i}"}).status_code
             for i in range(150)]
    assert codes.count(200) <= settings.AXES_FAILURE_LIMIT and codes[-1] == 429  # 200: the form again, with errors
    right = browser.post("/accounts/login/", {"login": "ann", "password": "pw-ann-123"})
    assert right.status_code == 429 and "_auth_user_id" not in browser.session


def test_the_website_login_is_paced_per_address(accounts, settings):
    settings.DIAMONDS_RATE_LIMITS = {**settings.DIAMONDS_RATE_LIMITS, "signin": "3/min"}
    codes = [Client().post("/accounts/login/", {"login": f"u{i}", "password": "x"},
                           HTTP_X_FORWARDED_FOR=f"5.5.5.{i}").status_code for i in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    assert Client().get("/accounts/login/").status_code == 200  # reading the form is not an attempt


def test_play_creates_a_bounded_number_of_tables(accounts, settings):
    settings.DIAMONDS_RATE_LIMITS = {**settings.DIAMONDS_RATE_LIMITS, "tables": "5/min"}
    browser = Client()
    browser.force_login(get_user_model().objects.get(username="ann"))
    before = Match.objects.count()
    codes = [browser.post("/play/", {"game": "diamonds", "rounds": 1, "bots": "random"}).status_code
             for _ in range(12)]
    assert codes[:5] == [302] * 5 and codes[5:] == [429] * 7
    assert Match.objects.count() - before == 5
    assert browser.get("/play/").status_code == 200  # the form still shows


# ---- when the cache is down ----------------------------------------------------------------------------------------
DEAD_REDIS = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": "redis://127.0.0.1:1/0"}}  # nothing listens on port 1


def test_throttles_hold_without_500_when_the_cache_is_down(accounts, settings):
    from .conftest import live_match

    match = live_match(accounts, ["ann", "bob"], {"players": 2})
    settings.DIAMONDS_RATE_LIMITS = {**settings.DIAMONDS_RATE_LIMITS, "decisions": "3/min", "signin": "1000/min"}
    ann = accounts["clients"]["ann"]
    with override_settings(CACHES=DEAD_REDIS):
        codes = [ann.post(f"/api/v1/matches/{match.pk}/decisions/", {"move_number": 99, "decision": {
            "kind": "pass_count", "count": 1}}, format="json").status_code for _ in range(5)]
        assert codes == [409, 409, 409, 429, 429]
        # Sign-in lockouts are counted in the database: they hold too.
        tries = [guess(APIClient(), "wrong") for _ in range(settings.AXES_FAILURE_LIMIT + 1)]
        assert tries[-1] == 429 and guess(APIClient(), "pw-ann-123") == 429


def test_every_api_view_counts_its_writes():
    """Each route's view has a rate limit that counts writes (DEFAULT_THROTTLE_CLASSES, unless it names its own)."""
    from django.urls import URLPattern, URLResolver, get_resolver

    from runtime.throttling import RateLimit

    def views(patterns):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from views(p.url_patterns)
            elif isinstance(p, URLPattern) and hasattr(p.callback, "cls"):
                yield p.callback

    seen = 0
    for callback in views(get_resolver().url_patterns):
        if not callback.cls.__module__.startswith("api."):
            continue
        view = callback.cls(**getattr(callback, "initkwargs", {}) or {})
        assert any(isinstance(t, RateLimit) and t.writes_only for t in view.get_throttles()), callback.cls
        seen += 1
    assert seen > 10


def test_concurrent_requests_cannot_slip_past_the_count(db):
    """Each request is one atomic increment: 20 threads counting 10 each leave exactly 200 (a read-then-write
    history, as DRF's throttles keep, loses some of them)."""
    import threading

    from runtime.throttling import STORE

    key = "rl:test:concurrent"

    def count():
        for _ in range(10):
            STORE.incr(key, ttl=60)

    threads = [threading.Thread(target=count) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert STORE.get(key) == 200
