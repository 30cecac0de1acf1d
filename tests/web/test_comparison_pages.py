"""The comparison pages: the form (a hostile one too), the live page and its JSON, a pair's two games side by side,
stopping, the player's list of comparisons, and the navigation link; phone-friendly markup."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league.models import Comparison, ComparisonPair, ComparisonStatus
from league.services import play_bot_match
from league.services.comparisons import close_pair, create_comparison
from league.services.matches import create_bot_player
from league.services.players import create_external_bot

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(db):
    User = get_user_model()
    alice, eve = User.objects.create_user("alice"), User.objects.create_user("eve")
    clients = {"alice": Client(), "eve": Client(), "anon": Client()}
    clients["alice"].force_login(alice)
    clients["eve"].force_login(eve)
    return {"alice": alice, "eve": eve, "clients": clients,
            "greedy": create_bot_player(name="greedy-web", kind="greedy"),
            "random": create_bot_player(name="random-web", kind="random"),
            "hers": create_external_bot(name="eve-web-bot", owner=eve)}


def _played_pair(site) -> Comparison:
    comparison = create_comparison(user=site["alice"], candidate=site["greedy"], baseline=site["random"],
                                   ruleset={"players": 4, "rounds": 1}, elo1=100, max_pairs=10)
    pair = ComparisonPair.objects.get(comparison=comparison)
    for match_id in (pair.candidate_match_id, pair.baseline_match_id):
        play_bot_match(match_id=match_id)
    close_pair(pair_id=pair.pk)
    return comparison


def test_the_form_creates_a_comparison_and_refuses_another_users_bot(site):
    c = site["clients"]
    assert c["anon"].get("/comparisons/new/").status_code == 302  # to sign in
    page = c["alice"].get("/comparisons/new/").content.decode()
    assert "greedy-web" in page and "eve-web-bot" not in page  # somebody else's external bot is not offered
    body = {"candidate": site["greedy"].pk, "baseline": site["random"].pk, "game": "diamonds", "players": 4,
            "field_kind": "", "elo0": 0, "elo1": 100, "alpha": 0.05, "beta": 0.05, "max_pairs": 5}
    hostile = c["alice"].post("/comparisons/new/", {**body, "candidate": site["hers"].pk})
    assert hostile.status_code == 400 and not Comparison.objects.exists()
    bad = c["alice"].post("/comparisons/new/", {**body, "elo0": 50, "elo1": 10})
    assert bad.status_code == 400 and "elo0 must be below elo1" in bad.content.decode()
    assert not Comparison.objects.exists()
    r = c["alice"].post("/comparisons/new/", body)
    comparison = Comparison.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/comparisons/{comparison.pk}/"


def test_the_live_page_its_json_and_the_pair_side_by_side(site):
    comparison = _played_pair(site)
    c = site["clients"]
    page = c["anon"].get(f"/comparisons/{comparison.pk}/").content.decode()
    assert "<svg" in page and "H1 " in page and "H0 " in page and "live_page.js" in page
    assert f'/comparisons/{comparison.pk}/pairs/1/' in page  # pairs counted from 1
    assert "Stop the comparison" not in page  # not for visitors
    state = c["anon"].get(f"/comparisons/{comparison.pk}/state.json").json()
    assert state["state"]["pairs"] == 1 and len(state["pairs"]) == 2 and "<svg" in state["chart"]
    assert comparison.salt not in page and comparison.salt not in str(state)
    pair = comparison.pair_set.get(index=0)
    side = c["anon"].get(f"/comparisons/{comparison.pk}/pairs/1/?step=3").content.decode()
    assert "greedy-web" in side and "random-web" in side and "Step 3 of" in side
    for match_id in (pair.candidate_match_id, pair.baseline_match_id):
        assert f"/matches/{match_id}/replay/" in side
    assert c["anon"].get(f"/comparisons/{comparison.pk}/pairs/2/").status_code == 404  # still playing: secret
    assert c["anon"].get(f"/comparisons/{comparison.pk}/pairs/1/?step=x").status_code == 200


def test_stop_the_list_the_player_page_and_the_navigation(site):
    comparison = _played_pair(site)
    c = site["clients"]
    assert c["eve"].post(f"/comparisons/{comparison.pk}/stop/").status_code == 403
    assert c["alice"].get(f"/comparisons/{comparison.pk}/").content.decode().count("Stop the comparison") == 1
    assert c["alice"].post(f"/comparisons/{comparison.pk}/stop/").status_code == 302
    comparison.refresh_from_db()
    assert comparison.status == ComparisonStatus.STOPPED
    listing = c["anon"].get(f"/comparisons/?bot={site['greedy'].pk}").content.decode()
    assert f"/comparisons/{comparison.pk}/" in listing
    other = c["anon"].get(f"/comparisons/?bot={site['hers'].pk}").content.decode()
    assert f"/comparisons/{comparison.pk}/" not in other
    player = c["anon"].get(f"/players/{site['greedy'].pk}/").content.decode()
    assert f"/comparisons/{comparison.pk}/" in player
    home = c["anon"].get("/").content.decode()
    assert 'href="/comparisons/"' in home and 'name="viewport"' in home


def test_the_home_page_lists_league_play_not_a_comparisons_games(site):
    """Issue 28: the home page's recent matches show league play; a comparison's games are read on its own pages."""
    from league.services.matches import create_match

    comparison = _played_pair(site)
    pair = ComparisonPair.objects.filter(comparison=comparison, index=0).get()
    league_game = create_match(players=[site["greedy"], site["random"]], ruleset={"players": 2, "rounds": 1})
    play_bot_match(match_id=league_game.pk)
    page = site["clients"]["anon"].get("/").content.decode()
    assert f'href="/matches/{league_game.pk}/"' in page
    for twin in (pair.candidate_match_id, pair.baseline_match_id):
        assert f'href="/matches/{twin}/"' not in page
    assert site["clients"]["alice"].get(f"/comparisons/{comparison.pk}/pairs/1/").status_code == 200
