"""Fair deals (engine.fairness): nobody computes a live table's cards from anything the server shows.

The attack that worked before: a finished table's seed was `<tournament seed>/round-<n>/table-<t>`, shown as soon
as that table ended, so changing the table number gave the other tables' live hands. Here a round has one table
finished and another still in play; every string and number any reader (anonymous, an outsider, each seat) can get
from the API and the website is tried as a seed, as is, and through the old patterns; none deals the live table's
hands. The walk also checks that no unrevealed seed or nonce appears anywhere, and the reveal timings.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from django.test import Client

from engine import Ruleset
from engine.diamonds.cards import card_str
from engine.diamonds.game import seeded_hands
from league.models import Match, MatchStatus, TournamentRound
from league.selectors import match_record
from league.services import create_bot_player
from league.services.advancing import start_tournament
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament

from .support import play_out

pytestmark = pytest.mark.django_db(transaction=True)

HUMANS = ["ann", "bob", "ext-1", "ext-2"]
TOKEN = re.compile(r"[A-Za-z0-9_#:./-]{1,200}")


def _strings(value, out: set[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)
    elif value is not None:
        out.add(str(value))


def _public_texts(accounts, tournament, matches) -> dict[str, str]:
    """Every response body a reader can get about the tournament and its matches, by reader and URL."""
    c = accounts["clients"]
    api_urls = ["/api/v1/matches/", f"/api/v1/matches/?tournament={tournament.pk}", "/api/v1/tournaments/",
                f"/api/v1/tournaments/{tournament.pk}/", f"/api/v1/tournaments/{tournament.pk}/rounds/",
                f"/api/v1/tournaments/{tournament.pk}/standings/", f"/api/v1/tournaments/{tournament.pk}/entries/",
                f"/api/v1/tournaments/{tournament.pk}/standings.csv", "/api/v1/me/turns/?legal=1", "/api/v1/me/",
                "/api/v1/players/", "/api/v1/ratings/"]
    for m in matches:
        api_urls += [f"/api/v1/matches/{m.pk}/{tail}" for tail in ("", "record/", "tricks/", "state/", "legal/",
                                                                  "corrections/")]
    web_urls = ["/", f"/tournaments/{tournament.pk}/"]
    for m in matches:
        web_urls += [f"/matches/{m.pk}/", f"/matches/{m.pk}/live/", f"/matches/{m.pk}/replay/"]
    texts = {}
    for who, client in c.items():
        for url in api_urls:
            response = client.get(url)
            texts[f"{who} {url}"] = response.content.decode(errors="replace")
    browsers = {"anon": Client()}
    for name in ("ann", "bob"):
        browsers[name] = Client()
        browsers[name].force_login(accounts["players"][name].user)
    for who, browser in browsers.items():
        for url in web_urls:
            texts[f"web {who} {url}"] = browser.get(url).content.decode(errors="replace")
    return texts


def _candidates(texts: dict[str, str]) -> set[str]:
    """Everything seen, as is and through the seed patterns the server used to format."""
    seen: set[str] = set()
    for body in texts.values():
        try:
            _strings(json.loads(body), seen)
        except ValueError:
            pass
        seen.update(TOKEN.findall(body))
    out = set(seen)
    for s in seen:
        if len(s) > 80:
            continue
        for r in range(1, 4):
            for t in range(1, 5):
                out.add(f"{s}/round-{r}/table-{t}")
                out.add(f"{s}/round-{r}/deal-{t}")
        if re.search(r"/(round|table|deal)-\d+", s):
            for r in range(1, 4):
                for t in range(1, 5):
                    out.add(re.sub(r"/table-\d+", f"/table-{t}", re.sub(r"/round-\d+", f"/round-{r}", s)))
                    out.add(re.sub(r"/deal-\d+", f"/deal-{t}", re.sub(r"/round-\d+", f"/round-{r}", s)))
    return out


def _half_play_round(accounts, t, index: int) -> tuple[Match, Match]:
    """Round `index` with one table finished (played out over the API by its humans if need be) and one live."""
    matches = list(Match.objects.filter(tournament_round__tournament=t, tournament_round__index=index)
                   .order_by("table_number"))
    assert len(matches) == 2
    if all(m.status != MatchStatus.FINISHED for m in matches):
        # Humans at both tables: they play the first one to its end over the API.
        first = matches[0]
        names = {ms.player.name for ms in first.match_seats.select_related("player")}
        play_out([accounts["clients"][n] for n in HUMANS if n in names], first.pk)
    for m in matches:
        m.refresh_from_db()
    done = [m for m in matches if m.status == MatchStatus.FINISHED]
    live = [m for m in matches if m.status != MatchStatus.FINISHED]
    assert len(done) == 1 and len(live) == 1
    return done[0], live[0]


def _attack(accounts, t, live: Match) -> None:
    matches = list(Match.objects.filter(tournament_round__tournament=t))
    texts = _public_texts(accounts, t, matches)
    ruleset = Ruleset.from_dict(live.ruleset)
    live_hands = match_record(live)["rounds"][0]["hands"]
    candidates = _candidates(texts)
    assert f"{t.seed}/round-1/table-1" in candidates  # the old attack's guess is among those tried
    assert len(candidates) > 1000
    for candidate in candidates:
        dealt = [[card_str(c) for c in hand] for hand in seeded_hands(ruleset, candidate, 0)]
        assert dealt != live_hands, f"{candidate!r} deals the live table"
    # and no unrevealed seed or nonce appears anywhere; every commitment is public
    for m in matches:
        m.refresh_from_db()
        if m.status not in (MatchStatus.FINISHED, MatchStatus.FAILED):
            for where, body in texts.items():
                assert m.seed not in body, where
                assert m.nonce not in body, where
        assert any(m.commitment in body for body in texts.values())


def test_no_public_value_deals_a_live_table(accounts):
    """Round 1 open (one table over, one live) with rounds 2 and 3 not seated; then round 1 closed (its seeds
    revealed) and round 2 open the same way."""
    bots = [create_bot_player(name=f"fair-{i}", kind="random") for i in range(4)]
    people = [accounts["players"][name] for name in HUMANS]
    t = create_tournament(name="fair cup", rounds=3, table_size=4, seed="cup", club=accounts["club"])
    register_players(tournament=t, players=[*people, *bots])
    start_tournament(tournament=t)
    done, live = _half_play_round(accounts, t, 1)
    _attack(accounts, t, live)
    names = {ms.player.name for ms in live.match_seats.select_related("player")}
    play_out([accounts["clients"][n] for n in HUMANS if n in names], live.pk)
    first = TournamentRound.objects.get(tournament=t, index=1)
    assert first.status == "closed"
    assert all(table["seed"] for table in accounts["clients"]["anon"].get(
        f"/api/v1/tournaments/{t.pk}/rounds/").json()[0]["tables"])  # a closed round shows its seeds
    done, live = _half_play_round(accounts, t, 2)
    _attack(accounts, t, live)


def test_seeds_come_from_the_csprng_and_twins_alone_share_one(accounts):
    bots = [create_bot_player(name=f"dup-{i}", kind="random") for i in range(8)]
    t = create_tournament(name="dup", rounds=2, table_size=4, format="duplicate", seed="dup")
    register_players(tournament=t, players=bots)
    start_tournament(tournament=t)
    matches = list(Match.objects.filter(tournament_round__tournament=t))
    assert len(matches) == 4 and all(m.status == MatchStatus.FINISHED for m in matches)
    for m in matches:
        assert re.fullmatch(r"[0-9a-f]{32}", m.seed), m.seed  # 128 random bits, nothing formatted
        assert m.commitment == hashlib.sha256(f"{m.nonce}:{m.seed}".encode()).hexdigest()
        assert not m.seed_chosen
    for rnd in TournamentRound.objects.filter(tournament=t):
        groups: dict = {}
        for table in rnd.tables:
            groups.setdefault(table["group"], set()).add(table["seed"])
        assert all(len(seeds) == 1 for seeds in groups.values())  # twins share their deal
        assert len({next(iter(s)) for s in groups.values()}) == len(groups)  # and nothing else does
    assert len({m.nonce for m in matches}) == 4  # twins' commitments differ: they do not show the shared deal


def test_a_table_is_revealed_when_it_ends(accounts):
    c = accounts["clients"]
    from .conftest import live_match

    match = live_match(accounts, ["ann", "greedy-1", "random-1", "ext-1"], seed=None)
    body = c["anon"].get(f"/api/v1/matches/{match.pk}/").json()
    assert body["seed"] is None and body["nonce"] is None and body["commitment"] == match.commitment
    record = c["ann"].get(f"/api/v1/matches/{match.pk}/record/").json()
    assert record["seed"] is None and "reveal" not in record and record["commitment"] == match.commitment
    play_out([c["ann"], c["ext-1"]], match.pk)
    body = c["anon"].get(f"/api/v1/matches/{match.pk}/").json()
    assert (body["seed"], body["nonce"]) == (match.seed, match.nonce)
    record = c["anon"].get(f"/api/v1/matches/{match.pk}/record/").json()
    assert record["reveal"] == {"seed": match.seed, "nonce": match.nonce}


def test_duplicate_twins_stay_hidden_until_every_twin_has_ended(accounts):
    c = accounts["clients"]
    bots = [create_bot_player(name=f"twin-{i}", kind="random") for i in range(7)]
    t = create_tournament(name="twins", rounds=1, table_size=4, format="duplicate")
    register_players(tournament=t, players=[accounts["players"]["ann"], *bots])
    start_tournament(tournament=t)
    matches = list(Match.objects.filter(tournament_round__tournament=t))
    done = next(m for m in matches if m.status == MatchStatus.FINISHED)
    live = next(m for m in matches if m.status != MatchStatus.FINISHED)
    assert done.seed == live.seed
    for who in ("anon", "ann", "outsider"):
        body = c[who].get(f"/api/v1/matches/{done.pk}/").json()
        assert body["seed"] is None and body["nonce"] is None
    play_out([c["ann"]], live.pk)
    for who in ("anon", "outsider"):
        for m in (done, live):
            body = c[who].get(f"/api/v1/matches/{m.pk}/").json()
            assert (body["seed"], body["nonce"]) == (m.seed, m.nonce)


def test_ladder_tables_commit_to_fresh_seeds(accounts):
    from league.models import Ladder
    from league.services.ladders import join_ladder, seat_ladder_tables

    ladder = Ladder.objects.create(name="fair ladder", club=accounts["club"], table_size=4, ruleset={})
    join_ladder(ladder=ladder, players=[create_bot_player(name=f"lad-{i}", kind="random") for i in range(4)])
    [match] = seat_ladder_tables(ladder=ladder, seed="tick")
    match.refresh_from_db()
    assert re.fullmatch(r"[0-9a-f]{32}", match.seed) and "tick" not in match.seed
    assert match.status == MatchStatus.FINISHED
    body = accounts["clients"]["anon"].get(f"/api/v1/matches/{match.pk}/").json()
    assert body["seed"] == match.seed and body["commitment"] == match.commitment


@pytest.mark.parametrize("game,ruleset", [("diamoniak", {}), ("ringrace", {})])
def test_other_games_hide_the_draw_pile_and_board_until_the_end(accounts, game, ruleset):
    c = accounts["clients"]
    players = [accounts["players"]["ext-1"].pk, accounts["players"]["random-1"].pk]
    response = c["organiser"].post("/api/v1/matches/", {"players": players, "game": game, "ruleset": ruleset,
                                                        "club": accounts["club"].pk}, format="json")
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["id"])
    assert not match.seed_chosen and response.json()["seed"] is None
    for who in ("anon", "ext-1", "outsider"):
        for tail in ("", "record/", "state/"):
            text = c[who].get(f"/api/v1/matches/{match.pk}/{tail}").content.decode()
            assert match.seed not in text and match.nonce not in text
            if tail == "record/":
                record = json.loads(text)
                assert "reveal" not in record and not {"deck_top", "fixed"} & set(record)
    play_out([c["ext-1"]], match.pk)
    record = c["anon"].get(f"/api/v1/matches/{match.pk}/record/").json()
    assert record["reveal"] == {"seed": match.seed, "nonce": match.nonce}


def test_a_chosen_seed_is_said_so(accounts):
    c = accounts["clients"]
    players = [accounts["players"][n].pk for n in ("ann", "greedy-1", "random-1", "bob")]
    response = c["organiser"].post("/api/v1/matches/", {"players": players, "seed": "practice",
                                                        "club": accounts["club"].pk}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["seed_chosen"] is True and response.json()["seed"] is None


def test_a_tournament_dealt_again_with_its_salt_on_the_same_server_deals_the_same(settings):
    """Deal seeds are HMACs of the tournament's secret salt under the server's key: the same pair deals the same
    tables (so a run can be repeated exactly), another salt or another key deals others."""

    def seeds(name: str, salt: str) -> list[str]:
        bots = [create_bot_player(name=f"{name}-{i}", kind="random") for i in range(8)]
        t = create_tournament(name=name, rounds=1, table_size=4, seed="same seating", deal_salt=salt)
        register_players(tournament=t, players=bots)
        start_tournament(tournament=t)
        return [m.seed for m in Match.objects.filter(tournament_round__tournament=t).order_by("table_number")]

    first = seeds("a", "salt-1")
    assert seeds("b", "salt-1") == first and len(set(first)) == 2
    assert set(seeds("c", "salt-2")).isdisjoint(first)
    settings.DIAMONDS_DEAL_KEY = "another server"
    assert set(seeds("d", "salt-1")).isdisjoint(first)


def test_engine_bots_are_seeded_one_way_from_the_match(accounts):
    """A bot's own dice follow from the match state (a resumed match plays on alike) but never hold its seed."""
    from league.services.play import bot_seed

    match = Match(seed="0123456789abcdef0123456789abcdef")
    seeds = {bot_seed(match, seat, move) for seat in range(4) for move in range(50)}
    assert len(seeds) == 200 and not any(match.seed in s for s in seeds)
    assert bot_seed(match, 1, 7) == bot_seed(Match(seed=match.seed), 1, 7)
