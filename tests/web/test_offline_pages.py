"""The website's side of a club evening with real cards: an offline table's page and result form, and the printable
table sheet, score slips and standings."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league.models import ClubAdmin, EntryStatus, Match, MatchSeat, MatchStatus, ResultEntry
from league.services import create_club, create_person_player, register_players, start_tournament
from league.services.tournament_setup import create_tournament

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def evening(django_capture_on_commit_callbacks):
    club = create_club(name="Club")
    organiser = User.objects.create_user("org")
    ClubAdmin.objects.create(club=club, user=organiser)
    users = [User.objects.create_user(f"player{i}") for i in range(8)]
    players = [create_person_player(user=u, name=f"Name{i}", clubs=[club]) for i, u in enumerate(users)]
    tournament = create_tournament(name="Thursday", rounds=2, club=club, offline_tables=True)
    register_players(tournament=tournament, players=players)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = start_tournament(tournament=tournament)
    tables = list(Match.objects.filter(tournament_round=rnd).order_by("table_number"))
    return {"tournament": tournament, "round": rnd, "tables": tables, "organiser": organiser}


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seat_users(match):
    return {ms.seat: ms.player.user for ms in MatchSeat.objects.filter(match=match).select_related("player")}


def form(vault, showroom):
    data = {}
    for i, (v, s) in enumerate(zip(vault, showroom)):
        data[f"vault_{i}"], data[f"showroom_{i}"] = str(v), str(s)
    return data


def test_a_table_page_has_the_seating_and_a_phone_form_for_its_players_only(evening):
    match = evening["tables"][0]
    users = seat_users(match)
    html = client_of(users[0]).get(f"/matches/{match.pk}/").content.decode()
    assert "Table 1" in html and "real cards" in html and "deals first" in html
    assert html.count('inputmode="numeric"') == 8  # vault and showroom for each of the four seats
    stranger = User.objects.create_user("stranger")
    html = client_of(stranger).get(f"/matches/{match.pk}/").content.decode()
    assert 'inputmode="numeric"' not in html and "Versions entered" not in html
    response = client_of(stranger).post(f"/matches/{match.pk}/result/", form([1, 2, 3, 4], [3, 3, 3, 3]))
    assert response.status_code == 403 and not ResultEntry.objects.exists()


def test_entering_and_confirming_through_the_pages(evening, django_capture_on_commit_callbacks):
    match = evening["tables"][0]
    users = seat_users(match)
    response = client_of(users[0]).post(f"/matches/{match.pk}/result/", form([10, 4, 0, 7], [3, 8, 12, 2]))
    assert response.status_code == 302
    entry = ResultEntry.objects.get(match=match)
    assert entry.status == EntryStatus.ENTERED and entry.figures == {"vault": [10, 4, 0, 7],
                                                                     "showroom": [3, 8, 12, 2]}
    # The enterer sees no confirm button; another player does.
    own = client_of(users[0]).get(f"/matches/{match.pk}/").content.decode()
    assert "Confirm this result" not in own and "Versions entered" in own
    other = client_of(users[1]).get(f"/matches/{match.pk}/").content.decode()
    assert f"/matches/{match.pk}/result/{entry.pk}/confirm/" in other
    with django_capture_on_commit_callbacks(execute=True):
        client_of(users[1]).post(f"/matches/{match.pk}/result/{entry.pk}/confirm/")
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED


def test_a_refused_entry_shows_what_is_wrong_and_keeps_the_figures(evening):
    match = evening["tables"][0]
    users = seat_users(match)
    data = form([10, 4, 0, 7], [3, 8, 12, 2])
    data["vault_1"], data["showroom_2"] = "-4", ""
    response = client_of(users[0]).post(f"/matches/{match.pk}/result/", data)
    html = response.content.decode()
    assert response.status_code == 400
    assert "seat 2&#x27;s vault cannot be negative" in html and "seat 3 has no showroom" in html
    assert 'value="10"' in html and 'value="-4"' in html
    assert not ResultEntry.objects.exists()


def test_a_dispute_is_flagged_on_the_tournament_page_for_the_organiser(evening):
    match = evening["tables"][1]
    users = seat_users(match)
    client_of(users[0]).post(f"/matches/{match.pk}/result/", form([10, 4, 0, 7], [3, 8, 12, 2]))
    client_of(users[1]).post(f"/matches/{match.pk}/result/", form([10, 4, 0, 8], [3, 8, 12, 2]))
    page = client_of(evening["organiser"]).get(f"/tournaments/{evening['tournament'].pk}/").content.decode()
    assert "Results to settle" in page and "Round 1, table 2" in page
    html = client_of(evening["organiser"]).get(f"/matches/{match.pk}/").content.decode()
    assert "The table disagrees" in html and html.count("Make this version final") == 2


def test_the_print_pages_show_each_table_its_seats_and_its_first_dealer(evening):
    t = evening["tournament"]
    client = Client()
    sheet = client.get(f"/tournaments/{t.pk}/rounds/1/sheet/").content.decode()
    for match in evening["tables"]:
        names = [ms.player.name for ms in MatchSeat.objects.filter(match=match).order_by("seat").select_related(
            "player")]
        section = sheet.split(f"Table {match.table_number}", 1)[1]
        rows = re.findall(r"<th scope=\"row\">Seat (\d)</th><td>([^<]+)</td><td>(.*?)</td>", section)[:4]
        assert [(int(n), name) for n, name, _ in rows] == [(s + 1, names[s]) for s in range(4)]
        dealer_rows = [int(n) for n, _, mark in rows if "deals first" in mark]
        assert dealer_rows == [match.first_dealer + 1]
    slips = client.get(f"/tournaments/{t.pk}/rounds/1/slips/").content.decode()
    assert slips.count('class="slip"') == 2 and slips.count('class="box signature"') == 8
    assert "Vault" in slips and "Showroom" in slips and "Signature" in slips
    standings = client.get(f"/tournaments/{t.pk}/standings/print/").content.decode()
    assert all(f"Name{i}" in standings for i in range(8))
    assert client.get(f"/tournaments/{t.pk}/rounds/9/sheet/").status_code == 404
    tournament_page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert f"/tournaments/{t.pk}/rounds/1/slips/" in tournament_page
    assert f"/tournaments/{t.pk}/standings/print/" in tournament_page


def test_the_print_css_hides_the_navigation():
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "site.css").read_text()
    block = css.split("@media print", 1)[1]
    assert "header.site" in block and "nav" in block and "display: none" in block


def test_an_organiser_switches_a_table_that_has_not_begun_to_real_cards_and_back(django_capture_on_commit_callbacks):
    club = create_club(name="Club")
    organiser = User.objects.create_user("org")
    ClubAdmin.objects.create(club=club, user=organiser)
    users = [User.objects.create_user(f"p{i}") for i in range(4)]
    players = [create_person_player(user=u, clubs=[club]) for u in users]
    tournament = create_tournament(name="Mixed", rounds=1, club=club)
    register_players(tournament=tournament, players=players)
    with django_capture_on_commit_callbacks(execute=True):
        match = Match.objects.get(tournament_round=start_tournament(tournament=tournament))
    page = client_of(organiser).get(f"/matches/{match.pk}/").content.decode()
    assert "Play this table with real cards" in page
    assert "Play this table with real cards" not in client_of(users[0]).get(f"/matches/{match.pk}/").content.decode()
    assert client_of(users[0]).post(f"/matches/{match.pk}/offline/", {"offline": "1"}).status_code == 403
    assert MatchSeat.objects.filter(match=match, awaiting=True).exists()  # online, a person owes the first decision
    client_of(organiser).post(f"/matches/{match.pk}/offline/", {"offline": "1"})
    assert Match.objects.get(pk=match.pk).offline
    assert not MatchSeat.objects.filter(match=match, awaiting=True).exists()
    page = client_of(organiser).get(f"/matches/{match.pk}/").content.decode()
    assert "Play this table online instead" in page and "Enter the result" in page
    with django_capture_on_commit_callbacks(execute=True):
        client_of(organiser).post(f"/matches/{match.pk}/offline/", {"offline": "0"})
    assert not Match.objects.get(pk=match.pk).offline


def test_the_result_history_reads_as_people_write_it(evening, django_capture_on_commit_callbacks):
    """Issue 28: each version's line says who entered it, who confirmed it, and who settled a dispute, in words."""
    confirmed, disputed = evening["tables"][0], evening["tables"][1]
    users = seat_users(confirmed)
    first, second = users[0].get_username(), users[1].get_username()
    client_of(users[0]).post(f"/matches/{confirmed.pk}/result/", form([10, 4, 0, 7], [3, 8, 12, 2]))
    html = client_of(users[1]).get(f"/matches/{confirmed.pk}/").content.decode()
    assert re.search(rf"entered by {first} at \d\d:\d\d, waiting for a second player to confirm", html)
    entry = ResultEntry.objects.get(match=confirmed)
    with django_capture_on_commit_callbacks(execute=True):
        client_of(users[1]).post(f"/matches/{confirmed.pk}/result/{entry.pk}/confirm/")
    html = client_of(users[0]).get(f"/matches/{confirmed.pk}/").content.decode()
    assert re.search(rf"entered by {first} at \d\d:\d\d, confirmed by {second}", html)

    users = seat_users(disputed)
    client_of(users[0]).post(f"/matches/{disputed.pk}/result/", form([10, 4, 0, 7], [3, 8, 12, 2]))
    client_of(users[1]).post(f"/matches/{disputed.pk}/result/", form([10, 4, 0, 8], [3, 8, 12, 2]))
    html = client_of(users[2]).get(f"/matches/{disputed.pk}/").content.decode()
    assert html.count("the table disagrees, waiting for an organiser to settle it") == 2
    chosen = ResultEntry.objects.filter(match=disputed, entered_by=users[1]).get()
    with django_capture_on_commit_callbacks(execute=True):
        client_of(evening["organiser"]).post(f"/matches/{disputed.pk}/result/{chosen.pk}/confirm/")
    html = client_of(users[2]).get(f"/matches/{disputed.pk}/").content.decode()
    assert re.search(rf"entered by {users[1].get_username()} at \d\d:\d\d, settled by org \(organiser\)", html)
    assert re.search(rf"entered by {users[0].get_username()} at \d\d:\d\d, set aside when org made another "
                     "version final", html)


def test_the_next_round_button_is_not_offered_while_a_round_is_played(evening, django_capture_on_commit_callbacks):
    """Issue 28: with automatic advancing on, "Seat and start the next round" was offered while round 1 was still
    being played. It is offered only once no round is in play (here: automatic advancing off, round 1 closed)."""
    tournament, organiser = evening["tournament"], client_of(evening["organiser"])
    start_url = f"/tournaments/{tournament.pk}/start-round/"
    page = organiser.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert start_url not in page
    assert "Round 1 is being played: the next round is seated and started by itself" in page
    type(tournament).objects.filter(pk=tournament.pk).update(auto_advance=False)
    for match in evening["tables"]:
        with django_capture_on_commit_callbacks(execute=True):
            organiser.post(f"/matches/{match.pk}/result/", form([10, 4, 0, 7], [3, 8, 12, 2]))
    page = organiser.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert start_url in page and "is being played" not in page
