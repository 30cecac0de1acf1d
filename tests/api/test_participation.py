"""People on their own over the API: POST /api/v1/auth/signup/ (and a token for the new account), the profile, my
matches, joining clubs (open and on request, with the organisers' answers), entering and leaving tournaments and
ladders; each only for oneself, and every bad input a 4xx in the Error shape that changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from league.models import LadderEntry, Membership, MembershipRequest, Player, Profile, TournamentEntry
from league.services import create_tournament, register_players, start_tournament
from league.services.ladders import create_ladder

from .conftest import client_for

SIGNUP = "/api/v1/auth/signup/"
TOKEN = "/api/v1/auth/token/"
PASSWORD = "a-Long-pass-phrase-42"


def sign_up(client=None, **fields):
    body = {"username": "newt", "email": "newt@example.com", "password": PASSWORD, **fields}
    return (client or APIClient()).post(SIGNUP, body, format="json")


def error_shape(response) -> dict:
    body = response.json()
    assert isinstance(body.get("detail"), str) and isinstance(body.get("code"), str), body
    return body


def test_signup_makes_account_profile_player_and_sends_the_verification(accounts):
    response = sign_up()
    assert response.status_code == 202, response.content
    user = get_user_model().objects.get(username="newt")
    assert user.check_password(PASSWORD) and Profile.objects.filter(user=user).exists()
    assert Player.objects.get(user=user).name == "newt"
    assert EmailAddress.objects.get(user=user, email="newt@example.com").verified is False
    assert len(mail.outbox) == 1 and "/accounts/confirm-email/" in mail.outbox[0].body

    # A token at once (documented): the account can read, but takes part only once its address is confirmed.
    token = APIClient().post(TOKEN, {"username": "newt", "password": PASSWORD}, format="json")
    assert token.status_code == 200
    client = client_for(token=token.json()["token"])
    assert client.get("/api/v1/me/profile/").json()["email_verified"] is False
    refused = client.post(f"/api/v1/clubs/{accounts['club'].pk}/join/")
    assert refused.status_code == 403 and "Confirm your email" in error_shape(refused)["detail"]
    t = create_tournament(name="Open", rounds=1, ruleset={"rounds": 1})
    assert client.post(f"/api/v1/tournaments/{t.pk}/enter/").status_code == 403
    assert not t.entries.exists()

    link = re.search(r"https?://[^/\s]+(/\S+)", mail.outbox[0].body).group(1)
    APIClient().post(link)  # the link from the email, confirmed
    assert client.get("/api/v1/me/profile/").json()["email_verified"] is True
    assert client.post(f"/api/v1/tournaments/{t.pk}/enter/").status_code == 201


@pytest.mark.parametrize("fields, field", [
    ({"email": "not-an-address"}, "email"),
    ({"password": "short"}, "password"),
    ({"password": "password123"}, "password"),  # a common one (Django's validators)
    ({"username": "ann"}, "username"),  # an account's
    ({"username": "greedy-1"}, "username"),  # a bot player's name
    ({"username": "no spaces!"}, "username"),
    ({"username": ""}, "username"),
])
def test_signup_refuses_bad_fields_naming_them(accounts, fields, field):
    before = get_user_model().objects.count()
    response = sign_up(**fields)
    assert response.status_code == 400, response.content
    assert field in error_shape(response).get("errors", {})
    assert get_user_model().objects.count() == before and mail.outbox == []


def test_signup_refuses_a_non_object_body(accounts):
    before = get_user_model().objects.count()
    assert APIClient().post(SIGNUP, [1, 2], format="json").status_code == 400
    assert get_user_model().objects.count() == before and mail.outbox == []


def test_signup_with_an_address_in_use_answers_as_a_new_one_and_emails_its_owner(accounts):
    """Finding (issue 27, sign-up): sign-up answered "A user is already registered with this email address", which
    tells anyone who has an account. Now an address in use gets the very answer a new one gets, makes no account, and
    its owner is emailed that someone tried (allauth's enumeration prevention)."""
    assert sign_up().status_code == 202
    mail.outbox.clear()
    answers = [sign_up(username="nell", email="nell@example.com"), sign_up(username="newt2", email="newt@example.com")]
    assert mail.outbox[0].to == ["nell@example.com"] and len(mail.outbox) == 1  # newt was emailed a moment ago
    cache.clear()  # allauth's pace of emails per address, counted in the cache: as if some minutes went by
    answers.append(sign_up(username="newt3", email="Newt@Example.com"))  # the address in use, in other letters
    fresh = answers[0]
    for taken in answers[1:]:
        assert taken.status_code == fresh.status_code == 202
        assert taken.content == fresh.content
        assert sorted(taken.headers) == sorted(fresh.headers) and sorted(taken.cookies) == sorted(fresh.cookies)
    assert not get_user_model().objects.filter(username__in=["newt2", "newt3"]).exists()
    assert EmailAddress.objects.filter(email="newt@example.com").count() == 1
    to_nell, to_newt = mail.outbox
    assert "/accounts/confirm-email/" in to_nell.body
    assert to_newt.to == ["newt@example.com"] and "Account Already Exists" in to_newt.subject
    assert "/accounts/password/reset/" in to_newt.body and "/accounts/confirm-email/" not in to_newt.body


def test_signup_is_throttled_per_address(accounts, settings):
    settings.DIAMONDS_RATE_LIMITS = {**settings.DIAMONDS_RATE_LIMITS, "signin": "3/min"}
    codes = [sign_up(username=f"u{i}", email=f"u{i}@example.com").status_code for i in range(5)]
    assert codes[:3] == [202] * 3 and codes[3:] == [429, 429]
    assert not get_user_model().objects.filter(username="u4").exists()


def test_profile_patch_and_its_refusals(accounts):
    ann = accounts["clients"]["ann"]
    body = ann.patch("/api/v1/me/profile/", {"display_name": "Ann B", "language": "fr",
                                             "email_notifications": False}, format="json").json()
    # Ann's account is an administrator's: no confirmed address, and the profile says which fact verifies her.
    assert body == {"display_name": "Ann B", "language": "fr", "email_notifications": False, "email_verified": False,
                    "made_by_administrator": True}
    assert Player.objects.get(pk=accounts["players"]["ann"].pk).name == "Ann B"
    taken = ann.patch("/api/v1/me/profile/", {"display_name": "bob"}, format="json")
    assert taken.status_code == 409 and error_shape(taken)
    bad = ann.patch("/api/v1/me/profile/", {"language": "xx"}, format="json")
    assert bad.status_code == 400 and "language" in error_shape(bad)["errors"]
    assert Profile.objects.get(user__username="ann").language == "fr"
    assert accounts["clients"]["anon"].get("/api/v1/me/profile/").status_code in (401, 403)


def test_club_join_open_and_on_request_with_accept_and_decline(accounts):
    club = accounts["club"]
    outsider = accounts["clients"]["outsider"]
    joined = outsider.post(f"/api/v1/clubs/{club.pk}/join/")
    assert joined.status_code == 201 and joined.json()["member"] is True
    assert outsider.post(f"/api/v1/clubs/{club.pk}/join/").status_code == 409  # already a member
    assert outsider.post(f"/api/v1/clubs/{club.pk}/leave/").status_code == 200
    assert outsider.post(f"/api/v1/clubs/{club.pk}/leave/").status_code == 409  # no longer one

    club.membership = Membership.REQUEST
    club.save()
    asked = outsider.post(f"/api/v1/clubs/{club.pk}/join/")
    assert asked.status_code == 202 and asked.json()["request"]["status"] == "pending"
    rid = asked.json()["request"]["id"]
    otto = Player.objects.get(user__username="otto")
    assert not otto.clubs.exists()
    # The old members endpoint keeps to the policy too: a person's own request waits for an answer.
    assert outsider.post(f"/api/v1/clubs/{club.pk}/members/", {"player": otto.pk}, format="json"
                         ).status_code == 202
    assert MembershipRequest.objects.filter(player=otto, status="pending").count() == 1

    # Only organisers list and answer requests.
    ann = accounts["clients"]["ann"]
    assert ann.get(f"/api/v1/clubs/{club.pk}/requests/").json() == []  # others' requests are the organisers'
    assert [r["status"] for r in outsider.get(f"/api/v1/clubs/{club.pk}/requests/").json()] == ["pending"]
    assert accounts["clients"]["anon"].get(f"/api/v1/clubs/{club.pk}/requests/").json() == []
    assert ann.post(f"/api/v1/clubs/{club.pk}/requests/{rid}/accept/").status_code == 403
    organiser = accounts["clients"]["organiser"]
    assert [r["player_name"] for r in organiser.get(f"/api/v1/clubs/{club.pk}/requests/").json()] == ["otto"]
    accepted = organiser.post(f"/api/v1/clubs/{club.pk}/requests/{rid}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert otto.clubs.filter(pk=club.pk).exists()
    assert organiser.post(f"/api/v1/clubs/{club.pk}/requests/{rid}/decline/").status_code == 409  # answered
    assert organiser.post(f"/api/v1/clubs/{club.pk}/requests/999999/accept/").status_code == 409
    assert organiser.post(f"/api/v1/clubs/999999/requests/{rid}/accept/").status_code == 404

    outsider.post(f"/api/v1/clubs/{club.pk}/leave/")
    rid = outsider.post(f"/api/v1/clubs/{club.pk}/join/").json()["request"]["id"]
    assert organiser.post(f"/api/v1/clubs/{club.pk}/requests/{rid}/decline/").json()["status"] == "declined"
    assert not otto.clubs.exists()


def test_a_bots_token_cannot_join_or_enter_as_a_person(accounts):
    ext = accounts["clients"]["ext-1"]
    assert ext.post(f"/api/v1/clubs/{accounts['club'].pk}/join/").status_code == 403
    t = create_tournament(name="Open", rounds=1, ruleset={"rounds": 1})
    assert ext.post(f"/api/v1/tournaments/{t.pk}/enter/").status_code == 403
    assert not Player.objects.filter(user=accounts["players"]["ext-1"].user, bot_kind="").exists()


def test_an_unverified_account_joins_no_club_by_registering_a_player_either(accounts):
    """Issue 27 (verification, every route): POST /players/ with `kind: person` and a `club` joined that club at
    once; an unverified account was let through. It is refused as POST clubs/{id}/join/ refuses it."""
    sign_up()
    token = APIClient().post(TOKEN, {"username": "newt", "password": PASSWORD}, format="json").json()["token"]
    club = accounts["club"]
    r = client_for(token=token).post("/api/v1/players/", {"kind": "person", "username": "newt", "name": "newt-two",
                                                          "club": club.pk}, format="json")
    assert r.status_code == 403 and "Confirm your email" in error_shape(r)["detail"]
    assert not club.players.filter(user__username="newt").exists()
    assert not Player.objects.filter(name="newt-two").exists()


def test_tournament_self_entry_windows(accounts, django_capture_on_commit_callbacks):
    club = accounts["club"]
    ann, bob, otto = (accounts["clients"][n] for n in ("ann", "bob", "outsider"))
    soon = create_tournament(name="Soon", rounds=1, ruleset={"rounds": 1}, club=club,
                             registration_closes_at=timezone.now() + timedelta(hours=1))
    entered = ann.post(f"/api/v1/tournaments/{soon.pk}/enter/")
    assert entered.status_code == 201 and entered.json()["player"]["name"] == "ann"
    assert ann.post(f"/api/v1/tournaments/{soon.pk}/enter/").status_code == 409  # already entered
    assert ann.post(f"/api/v1/tournaments/{soon.pk}/leave/").json()["entry"] == "removed"
    assert ann.post(f"/api/v1/tournaments/{soon.pk}/leave/").status_code == 409  # not in it any more

    past = create_tournament(name="Past", rounds=1, ruleset={"rounds": 1}, club=club,
                             registration_closes_at=timezone.now() - timedelta(seconds=1))
    closed = ann.post(f"/api/v1/tournaments/{past.pk}/enter/")
    assert closed.status_code == 409 and "closed" in error_shape(closed)["detail"]
    # The entries endpoint keeps the same window for a person entering themselves...
    ann_id = accounts["players"]["ann"].pk
    assert ann.post(f"/api/v1/tournaments/{past.pk}/entries/", {"players": [ann_id]}, format="json"
                    ).status_code == 409
    # ...while the organisers may still register until the start.
    greedy = accounts["players"]["greedy-1"]
    assert accounts["clients"]["organiser"].post(f"/api/v1/tournaments/{past.pk}/entries/",
                                                 {"players": [greedy.pk]}, format="json").status_code == 201
    assert not past.entries.filter(player_id=ann_id).exists()

    members = create_tournament(name="Members", rounds=1, ruleset={"rounds": 1}, club=club, members_only=True)
    assert otto.post(f"/api/v1/tournaments/{members.pk}/enter/").status_code == 403
    anyone = create_tournament(name="Anyone", rounds=1, ruleset={"rounds": 1}, club=club)
    assert otto.post(f"/api/v1/tournaments/{anyone.pk}/enter/").status_code == 201

    running = create_tournament(name="Running", rounds=2, ruleset={"rounds": 1}, club=club, auto_advance=False)
    register_players(tournament=running, players=[accounts["players"][n] for n in ("greedy-1", "random-1", "ann",
                                                                                   "bob")])
    with django_capture_on_commit_callbacks(execute=True):
        start_tournament(tournament=running)
    assert otto.post(f"/api/v1/tournaments/{running.pk}/enter/").status_code == 409
    assert bob.post(f"/api/v1/tournaments/{running.pk}/leave/").json()["entry"] == "withdrawn"
    assert TournamentEntry.objects.get(tournament=running, player__name="bob").active is False
    assert bob.post(f"/api/v1/tournaments/{running.pk}/enter/").status_code == 409  # withdrawn: no way back in
    assert bob.post(f"/api/v1/tournaments/{running.pk}/leave/").status_code == 409  # nor out twice
    assert accounts["clients"]["anon"].post(f"/api/v1/tournaments/{running.pk}/enter/").status_code in (401, 403)
    assert ann.post("/api/v1/tournaments/999999/enter/").status_code == 404


def test_nobody_enters_or_removes_someone_else(accounts):
    club = accounts["club"]
    ann, bob = accounts["clients"]["ann"], accounts["clients"]["bob"]
    bob_id = accounts["players"]["bob"].pk
    t = create_tournament(name="Open", rounds=1, ruleset={"rounds": 1}, club=club)
    assert ann.post(f"/api/v1/tournaments/{t.pk}/entries/", {"players": [bob_id]}, format="json"
                    ).status_code == 403
    assert not t.entries.exists()
    ladder = create_ladder(name="People", ruleset={"rounds": 1}, club=club)
    assert ann.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [bob_id]}, format="json").status_code == 403
    assert bob.post(f"/api/v1/ladders/{ladder.pk}/join/").status_code == 201  # without players: myself
    assert ann.post(f"/api/v1/ladders/{ladder.pk}/leave/", {"player": bob_id}, format="json").status_code == 403
    assert LadderEntry.objects.filter(ladder=ladder, player_id=bob_id, active=True).exists()
    bob.post(f"/api/v1/tournaments/{t.pk}/enter/")
    ann.post(f"/api/v1/tournaments/{t.pk}/leave/")  # ann leaves nothing of bob's
    assert t.entries.filter(player_id=bob_id).exists()
    assert bob.post(f"/api/v1/ladders/{ladder.pk}/leave/").status_code == 200
    assert not LadderEntry.objects.filter(ladder=ladder, player_id=bob_id, active=True).exists()
    assert ann.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": "me"}, format="json").status_code == 400


def test_my_matches_lists_live_matches_and_the_next_table(accounts, django_capture_on_commit_callbacks):
    from .conftest import live_match

    match = live_match(accounts, ["ann", "greedy-1", "random-1", "bob"], ruleset={"rounds": 1})
    t = create_tournament(name="Later", rounds=1, ruleset={"rounds": 1}, club=accounts["club"])
    accounts["clients"]["ann"].post(f"/api/v1/tournaments/{t.pk}/enter/")
    body = accounts["clients"]["ann"].get("/api/v1/me/matches/").json()
    assert [m["id"] for m in body["live"]] == [match.pk]
    assert body["next_tables"] == [{"tournament": t.pk, "tournament_name": "Later", "match": None, "round": None,
                                    "expected": "start"}]
    assert accounts["clients"]["outsider"].get("/api/v1/me/matches/").json() == {"live": [], "recent": [],
                                                                                 "next_tables": []}


def test_only_organisers_choose_the_membership_policy(accounts):
    club = accounts["club"]
    url = f"/api/v1/clubs/{club.pk}/membership-policy/"
    assert accounts["clients"]["ann"].post(url, {"membership": "request"}, format="json").status_code == 403
    bad = accounts["clients"]["organiser"].post(url, {"membership": "closed"}, format="json")
    assert bad.status_code == 400 and "membership" in error_shape(bad)["errors"]
    club.refresh_from_db()
    assert club.membership == "open"
    assert accounts["clients"]["organiser"].post(url, {"membership": "request"}, format="json").json() == {
        "membership": "request"}
    club.refresh_from_db()
    assert club.membership == "request"
    assert accounts["clients"]["outsider"].post(f"/api/v1/clubs/{club.pk}/join/").status_code == 202


def test_requests_and_answers_are_announced_after_commit(accounts, django_capture_on_commit_callbacks):
    from league.events import league_event

    heard = []

    def listen(sender, name, payload, **kwargs):
        heard.append((name, payload))

    league_event.connect(listen)
    try:
        club = accounts["club"]
        club.membership = Membership.REQUEST
        club.save()
        with django_capture_on_commit_callbacks(execute=True):
            rid = accounts["clients"]["outsider"].post(f"/api/v1/clubs/{club.pk}/join/").json()["request"]["id"]
        with django_capture_on_commit_callbacks(execute=True):
            accounts["clients"]["organiser"].post(f"/api/v1/clubs/{club.pk}/requests/{rid}/decline/")
    finally:
        league_event.disconnect(listen)
    otto = Player.objects.get(user__username="otto")
    assert heard == [("membership.requested", {"club_id": club.pk, "player_id": otto.pk, "request_id": rid}),
                     ("membership.answered", {"club_id": club.pk, "player_id": otto.pk, "request_id": rid,
                                              "accepted": False})]


def test_me_lists_my_clubs_tournaments_and_ladders(accounts):
    ann = accounts["clients"]["ann"]
    t = create_tournament(name="Mine", rounds=1, ruleset={"rounds": 1}, club=accounts["club"])
    ladder = create_ladder(name="People", ruleset={"rounds": 1}, club=accounts["club"])
    ann.post(f"/api/v1/tournaments/{t.pk}/enter/")
    ann.post(f"/api/v1/ladders/{ladder.pk}/join/")
    me = ann.get("/api/v1/me/").json()
    assert me["clubs"] == [{"id": accounts["club"].pk, "name": "Diamond Club"}] and me["pending_clubs"] == []
    assert me["tournaments"] == [{"id": t.pk, "name": "Mine", "status": "registering", "active": True}]
    assert me["ladders"] == [{"id": ladder.pk, "name": "People", "game": "diamonds"}]
    assert accounts["clients"]["ext-1"].get("/api/v1/me/").json()["clubs"] == []  # a bot's account: no person


def test_leaving_a_ladder_takes_effect_at_the_next_seating_and_the_match_in_play_goes_on(accounts):
    from league.models import Match, MatchStatus
    from league.services.ladders import seat_ladder_tables

    ladder = create_ladder(name="Pairs", ruleset={"rounds": 1}, table_size=2, club=accounts["club"])
    ann, organiser = accounts["clients"]["ann"], accounts["clients"]["organiser"]
    assert ann.post(f"/api/v1/ladders/{ladder.pk}/join/").status_code == 201
    organiser.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [accounts["players"]["greedy-1"].pk]},
                   format="json")
    (match,) = seat_ladder_tables(ladder=ladder, seed="pairs-1")
    assert ann.post(f"/api/v1/ladders/{ladder.pk}/leave/").status_code == 200
    match.refresh_from_db()
    assert match.status not in (MatchStatus.CANCELLED, MatchStatus.FAILED)  # still hers to finish
    assert accounts["clients"]["bob"].post(f"/api/v1/ladders/{ladder.pk}/join/").status_code == 201
    organiser.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [accounts["players"]["random-1"].pk]},
                   format="json")
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)  # as if played out: ann is free again
    (second,) = seat_ladder_tables(ladder=ladder, seed="pairs-2")
    seated = {s.player.name for s in second.match_seats.select_related("player")}
    assert "ann" not in seated and "bob" in seated
