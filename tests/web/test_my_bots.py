"""My bots (web/bots.py) and a bot's page: an author creates a bot and sees its token once, renews and revokes it,
enters it in a ladder and an open tournament and takes it out, resumes it when paused; nobody else can touch it."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from league.models import LadderEntry, Match, MatchSeat, MatchStatus, Player, TournamentEntry
from league.services import create_bot_player, create_club, create_match, create_tournament
from league.services.accounts import mark_made_by_administrator
from league.services.ladders import create_ladder, join_ladder
from league.services.match_finished import on_match_finished
from league.services.players import add_club_admin, create_external_bot

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'id="new-token"[^>]*value="([0-9a-f]{40})"')


@pytest.fixture
def people():
    """Two accounts as an administrator makes them (verified without an email address)."""
    User = get_user_model()
    made = {name: User.objects.create_user(name) for name in ("ann", "bob")}
    for user in made.values():
        mark_made_by_administrator(user)
    return made


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def create(client, name="annbot"):
    return client.post("/bots/create/", {"name": name}, follow=True)


def test_my_bots_is_in_the_navigation_when_signed_in_only(people):
    assert 'href="/bots/"' not in Client().get("/").content.decode()
    assert 'href="/bots/"' in signed_in(people["ann"]).get("/").content.decode()
    r = Client().get("/bots/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_an_author_creates_a_bot_and_sees_its_token_once(people):
    ann = signed_in(people["ann"])
    r = create(ann)
    assert r.status_code == 200
    bot = Player.objects.get(name="annbot")
    assert bot.owner == people["ann"] and bot.is_external_bot
    key = TOKEN.search(r.content.decode()).group(1)
    assert Token.objects.get(user=bot.user).key == key
    assert r["Cache-Control"] == "no-store"
    again = ann.get("/bots/").content.decode()
    assert key not in again and "annbot" in again  # shown once, never again
    assert key not in ann.get(f"/players/{bot.pk}/").content.decode()


@pytest.mark.parametrize("name", ["", "a", "has space", "x" * 61, "<script>"])
def test_a_bad_name_is_refused_and_creates_nothing(people, name):
    r = signed_in(people["ann"]).post("/bots/create/", {"name": name})
    assert r.status_code == 400 and not Player.objects.exists()


def test_a_taken_name_is_refused(people):
    create(signed_in(people["ann"]))
    r = signed_in(people["bob"]).post("/bots/create/", {"name": "annbot"})
    assert r.status_code == 400 and "taken" in r.content.decode()
    assert Player.objects.get(name="annbot").owner == people["ann"]


def test_the_author_renews_and_revokes_the_token(people):
    ann = signed_in(people["ann"])
    old = TOKEN.search(create(ann).content.decode()).group(1)
    bot = Player.objects.get(name="annbot")
    r = ann.post(f"/bots/{bot.pk}/regenerate-token/", follow=True)
    new = TOKEN.search(r.content.decode()).group(1)
    assert new != old and not Token.objects.filter(key=old).exists()
    ann.post(f"/bots/{bot.pk}/revoke-token/")
    assert not Token.objects.filter(user=bot.user).exists()
    assert "No token" in ann.get("/bots/").content.decode()


def test_the_author_enters_the_bot_and_takes_it_out(people):
    ann = signed_in(people["ann"])
    create(ann)
    bot = Player.objects.get(name="annbot")
    ladder = create_ladder(name="Open Ladder")
    tournament = create_tournament(name="Open Cup", rounds=1)
    club_ladder = create_ladder(name="Club Ladder", club=create_club(name="Elsewhere"))
    page = ann.get("/bots/").content.decode()
    assert f"ladder:{ladder.pk}" in page and f"tournament:{tournament.pk}" in page
    assert f"ladder:{club_ladder.pk}" not in page  # not a member: not offered
    ann.post(f"/bots/{bot.pk}/enter/", {"competition": f"ladder:{ladder.pk}"})
    ann.post(f"/bots/{bot.pk}/enter/", {"competition": f"tournament:{tournament.pk}"})
    assert LadderEntry.objects.get(ladder=ladder, player=bot).active
    assert TournamentEntry.objects.filter(tournament=tournament, player=bot).exists()
    # another club's ladder, typed in by hand: refused as by the API
    r = ann.post(f"/bots/{bot.pk}/enter/", {"competition": f"ladder:{club_ladder.pk}"})
    assert r.status_code == 403 and not LadderEntry.objects.filter(ladder=club_ladder).exists()
    for hostile in ("", "ladder:", "ladder:abc", "match:1", f"ladder:{'9' * 40}"):
        r = ann.post(f"/bots/{bot.pk}/enter/", {"competition": hostile})
        assert r.status_code == 302
    ann.post(f"/bots/{bot.pk}/leave/", {"competition": f"ladder:{ladder.pk}"})
    assert not LadderEntry.objects.get(ladder=ladder, player=bot).active
    # out of a tournament still registering: the entry goes, and it may be entered again
    ann.post(f"/bots/{bot.pk}/leave/", {"competition": f"tournament:{tournament.pk}"})
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    assert f"tournament:{tournament.pk}" in ann.get("/bots/").content.decode()
    ann.post(f"/bots/{bot.pk}/enter/", {"competition": f"tournament:{tournament.pk}"})
    assert TournamentEntry.objects.filter(tournament=tournament, player=bot).exists()


def test_nobody_else_touches_someone_elses_bot(people):
    create(signed_in(people["ann"]))
    bot = Player.objects.get(name="annbot")
    Player.objects.filter(pk=bot.pk).update(paused_at=timezone.now(), paused_reason="testing")
    ladder = create_ladder(name="Open Ladder")
    join_ladder(ladder=ladder, players=[create_bot_player(name="g", kind="greedy")])
    key = Token.objects.get(user=bot.user).key
    bob = signed_in(people["bob"])
    assert "annbot" not in bob.get("/bots/").content.decode()
    for action in ("regenerate-token", "revoke-token", "resume"):
        assert bob.post(f"/bots/{bot.pk}/{action}/").status_code == 403
    assert bob.post(f"/bots/{bot.pk}/enter/", {"competition": f"ladder:{ladder.pk}"}).status_code == 403
    Player.objects.filter(pk=bot.pk).update(paused_at=None)
    join_ladder(ladder=ladder, players=[bot])
    assert bob.post(f"/bots/{bot.pk}/leave/", {"competition": f"ladder:{ladder.pk}"}).status_code == 403
    assert Token.objects.get(user=bot.user).key == key and LadderEntry.objects.get(player=bot).active
    assert 'action="/bots/' not in bob.get(f"/players/{bot.pk}/").content.decode()
    # signed out: to the sign-in page, nothing done
    r = Client().post(f"/bots/{bot.pk}/revoke-token/")
    assert r.status_code == 302 and Token.objects.filter(key=key).exists()


def test_a_clubs_organiser_takes_a_bot_out_of_their_ladder(people):
    create(signed_in(people["ann"]))
    bot = Player.objects.get(name="annbot")
    club = create_club(name="Club")
    bot.clubs.add(club)
    add_club_admin(club=club, user=people["bob"])
    ladder = create_ladder(name="Club Ladder", club=club)
    join_ladder(ladder=ladder, players=[bot])
    bob = signed_in(people["bob"])
    assert bob.post(f"/bots/{bot.pk}/leave/", {"competition": f"ladder:{ladder.pk}"}).status_code == 302
    assert not LadderEntry.objects.get(player=bot).active
    assert bob.post(f"/bots/{bot.pk}/revoke-token/").status_code == 403  # the token stays the owner's



def test_a_clubs_organiser_renews_the_token_of_a_clubs_bot_and_sees_it_once(people):
    from league.services.players import create_external_bot

    club = create_club(name="Club")
    add_club_admin(club=club, user=people["bob"])
    ext = create_external_bot(name="club-bot", clubs=[club])
    bob = signed_in(people["bob"])
    r = bob.post(f"/bots/{ext.pk}/regenerate-token/", follow=True)
    key = TOKEN.search(r.content.decode()).group(1)
    assert Token.objects.get(user=ext.user).key == key
    assert signed_in(people["ann"]).post(f"/bots/{ext.pk}/regenerate-token/").status_code == 403


def test_a_paused_bots_page_says_why_and_its_owner_resumes_it(people, settings):
    settings.DIAMONDS_BOT_PAUSE_AFTER = 2
    ann = signed_in(people["ann"])
    create(ann)
    bot = Player.objects.get(name="annbot")
    others = [create_bot_player(name=f"g{i}", kind="greedy") for i in range(3)]
    matches = []
    for _ in range(2):
        m = create_match(players=[bot, *others], ruleset=4)
        Match.objects.filter(pk=m.pk).update(status=MatchStatus.FINISHED)
        MatchSeat.objects.filter(match=m, player=bot).update(timeouts=2)
        on_match_finished(match_id=m.pk)
        matches.append(m)
        if len(matches) == 1:
            Player.objects.filter(pk=bot.pk).update(last_seen_at=timezone.now())  # it polls: there, not absent
            page = Client().get(f"/players/{bot.pk}/").content.decode()
            assert "Active" in page and "missed deadlines in 1 match in a row (paused at 2)" in page
    live = create_match(players=[bot, *others], ruleset=4)
    bot.refresh_from_db()
    assert bot.is_paused
    page = Client().get(f"/players/{bot.pk}/").content.decode()
    assert "Paused" in page and bot.paused_reason in page and "by ann" in page
    assert "4 missed turn deadlines in 2 matches" in page
    assert f'href="/matches/{matches[1].pk}/"' in page
    # matches in play first
    rows = re.findall(r'<td><a href="/matches/(\d+)/">', page.split("Matches in play first")[1])
    assert rows[0] == str(live.pk)
    assert "Resume" not in page  # only its owner gets the button
    r = ann.post(f"/bots/{bot.pk}/resume/", {"next": f"/players/{bot.pk}/"})
    assert r.status_code == 302 and r["Location"] == f"/players/{bot.pk}/"
    bot.refresh_from_db()
    assert not bot.is_paused and bot.missed_in_row == 0
    r = ann.post(f"/bots/{bot.pk}/resume/", {"next": "https://evil.example/"})
    assert r["Location"] == f"/players/{bot.pk}/"  # never sent to another site


def test_a_bots_matches_are_paginated(people, settings):
    create(signed_in(people["ann"]))
    bot = Player.objects.get(name="annbot")
    other = create_bot_player(name="g", kind="greedy")
    for _ in range(27):
        create_match(players=[bot, other], ruleset=2)
    first = Client().get(f"/players/{bot.pk}/").content.decode()
    second = Client().get(f"/players/{bot.pk}/?page=2").content.decode()
    assert "Page 1 of 2" in first and "Page 2 of 2" in second
    assert len(re.findall(r'<td><a href="/matches/', second.split("Matches in play first")[1])) == 2
    assert Client().get(f"/players/{bot.pk}/?page=zzz").status_code == 200


@pytest.mark.parametrize("name", ["\u0430nnbot", "ANNBOT", "annb0t", "house-random-5"])
def test_a_name_like_anothers_or_a_house_bots_is_refused(people, name):
    create(signed_in(people["ann"]))
    r = signed_in(people["bob"]).post("/bots/create/", {"name": name})
    assert r.status_code == 400 and ("taken" in r.content.decode() or "house" in r.content.decode())
    assert list(Player.objects.values_list("name", flat=True)) == ["annbot"]


def test_an_unverified_account_makes_no_bot_and_enters_none(people):
    """Finding (issue 27, verification): an unverified account created an external bot and entered it in ladders and
    tournaments. On My bots too, a bot is made and entered only by a verified person."""
    newt = get_user_model().objects.create_user("newt")
    EmailAddress.objects.create(user=newt, email="newt@example.com", primary=True, verified=False)  # signed up
    client = signed_in(newt)
    r = client.post("/bots/create/", {"name": "newtbot"})
    assert r.status_code == 403 and "Confirm your email address first" in r.content.decode()
    assert not Player.objects.filter(name="newtbot").exists()

    bot = create_external_bot(name="newtbot", owner=newt)  # made anyway (an administrator's command, or before)
    ladder = create_ladder(name="Open Ladder")
    tournament = create_tournament(name="Open Cup", rounds=1)
    for competition in (f"ladder:{ladder.pk}", f"tournament:{tournament.pk}"):
        r = client.post(f"/bots/{bot.pk}/enter/", {"competition": competition})
        assert r.status_code == 403 and "Confirm your email address first" in r.content.decode()
    assert not LadderEntry.objects.filter(player=bot).exists()
    assert not TournamentEntry.objects.filter(player=bot).exists()
