"""Playing at the match page: a person sees only their own hand, chooses by clicking (posting the page's forms),
illegal cards are disabled with the reason, refusals come back with the rule, and a finished game shows every
vault and its replay."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.urls import reverse

from engine import SUITS
from engine.diamonds.cards import SUIT_NAMES
from league.models import Match, MatchStatus
from league.selectors.live import match_game, seat_state

from .conftest import table_with_bots
from .support import form_for, leaked, others_cards

pytestmark = pytest.mark.django_db(transaction=True)


def decide(client, match, data):
    return client.post(reverse("web:match-decide", args=[match.pk]), data, HTTP_ACCEPT="application/json")


def test_the_page_shows_my_hand_and_no_other_seats_cards(client, site):
    match = table_with_bots(site["ann"], site["bots"], seed="secret-1")
    client.force_login(site["ann"].user)
    html = client.get(reverse("web:match", args=[match.pk])).content.decode()
    state = seat_state(match_game(match), 0)
    assert state["my_turn"] and state["hand"]
    for code in state["hand"]:
        assert f'value="{code}"' in html
    assert leaked(html, others_cards(match, 0)) == []
    assert re.search(r'class="token token-thief"[^>]*>.*?<span>Thief</span>', html)  # the Thief's seat, in words
    live = client.get(reverse("web:match-live", args=[match.pk])).json()
    assert leaked(live["html"], others_cards(match, 0)) == [] and live["move_number"] == match.move_number
    # A spectator sees the table and no hand at all; the seed (which decides the deals) is never on the page.
    client.force_login(site["bob"].user)
    html = client.get(reverse("web:match", args=[match.pk])).content.decode()
    assert leaked(html, others_cards(match, -1)) == [] and "cardbutton" not in html and "secret-1" not in html


def test_the_live_view_sends_the_table_only_when_the_match_moved(client, site):
    match = table_with_bots(site["ann"], site["bots"], seed="live-1")
    url = reverse("web:match-live", args=[match.pk])
    same = client.get(url, {"move": match.move_number, "status": match.status}).json()
    assert "html" not in same and same["move_number"] == match.move_number
    assert "html" in client.get(url, {"move": match.move_number - 1, "status": match.status}).json()


def test_decisions_need_a_seat_and_refusals_name_the_rule(client, site):
    match = table_with_bots(site["ann"], site["bots"], seed="refuse-1")
    url = reverse("web:match-decide", args=[match.pk])
    assert client.post(url, {"kind": "pass_count", "count": 2}).status_code == 302  # to the sign-in page
    client.force_login(site["bob"].user)
    assert decide(client, match, {"move_number": match.move_number, "kind": "pass_count", "count": 2}).status_code \
        == 403
    client.force_login(site["ann"].user)
    state = seat_state(match_game(match), 0)
    stale = decide(client, match, {**form_for(state, random.Random(1)), "move_number": state["move_number"] + 5})
    assert stale.status_code == 409
    wrong = {"move_number": state["move_number"], "kind": "play", "card": state["hand"][0]}
    response = decide(client, match, wrong)
    assert response.status_code == 400 and not response.json()["ok"] and "R-" in response.json()["detail"]
    # Without the script, a refusal comes back on the page as a message.
    response = client.post(url, wrong, follow=True)
    assert "R-" in response.content.decode() and Match.objects.get(pk=match.pk).move_number == match.move_number


def test_a_person_plays_a_whole_game_by_the_pages_forms(client, site):
    """Every decision kind through the page: pass count (ann deals in this seed), passing, playing and, in choose
    mode, clubs targets; at each of ann's plays the page disables what she may not play and says why."""
    match = table_with_bots(site["ann"], site["bots"], seed="whole-game-3", clubs="choose")
    client.force_login(site["ann"].user)
    rng = random.Random(5)
    seen_kinds, follow_checked = set(), 0
    for _ in range(200):
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            break
        state = seat_state(match_game(match), 0)
        assert state["my_turn"], "the bots play at once: the match waits only for ann"
        html = client.get(reverse("web:match", args=[match.pk])).content.decode()
        assert leaked(html, others_cards(match, 0)) == []
        kind = state["pending"]["kind"]
        seen_kinds.add(kind)
        if kind == "play" and len(state["legal"]) < len(state["hand"]):
            led = state["legal"][0][0]
            assert f"You must follow {SUIT_NAMES[SUITS.index(led)]}" in html
            for code in state["hand"]:
                button = re.search(rf'<button type="submit" name="card" value="{code}"[^>]*>', html).group(0)
                assert ("disabled" in button) == (code not in state["legal"])
            follow_checked += 1
        response = decide(client, match, form_for(state, rng))
        assert response.status_code == 201, response.content
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert {"play", "pass_cards"} <= seen_kinds and follow_checked
    html = client.get(reverse("web:match", args=[match.pk])).content.decode()
    assert "Final result" in html and "★ winner" in html
    for row in match.match_seats.all():
        assert f"<td>{row.score}</td><td>{row.tiebreak}</td><td>{row.showroom}</td>" in html
    replay = client.get(reverse("web:match-replay", args=[match.pk])).content.decode()
    assert replay.count('class="frame"') == 2 + 10  # the deal, the pass, ten tricks


def test_replay_frames_follow_the_engine(site):
    from league.selectors.live import public_record
    from web.games import presenter_for

    match = Match.objects.filter(status=MatchStatus.FINISHED).first()
    record = public_record(match)
    frames = presenter_for("diamonds").replay_frames(record)
    last = frames[-1]
    assert [2 * v + s for v, s in zip(last.vaults, last.showrooms)] == record["result"]["score"]
    assert frames[0].hands == [sorted(h, key=lambda c: (SUITS.index(c[0]), int(c[1:]))) for h in
                               record["rounds"][0]["hands"]]
    assert json.dumps(record)  # the record the page links to is plain JSON


@pytest.mark.parametrize("players, ruleset", [(4, {"partnerships": True}), (2, {}), (5, {"perfect": True})])
def test_other_tables_show_only_my_cards(client, site, players, ruleset):
    """Partnerships (R-TEAM-1), two players (R-TWO-1) and Perfect Diamonds: the page works and stays secret."""
    from league.services import create_match
    from league.services.decisions import start_live_match

    bots = site["bots"][: players - 1]
    match = create_match(players=[site["ann"], *bots], ruleset={"players": players, "rounds": 1, **ruleset},
                         seed=f"variant-{players}")
    start_live_match(match=match)
    client.force_login(site["ann"].user)
    rng = random.Random(3)
    for _ in range(8):  # a few of ann's decisions, looking at the page before each
        match.refresh_from_db()
        state = seat_state(match_game(match), 0)
        html = client.get(reverse("web:match", args=[match.pk])).content.decode()
        assert leaked(html, others_cards(match, 0)) == []
        if not state["my_turn"]:
            break
        assert decide(client, match, form_for(state, rng)).status_code == 201
