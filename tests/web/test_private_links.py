"""Private links (issue 28, "Private links, as Tabbycat's private URLs"): every entrant of a club evening, guest or
member, opens their own page without an account; it reaches their own table only, is refused once revoked, and only
the club's organisers issue, revoke and print them (QR codes on the sheet and slips)."""

from __future__ import annotations

import logging
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league.models import (
    ClubAdmin,
    EntryStatus,
    Match,
    MatchSeat,
    MatchStatus,
    PrivateLink,
    ResultEntry,
    TournamentEntry,
)
from league.selectors.private_links import link_token
from league.services import create_club, create_person_player, start_tournament
from league.services.competition import TournamentError
from league.services.ladders import create_ladder, join_ladder
from league.services.private_links import issue_link, issue_links
from league.services.registration import register_players
from league.services.roster import add_guests
from league.services.tournament_setup import create_tournament
from runtime.secrecy import RedactSecrets

pytestmark = pytest.mark.django_db
User = get_user_model()


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form(vault, showroom):
    data = {}
    for i, (v, s) in enumerate(zip(vault, showroom)):
        data[f"vault_{i}"], data[f"showroom_{i}"] = str(v), str(s)
    return data


@pytest.fixture
def evening(django_capture_on_commit_callbacks):
    """A club's Swiss evening with real cards for 10: 4 guests pasted in and 6 members, all entered by the organiser
    on the tournament page; round 1 seated and started."""
    club = create_club(name="Club")
    organiser = User.objects.create_user("org")
    ClubAdmin.objects.create(club=club, user=organiser)
    guests = add_guests(club=club, names=["Gina", "Gus", "Gemma", "Gil"])
    members = [create_person_player(user=User.objects.create_user(f"member{i}"), name=f"Member{i}", clubs=[club])
               for i in range(6)]
    tournament = create_tournament(name="Thursday", rounds=3, club=club, offline_tables=True, format="swiss",
                                   table_size=4)
    org = client_of(organiser)
    page = org.get(f"/tournaments/{tournament.pk}/").content.decode()
    for p in guests + members:
        assert f'value="{p.pk}"' in page  # offered in the organiser's entering form
    response = org.post(f"/tournaments/{tournament.pk}/enter-players/",
                        {"players": [str(p.pk) for p in guests + members]})
    assert response.status_code == 302
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 10
    with django_capture_on_commit_callbacks(execute=True):
        rnd = start_tournament(tournament=tournament)
    issue_links(tournament=tournament)
    tables = list(Match.objects.filter(tournament_round=rnd).order_by("table_number"))
    return {"club": club, "organiser": organiser, "org": org, "guests": guests, "members": members,
            "tournament": tournament, "round": rnd, "tables": tables}


def token_of(player, tournament) -> str:
    return link_token(PrivateLink.objects.get(entry__tournament=tournament, entry__player=player))


def seated(match) -> list:
    return [ms.player for ms in MatchSeat.objects.filter(match=match).select_related("player").order_by("seat")]


def test_four_guests_and_six_members_entered_by_the_organiser_are_seated_in_round_one(evening):
    """Issue 28: an organiser enters 4 guests and 6 members into a Swiss evening and seats round 1."""
    seated_ids = set(MatchSeat.objects.filter(match__tournament_round=evening["round"]).values_list("player_id",
                                                                                                   flat=True))
    everyone = {p.pk for p in evening["guests"] + evening["members"]}
    assert seated_ids == everyone  # 10 at tables of 4: one of 4 and two of 3, no bye
    assert len(evening["tables"]) == 3 and all(m.offline for m in evening["tables"])
    # A guest never plays online, and a table of real cards runs no turn deadline (create_match's rule: offline
    # tables keep what they were given, here none).
    assert all(m.turn_deadline_seconds is None and m.deadline_at is None for m in evening["tables"])


def _guest_table(evening):
    """A table with a guest at it, and that guest."""
    guest_ids = {g.pk for g in evening["guests"]}
    for match in evening["tables"]:
        for p in seated(match):
            if p.pk in guest_ids:
                return match, p
    raise AssertionError("no guest seated")


def test_a_link_shows_its_table_seat_and_dealer_and_standings_without_an_account(evening):
    match, guest = _guest_table(evening)
    token = token_of(guest, evening["tournament"])
    response = Client().get(f"/p/{token}/")
    html = response.content.decode()
    assert response.status_code == 200
    seat = MatchSeat.objects.get(match=match, player=guest).seat
    assert f"You sit at seat {seat + 1}." in html and "deals first" in html
    assert f"table {match.table_number}" in html and "Standings" in html
    assert 'inputmode="numeric"' in html  # the table's result form
    assert "no-store" in response["Cache-Control"] and response["Referrer-Policy"] == "same-origin"
    # Nothing of anyone else's link, and no organiser's action.
    others = [token_of(p, evening["tournament"]) for p in evening["members"]]
    assert not any(t in html for t in others)
    assert "/links/" not in html and "start-round" not in html and "/swap/" not in html


def test_a_guest_enters_through_their_link_and_a_member_confirms_through_theirs(
        evening, django_capture_on_commit_callbacks):
    """A private link enters its table's result and another's link confirms it; the enterer cannot confirm their own."""
    match, guest = _guest_table(evening)
    players = seated(match)
    other = next(p for p in players if p.pk != guest.pk)
    token, other_token = token_of(guest, evening["tournament"]), token_of(other, evening["tournament"])
    n = len(players)
    figures = form([10, 4, 0, 7][:n], [3, 8, 12, 2][:n])
    anonymous = Client(enforce_csrf_checks=True)
    page = anonymous.get(f"/p/{token}/").content.decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert anonymous.post(f"/p/{token}/tables/{match.pk}/result/", figures).status_code == 403  # no CSRF token
    response = anonymous.post(f"/p/{token}/tables/{match.pk}/result/", {**figures, "csrfmiddlewaretoken": csrf})
    assert response.status_code == 302
    entry = ResultEntry.objects.get(match=match)
    assert entry.entered_by is None and entry.entered_by_player == guest and entry.status == EntryStatus.ENTERED
    own = Client().get(f"/p/{token}/").content.decode()
    assert f"/result/{entry.pk}/confirm/" not in own and f"entered by {guest.name}" in own
    refused = Client().post(f"/p/{token}/tables/{match.pk}/result/{entry.pk}/confirm/")
    assert refused.status_code == 302 and ResultEntry.objects.get(pk=entry.pk).status == EntryStatus.ENTERED
    theirs = Client().get(f"/p/{other_token}/").content.decode()
    assert f"/p/{other_token}/tables/{match.pk}/result/{entry.pk}/confirm/" in theirs
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(f"/p/{other_token}/tables/{match.pk}/result/{entry.pk}/confirm/")
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and entry.decided_by_player == other
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED


def test_a_member_cannot_confirm_through_their_link_what_they_entered_signed_in(evening):
    """Nobody confirms their own entry: by account, then by link, is still the same seat."""
    match = next(m for m in evening["tables"] if any(p.user_id for p in seated(m)))
    member = next(p for p in seated(match) if p.user_id)
    n = len(seated(match))
    client_of(member.user).post(f"/matches/{match.pk}/result/", form([10, 4, 0, 7][:n], [3, 8, 12, 2][:n]))
    entry = ResultEntry.objects.get(match=match)
    token = token_of(member, evening["tournament"])
    assert f"/result/{entry.pk}/confirm/" not in Client().get(f"/p/{token}/").content.decode()
    Client().post(f"/p/{token}/tables/{match.pk}/result/{entry.pk}/confirm/")
    assert ResultEntry.objects.get(pk=entry.pk).status == EntryStatus.ENTERED


def test_a_link_reaches_no_other_table(evening):
    match, guest = _guest_table(evening)
    token = token_of(guest, evening["tournament"])
    elsewhere = next(m for m in evening["tables"] if m.pk != match.pk)
    n = len(seated(elsewhere))
    response = Client().post(f"/p/{token}/tables/{elsewhere.pk}/result/", form([1] * n, [1] * n))
    assert response.status_code == 404 and not ResultEntry.objects.exists()
    assert Client().get(f"/p/{token}/tables/{elsewhere.pk}/result/").status_code == 405


def test_a_revoked_or_reissued_link_is_refused_and_changes_nothing(evening):
    match, guest = _guest_table(evening)
    token = token_of(guest, evening["tournament"])
    entry = TournamentEntry.objects.get(tournament=evening["tournament"], player=guest)
    n = len(seated(match))
    org = evening["org"]
    assert org.post(f"/tournaments/{evening['tournament'].pk}/links/{entry.pk}/revoke/").status_code == 302
    assert Client().get(f"/p/{token}/").status_code == 404
    assert Client().post(f"/p/{token}/tables/{match.pk}/result/", form([1] * n, [1] * n)).status_code == 404
    assert not ResultEntry.objects.exists()
    new = issue_link(entry=entry)
    assert new != token and Client().get(f"/p/{new}/").status_code == 200
    assert Client().get(f"/p/{token}/").status_code == 404
    assert Client().get("/p/not-a-token/").status_code == 404


def test_a_link_is_refused_for_another_clubs_tournament(evening, django_capture_on_commit_callbacks):
    """A link opens its own tournament only: a table of another club's evening is not reached with it."""
    other_club = create_club(name="Other")
    people = [create_person_player(user=User.objects.create_user(f"o{i}"), name=f"O{i}", clubs=[other_club])
              for i in range(4)]
    other = create_tournament(name="Elsewhere", rounds=1, club=other_club, offline_tables=True)
    for p in people:
        TournamentEntry.objects.create(tournament=other, player=p)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = start_tournament(tournament=other)
    far = Match.objects.get(tournament_round=rnd)
    _match, guest = _guest_table(evening)
    token = token_of(guest, evening["tournament"])
    assert Client().post(f"/p/{token}/tables/{far.pk}/result/", form([1] * 4, [1] * 4)).status_code == 404
    assert not ResultEntry.objects.filter(match=far).exists()


def test_an_organiser_of_another_club_can_do_none_of_it(evening):
    """Issue 28: an organiser of another club cannot see, issue or revoke the links, nor enter players."""
    stranger = User.objects.create_user("other-org")
    ClubAdmin.objects.create(club=create_club(name="Elsewhere"), user=stranger)
    them = client_of(stranger)
    t = evening["tournament"]
    entry = TournamentEntry.objects.filter(tournament=t).first()
    before = token_of(entry.player, t)
    assert them.get(f"/tournaments/{t.pk}/links/").status_code == 403
    assert them.post(f"/tournaments/{t.pk}/links/issue/").status_code == 403
    assert them.post(f"/tournaments/{t.pk}/links/{entry.pk}/issue/").status_code == 403
    assert them.post(f"/tournaments/{t.pk}/links/{entry.pk}/revoke/").status_code == 403
    assert token_of(entry.player, t) == before
    assert PrivateLink.objects.filter(revoked_at__isnull=False).count() == 0
    guest = add_guests(club=evening["club"], names=["Late Guest"])[0]
    assert them.post(f"/tournaments/{t.pk}/enter-players/", {"players": [guest.pk]}).status_code == 403
    assert not TournamentEntry.objects.filter(player=guest).exists()
    sheet = them.get(f"/tournaments/{t.pk}/rounds/1/sheet/").content.decode()
    assert "/p/" not in sheet


def test_qr_codes_on_the_sheet_and_slips_for_organisers_only(evening):
    t = evening["tournament"]
    for page in ("sheet", "slips"):
        response = evening["org"].get(f"/tournaments/{t.pk}/rounds/1/{page}/")
        html = response.content.decode()
        assert html.count('<svg role="img" aria-label="QR code of a private link"') >= 8
        assert "no-store" in response["Cache-Control"]
        public = Client().get(f"/tournaments/{t.pk}/rounds/1/{page}/").content.decode()
        assert "<svg role=\"img\" aria-label=\"QR code" not in public
        member = client_of(evening["members"][0].user).get(f"/tournaments/{t.pk}/rounds/1/{page}/").content.decode()
        assert "QR code" not in member


def test_the_organisers_links_page_lists_every_link_with_its_qr_code(evening):
    t = evening["tournament"]
    response = evening["org"].get(f"/tournaments/{t.pk}/links/")
    html = response.content.decode()
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    for p in evening["guests"] + evening["members"]:
        assert f"/p/{token_of(p, t)}/" in html
    assert html.count("<svg role=\"img\"") == 10


def test_private_links_and_claim_codes_are_redacted_in_access_logs(evening):
    """A private link's token is in the path (runtime.secrecy redacts it), as is a claim code, also URL-encoded in a
    sign-in's ?next=."""
    token = token_of(evening["guests"][0], evening["tournament"])
    for line in (f"GET /p/{token}/ HTTP/1.1", f"POST /p/{token}/tables/3/result/ HTTP/1.1",
                 f"GET /claim/{token}/ HTTP/1.1", f"GET /accounts/login/?next=%2Fclaim%2F{token}%2F HTTP/1.1"):
        record = logging.LogRecord("gunicorn.access", logging.INFO, "", 0, '"%s" %s', (line, "200"), None)
        RedactSecrets().filter(record)
        assert token not in record.getMessage() and "[redacted]" in record.getMessage()


def test_a_guest_cannot_be_entered_in_an_online_tournament_or_a_ladder(evening):
    guest = add_guests(club=evening["club"], names=["Online Guest"])[0]
    online = create_tournament(name="Online", rounds=1, club=evening["club"])
    with pytest.raises(TournamentError, match="real cards"):
        register_players(tournament=online, players=[guest])
    ladder = create_ladder(name="Ladder", club=evening["club"])
    with pytest.raises(TournamentError, match="ladder"):
        join_ladder(ladder=ladder, players=[guest])


def test_slips_printed_before_the_links_say_so_and_issue_them_in_one_tap(evening):
    """An organiser who prints a round's slips before issuing the links is told who has none (no QR code would be
    printed for them) and issues them from there, back on the same page with every QR code."""
    t = evening["tournament"]
    PrivateLink.objects.filter(entry__tournament=t).delete()
    for page in ("sheet", "slips"):
        html = evening["org"].get(f"/tournaments/{t.pk}/rounds/1/{page}/").content.decode()
        assert "10 players here have no private link yet" in html and "QR code of a private link" not in html
        member = client_of(evening["members"][0].user).get(f"/tournaments/{t.pk}/rounds/1/{page}/").content.decode()
        assert "no private link yet" not in member and "/links/issue/" not in member
    response = evening["org"].post(f"/tournaments/{t.pk}/links/issue/", {"back_to": "slips", "round": "1"})
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{t.pk}/rounds/1/slips/"
    html = evening["org"].get(response["Location"]).content.decode()
    assert "no private link yet" not in html and html.count('aria-label="QR code of a private link"') == 10
    # Anything else to go back to is ignored: the links page.
    for back in ({"back_to": "https://evil.example/", "round": "1"}, {"back_to": "slips", "round": "1/../../x"}):
        response = evening["org"].post(f"/tournaments/{t.pk}/links/issue/", back)
        assert response["Location"] == f"/tournaments/{t.pk}/links/"
