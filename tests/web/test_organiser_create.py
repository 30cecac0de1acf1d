"""Issue 28, "create everything on the website": a club's organiser creates tournaments (from a named preset, with
fields rather than JSON, a preview first), ladders, leagues and seasons from the club's pages, and changes a
tournament's settings with the same form. Nobody else reaches those pages; bad input gives the form back with its
error and creates nothing, never a 500."""

from __future__ import annotations

import dataclasses
import re
from html import unescape
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model

from engine.games import FALLBACK_BOTS, GAME_TYPES
from league.models import Ladder, League, Season, Tournament, TournamentFormat
from league.presets import EVENING_POINTS, PRESETS
from league.scheduling import TableShape, table_sizes
from league.services import create_bot_player, create_club, create_person_player, create_tournament, register_players
from league.services.players import add_club_admin
from league.services.rounds import seat_round
from league.standings import METRICS
from web.forms_tournament import FALLBACK_CHOICES, METRIC_CHOICES
from web.game_options import GAME_OPTIONS

from .support import administrators_account

pytestmark = pytest.mark.django_db
PASSWORD = "pw-create-1"
FR = {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9"}


@pytest.fixture
def club_site(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    User = get_user_model()
    club = create_club(name="Crystal Club")
    other = create_club(name="Other Club")
    organiser = administrators_account("olive", password=PASSWORD)  # signs in through the form
    add_club_admin(club=club, user=organiser)
    stranger = User.objects.create_user("otto", password=PASSWORD)  # organises the other club only
    add_club_admin(club=other, user=stranger)
    member = User.objects.create_user("ann", password=PASSWORD)
    create_person_player(user=member, name="ann", clubs=[club])
    return {"club": club, "other": other, "organiser": organiser, "stranger": stranger, "member": member}


class _FormFields(HTMLParser):
    """What a browser would post from a page's form (the one with `marker` in its attributes): every named input,
    select and textarea that is not disabled, checkboxes and radio buttons only when checked."""

    def __init__(self, marker: str):
        super().__init__()
        self.marker, self.inside, self.select, self.data = marker, False, None, {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = self.marker in a
        if not self.inside or "disabled" in a:
            return
        if tag == "input" and a.get("name") and a.get("type") not in ("submit", "button"):
            if a.get("type") == "checkbox":
                if "checked" in a:
                    self.data[a["name"]] = "on"
            elif a.get("type") == "radio":
                if "checked" in a:
                    self.data[a["name"]] = a.get("value") or ""
            else:
                self.data[a["name"]] = a.get("value") or ""
        elif tag == "select" and a.get("name"):
            self.select = a["name"]
            self.data.setdefault(self.select, "")
        elif tag == "option" and self.select and "selected" in a:
            self.data[self.select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        if tag == "form":
            self.inside = False


def posted(html: str, marker: str = "data-setup") -> dict:
    parser = _FormFields(marker)
    parser.feed(html)
    return parser.data


def new_tournament_url(club) -> str:
    return f"/clubs/{club.pk}/tournaments/new/"


def filled_form(client, club, preset: str = "club-night") -> dict:
    page = client.get(new_tournament_url(club) + f"?preset={preset}")
    assert page.status_code == 200
    return posted(page.content.decode())


def test_the_club_page_offers_the_organiser_new_tournament_ladder_and_league_and_nobody_else(client, club_site):
    """The club page's "New tournament/ladder/league" for its organisers only (before: admin links for staff)."""
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    html = client.get(f"/clubs/{club.pk}/").content.decode()
    for url in (new_tournament_url(club), f"/clubs/{club.pk}/ladders/new/", f"/clubs/{club.pk}/leagues/new/"):
        assert f'href="{url}"' in html
    for user in (club_site["member"], club_site["stranger"]):
        client.force_login(user)
        html = client.get(f"/clubs/{club.pk}/").content.decode()
        assert "/tournaments/new/" not in html and "/ladders/new/" not in html and "/leagues/new/" not in html
    client.logout()
    assert "/tournaments/new/" not in client.get(f"/clubs/{club.pk}/").content.decode()


def test_non_organisers_get_403_and_create_nothing(client, club_site):
    """A member of the club and the organiser of another club are refused every create page, read or posted; a
    visitor is sent to sign in."""
    club = club_site["club"]
    league = League.objects.create(club=club, name="Thursday League")
    urls = [new_tournament_url(club), f"/clubs/{club.pk}/ladders/new/", f"/clubs/{club.pk}/leagues/new/",
            f"/leagues/{league.pk}/seasons/new/"]
    client.force_login(club_site["organiser"])
    data = {**filled_form(client, club), "name": "Sneaky", "action": "save"}
    for user in (club_site["member"], club_site["stranger"]):
        client.force_login(user)
        for url in urls:
            assert client.get(url).status_code == 403, url
            assert client.post(url, {**data, "game": "diamonds", "table_size": 4}).status_code == 403, url
    client.logout()
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Tournament.objects.exists() and not Ladder.objects.exists()
    assert list(League.objects.all()) == [league] and not Season.objects.exists()


def test_an_organiser_creates_a_swiss_club_night_from_the_preset_with_a_generated_seed(client, club_site):
    """The preset fills the form (without JavaScript: ?preset=); "Create" makes a tournament with the preset's
    settings, a seed nobody typed, and sends the organiser to its page with a message."""
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    data = filled_form(client, club, "club-night")
    assert "seed" not in data and not any(name.endswith("_json") for name in data)  # fields, never a seed or JSON
    assert data["format"] == "swiss" and data["rounds"] == "3" and data["table_size"] == "4"
    response = client.post(new_tournament_url(club), {**data, "name": "Thursday club night", "action": "save",
                                                      "registration_closes_at": "2026-03-05T19:30"})
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.name, tournament.club, tournament.game, tournament.format, tournament.rounds,
            tournament.table_size) == ("Thursday club night", club, "diamonds", TournamentFormat.SWISS, 3, 4)
    assert tournament.offline_tables and not tournament.auto_advance and tournament.late_entry_points == "bye"
    assert tournament.match_points == EVENING_POINTS and tournament.tiebreaks == [] and tournament.ruleset == {}
    assert re.fullmatch(r"[0-9a-f]{16}", tournament.seed) and tournament.deal_salt
    assert tournament.registration_closes_at.isoformat() == "2026-03-05T19:30:00+00:00"  # the site's time, UTC
    page = client.get(response["Location"]).content.decode()
    assert "Thursday club night is created" in page
    assert f'href="/tournaments/{tournament.pk}/settings/"' in page  # "Edit settings"


def test_every_preset_fills_a_form_that_creates_its_tournament(client, club_site):
    """Each named preset (one for each game) gives a form the service accepts as it is."""
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    assert {p.settings.get("game", "diamonds") for p in PRESETS} == {kind.name for kind in GAME_TYPES}
    for number, preset in enumerate(PRESETS):
        data = filled_form(client, club, preset.key)
        response = client.post(new_tournament_url(club), {**data, "name": f"Evening {number}", "action": "save"})
        assert response.status_code == 302, (preset.key, response.content.decode()[:2000])
        tournament = Tournament.objects.get(name=f"Evening {number}")
        for setting, value in preset.full_settings().items():
            assert getattr(tournament, setting) == value, (preset.key, setting)


def test_preview_shows_the_tables_for_10_players_and_creates_nothing(client, club_site):
    """The "Preview" button: the rounds, each round's tables and byes for the players expected, as the seating
    code gives them; nothing is created."""
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    data = {**filled_form(client, club), "name": "Thursday", "expected_players": "10", "action": "preview"}
    response = client.post(new_tournament_url(club), data)
    assert response.status_code == 200 and not Tournament.objects.exists()
    html = response.content.decode()
    sizes, byes = table_sizes(10, TableShape.for_table_size(4))
    assert (sizes, byes) == ([4, 3, 3], 0)
    assert "Preview for 10 players" in html
    rows = re.findall(r'<tr><th scope="row">(\d+)</th>\s*<td>(\d+) tables: <span class="sizes">([\d +]+)</span>',
                      html)
    assert rows == [(str(n), "3", "4 + 3 + 3") for n in (1, 2, 3)]
    assert 'value="Thursday"' in html  # the form comes back filled, ready for "Create"
    # No one entered and nothing expected: no table.
    response = client.post(new_tournament_url(club), {**data, "expected_players": ""})
    assert "No table can be seated" in response.content.decode() and not Tournament.objects.exists()


@pytest.mark.parametrize("format", ["swiss", "fixed", "duplicate"])
@pytest.mark.parametrize("players, table_size", [(10, 4), (7, 3), (13, 4), (9, 5)])
def test_the_preview_is_what_seating_the_first_round_gives(client, club_site, format, players, table_size):
    """The preview's tables are the ones the round is then seated at (league.services.rounds)."""
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    data = {**filled_form(client, club), "name": "Match", "format": format, "table_size": str(table_size),
            "expected_players": str(players), "action": "preview"}
    html = client.post(new_tournament_url(club), data).content.decode()
    shown = re.search(r'<span class="sizes">([\d +]+)</span>', html).group(1)
    tournament = create_tournament(name="Seated", rounds=3, table_size=table_size, format=format, club=club,
                                   offline_tables=True)
    bots = [create_bot_player(name=f"b{format}{i}", kind="random", clubs=[club]) for i in range(players)]
    register_players(tournament=tournament, players=bots)
    seated = sorted((len(t["seats"]) for t in seat_round(tournament=tournament).tables), reverse=True)
    assert shown == " + ".join(map(str, seated))


def test_the_preview_shows_a_duplicate_evenings_deal_groups_and_the_final(client, club_site):
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    data = {**filled_form(client, club, "duplicate-evening"), "name": "Dup", "expected_players": "16",
            "action": "preview"}
    html = client.post(new_tournament_url(club), data).content.decode()
    assert "4 tables of 4 share one" in html
    data = {**filled_form(client, club, "club-night-final"), "name": "Final", "expected_players": "3",
            "action": "preview"}
    html = client.post(new_tournament_url(club), data).content.decode()
    assert "The final" in html and "Fewer players are expected than the final seats" in html


HOSTILE = "<script>alert('x')</script>"


@pytest.mark.parametrize("changes, error", [
    ({"rounds": "0"}, "greater than or equal to 1"),
    ({"rounds": str(10**9)}, "less than or equal to 50"),
    ({"rounds": "3; DROP TABLE league_tournament"}, "Enter a whole number"),
    ({"tiebreak_1": "luck"}, "Select a valid choice"),
    ({"tiebreak_1": "points", "tiebreak_2": "points"}, "Each criterion once"),
    ({"game": "diamoniak", "table_size": "6"}, "Diamoniak seats 2 to 4 players at a table"),
    ({"table_size": "9"}, "less than or equal to 6"),
    ({"game": HOSTILE}, "Select a valid choice"),
    ({"format": "knockout"}, "Select a valid choice"),
    ({"name": "x" * 101}, "at most 100 characters"),
    ({"name": "Null\x00byte"}, "Null characters are not allowed"),
    ({"name": "   "}, "This field is required"),
    ({"points_4_1": "3", "points_4_2": "", "points_4_3": "", "points_4_4": ""}, "Give every place at a table of 4"),
    ({"points_4_1": "1e999"}, "A number such as 3 or 1.5"),
    ({"points_bye": "<b>1</b>"}, "A number such as 3 or 1.5"),
    ({"points_bye": HOSTILE}, "at most 20 characters"),
    ({"turn_deadline_seconds": "0"}, "greater than or equal to 1"),
    ({"final_size": "7"}, "the last stage of the final is one table"),
    ({"final_size": "4", "format": "duplicate", "offline_tables": ""}, "partnership and duplicate"),
    ({"option_diamonds_partnerships": "on", "table_size": "3"}, "R-TEAM-1"),
    ({"option_diamonds_rounds": "999"}, "less than or equal to 20"),
    ({"season": "999999"}, "Select a valid choice"),
    ({"registration_closes_at": HOSTILE}, "Enter a valid date/time"),
])
def test_bad_input_gives_the_form_back_with_its_error_and_creates_nothing(client, club_site, changes, error):
    """Bounds, unknown choices, a table size the game does not seat, hostile strings, and the service's own
    refusals: the form again (400) with the error said, nothing created, no 500, nothing hostile unescaped."""
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    data = {**filled_form(client, club), "name": "Thursday", "action": "save", **changes}
    for action in ("save", "preview"):
        response = client.post(new_tournament_url(club), {**data, "action": action})
        html = response.content.decode()
        assert response.status_code == 400, (action, html[:3000])
        assert error in html.replace("&#x27;", "'").replace("&quot;", '"'), (action, error)
        assert 'class="error-summary" role="alert"' in html
        assert not [value for value in changes.values() if "<" in value and value in html]  # shown escaped
    assert not Tournament.objects.exists()


def test_an_other_games_options_are_not_taken_nor_judged(client, club_site):
    """Without JavaScript every game's options are on the page: only the chosen game's count."""
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    data = {**filled_form(client, club, "diamoniak-night"), "name": "Castle night", "action": "save",
            "option_diamonds_rounds": "999", "option_diamoniak_max_turns": "150", "option_ringrace_debts": "on"}
    assert client.post(new_tournament_url(club), data).status_code == 302
    assert Tournament.objects.get().ruleset == {"max_turns": 150}


def test_a_season_of_the_club_can_be_chosen_and_one_of_another_club_cannot(client, club_site):
    club, other = club_site["club"], club_site["other"]
    season = Season.objects.create(league=League.objects.create(club=club, name="Thursday League"), name="Spring")
    foreign = Season.objects.create(league=League.objects.create(club=other, name="Their League"), name="Spring")
    client.force_login(club_site["organiser"])
    page = client.get(new_tournament_url(club) + f"?season={season.pk}").content.decode()
    seasons = re.search(r'<select name="season".*?</select>', page, re.S).group(0)
    assert f'<option value="{season.pk}" selected>' in seasons and f'value="{foreign.pk}"' not in seasons
    data = {**filled_form(client, club), "name": "Round 1", "action": "save"}
    assert client.post(new_tournament_url(club), {**data, "season": foreign.pk}).status_code == 400
    assert client.post(new_tournament_url(club), {**data, "season": season.pk}).status_code == 302
    assert Tournament.objects.get().season == season


def test_the_tournament_form_reads_in_french(client, club_site):
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    html = client.get(new_tournament_url(club), **FR).content.decode()
    assert '<html lang="fr">' in html
    text = unescape(html)
    for words in ("Nouveau tournoi", "Partir d'un préréglage", "Soirée du club", "Joueurs à une table", "Aperçu",
                  "Créer le tournoi", "Départager, dans cet ordre"):
        assert words in text, words
    assert "New tournament" not in text and "Players at a table" not in text
    data = {**posted(html), "name": "Jeudi", "expected_players": "10", "action": "preview"}
    preview = client.post(new_tournament_url(club), data, **FR).content.decode()
    assert "Aperçu pour 10 joueurs" in preview and "3 tables" in preview


def test_an_organiser_creates_a_ladder_a_league_and_a_season(client, club_site):
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    page = client.get(f"/clubs/{club.pk}/ladders/new/").content.decode()
    data = {**posted(page), "name": "Castle ladder", "game": "diamoniak", "table_size": "3",
            "option_diamoniak_max_turns": "150"}
    response = client.post(f"/clubs/{club.pk}/ladders/new/", data)
    ladder = Ladder.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/ladders/{ladder.pk}/"
    assert (ladder.club, ladder.game, ladder.table_size, ladder.ruleset) == (
        club, "diamoniak", 3, {"max_turns": 150})
    again = client.post(f"/clubs/{club.pk}/ladders/new/", data)  # the name is taken: said, not a 500
    assert again.status_code == 400 and "A ladder of that name exists" in again.content.decode()
    wrong = client.post(f"/clubs/{club.pk}/ladders/new/", {**data, "name": "Big", "table_size": "6"})
    assert wrong.status_code == 400 and Ladder.objects.count() == 1

    one_table = {"division_count": "1", "promoted": "2", "relegated": "2"}  # the forms' defaults, as a browser posts
    response = client.post(f"/clubs/{club.pk}/leagues/new/", {"name": "Thursday League", **one_table})
    league = League.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.pk}/"
    assert league.club == club
    assert client.post(f"/clubs/{club.pk}/leagues/new/", {"name": "Thursday League", **one_table}).status_code == 400
    league_page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert f'href="/leagues/{league.pk}/seasons/new/"' in league_page  # "New season"

    url = f"/leagues/{league.pk}/seasons/new/"
    one_table["placing"] = "rating"
    backwards = client.post(url, {"name": "Spring", "starts_on": "2026-06-01", "ends_on": "2026-03-01", **one_table})
    assert backwards.status_code == 400 and "cannot end before it starts" in backwards.content.decode()
    response = client.post(url, {"name": "Spring", "starts_on": "2026-03-01", "ends_on": "2026-06-01", **one_table})
    season = Season.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/seasons/{season.pk}/"
    assert (season.league, str(season.starts_on), str(season.ends_on)) == (league, "2026-03-01", "2026-06-01")
    assert client.post(url, {"name": "Spring", **one_table}).status_code == 400 and Season.objects.count() == 1


def test_edit_settings_changes_what_may_change_and_shows_the_rest_greyed_out(client, club_site):
    """The tournament page's "Edit settings": everything before the first round; once it runs, only what
    update_tournament still changes (the rest shown disabled, and a posted change to it ignored)."""
    club = club_site["club"]
    client.force_login(club_site["organiser"])
    data = {**filled_form(client, club), "name": "Thursday", "action": "save"}
    client.post(new_tournament_url(club), data)
    tournament = Tournament.objects.get()
    url = f"/tournaments/{tournament.pk}/settings/"
    form = posted(client.get(url).content.decode())
    assert form["name"] == "Thursday" and form["points_3_2"] == "1.5" and form["format"] == "swiss"
    same = client.post(url, {**form, "action": "save"})
    assert same.status_code == 302 and "Nothing changed" in client.get(same["Location"]).content.decode()
    response = client.post(url, {**form, "rounds": "4", "tiebreak_1": "points", "tiebreak_2": "tiebreak",
                                 "action": "save"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rounds == 4 and tournament.tiebreaks == ["points", "tiebreak"]

    register_players(tournament=tournament, players=[
        create_bot_player(name=f"e{i}", kind="random", clubs=[club]) for i in range(8)])
    seat_round(tournament=tournament)
    Tournament.objects.filter(pk=tournament.pk).update(status="running")
    page = client.get(url).content.decode()
    assert "greyed-out settings can no longer change" in page
    assert re.search(r'<input type="number" name="rounds"[^>]* disabled', page)
    form = posted(page)
    assert "rounds" not in form and "name" in form
    response = client.post(url, {**form, "rounds": "9", "name": "Thursday night", "round_minutes": "40",
                                 "action": "save"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.rounds, tournament.round_minutes) == ("Thursday night", 4, 40)
    preview = client.post(url, {**form, "action": "preview"}).content.decode()
    assert "Preview for 8 players" in preview and "4 + 4" in preview  # the players entered

    client.force_login(club_site["member"])
    assert client.get(url).status_code == 403
    assert client.post(url, {**form, "name": "Mine", "action": "save"}).status_code == 403
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    client.force_login(club_site["organiser"])
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "/settings/" not in page and client.get(url).status_code == 403


def test_every_option_of_every_games_ruleset_has_a_field():
    """The form's options are the engines' ruleset fields (all but `players`, each table's own)."""
    for kind in GAME_TYPES:
        fields = {f.name for f in dataclasses.fields(kind.ruleset) if f.init} - {"players"}
        assert {option.name for option in GAME_OPTIONS[kind.name]} == fields, kind.name
        defaults = {f.name: f.default for f in dataclasses.fields(kind.ruleset)}
        for option in GAME_OPTIONS[kind.name]:  # what a form leaves out is what the engine fills in
            assert option.initial in (None, defaults[option.name]), (kind.name, option.name)
    diamonds = {o.name: o for o in GAME_OPTIONS["diamonds"]}
    assert {value for value, _ in diamonds["clubs"].choices} == {"thief", "choose"}
    assert {value for value, _ in {o.name: o for o in GAME_OPTIONS["diamoniak"]}["buy_pays"].choices} == {
        "seller", "discard"}


def test_the_forms_choices_are_the_leagues():
    """Tie-breaks from every metric the standings know; fallback bots those the service accepts."""
    assert {name for name, _ in METRIC_CHOICES} == set(METRICS)
    assert tuple(name for name, _ in FALLBACK_CHOICES) == FALLBACK_BOTS
