"""The lobby's pages: the list (and its JSON the page script polls), opening a table by the form, the waiting room
and its invitation link, joining, leaving and cancelling by the page's buttons, and what a stranger cannot see. Also
the play-vs-bots page: a full Diamonds game unless one round is chosen, and it says which."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

from league.models import LobbyStatus, LobbyTable, Match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from runtime.throttling import STORE

    cache.clear()
    STORE.clear_local()


@pytest.fixture
def users():
    User = get_user_model()
    return {name: User.objects.create_user(name) for name in ("ann", "bob", "cy")}


def signed_in(client_class, user):
    client = client_class()
    client.force_login(user)
    return client


FORM = {"game": "diamonds", "seats": 2, "rounds": 1, "clubs": "", "public": "on", "bot_kind": "",
        "turn_deadline": 120}


def test_the_lobby_is_in_the_navigation_and_lists_open_tables(client, users):
    html = client.get(reverse("web:home")).content.decode()
    assert f'href="{reverse("web:lobby")}"' in html
    ann = signed_in(type(client), users["ann"])
    answer = ann.post(reverse("web:lobby"), FORM)
    table = LobbyTable.objects.get()
    assert answer.status_code == 302 and answer["Location"] == reverse("web:lobby-table", args=[table.pk])
    page = client.get(reverse("web:lobby")).content.decode()
    assert f"Table {table.pk}" in page and "Diamonds" in page and table.token not in page
    live = client.get(reverse("web:lobby-live")).json()
    assert [t["id"] for t in live["tables"]] == [table.pk] and live["tables"][0]["token"] is None
    assert live["mine"] == [] and f"Table {table.pk}" in live["html"]["tables"]
    assert "You sit at no open table." in live["html"]["mine"]
    assert [t["id"] for t in ann.get(reverse("web:lobby-live")).json()["mine"]] == [table.pk]


def test_a_bad_form_is_a_400_that_says_why_and_opens_nothing(client, users):
    ann = signed_in(type(client), users["ann"])
    for bad in ({**FORM, "seats": 9}, {**FORM, "game": "ringrace", "seats": 6, "bot_kind": "greedy"},
                {**FORM, "rated": "on", "bot_kind": "random"}, {**FORM, "turn_deadline": 7}):
        answer = ann.post(reverse("web:lobby"), bad)
        assert answer.status_code == 400
        assert "errorlist" in answer.content.decode()
    assert LobbyTable.objects.count() == 0
    anonymous = client.post(reverse("web:lobby"), FORM)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]


def test_the_invitation_link_seats_a_guest_and_the_full_table_sends_both_to_the_match(client, users,
                                                                                      django_capture_on_commit_callbacks):
    ann, bob = signed_in(type(client), users["ann"]), signed_in(type(client), users["bob"])
    ann.post(reverse("web:lobby"), {**FORM, "public": ""})
    table = LobbyTable.objects.get()
    room = ann.get(reverse("web:lobby-table", args=[table.pk])).content.decode()
    invite = reverse("web:lobby-invite", args=[table.token])
    assert invite in room
    # A stranger without the link sees nothing of a private table, nor its JSON.
    assert bob.get(reverse("web:lobby-table", args=[table.pk])).status_code == 404
    assert bob.get(reverse("web:lobby-table-live", args=[table.pk])).status_code == 404
    assert client.get(reverse("web:lobby-invite", args=["not-the-token"])).status_code == 404
    guest_view = bob.get(invite).content.decode()
    assert "Take a seat" in guest_view and table.token in guest_view  # the form carries it back
    with django_capture_on_commit_callbacks(execute=True):
        joined = bob.post(reverse("web:lobby-join", args=[table.pk]), {"token": table.token})
    table.refresh_from_db()
    assert table.status == LobbyStatus.STARTED
    assert joined.status_code == 302 and joined["Location"] == reverse("web:match", args=[table.match_id])
    # The host's page script learns it from the table's JSON; the page itself forwards them too.
    live = ann.get(reverse("web:lobby-table-live", args=[table.pk])).json()
    assert live["status"] == "started" and live["match_url"] == reverse("web:match", args=[table.match_id])
    assert ann.get(reverse("web:lobby-table", args=[table.pk]))["Location"] == reverse("web:match",
                                                                                       args=[table.match_id])
    match_page = bob.get(reverse("web:match", args=[table.match_id])).content.decode()
    assert f'href="{reverse("web:lobby")}"' in match_page and f"table {table.pk}" in match_page


def test_leave_and_cancel_by_the_buttons_and_refusals_as_messages(client, users):
    ann, bob, cy = (signed_in(type(client), users[n]) for n in ("ann", "bob", "cy"))
    ann.post(reverse("web:lobby"), {**FORM, "seats": 4})
    table = LobbyTable.objects.get()
    bob.post(reverse("web:lobby-join", args=[table.pk]))
    refused = bob.post(reverse("web:lobby-join", args=[table.pk]), follow=True)
    assert "You already sit at this table." in refused.content.decode()
    assert cy.post(reverse("web:lobby-cancel", args=[table.pk]), follow=True).status_code == 200
    assert LobbyTable.objects.get().status == LobbyStatus.OPEN  # cy is not the host
    as_json = cy.post(reverse("web:lobby-cancel", args=[table.pk]), HTTP_ACCEPT="application/json")
    assert as_json.status_code == 403 and "host" in as_json.json()["detail"]
    bob.post(reverse("web:lobby-leave", args=[table.pk]))
    assert list(table.lobby_seats.values_list("player__name", flat=True)) == ["ann"]
    ann.post(reverse("web:lobby-cancel", args=[table.pk]))
    assert LobbyTable.objects.get().status == LobbyStatus.CANCELLED
    assert client.get(reverse("web:lobby-join", args=[table.pk])).status_code in (302, 405)


def test_play_against_bots_is_a_full_game_unless_one_round_is_chosen(client, users,
                                                                     django_capture_on_commit_callbacks):
    ann = signed_in(type(client), users["ann"])
    page = ann.get(reverse("web:play-bots")).content.decode()
    assert "a full game: 4 rounds" in page and "one round only" in page
    assert '<option value="0" selected>a full game: 4 rounds' in page  # the default
    with django_capture_on_commit_callbacks(execute=False):
        full = ann.post(reverse("web:play-bots"), {"game": "diamonds", "bots": "greedy"}, follow=True)
    match = Match.objects.order_by("-pk").first()
    assert match.ruleset["rounds"] == 4
    assert "a full game of 4 rounds" in full.content.decode()
    assert "Round 1 of 4" in full.content.decode()
    with django_capture_on_commit_callbacks(execute=False):
        quick = ann.post(reverse("web:play-bots"), {"game": "diamonds", "bots": "greedy", "rounds": 1}, follow=True)
    assert Match.objects.order_by("-pk").first().ruleset["rounds"] == 1
    assert "one round only" in quick.content.decode() and "Round 1 of 1" in quick.content.decode()


def test_staff_see_tables_in_the_admin_without_their_token(client, users):
    ann = signed_in(type(client), users["ann"])
    ann.post(reverse("web:lobby"), FORM)
    table = LobbyTable.objects.get()
    staff = get_user_model().objects.create_user("stan", is_staff=True, is_superuser=True)
    client.force_login(staff)
    listing = client.get(reverse("admin:league_lobbytable_changelist"))
    page = client.get(reverse("admin:league_lobbytable_change", args=[table.pk]))
    assert listing.status_code == page.status_code == 200
    assert "ann" in page.content.decode() and table.token not in page.content.decode()
    assert client.post(reverse("admin:league_lobbytable_change", args=[table.pk]), {"status": "started"}).status_code \
        == 403


@pytest.mark.django_db(transaction=True)
def test_a_full_game_against_bots_is_played_round_after_round_to_its_end(client, users):
    """The default table against bots, by the page's forms: the bots play at once (after commit), ann decides, and
    the match goes through all four rounds before it finishes."""
    import random

    from league.models import MatchStatus
    from league.selectors.live import match_game, seat_state

    from .support import form_for

    ann = signed_in(type(client), users["ann"])
    ann.post(reverse("web:play-bots"), {"game": "diamonds", "bots": "greedy", "seed": "full-game-1"})
    match = Match.objects.get()
    assert match.ruleset["rounds"] == 4
    rng, rounds_seen = random.Random(3), set()
    for _ in range(400):
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            break
        state = seat_state(match_game(match), 0)
        rounds_seen.add(state["round"])
        answer = ann.post(reverse("web:match-decide", args=[match.pk]), form_for(state, rng),
                          HTTP_ACCEPT="application/json")
        assert answer.status_code == 201, answer.content
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and rounds_seen == {0, 1, 2, 3}
    assert "Final result" in ann.get(reverse("web:match", args=[match.pk])).content.decode()
