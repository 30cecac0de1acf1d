"""A claim code used at the same moment by two accounts, and two organisers adding the same guest at once, on
PostgreSQL (issue 28): the code is used once (its row is held), and the name is given once (the unique look-alike
key is the last word)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import ClaimCode, Player
from league.services import create_club
from league.services.roster import RosterError, add_guests, claim_guest, issue_claim_code
from tests.races import race, skip_unless_postgres

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()


@pytest.fixture(autouse=True)
def _postgres_only():
    skip_unless_postgres()


@pytest.mark.parametrize("attempt", range(3))
def test_a_claim_code_is_used_once_by_two_accounts_at_once(attempt):
    club = create_club(name=f"Club {attempt}")
    guest = add_guests(club=club, names=[f"Gina{attempt}"])[0]
    code = issue_claim_code(guest=guest, by=None)
    users = [User.objects.create_user(f"claimer-{attempt}-{i}") for i in range(3)]
    results = race(*(lambda u=u: claim_guest(user=u, code=code) for u in users))
    won = [r for r in results if isinstance(r, Player)]
    assert len(won) == 1, results
    assert all(isinstance(r, RosterError) for r in results if not isinstance(r, Player)), results
    claim = ClaimCode.objects.get()
    assert claim.used_by_id == won[0].user_id and Player.objects.filter(user__in=users).count() == 1


def test_the_same_guest_added_twice_at_once_is_added_once():
    club = create_club(name="Club")
    results = race(*(lambda: add_guests(club=club, names=["Gus"]) for _ in range(3)))
    assert Player.objects.filter(name="Gus").count() == 1
    assert sum(isinstance(r, list) for r in results) == 1, results
    assert all(isinstance(r, RosterError) for r in results if not isinstance(r, list)), results
