"""The permission matrix of api/README.md, cell by cell: each row is an action, each column a role. The test reads
the table from the README (so the README cannot drift from what the service does) and performs every action as every
role on a fresh database: "yes" must be answered 2xx, "no" 401 or 403 and leave what it would change unchanged."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.models import (
    Club,
    ClubAdmin,
    LadderEntry,
    League,
    Match,
    OrganiserInvitation,
    Player,
    Season,
    Tournament,
    TournamentEntry,
)
from league.services import create_bot_player, create_club
from league.services.decisions import advance_match
from league.services.ladders import create_ladder, join_ladder
from league.services.leagues import create_league, create_season
from league.services.players import add_club_admin
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament

from .conftest import client_for, live_match
from .support import choose

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parents[2] / "api" / "README.md"
ROLES = ["anyone", "account", "player", "organiser", "other organiser", "staff"]


def matrix() -> list[tuple[str, str, bool | None]]:
    text = README.read_text()
    table = text.split("<!-- permission-matrix -->")[1].split("<!-- /permission-matrix -->")[0]
    rows = [line for line in table.strip().splitlines() if line.startswith("| `")]
    header = [c.strip() for c in table.strip().splitlines()[0].strip("|").split("|")]
    assert header[1:] == ROLES, header
    cells = []
    for line in rows:
        parts = [c.strip() for c in line.strip().strip("|").split("|")]
        action = re.match(r"`([a-z-]+)`", parts[0]).group(1)
        for role, cell in zip(ROLES, parts[1:]):
            cells.append((action, role, {"yes": True, "no": False, "–": None}[cell]))
    return cells


CELLS = matrix()


class World:
    """The accounts fixture's club, plus another club with its own organiser, and whatever an action needs."""

    def __init__(self, accounts):
        self.a = accounts
        self.club = accounts["club"]
        self.p = accounts["players"]
        User = get_user_model()
        self.other_club = create_club(name="Other Club")
        self.oscar = User.objects.create_user("oscar", password="pw-oscar-123")
        add_club_admin(club=self.other_club, user=self.oscar)
        self.clients = {"anyone": APIClient(), "account": accounts["clients"]["outsider"],
                        "player": accounts["clients"]["ann"], "organiser": accounts["clients"]["organiser"],
                        "other organiser": client_for(self.oscar), "staff": accounts["clients"]["staff"]}

    def tournament(self, **kw) -> Tournament:
        return create_tournament(name="Cup", rounds=1, club=self.club, **kw)


def _live(w: World) -> Match:
    match = live_match(w.a, ["ann", "greedy-1"], seed="matrix")
    return match


def _finished(w: World) -> Match:
    r = w.a["clients"]["staff"].post("/api/v1/matches/", {
        "players": [w.p["greedy-1"].pk, w.p["random-1"].pk], "club": w.club.pk,
        "ruleset": {"rounds": 1}}, format="json")
    assert r.status_code == 201, r.content
    advance_match(match_id=r.json()["id"])  # the engine bots play it out (a task sent on commit elsewhere)
    return Match.objects.get(pk=r.json()["id"])


# Each action: (set up, act, what changed). `act` returns the response; `changed` whether the write took effect.
def read(w, c):
    return c.get(f"/api/v1/tournaments/{w.tournament().pk}/standings/")


def create_club_(w, c):
    r = c.post("/api/v1/clubs/", {"name": "New Club"}, format="json")
    return r, lambda: Club.objects.filter(name="New Club").exists()


def add_organiser(w, c):
    r = c.post(f"/api/v1/clubs/{w.club.pk}/admins/", {"username": "bob"}, format="json")
    return r, lambda: ClubAdmin.objects.filter(club=w.club, user__username="bob").exists()


def remove_organiser(w, c):
    add_club_admin(club=w.club, user=w.a["players"]["bob"].user)  # a second organiser: not the club's last
    r = c.delete(f"/api/v1/clubs/{w.club.pk}/admins/bob/")
    return r, lambda: not ClubAdmin.objects.filter(club=w.club, user__username="bob").exists()


def invite_organiser(w, c):
    r = c.post(f"/api/v1/clubs/{w.club.pk}/invitations/", {"email": "new@example.org"}, format="json")
    return r, lambda: OrganiserInvitation.objects.filter(club=w.club, email="new@example.org").exists()


def change_club(w, c):
    r = c.patch(f"/api/v1/clubs/{w.club.pk}/", {"description": "Thursdays"}, format="json")
    return r, lambda: Club.objects.get(pk=w.club.pk).description == "Thursdays"


def join_club(w, c):
    ann = w.p["ann"]
    ann.clubs.remove(w.club)
    r = c.post(f"/api/v1/clubs/{w.club.pk}/members/", {"player": ann.pk}, format="json")
    return r, lambda: ann.clubs.filter(pk=w.club.pk).exists()


def add_bot_to_club(w, c):
    bot = create_bot_player(name="stray", kind="random")
    r = c.post(f"/api/v1/clubs/{w.club.pk}/members/", {"player": bot.pk}, format="json")
    return r, lambda: bot.clubs.filter(pk=w.club.pk).exists()


def register_person(w, c):
    r = c.post("/api/v1/players/", {"kind": "person", "username": "ann", "name": "ann-again", "club": w.club.pk},
               format="json")
    return r, lambda: Player.objects.filter(name="ann-again").exists()


def register_bot(w, c):
    r = c.post("/api/v1/players/", {"kind": "engine_bot", "name": "nb", "bot_kind": "random", "club": w.club.pk},
               format="json")
    return r, lambda: Player.objects.filter(name="nb").exists()


def create_match(w, c):
    before = Match.objects.count()
    r = c.post("/api/v1/matches/", {"players": [w.p["ann"].pk, w.p["greedy-1"].pk], "club": w.club.pk},
               format="json")
    return r, lambda: Match.objects.count() > before


def seat_outsider(w, c):
    stray = create_bot_player(name="stray", kind="greedy")  # a member of no club
    r = c.post("/api/v1/matches/", {"players": [stray.pk, w.p["greedy-1"].pk], "club": w.club.pk}, format="json")
    return r, lambda: Match.objects.exists()


def set_deadline(w, c):
    match = _live(w)
    r = c.post(f"/api/v1/matches/{match.pk}/deadline/", {"turn_deadline_seconds": 60}, format="json")
    return r, lambda: Match.objects.get(pk=match.pk).turn_deadline_seconds == 60


def correct_result(w, c):
    match = _finished(w)
    r = c.post(f"/api/v1/matches/{match.pk}/corrections/", {"reason": "slip", "vault": [1, 0], "showroom": [0, 0]},
               format="json")
    return r, lambda: match.corrections.exists()


def create_tournament_(w, c):
    r = c.post("/api/v1/tournaments/", {"name": "T", "rounds": 1, "club": w.club.pk}, format="json")
    return r, lambda: Tournament.objects.filter(name="T").exists()


def link_foreign_season(w, c):
    foreign = create_season(league=create_league(club=w.other_club, name="Their League"), name="Theirs")
    r = c.post("/api/v1/tournaments/", {"name": "T", "rounds": 1, "club": w.club.pk, "season": foreign.pk},
               format="json")
    t = w.tournament()
    r2 = c.patch(f"/api/v1/tournaments/{t.pk}/", {"season": foreign.pk}, format="json")
    assert (r.status_code < 300) == (r2.status_code < 300)
    return r, lambda: Tournament.objects.filter(season=foreign).exists()


def change_tournament(w, c):
    t = w.tournament()
    r = c.patch(f"/api/v1/tournaments/{t.pk}/", {"name": "Renamed"}, format="json")
    return r, lambda: Tournament.objects.get(pk=t.pk).name == "Renamed"


def delete_tournament(w, c):
    t = w.tournament()
    r = c.delete(f"/api/v1/tournaments/{t.pk}/")
    return r, lambda: not Tournament.objects.filter(pk=t.pk).exists()


def enter_person(w, c):
    t = w.tournament()
    r = c.post(f"/api/v1/tournaments/{t.pk}/entries/", {"players": [w.p["ann"].pk]}, format="json")
    return r, lambda: TournamentEntry.objects.filter(tournament=t).exists()


def enter_bot(w, c):
    t = w.tournament()
    r = c.post(f"/api/v1/tournaments/{t.pk}/entries/", {"players": [w.p["greedy-1"].pk]}, format="json")
    return r, lambda: TournamentEntry.objects.filter(tournament=t).exists()


def start_round(w, c):
    t = w.tournament()
    register_players(tournament=t, players=[w.p[n] for n in ("greedy-1", "random-1", "ext-1", "ext-2")])
    r = c.post(f"/api/v1/tournaments/{t.pk}/start-round/")
    return r, lambda: t.tournament_rounds.exists()


def withdraw(w, c):
    t = w.tournament()
    register_players(tournament=t, players=[w.p["ann"], w.p["greedy-1"]])
    r = c.post(f"/api/v1/tournaments/{t.pk}/withdraw/", {"player": w.p["ann"].pk}, format="json")
    return r, lambda: not TournamentEntry.objects.get(tournament=t, player=w.p["ann"]).active


def create_league_(w, c):
    r = c.post("/api/v1/leagues/", {"club": w.club.pk, "name": "L"}, format="json")
    return r, lambda: League.objects.filter(name="L").exists()


def create_season_(w, c):
    league = create_league(club=w.club, name="Ours")
    r = c.post("/api/v1/seasons/", {"league": league.pk, "name": "S"}, format="json")
    return r, lambda: Season.objects.filter(name="S").exists()


def create_ladder_(w, c):
    r = c.post("/api/v1/ladders/", {"name": "Lad", "club": w.club.pk}, format="json")
    return r, lambda: w.club.ladders.exists()


def join_ladder_(w, c):
    ladder = create_ladder(name="Lad", club=w.club)
    r = c.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [w.p["ann"].pk]}, format="json")
    return r, lambda: LadderEntry.objects.filter(ladder=ladder).exists()


def add_bot_to_ladder(w, c):
    ladder = create_ladder(name="Lad", club=w.club)
    r = c.post(f"/api/v1/ladders/{ladder.pk}/join/", {"players": [w.p["greedy-1"].pk]}, format="json")
    return r, lambda: LadderEntry.objects.filter(ladder=ladder).exists()


def leave_ladder(w, c):
    ladder = create_ladder(name="Lad", club=w.club)
    join_ladder(ladder=ladder, players=[w.p["ann"]])
    r = c.post(f"/api/v1/ladders/{ladder.pk}/leave/", {"player": w.p["ann"].pk}, format="json")
    return r, lambda: not LadderEntry.objects.get(ladder=ladder).active


def legal(w, c):
    match = _live(w)
    return c.get(f"/api/v1/matches/{match.pk}/legal/?seat=0")


def decide(w, c):
    match = _live(w)
    mine = w.a["clients"]["ann"].get(f"/api/v1/matches/{match.pk}/legal/").json()
    assert mine["my_turn"]
    body = {"move_number": mine["move_number"], "decision": choose(mine, random.Random(1)), "seat": mine["seat"]}
    r = c.post(f"/api/v1/matches/{match.pk}/decisions/", body, format="json")
    return r, lambda: Match.objects.get(pk=match.pk).move_number > mine["move_number"]


ACTIONS = {
    "read": read, "create-club": create_club_, "add-organiser": add_organiser, "join-club": join_club,
    "remove-organiser": remove_organiser, "invite-organiser": invite_organiser, "change-club": change_club,
    "add-bot-to-club": add_bot_to_club, "register-person": register_person, "register-bot": register_bot,
    "create-match": create_match, "seat-outsider": seat_outsider, "set-deadline": set_deadline,
    "correct-result": correct_result, "create-tournament": create_tournament_,
    "link-foreign-season": link_foreign_season, "change-tournament": change_tournament,
    "delete-tournament": delete_tournament, "enter-person": enter_person, "enter-bot": enter_bot,
    "start-round": start_round, "withdraw": withdraw, "create-league": create_league_,
    "create-season": create_season_, "create-ladder": create_ladder_, "join-ladder": join_ladder_,
    "add-bot-to-ladder": add_bot_to_ladder, "leave-ladder": leave_ladder, "legal": legal, "decide": decide,
}


def test_every_row_of_the_readme_matrix_is_an_action_here():
    assert {action for action, _, _ in CELLS} == set(ACTIONS)


@pytest.mark.parametrize("action,role,allowed", [c for c in CELLS if c[2] is not None],
                         ids=[f"{a}-{r.replace(' ', '_')}" for a, r, v in CELLS if v is not None])
def test_permission_matrix_cell(accounts, action, role, allowed):
    w = World(accounts)
    outcome = ACTIONS[action](w, w.clients[role])
    response, changed = outcome if isinstance(outcome, tuple) else (outcome, None)
    if allowed:
        assert 200 <= response.status_code < 300, (action, role, response.status_code, response.content[:300])
        if changed is not None:
            assert changed(), (action, role, "answered 2xx but nothing changed")
    else:
        assert response.status_code in (401, 403), (action, role, response.status_code, response.content[:300])
        if changed is not None:
            assert not changed(), (action, role, "refused but changed")


def test_the_website_and_the_api_take_their_decisions_from_league_permissions():
    root = README.parents[1]
    for path in ("web/views.py", "web/play.py", "api/clubs.py", "api/players.py", "api/matches.py",
                 "api/tournaments.py", "api/ratings.py", "api/competitions.py", "api/me.py"):
        source = (root / path).read_text()
        assert "def organises" not in source and "from api.permissions import organises" not in source, path
    assert "from league.permissions import" in (root / "web/views.py").read_text()


def test_the_websites_registration_form_refuses_a_person_as_the_api_does(accounts):
    from django.test import Client

    w = World(accounts)
    t = w.tournament()
    browser = Client()
    browser.force_login(accounts["organiser"])
    r = browser.post(f"/tournaments/{t.pk}/register/", {"players": [w.p["ann"].pk]})
    assert r.status_code == 403 and b"only they may enter themselves" in r.content
    assert not TournamentEntry.objects.filter(tournament=t).exists()
    page = browser.get(f"/tournaments/{t.pk}/").content.decode()
    bots_form = page.split(f'action="/tournaments/{t.pk}/register/"')[1].split("</form>")[0]
    assert f'value="{w.p["greedy-1"].pk}"' in bots_form and f'value="{w.p["ann"].pk}"' not in bots_form
    # Issue 28: the club's members are entered by its organisers in their own form (web/entering.py), which a
    # member leaves by withdrawing themselves.
    members_form = page.split(f'action="/tournaments/{t.pk}/enter-players/"')[1].split("</form>")[0]
    assert f'value="{w.p["ann"].pk}"' in members_form


def test_an_organiser_cannot_take_another_clubs_bot_into_their_club(accounts):
    w = World(accounts)
    bot = w.p["greedy-1"]  # the accounts' club's bot
    r = w.clients["other organiser"].post(f"/api/v1/clubs/{w.other_club.pk}/members/", {"player": bot.pk},
                                          format="json")
    assert r.status_code == 403 and not bot.clubs.filter(pk=w.other_club.pk).exists()
    add_club_admin(club=w.other_club, user=accounts["organiser"])  # organising both, olga may
    r = w.clients["organiser"].post(f"/api/v1/clubs/{w.other_club.pk}/members/", {"player": bot.pk},
                                    format="json")
    assert r.status_code == 201 and bot.clubs.filter(pk=w.other_club.pk).exists()
