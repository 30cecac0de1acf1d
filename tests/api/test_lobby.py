"""The lobby over the API: open, list, join (private tables by token), leave, cancel, start; every bad body and every
act on someone else's table answered 4xx in the Error shape, changing nothing."""

from __future__ import annotations

import pytest

from league.models import LobbySeat, LobbyStatus, LobbyTable, Match

from .conftest import signed_up

pytestmark = pytest.mark.django_db

URL = "/api/v1/lobby/tables/"


def open_table(client, **body):
    answer = client.post(URL, {"game": "diamonds", "seats": 2, "options": {"rounds": 1}, **body}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def assert_error(answer, status: int, code: str | None = None):
    assert answer.status_code == status, answer.content
    body = answer.json()
    assert isinstance(body["detail"], str) and body["detail"]
    if code:
        assert body["code"] == code, body


def test_open_list_join_and_the_match_starts(accounts, django_capture_on_commit_callbacks):
    ann, bob = accounts["clients"]["ann"], accounts["clients"]["bob"]
    table = open_table(ann)
    assert table["players"] == ["ann"] and table["seated"] and table["is_host"] and table["token"]
    listed = accounts["clients"]["anon"].get(URL).json()
    assert [t["id"] for t in listed] == [table["id"]]
    assert listed[0]["token"] is None  # the invitation is never listed
    with django_capture_on_commit_callbacks(execute=True):
        joined = bob.post(f"{URL}{table['id']}/join/", {}, format="json")
    assert joined.status_code == 200, joined.json()
    body = joined.json()
    assert body["status"] == "started" and body["match"] and body["players"] == ["ann", "bob"]
    assert Match.objects.filter(pk=body["match"]).exists()
    assert accounts["clients"]["anon"].get(URL).json() == []
    assert_error(accounts["clients"]["outsider"].post(f"{URL}{table['id']}/join/", {}, format="json"), 409,
                 "conflict")


def test_private_tables_need_the_token(accounts):
    ann, bob = accounts["clients"]["ann"], accounts["clients"]["bob"]
    table = open_table(ann, public=False, seats=3)
    assert accounts["clients"]["anon"].get(URL).json() == []
    assert_error(bob.get(f"{URL}{table['id']}/"), 404, "not_found")
    assert_error(bob.post(f"{URL}{table['id']}/join/", {"token": "nope"}, format="json"), 404, "not_found")
    assert bob.get(f"{URL}{table['id']}/", {"token": table["token"]}).status_code == 200
    joined = bob.post(f"{URL}{table['id']}/join/", {"token": table["token"]}, format="json")
    assert joined.status_code == 200 and joined.json()["players"] == ["ann", "bob"]
    assert joined.json()["token"] == table["token"]  # now seated, bob may share the link too


@pytest.mark.parametrize("body", [
    {}, {"game": "diamonds"}, {"game": "poker", "seats": 4}, {"game": "diamonds", "seats": 9},
    {"game": "diamonds", "seats": True}, {"game": "diamonds", "seats": "four"},
    {"game": "diamonds", "seats": 4, "options": {"rounds": -1}},
    {"game": "diamonds", "seats": 4, "options": {"rounds": 10**12}},
    {"game": "diamonds", "seats": 4, "options": ["rounds"]}, {"game": "diamonds", "seats": 4, "options": {"x": 1}},
    {"game": "diamonds", "seats": 4, "bot_kind": "search"}, {"game": "ringrace", "seats": 4, "bot_kind": "greedy"},
    {"game": "diamonds", "seats": 4, "bot_kind": "random", "rated": True},
    {"game": "diamonds", "seats": 4, "turn_deadline_seconds": 10**9},
    {"game": "diamonds", "seats": 4, "rated": "maybe"}, {"game": ["diamonds"], "seats": 4},
])
def test_bad_bodies_are_400_and_create_nothing(accounts, body):
    assert_error(accounts["clients"]["ann"].post(URL, body, format="json"), 400)
    assert LobbyTable.objects.count() == 0


def test_strangers_and_bots_cannot_touch_others_tables(accounts):
    ann, bob, outsider = (accounts["clients"][n] for n in ("ann", "bob", "outsider"))
    table = open_table(ann, seats=4, bot_kind="greedy")
    tid = table["id"]
    assert_error(accounts["clients"]["anon"].post(URL, {"game": "diamonds", "seats": 2}, format="json"), 401)
    assert_error(accounts["clients"]["anon"].post(f"{URL}{tid}/join/", {}, format="json"), 401)
    assert_error(accounts["clients"]["ext-1"].post(f"{URL}{tid}/join/", {}, format="json"), 403)
    assert_error(accounts["clients"]["ext-1"].post(URL, {"game": "diamonds", "seats": 2}, format="json"), 403)
    assert bob.post(f"{URL}{tid}/join/", {}, format="json").status_code == 200
    assert_error(bob.post(f"{URL}{tid}/join/", {}, format="json"), 409, "conflict")  # twice
    assert_error(bob.post(f"{URL}{tid}/cancel/"), 403, "permission_denied")
    assert_error(bob.post(f"{URL}{tid}/start/"), 403, "permission_denied")
    assert_error(outsider.post(f"{URL}{tid}/leave/"), 403, "permission_denied")
    assert_error(ann.post(f"{URL}{tid}/leave/"), 409, "conflict")  # the host cancels instead
    for missing in ("999999", "0", "99999999999999999999"):
        assert_error(bob.post(f"{URL}{missing}/join/", {}, format="json"), 404)
    assert LobbySeat.objects.filter(table_id=tid).count() == 2
    assert LobbyTable.objects.get(pk=tid).status == LobbyStatus.OPEN
    assert bob.post(f"{URL}{tid}/leave/").json()["players"] == ["ann"]
    cancelled = ann.post(f"{URL}{tid}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert_error(bob.post(f"{URL}{tid}/join/", {}, format="json"), 409, "conflict")
    assert Match.objects.count() == 0


def test_the_host_starts_with_bots(accounts, django_capture_on_commit_callbacks):
    ann = accounts["clients"]["ann"]
    table = open_table(ann, seats=4, bot_kind="random")
    with django_capture_on_commit_callbacks(execute=True):
        started = ann.post(f"{URL}{table['id']}/start/")
    assert started.status_code == 200 and started.json()["status"] == "started"
    seats = Match.objects.get(pk=started.json()["match"]).match_seats.select_related("player").order_by("seat")
    assert [s.player.bot_kind for s in seats] == ["", "random", "random", "random"]


def test_only_verified_people_sit_at_rated_tables_and_anyone_at_casual_ones(accounts,
                                                                           django_capture_on_commit_callbacks):
    """Finding (issue 27, verification): two unverified accounts opened and played a rated lobby table. A rated
    table moves ratings: only verified people open or join one. Unverified people still play unrated tables."""
    _newt, newt = signed_up("newt")
    _nell, nell = signed_up("nell")
    refused = newt.post(URL, {"game": "diamonds", "seats": 2, "options": {"rounds": 1}, "rated": True}, format="json")
    assert_error(refused, 403, "permission_denied")
    assert "Confirm your email" in refused.json()["detail"]
    assert not LobbyTable.objects.exists()

    rated = open_table(accounts["clients"]["ann"], rated=True)  # an administrator's account: verified
    assert_error(nell.post(f"{URL}{rated['id']}/join/", {}, format="json"), 403, "permission_denied")
    assert list(LobbySeat.objects.filter(table_id=rated["id"]).values_list("player__name", flat=True)) == ["ann"]

    casual = open_table(newt)
    with django_capture_on_commit_callbacks(execute=True):
        joined = nell.post(f"{URL}{casual['id']}/join/", {}, format="json")
    assert joined.status_code == 200 and joined.json()["status"] == "started", joined.content
    assert not LobbyTable.objects.get(pk=casual["id"]).rated
