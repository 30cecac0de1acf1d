"""A club's roster of players without accounts on the website (issue 28, "Players without accounts"): guests pasted
or read from a CSV file after a preview that names each bad line and creates nothing until confirmed; renaming;
merging; a one-time claim code with which a signed-in, verified person takes a guest's history and rating. Only the
club's organisers keep the roster; hostile input gets a clear 4xx, never a 500."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from league.models import ClaimCode, ClubAdmin, Match, Player, Rating
from league.services import create_club, create_person_player, start_tournament
from league.services.accounts import ensure_person
from league.services.offline_results import enter_result
from league.services.registration import register_players
from league.services.roster import add_guests
from league.services.tournament_setup import create_tournament

pytestmark = pytest.mark.django_db
User = get_user_model()


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def club():
    club = create_club(name="Club")
    organiser = User.objects.create_user("org")
    ClubAdmin.objects.create(club=club, user=organiser)
    create_person_player(user=User.objects.create_user("anna"), name="Anna", clubs=[club])
    return {"club": club, "org": client_of(organiser), "organiser": organiser}


def guest_names(club) -> list[str]:
    return sorted(Player.objects.filter(guest_club=club).values_list("name", flat=True))


def csv_file(text: str | bytes, name: str = "roster.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode() if isinstance(text, str) else text, content_type="text/csv")


def test_pasted_names_are_previewed_then_added_on_confirmation(club):
    c = club["club"]
    url = f"/clubs/{c.pk}/roster/"
    page = club["org"].get(url)
    assert page.status_code == 200 and "Roster" in page.content.decode()
    preview = club["org"].post(url + "preview/", {"names": "Gina\n\n  Gus  \nGemma\nGil\n"})
    html = preview.content.decode()
    assert preview.status_code == 200 and "Add 4 guests" in html
    assert guest_names(c) == []  # the preview creates nothing
    names = re.findall(r'<input type="hidden" name="name" value="([^"]+)">', html)
    assert names == ["Gina", "Gus", "Gemma", "Gil"]
    assert club["org"].post(url + "add/", {"name": names}).status_code == 302
    assert guest_names(c) == ["Gemma", "Gil", "Gina", "Gus"]
    guest = Player.objects.get(name="Gina")
    assert guest.is_guest and guest.user_id is None and not guest.bot_kind and c in guest.clubs.all()
    # They appear on the club's pages and have a player page of their own.
    assert "Gina" in club["org"].get(url).content.decode()
    assert Client().get(f"/players/{guest.pk}/").status_code == 200


def test_a_csv_preview_names_each_bad_line_and_creates_nothing(club):
    c = club["club"]
    text = ("name,email\n"
            "Gina,g@example.org\n"
            ",nobody@example.org\n"        # empty
            f"{'x' * 101},long@example.org\n"  # too long
            "gina,again@example.org\n"     # the same as line 2
            "Аnna,cyrillic@example.org\n"  # looks like Anna, another player (a Cyrillic А)
            "house-random-1,\n"            # reserved for the house's bots
            "=cmd|' /C calc'!A0,\n"        # a spreadsheet formula
            "Gus,\n")
    response = club["org"].post(f"/clubs/{c.pk}/roster/preview/", {"roster_file": csv_file(text)})
    html = response.content.decode()
    assert response.status_code == 400
    rows = re.findall(r'<tr class="bad-line"><td>(\d+)</td>', html)
    assert rows == ["3", "4", "5", "6", "7", "8"]
    assert "A name has 1 to 100 visible characters." in html
    assert "The same name as line 2" in html and "looks too much like Anna" in html
    assert "kept for the house" in html and "formula" in html
    assert "roster/add/" not in html and 'name="name"' not in html  # nothing to confirm while a line is bad
    assert guest_names(c) == []
    # Confirming the bad names by hand is refused too, all of them.
    response = club["org"].post(f"/clubs/{c.pk}/roster/add/", {"name": ["Gina", "=cmd"]})
    assert response.status_code == 400 and guest_names(c) == []


@pytest.mark.parametrize("upload, status, message", [
    (b"name\n" + b"a" * 10_000_000, 413, "at most 262144 bytes"),  # refused before anything reads it (api.parsers)
    (b"name\n" + b"b\n" * 75_000, 400, "too big"),  # under the request limit, over a roster's
    (bytes(range(256)) * 4, 400, "not a CSV file"),
    (b"nom,prenom\nGina,G\n", 400, "“name”"),
    (b"", 400, "empty"),
])
def test_hostile_files_are_refused_clearly(club, upload, status, message):
    c = club["club"]
    response = club["org"].post(f"/clubs/{c.pk}/roster/preview/", {"roster_file": csv_file(upload)})
    assert response.status_code == status and message in response.content.decode()
    assert guest_names(c) == []


def test_html_and_long_names_in_a_paste_are_escaped_or_refused(club):
    c = club["club"]
    response = club["org"].post(f"/clubs/{c.pk}/roster/preview/",
                                {"names": "<script>alert(1)</script>\n" + "y" * 500})
    html = response.content.decode()
    assert response.status_code == 400 and "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html
    response = club["org"].post(f"/clubs/{c.pk}/roster/preview/", {"names": "z\n" * 100_000})
    assert response.status_code == 400 and guest_names(c) == []


def test_rename_and_merge_on_the_roster(club):
    c = club["club"]
    gina, gina2, gus = add_guests(club=c, names=["Gina", "Gina B", "Gus"])
    url = f"/clubs/{c.pk}/roster/"
    assert club["org"].post(url + f"{gus.pk}/rename/", {"name": "Gustave"}).status_code == 302
    assert Player.objects.get(pk=gus.pk).name == "Gustave"
    assert club["org"].post(url + f"{gus.pk}/rename/", {"name": "Anna"}).status_code == 400
    assert club["org"].post(url + "merge/", {"source": gina2.pk, "target": gina.pk}).status_code == 302
    assert guest_names(c) == ["Gina", "Gustave"]
    assert club["org"].post(url + "merge/", {"source": gina.pk, "target": gina.pk}).status_code == 400


def _rated_history(club, guest, django_capture_on_commit_callbacks):
    """The guest plays one rated table with real cards and its result is final: they have a global rating."""
    people = [create_person_player(user=User.objects.create_user(f"p{i}"), name=f"P{i}", clubs=[club["club"]])
              for i in range(3)]
    t = create_tournament(name="Night", rounds=1, club=club["club"], offline_tables=True)
    register_players(tournament=t, players=[guest, *people])
    with django_capture_on_commit_callbacks(execute=True):
        rnd = start_tournament(tournament=t)
    match = Match.objects.get(tournament_round=rnd)
    with django_capture_on_commit_callbacks(execute=True):
        enter_result(match=match, user=club["organiser"], figures={"vault": [10, 4, 0, 7], "showroom": [3, 8, 12, 2]})
    return Rating.objects.get(player=guest, ladder__isnull=True, game="diamonds")


def test_a_guest_claims_their_history_and_their_rating_carries_over(club, django_capture_on_commit_callbacks):
    """Issue 28: the claim binds only by the signed-in person's own POST, once; the person's rating after the claim
    equals the guest's."""
    c = club["club"]
    guest = add_guests(club=c, names=["Gina"])[0]
    rating = _rated_history(club, guest, django_capture_on_commit_callbacks)
    response = club["org"].post(f"/clubs/{c.pk}/roster/{guest.pk}/claim-code/")
    html = response.content.decode()
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    code = re.search(r"/claim/([A-Za-z0-9_-]{43})/", html).group(1)
    assert ClaimCode.objects.get().digest != code and code not in ClaimCode.objects.get().digest
    # The person signs up: verified email, a person player with no history yet.
    gina_user = User.objects.create_user("gina-account")
    EmailAddress.objects.create(user=gina_user, email="gina@example.org", verified=True, primary=True)
    _profile, person = ensure_person(gina_user, name="GinaR")
    # Opening the link binds nothing; an anonymous POST neither.
    page = client_of(gina_user).get(f"/claim/{code}/")
    assert page.status_code == 200 and "Yes, I am Gina" in page.content.decode()
    assert Client().post(f"/claim/{code}/").status_code == 403
    assert Player.objects.get(pk=guest.pk).is_guest
    gina = client_of(gina_user)
    response = gina.post(f"/claim/{code}/")
    assert response.status_code == 302 and response["Location"] == f"/players/{person.pk}/"
    assert not Player.objects.filter(pk=guest.pk).exists()
    # Told whose history it was (the guest's name, not the account's that now carries it).
    assert "The history of Gina is yours now." in gina.get(response["Location"]).content.decode()
    mine = Rating.objects.get(player=person, ladder__isnull=True, game="diamonds")
    assert (mine.mu, mine.sigma, mine.ordinal, mine.matches) == (rating.mu, rating.sigma, rating.ordinal,
                                                                 rating.matches)
    assert person.match_seats.count() == 1 and person.tournament_entries.count() == 1
    # Used once: a second account cannot use it again.
    other = User.objects.create_user("other-account")
    assert client_of(other).post(f"/claim/{code}/").status_code == 410


def test_an_unverified_account_cannot_claim(club):
    guest = add_guests(club=club["club"], names=["Gina"])[0]
    response = club["org"].post(f"/clubs/{club['club'].pk}/roster/{guest.pk}/claim-code/")
    code = re.search(r"/claim/([A-Za-z0-9_-]{43})/", response.content.decode()).group(1)
    user = User.objects.create_user("unverified")
    EmailAddress.objects.create(user=user, email="u@example.org", verified=False, primary=True)
    response = client_of(user).post(f"/claim/{code}/")
    assert response.status_code == 403 and "Confirm your email address" in response.content.decode()
    assert Player.objects.get(pk=guest.pk).is_guest


def test_revoked_and_replaced_claim_codes_are_refused(club):
    c = club["club"]
    guest = add_guests(club=c, names=["Gina"])[0]
    first = re.search(r"/claim/([A-Za-z0-9_-]{43})/", club["org"].post(
        f"/clubs/{c.pk}/roster/{guest.pk}/claim-code/").content.decode()).group(1)
    second = re.search(r"/claim/([A-Za-z0-9_-]{43})/", club["org"].post(
        f"/clubs/{c.pk}/roster/{guest.pk}/claim-code/").content.decode()).group(1)
    user = User.objects.create_user("someone")
    assert client_of(user).post(f"/claim/{first}/").status_code == 404  # replaced by the second
    assert club["org"].post(f"/clubs/{c.pk}/roster/{guest.pk}/claim-code/revoke/").status_code == 302
    assert client_of(user).post(f"/claim/{second}/").status_code == 404
    assert Client().get("/claim/nonsense/").status_code == 404
    assert Player.objects.get(pk=guest.pk).is_guest


def test_an_organiser_of_another_club_can_do_none_of_this(club):
    """Issue 28: another club's organiser cannot see or change the roster, nor make claim codes."""
    c = club["club"]
    guest = add_guests(club=c, names=["Gina"])[0]
    other = User.objects.create_user("other-org")
    ClubAdmin.objects.create(club=create_club(name="Elsewhere"), user=other)
    them = client_of(other)
    url = f"/clubs/{c.pk}/roster/"
    assert them.get(url).status_code == 403
    assert them.post(url + "preview/", {"names": "Intruder"}).status_code == 403
    assert them.post(url + "add/", {"name": ["Intruder"]}).status_code == 403
    assert them.post(url + f"{guest.pk}/rename/", {"name": "Hacked"}).status_code == 403
    assert them.post(url + "merge/", {"source": guest.pk, "target": guest.pk}).status_code == 403
    assert them.post(url + f"{guest.pk}/claim-code/").status_code == 403
    assert them.post(url + f"{guest.pk}/claim-code/revoke/").status_code == 403
    assert guest_names(c) == ["Gina"] and not ClaimCode.objects.exists()
    # Nor can a member who organises nothing, nor anyone signed out.
    assert Client().get(url).status_code == 302
    assert client_of(User.objects.get(username="anna")).get(url).status_code == 403
    # The club page links the roster for its organisers only.
    assert url in club["org"].get(f"/clubs/{c.pk}/").content.decode()
    assert url not in them.get(f"/clubs/{c.pk}/").content.decode()
