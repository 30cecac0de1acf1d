"""Every 4xx answer is the schema's one `Error` shape (api/errors.py), whatever raised it: a form's field errors, a
view's own refusal, a parse error, a missing or wrong token, a refused method, an unknown object, a decision the
rules refuse, and an error of a CSV table (JSON all the same)."""

from __future__ import annotations

import pytest

from .conftest import live_match

pytestmark = pytest.mark.django_db


def assert_error(response, status: int, code: str) -> dict:
    body = response.json()
    assert response.status_code == status and response["Content-Type"] == "application/json", response.content
    assert isinstance(body["detail"], str) and body["detail"] and body["code"] == code, body
    assert set(body) <= {"detail", "code", "rule", "errors"}, body
    return body


def test_a_refused_form_names_each_field_nested_ones_by_dotted_path(accounts):
    match = live_match(accounts, ["ann", "ext-1", "greedy-1"])
    r = accounts["clients"]["staff"].post(f"/api/v1/matches/{match.pk}/corrections/",
                                          {"vault": ["x", 2], "showroom": "no"}, format="json")
    body = assert_error(r, 400, "required")  # `reason`, missing, comes first
    assert set(body["errors"]) == {"reason", "vault.0", "showroom"}
    assert all(isinstance(m, str) for messages in body["errors"].values() for m in messages)
    assert "reason:" in body["detail"] and "vault.0:" in body["detail"]


def test_a_views_own_refusal_and_a_parse_error_have_the_same_shape(accounts):
    c = accounts["clients"]
    body = assert_error(c["staff"].post("/api/v1/seasons/", {"league": 99999, "name": "x"}, format="json"),
                        400, "does_not_exist")
    assert "league" in body["errors"]
    r = c["staff"].generic("POST", "/api/v1/clubs/", "{not json", content_type="application/json")
    assert "errors" not in assert_error(r, 400, "parse_error")


@pytest.mark.parametrize("how, status, code", [
    ("anonymous", 401, "not_authenticated"), ("a wrong token", 401, "authentication_failed"),
    ("an outsider", 403, "permission_denied")])
def test_who_may_not_is_told_in_the_same_shape(accounts, how, status, code):
    from .conftest import client_for

    client = {"anonymous": accounts["clients"]["anon"], "a wrong token": client_for(token="0" * 40),
              "an outsider": accounts["clients"]["outsider"]}[how]
    match = live_match(accounts, ["ann", "ext-1", "greedy-1"])
    assert_error(client.get(f"/api/v1/matches/{match.pk}/legal/"), status, code)


def test_unknown_objects_refused_methods_and_rules_refusals(accounts):
    c = accounts["clients"]
    assert_error(c["anon"].get("/api/v1/matches/999999/"), 404, "not_found")
    assert_error(c["anon"].get("/api/v1/matches/999999/state/"), 404, "not_found")  # Django's Http404
    assert_error(c["staff"].put("/api/v1/tournaments/1/", {}, format="json"), 405, "method_not_allowed")
    match = live_match(accounts, ["ext-1", "ann", "greedy-1"])
    legal = c["ext-1"].get(f"/api/v1/matches/{match.pk}/legal/").json()
    if legal["my_turn"]:  # an illegal decision: the rules' refusal names its rule
        r = c["ext-1"].post(f"/api/v1/matches/{match.pk}/decisions/",
                            {"move_number": legal["move_number"], "decision": {"kind": "no such kind"}},
                            format="json")
        assert r.status_code == 400 and r.json()["detail"]
    stale = c["ext-1"].post(f"/api/v1/matches/{match.pk}/decisions/", {"move_number": -5, "decision": {}},
                            format="json")
    assert stale.status_code in (400, 409) and set(stale.json()) <= {"detail", "code", "rule", "errors"}


def test_an_error_of_a_csv_table_is_json(accounts):
    r = accounts["clients"]["anon"].get("/api/v1/tournaments/999999/standings/?format=csv")
    assert_error(r, 404, "not_found")
    r = accounts["clients"]["anon"].get("/api/v1/seasons/999999/standings/", HTTP_ACCEPT="text/csv")
    assert_error(r, 404, "not_found")


def test_an_empty_csv_table_is_its_header_row(accounts):
    from league.services.tournament_setup import create_tournament

    t = create_tournament(name="Empty cup", rounds=1, table_size=4, club=accounts["club"])
    r = accounts["clients"]["anon"].get(f"/api/v1/tournaments/{t.pk}/standings/?format=csv")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    assert r.content.decode().splitlines()[0].split(",")[:5] == ["rank", "shared", "name", "players", "games"]


@pytest.mark.parametrize("kind", ["ladders", "tournaments"])
@pytest.mark.parametrize("ruleset", [True, [1], "x", 5])
def test_a_ruleset_that_is_no_object_is_a_400_creating_nothing(accounts, kind, ruleset):
    """The schema says a ruleset is an object; anything else was a 500 (found by the schema fuzz run)."""
    from league.models import Ladder, Tournament

    body = {"name": "n", "game": "diamonds", "table_size": 2, "ruleset": ruleset, "rounds": 1}
    r = accounts["clients"]["staff"].post(f"/api/v1/{kind}/", body, format="json")
    assert "ruleset" in assert_error(r, 400, "not_a_dict")["errors"]
    assert not Ladder.objects.exists() and not Tournament.objects.exists()
