"""Races on a club's organisers, on PostgreSQL (threads need connections of their own): two organisers removing
each other at the same moment leave the club one of them, never none; an invitation accepted twice at once makes
one organiser and is used once."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail

from league.models import ClubAdmin, InvitationStatus, OrganiserInvitation
from league.services import create_club
from league.services.organisers import OrganiserError, accept_invitation, invite_organiser, remove_organiser
from league.services.players import add_club_admin
from tests.races import race, skip_unless_postgres

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    skip_unless_postgres()


def test_two_organisers_removing_each_other_at_once_leave_one():
    """The last organiser, under a race: the club's row is locked, so the second removal sees the last one left."""
    User = get_user_model()
    club = create_club(name="Race Club")
    a, b = User.objects.create_user("a"), User.objects.create_user("b")
    add_club_admin(club=club, user=a)
    add_club_admin(club=club, user=b)
    results = race(lambda: remove_organiser(club=club, user=b, by=a), lambda: remove_organiser(club=club, user=a, by=b))
    refused = [r for r in results if isinstance(r, OrganiserError)]
    assert len(refused) == 1 and "last organiser" in str(refused[0]), results
    assert ClubAdmin.objects.filter(club=club).count() == 1


def test_an_invitation_accepted_twice_at_once_is_used_once():
    User = get_user_model()
    club = create_club(name="Race Club")
    olive = User.objects.create_user("olive")
    add_club_admin(club=club, user=olive)
    invite_organiser(club=club, email="carla@example.org", by=olive, site_url="http://testserver")
    token = re.search(r"/invitations/organise/([A-Za-z0-9_-]+)/", mail.outbox[-1].body).group(1)
    carla = User.objects.create_user("carla", email="carla@example.org")
    EmailAddress.objects.create(user=carla, email="carla@example.org", verified=True, primary=True)
    results = race(*(lambda: accept_invitation(token=token, user=carla) for _ in range(3)))
    assert not [r for r in results if isinstance(r, Exception)], results  # the same account: done, not refused
    assert ClubAdmin.objects.filter(club=club, user=carla).count() == 1
    invitation = OrganiserInvitation.objects.get()
    assert invitation.status == InvitationStatus.ACCEPTED and invitation.accepted_by == carla
