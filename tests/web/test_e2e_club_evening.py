"""A whole club evening with real cards, in French, in a real headless Chromium at phone width (issue 18).

The organiser runs a 12-person evening of three rounds and a final table of four, with offline tables: players are
checked in on the organiser's phone (two arrive late, one leaves after round 1), each round is seated from those
present, one table's result is entered on one player's phone and disputed from another's, the organiser settles it
on theirs, the score slips print without the site around them, and the final ranking (the final decides places 1 to
4, the rest by the qualifying standings) and the ratings are what was played. The other tables' results go in
through the same service the pages call, so the test stays quick.
"""

from __future__ import annotations

import pytest

from league.models import (
    CheckIn,
    ClubAdmin,
    EntryStatus,
    Match,
    MatchSeat,
    MatchStatus,
    Rating,
    ResultEntry,
    TournamentStatus,
)
from league.selectors.ranking import tournament_ranking
from league.services import create_club, create_person_player, register_players
from league.services.advancing import advance_tournament, start_round
from league.services.evening import check_in
from league.services.offline_results import enter_result
from league.services.registration import withdraw_player
from league.services.rounds import seat_round
from league.services.tournament_setup import create_tournament

from .browser import PHONE, shoot
from .conftest import PASSWORD
from .support import administrators_account

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FRENCH = {"locale": "fr-FR", "extra_http_headers": {"Accept-Language": "fr-FR,fr;q=0.9"}}


def phone(chromium, server, username: str):
    """A French phone, signed in as `username`."""
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **FRENCH)
    page = context.new_page()
    page.set_default_timeout(20000)
    page.goto(server.url + "/accounts/login/")
    page.fill("#id_login", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit].primary")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return context, page


def figures(match: Match, shift: int = 0) -> dict:
    """A valid Diamonds result for every seat of the table: vaults and showrooms, different per seat."""
    n = MatchSeat.objects.filter(match=match).count()
    return {"vault": [(2 * s + shift) % 9 for s in range(n)], "showroom": [(5 + 3 * s) % 7 for s in range(n)]}


def tables_of(rnd) -> list[Match]:
    return list(Match.objects.filter(tournament_round=rnd).order_by("table_number"))


def test_a_club_evening_in_french_from_check_in_to_the_final(chromium, site_server):
    server, quiet = site_server
    with quiet():
        club = create_club(name="Club de Lyon")
        organiser = administrators_account("orga", password=PASSWORD)
        ClubAdmin.objects.create(club=club, user=organiser)
        people = [create_person_player(user=administrators_account(f"joueur{i}", password=PASSWORD),
                                       name=f"joueur{i}", clubs=[club]) for i in range(12)]
        evening = create_tournament(name="Soirée du jeudi", rounds=3, table_size=4, club=club, offline_tables=True,
                                    check_in_required=True, late_entry_points="bye", final_size=4, rated=True,
                                    seed="lyon")
        register_players(tournament=evening, players=people[:10])  # joueur10 and joueur11 come late

    # Round 1: the organiser checks the ten in on a phone, in French, and seats the round.
    boss, board = phone(chromium, server, "orga")
    board.goto(f"{server.url}/tournaments/{evening.pk}/check-in/")
    assert "pas encore là" in board.content()  # "not here yet", in French
    for player in people[:10]:
        board.click(f"button.check-in:has-text('{player.name}')")
        board.wait_for_selector(f"button.check-in.here:has-text('{player.name}')")
    shoot(board, "club-evening-check-in-fr")
    board.click("form button[type=submit].primary")
    board.wait_for_url(f"**/tournaments/{evening.pk}/")
    with quiet():
        evening.refresh_from_db()
        round1 = evening.tournament_rounds.get(index=1)
        tables = tables_of(round1)
        assert sorted(len(t["seats"]) for t in round1.tables) == [3, 3, 4]  # ten present: 4 + 3 + 3
        assert all(t.offline for t in tables)
        first = tables[0]
        by_seat = {ms.seat: ms.player.user.username
                   for ms in MatchSeat.objects.filter(match=first).select_related("player__user")}

    # The score slips print without the site's navigation, one slip per table.
    board.goto(f"{server.url}/tournaments/{evening.pk}/rounds/1/slips/")
    assert board.locator("section.slip").count() == 3 and "Signature" in board.content()
    board.emulate_media(media="print")
    assert not board.locator("header.site").is_visible()
    board.emulate_media(media="screen")

    # Table 1: seat 1 enters the result on their phone; seat 2 enters other figures on theirs: the table disagrees.
    one, page1 = phone(chromium, server, by_seat[0])
    page1.goto(f"{server.url}/matches/{first.pk}/")
    entered = figures(first)
    for seat in range(len(by_seat)):
        page1.fill(f"input[name=vault_{seat}]", str(entered["vault"][seat]))
        page1.fill(f"input[name=showroom_{seat}]", str(entered["showroom"][seat]))
    page1.click("form.result-form button[type=submit]")
    page1.wait_for_selector("section.version")
    assert "Confirmer ce résultat" not in page1.content()  # nobody confirms their own entry
    two, page2 = phone(chromium, server, by_seat[1])
    page2.goto(f"{server.url}/matches/{first.pk}/")
    other = figures(first, shift=1)
    for seat in range(len(by_seat)):
        page2.fill(f"input[name=vault_{seat}]", str(other["vault"][seat]))
        page2.fill(f"input[name=showroom_{seat}]", str(other["showroom"][seat]))
    page2.click("form.result-form button[type=submit]")
    page2.wait_for_selector("[role=alert]")  # the table disagrees: an organiser settles it
    with quiet():
        assert sorted(ResultEntry.objects.filter(match=first).values_list("status", flat=True)) == [
            EntryStatus.DISPUTED, EntryStatus.DISPUTED]

    # The organiser sees it on the evening's page and makes the first version final from their phone.
    board.goto(f"{server.url}/tournaments/{evening.pk}/")
    assert board.locator(f"a[href='/matches/{first.pk}/']").count() >= 1
    board.goto(f"{server.url}/matches/{first.pk}/")
    board.locator("section.version").first.locator("button[type=submit]").click()
    board.wait_for_selector("text=★")
    with quiet():
        first.refresh_from_db()
        assert first.status == MatchStatus.FINISHED
        statuses = sorted(ResultEntry.objects.filter(match=first).values_list("status", flat=True))
        assert statuses == sorted([EntryStatus.RESOLVED, EntryStatus.SUPERSEDED])
        resolved = ResultEntry.objects.get(match=first, status=EntryStatus.RESOLVED)
        assert resolved.figures["vault"] == entered["vault"]  # the version the organiser picked
        for table in tables[1:]:  # the other tables' results, as an organiser enters them (final at once)
            enter_result(match=table, user=organiser, figures=figures(table))

        # Between rounds: two arrive late, one leaves; the round is seated from those present.
        register_players(tournament=evening, players=people[10:])
        withdraw_player(tournament=evening, player=people[3])
        for number in (2, 3):
            present = [p for p in people if p != people[3]]
            for player in present:
                check_in(tournament=evening, player=player, by=organiser)
            rnd = seat_round(tournament=evening)
            start_round(tournament_round=rnd)
            seated = sorted(pid for t in rnd.tables for pid in t["seats"])
            assert seated == sorted(p.pk for p in present)  # everyone present exactly once, nobody absent
            assert sorted(len(t["seats"]) for t in rnd.tables) == [3, 4, 4]  # eleven: 4 + 4 + 3
            assert CheckIn.objects.filter(entry__tournament=evening, round_index=number).count() == 11
            for table in tables_of(rnd):
                enter_result(match=table, user=organiser, figures=figures(table, shift=number))

        # The final: the best four by the qualifying standings, at one table, played with real cards too.
        qualifying = [row.player_ids[0] for row in tournament_ranking(tournament=evening).rows][:4]
        for player in qualifying:  # with check-in on, the finalists check in for the final too
            check_in(tournament=evening, player=next(p for p in people if p.pk == player), by=organiser)
        final_round = advance_tournament(tournament=evening)  # the organiser's "seat and start the final"
        assert final_round is not None and final_round.stage == 1
        final = tables_of(final_round)[0]
        assert final.offline
        assert [ms.player_id for ms in MatchSeat.objects.filter(match=final).order_by("seat")] == qualifying
        enter_result(match=final, user=organiser, figures={"vault": [1, 8, 3, 5], "showroom": [2, 0, 6, 1]})
        evening.refresh_from_db()
        assert evening.status == TournamentStatus.FINISHED
        ranking = tournament_ranking(tournament=evening)
        final_seats = {ms.player_id: ms.placement for ms in MatchSeat.objects.filter(match=final)}
        top = [row.player_ids[0] for row in ranking.rows[:4]]
        assert sorted(top) == sorted(qualifying)  # places 1-4 are the finalists'
        assert [final_seats[p] for p in top] == sorted(final_seats.values())  # in the final's order
        # Ratings: every player rated once per table they played (joueur3: round 1 only; the late two: 2 rounds).
        played = {p.pk: MatchSeat.objects.filter(player=p, match__status=MatchStatus.FINISHED).count()
                  for p in people}
        qualifying_played = {p.pk: MatchSeat.objects.filter(player=p, match__tournament_round__stage=0).count()
                             for p in people}
        assert qualifying_played[people[3].pk] == 1
        assert qualifying_played[people[10].pk] == qualifying_played[people[11].pk] == 2
        assert all(played[p] == qualifying_played[p] + (p in qualifying) for p in played)
        for p in people:
            rating = Rating.objects.get(player=p, ladder=None, game="diamonds")
            assert rating.matches == played[p.pk], p.name

    # The evening's page, in French, shows the final ranking with the winner of the final first.
    board.goto(f"{server.url}/tournaments/{evening.pk}/")
    html = board.content()
    assert "Finale" in html and "Classement" in html
    shoot(board, "club-evening-ranking-fr")
    for context in (boss, one, two):
        context.close()
