"""Fixtures for the API tests: accounts in their roles, and a live match with people, external bots and engine bots.

Live-play tests use the transactional database: a stored decision hands the engine bots' turns to the worker task
once its transaction commits (eager here), as in production.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from rest_framework.test import APIClient

from api.tokens import issue_token
from league.models import Match, MatchSeat, MatchStep
from league.services import create_bot_player, create_club, create_match, create_person_player
from league.services.accounts import mark_made_by_administrator
from league.services.decisions import advance_match
from league.services.players import add_club_admin, create_external_bot


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # test accounts only


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from runtime.throttling import STORE

    # The rate limits count in the cache (or, while it fails, in memory): every test starts with a full budget.
    cache.clear()
    STORE.clear_local()
    yield
    cache.clear()
    STORE.clear_local()


def client_for(user=None, token: str | None = None) -> APIClient:
    client = APIClient()
    if token:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    elif user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def accounts(db):
    """A club with an organiser, two people, two external bots (with tokens), an engine bot, a staff user and an
    outsider; each with an API client. The people's accounts are made as an administrator makes them (verified
    without an email address: league.selectors.accounts.verified)."""
    User = get_user_model()
    club = create_club(name="Diamond Club")
    organiser = User.objects.create_user("olga", password="pw-olga-123")
    add_club_admin(club=club, user=organiser)
    staff = User.objects.create_user("sam", password="pw-sam-123", is_staff=True)
    ann_user = User.objects.create_user("ann", password="pw-ann-123")
    bob_user = User.objects.create_user("bob", password="pw-bob-123")
    outsider = User.objects.create_user("otto", password="pw-otto-123")
    for made in (organiser, ann_user, bob_user, outsider):  # accounts an administrator made, not sign-ups
        mark_made_by_administrator(made)
    ann = create_person_player(user=ann_user, name="ann", clubs=[club])
    bob = create_person_player(user=bob_user, name="bob", clubs=[club])
    ext1 = create_external_bot(name="ext-1", clubs=[club])
    ext2 = create_external_bot(name="ext-2", clubs=[club])
    greedy = create_bot_player(name="greedy-1", kind="greedy", clubs=[club])
    rnd = create_bot_player(name="random-1", kind="random", clubs=[club])
    tokens = {"ext-1": issue_token(ext1.user), "ext-2": issue_token(ext2.user)}
    return {
        "club": club, "organiser": organiser, "staff": staff, "outsider": outsider,
        "players": {"ann": ann, "bob": bob, "ext-1": ext1, "ext-2": ext2, "greedy-1": greedy, "random-1": rnd},
        "tokens": tokens,
        "clients": {
            "ann": client_for(ann_user), "bob": client_for(bob_user), "ext-1": client_for(token=tokens["ext-1"]),
            "ext-2": client_for(token=tokens["ext-2"]), "organiser": client_for(organiser),
            "staff": client_for(staff), "outsider": client_for(outsider), "anon": APIClient(),
        },
    }


SIGNUP_PASSWORD = "a-Long-pass-phrase-42"


def signed_up(username: str):
    """An account made as a person makes one, through POST /api/v1/auth/signup/, its address not confirmed yet; with
    an API client holding its token (which a new account gets at once)."""
    body = {"username": username, "email": f"{username}@example.com", "password": SIGNUP_PASSWORD}
    assert APIClient().post("/api/v1/auth/signup/", body, format="json").status_code == 202
    token = APIClient().post("/api/v1/auth/token/", {"username": username, "password": SIGNUP_PASSWORD},
                             format="json").json()["token"]
    return get_user_model().objects.get(username=username), client_for(token=token)


def confirm_address(username: str) -> None:
    """Follow the confirmation link of the latest email to the account's address, as its owner would."""
    sent = [m for m in mail.outbox if m.to == [f"{username}@example.com"]]
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", sent[-1].body).group(1)
    assert APIClient().post(link).status_code == 302


def live_match(accounts, seats: list[str], ruleset: dict | None = None, seed: str = "live-seed", **deadline) -> Match:
    """A started match with the named players at seats 0.. in order (engine bots played up to a person's turn)."""
    players = [accounts["players"][name] for name in seats]
    match = create_match(players=players, ruleset={"players": len(players), **(ruleset or {})}, seed=seed,
                         club=accounts["club"])
    if deadline:
        Match.objects.filter(pk=match.pk).update(**deadline)
    advance_match(match_id=match.pk)
    match.refresh_from_db()
    return match


def snapshot(match: Match) -> dict:
    """Everything stored about a match's play, to check that a refused request changed nothing."""
    m = Match.objects.get(pk=match.pk)
    return {
        "match": (m.status, m.move_number, m.result, m.deadline_at, m.updated_at),
        "seats": list(MatchSeat.objects.filter(match=m).order_by("seat").values_list("seat", "awaiting", "score")),
        "play": (bytes(m.moves), [(first, bytes(choices)) for first, choices in MatchStep.objects.filter(match=m)
                                  .order_by("first").values_list("first", "choices")]),
    }
