"""The website in French: the browser's Accept-Language picks it, a signed-in person's profile language wins over
the browser, the footer's switcher changes it, and numbers and dates read the French way."""

from __future__ import annotations

import datetime
import re
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Match, MatchStatus
from runtime.language import profile_language

from .conftest import table_with_bots

pytestmark = pytest.mark.django_db

FR = {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9,en;q=0.5"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def page(client, url, **headers) -> str:
    response = client.get(url, **headers)
    assert response.status_code in (200, 404), (url, response.status_code)
    return response.content.decode()


def test_the_public_pages_read_in_french_for_a_french_browser(client, site):
    home = page(client, reverse("web:home"), **FR)
    assert '<html lang="fr">' in home
    assert "Jouer une partie contre des bots" in home and "Parties récentes" in home and "Tournois" in home
    assert "Recent matches" not in home
    tournament = page(client, reverse("web:tournament", args=[site["tournament"].pk]), **FR)
    assert "Classement" in tournament and "Ronde 1" in tournament and "Inscrits" in tournament
    assert "terminé" in tournament  # the status, a TextChoices label
    assert "Standings" not in tournament and "Entrants" not in tournament
    match = Match.objects.filter(status=MatchStatus.FINISHED, tournament_round__isnull=False).first()
    finished = page(client, reverse("web:match", args=[match.pk]), **FR)
    assert "Résultat final" in finished and "Chambre forte" in finished and "Revoir la partie pli par pli" in finished
    replay = page(client, reverse("web:match-replay", args=[match.pk]), **FR)
    assert "la donne" in replay and "pli 10" in replay and "la manche se termine" in replay
    # The same pages still read in English for an English browser.
    assert "Recent matches" in page(client, reverse("web:home"), **EN)


def test_sign_in_and_404_in_french(client, site):
    sign_in = page(client, reverse("web:login"), **FR)
    # django-allauth's sign-in page, in its own French and ours (the site's navigation).
    assert "Connexion" in sign_in and "Mot de passe oublié" in sign_in and "Identifiant" in sign_in
    assert "Forgot your password" not in sign_in and "Remember me" not in sign_in
    response = client.get(reverse("web:club", args=[999999]), **FR)
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page introuvable" in html and "Retour à l'accueil" in html and "Page not found" not in html


def test_a_live_table_in_french_names_the_cards_and_the_seats_in_french(client, site):
    match = table_with_bots(site["ann"], site["bots"])
    client.force_login(site["ann"].user)
    html = page(client, reverse("web:match", args=[match.pk]), **FR)
    assert "Votre main" in html and "Siège 1" in html and "Chambre forte" in html
    # Cards are read out in French: "7 de cœur", and their suit names are the French rulebook's.
    assert re.search(r"\d+ de (carreau|cœur|pique|trèfle)", html)
    assert not re.search(r"\d+ of (diamonds|hearts|spades|clubs)", html)
    form = page(client, reverse("web:play-bots"), **FR)
    assert "S&#x27;asseoir et jouer" in form or "S'asseoir et jouer" in form
    assert "le Voleur (deuxième édition)" in form and "Durée (Diamonds)" in form


def test_a_refused_decision_on_the_page_reads_in_french_naming_its_rule(client, site,
                                                                         django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # the bots play up to ann's turn
        match = table_with_bots(site["ann"], site["bots"], seed="fr-refusal")
    client.force_login(site["ann"].user)
    state = client.get(f"/api/v1/matches/{match.pk}/state/").json()
    kind = state["pending"]["kind"]
    assert state["my_turn"]
    not_mine = next(f"{s}{r}" for s in "DHSC" for r in range(1, 16) if f"{s}{r}" not in state["hand"])
    # One illegal decision of the kind ann owes, the rule it breaks, and what the French page says of it.
    post, rule, french = {
        "pass_count": ({"count": "7"}, "R-PASS-1", "Seul le donneur choisit combien de cartes sont passées"),
        "pass_cards": ({"cards": [not_mine] * state["pending"].get("count", 1)}, "R-PASS-2",
                       "Passez exactement le nombre de cartes choisi par le donneur"),
        "play": ({"card": not_mine}, "R-DEAL-1", "Cette carte n'est pas dans votre main."),
    }[kind]
    before = Match.objects.get(pk=match.pk).move_number
    response = client.post(reverse("web:match-decide", args=[match.pk]),
                           {"move_number": state["move_number"], "kind": kind, **post},
                           HTTP_ACCEPT="application/json", **FR)
    body = response.json()
    assert response.status_code == 400 and not body["ok"]
    assert french in body["detail"] and body["detail"].endswith(f"({rule})")
    assert Match.objects.get(pk=match.pk).move_number == before


def test_the_profile_language_wins_over_the_browser(client, site, monkeypatch):
    """Another part of the site adds `user.profile.language`; until then a stand-in profile plays its part."""
    User = get_user_model()
    chosen = {"ann": "fr", "bob": ""}
    monkeypatch.setattr(User, "profile", property(lambda user: SimpleNamespace(language=chosen.get(user.username,
                                                                                                     ""))),
                        raising=False)
    client.force_login(site["ann"].user)
    assert "Parties récentes" in page(client, reverse("web:home"), **EN)  # French, though the browser asks English
    client.logout()
    assert "Recent matches" in page(client, reverse("web:home"), **EN)  # signed out: the browser decides again
    client.force_login(site["bob"].user)
    assert "Parties récentes" in page(client, reverse("web:home"), **FR)  # no choice of his own: his browser's


def test_profile_language_is_read_defensively():
    assert profile_language(None) == ""
    assert profile_language(SimpleNamespace(is_authenticated=False, profile=SimpleNamespace(language="fr"))) == ""
    assert profile_language(SimpleNamespace(is_authenticated=True)) == ""  # no profile model (yet)
    assert profile_language(SimpleNamespace(is_authenticated=True, profile=SimpleNamespace(language="de"))) == ""
    assert profile_language(SimpleNamespace(is_authenticated=True, profile=SimpleNamespace(language="fr"))) == "fr"

    class NoProfileRow:
        is_authenticated = True

        @property
        def profile(self):
            raise get_user_model().DoesNotExist("no profile row")

    assert profile_language(NoProfileRow()) == ""


def test_the_switcher_changes_the_language_and_keeps_a_profiles_choice(client, site, monkeypatch):
    home = page(client, reverse("web:home"), **EN)
    assert f'action="{reverse("web:set-language")}"' in home and 'value="fr"' in home
    response = client.post(reverse("web:set-language"), {"language": "fr", "next": "/"}, **EN)
    assert response.status_code == 302 and response["Location"] == "/"
    assert "Parties récentes" in page(client, reverse("web:home"), **EN)  # the cookie now wins over the browser
    # A hostile "next" leads back to this site, and an unknown language changes nothing.
    assert client.post(reverse("web:set-language"), {"language": "fr", "next": "https://evil.example/"}
                       )["Location"] == "/"
    client.post(reverse("web:set-language"), {"language": "xx", "next": "/"})
    assert "Parties récentes" in page(client, reverse("web:home"), **EN)
    assert client.get(reverse("web:set-language")).status_code == 405
    # Signed in with a profile: the choice is kept there too, so it follows the person to other browsers.
    saved = []
    profile = SimpleNamespace(language="", save=lambda update_fields: saved.append((profile.language, update_fields)))
    monkeypatch.setattr(get_user_model(), "profile", property(lambda user: profile), raising=False)
    client.force_login(site["ann"].user)
    client.post(reverse("web:set-language"), {"language": "en", "next": "/"})
    assert saved == [("en", ["language"])]


def test_numbers_and_dates_read_the_french_way(client, site):
    season = site["season"]
    season.starts_on, season.ends_on = datetime.date(2026, 3, 1), datetime.date(2026, 6, 30)
    season.save()
    league = page(client, reverse("web:league", args=[site["league"].pk]), **FR)
    assert "1 mars 2026" in league and "30 juin 2026" in league
    assert "March 1, 2026" in page(client, reverse("web:league", args=[site["league"].pk]), **EN)
    ladder_url = reverse("web:ladder", args=[site["ladder"].pk])
    french = re.findall(r"<td>(-?\d+[.,]\d\d)</td>", page(client, ladder_url, **FR))
    english = re.findall(r"<td>(-?\d+[.,]\d\d)</td>", page(client, ladder_url, **EN))
    assert french and all("," in n for n in french) and all("." in n for n in english)
    assert [n.replace(",", ".") for n in french] == english
