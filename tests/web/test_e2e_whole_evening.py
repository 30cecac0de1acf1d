"""Issue 28's whole club evening, in a real headless Chromium at a phone's width (390 x 844), done by an organiser who
never opens the admin or a terminal:

- carla signs up through the sign-up form, confirms her address with the link from the email, and starts a club;
- six people sign up the same way and join it; carla pastes four guests into the roster;
- she creates the Swiss evening for 10 from the "Club night with a final" preset (tables of 4: 4 + 3 + 3), enters
  the 4 guests and the 6 members, issues the private links, prints the score slips (each seat's QR code is its
  private link's), and opens the projector;
- every table's result is entered and confirmed at the table: guests through their private links, members signed
  in to their accounts; one table disagrees and carla settles it; 3 rounds, then the final of 4, and it is finished;
- a guest signs up, accepts the claim code carla made while signed in, and the guest's matches, results and rating
  are the account's; the pages show the account's name where the guest's was.

axe-core runs on each page the flow passes that issue 28 brought (WCAG 2.x A/AA). The database is only read, to
check what the pages did (inside `quiet()`, which takes turns with the live server on in-memory SQLite).
"""

from __future__ import annotations

import re

import pytest
import segno
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache

from league.models import (
    ClubAdmin,
    EntryStatus,
    Match,
    MatchSeat,
    MatchStatus,
    Player,
    Rating,
    ResultEntry,
    Tournament,
    TournamentStatus,
)

from .browser import PHONE, assert_accessible

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-phrase-28"
GUESTS = ["Gina Rossi", "Gus Martin", "Greta Lund", "Gil Moreau"]
MEMBERS = ["maria", "mateo", "milan", "moira", "marek", "minna"]


class Evening:
    """The browser's people: one phone (a context of its own) each, and what the test knows about them."""

    def __init__(self, chromium, server, quiet):
        self.chromium, self.server, self.quiet = chromium, server, quiet
        self.pages: dict[str, object] = {}  # by player name: a member's signed-in phone, or a guest's
        self.links: dict[str, str] = {}  # a guest's private link, by name
        self.checked: set[str] = set()  # the pages axe has been run on
        self.errors: list[str] = []  # scripts that failed on any phone

    def url(self, path: str) -> str:
        return self.server.url + path

    def phone(self):
        context = self.chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(20000)
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        return page

    def accessible(self, page, name: str) -> None:
        """axe-core on the page, once per kind of page."""
        if name not in self.checked:
            self.checked.add(name)
            assert_accessible(page, name)

    def sign_up(self, username: str, *, then: str = "") -> object:
        """A new phone that signs up as `username` with the sign-up form and follows the confirmation link from the
        email (which signs them in). `then`: a path to open after it."""
        page = self.phone()
        email = f"{username}@example.org"
        page.goto(self.url("/accounts/signup/"))
        page.fill("#id_username", username)
        page.fill("#id_email", email)
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("main button[type=submit].primary")
        page.wait_for_url("**/accounts/confirm-email/")
        sent = [m for m in mail.outbox if m.to == [email]]
        assert len(sent) == 1, f"{username}: {len(sent)} emails"
        link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", sent[0].body).group(1)
        page.goto(self.url(link))
        with page.expect_navigation():
            page.click("main button[type=submit]")
        page.wait_for_url("**/me/")
        if then:
            page.goto(self.url(then))
        return page


def figures(n: int, turn: int, *, other: bool = False) -> tuple[list[int], list[int]]:
    """A valid Diamonds result for a table of n (vaults and showrooms, no two seats with the same score), different
    from table to table; `other` gives the same table a different one (a disagreement)."""
    vault = [9, 6, 3, 1][:n]
    showroom = [2, 5, 7, 4][:n]
    k = turn % n
    vault = vault[k:] + vault[:k]
    if other:
        vault = [v + 1 for v in vault]
    return vault, showroom


def fill_result(page, n: int, turn: int, *, other: bool = False) -> None:
    vault, showroom = figures(n, turn, other=other)
    for seat in range(n):
        page.fill(f"input[name=vault_{seat}]", str(vault[seat]))
        page.fill(f"input[name=showroom_{seat}]", str(showroom[seat]))
    page.click("form.result-form button[type=submit]")


def qr_path(svg_html: str) -> str:
    """The path data of a QR code's <svg> (what it encodes, drawn)."""
    return re.search(r' d="([^"]+)"', svg_html).group(1)


def test_an_organiser_runs_a_whole_club_evening_from_a_phone(chromium, site_server):
    server, quiet = site_server
    cache.clear()  # allauth paces confirmation emails per address in the cache
    evening = Evening(chromium, server, quiet)

    # ---- carla signs up and starts the club ------------------------------------------------------------------
    boss = evening.sign_up("carla")
    boss.click("text=Start a club")
    boss.wait_for_url("**/clubs/new/")
    evening.accessible(boss, "the new club form")
    boss.fill("#id_name", "Club du Port")
    boss.fill("#id_location", "Café du Port, Thursdays from 8 pm")
    boss.click("main button[type=submit].primary")
    boss.wait_for_url(re.compile(r"/clubs/\d+/$"))
    assert "you organise it" in boss.text_content("main")
    with quiet():
        club = ClubAdmin.objects.select_related("club").get(user__username="carla").club
    assert club.name == "Club du Port"
    evening.accessible(boss, "the club page, for its organiser")

    # ---- six members sign up and join; carla pastes four guests into the roster ---------------------------------
    for name in MEMBERS:
        page = evening.sign_up(name, then=f"/clubs/{club.pk}/")
        page.click("text=Join the club")
        page.wait_for_selector("text=You are a member.")
        evening.pages[name] = page
    boss.click("text=Roster: players without accounts")
    boss.wait_for_url(f"**/clubs/{club.pk}/roster/")
    boss.fill("#id_names", "\n".join(GUESTS) + "\n")
    boss.click("main button:has-text('Preview')")
    boss.click("text=Add 4 guests")
    boss.wait_for_selector("text=4 guests added to the roster.")
    evening.accessible(boss, "the roster")

    # ---- the evening: created from a preset, with a preview first ---------------------------------------------
    boss.goto(evening.url(f"/clubs/{club.pk}/"))
    boss.click("text=New tournament")
    boss.wait_for_url("**/tournaments/new/")
    boss.select_option("#preset", "club-night-final")
    boss.fill("#id_name", "Thursday evening")
    boss.fill("#id_expected_players", "10")
    boss.click("button[value=preview]")
    boss.wait_for_selector("#preview")
    assert "4 + 3 + 3" in boss.text_content("#preview")
    evening.accessible(boss, "the new tournament form with its preview")
    boss.click("button[value=save]")
    boss.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    with quiet():
        tournament = Tournament.objects.get()
    assert (tournament.format, tournament.rounds, tournament.table_size, tournament.final_size) == ("swiss", 3, 4, 4)
    assert tournament.offline_tables and tournament.rated and tournament.seed  # a seed nobody typed

    # Carla enters the four guests and the six members.
    for name in GUESTS + MEMBERS:
        boss.check(f"label.pick:has-text('{name}') input")
    boss.click("text=Enter the chosen players")
    boss.wait_for_selector("text=Entered ")
    with quiet():
        assert tournament.entries.filter(active=True).count() == 10

    # ---- round 1 ----------------------------------------------------------------------------------------------
    boss.click("text=Start the tournament (round 1)")
    boss.wait_for_selector("text=Round 1 is seated and started.")
    evening.accessible(boss, "the tournament page with the round's dashboard")

    # The score slips: carla has not issued the private links yet, the page says so and issues them in one tap;
    # then each slip has every seat's QR code.
    boss.click("section.round >> text=Score slips")
    boss.wait_for_url(f"**/tournaments/{tournament.pk}/rounds/1/slips/")
    assert "10 players here have no private link yet" in boss.text_content("main")
    boss.click("text=Issue links for everyone who has none")
    boss.wait_for_selector("text=Links issued: 10.")
    assert boss.url.endswith(f"/tournaments/{tournament.pk}/rounds/1/slips/")
    assert boss.locator("section.slip").count() == 3
    assert boss.locator("section.slip svg.qr").count() == 10
    drawn = {name: boss.locator(f"section.slip tr:has(td:text-is('{name}')) svg.qr").inner_html()
             for name in GUESTS}
    evening.accessible(boss, "the score slips")

    # The private links page: each guest's link, which the QR code on their slip is.
    boss.goto(evening.url(f"/tournaments/{tournament.pk}/"))
    boss.click("text=Private links")
    boss.wait_for_url(f"**/tournaments/{tournament.pk}/links/")
    evening.accessible(boss, "the private links page")
    for name in GUESTS:
        url = boss.input_value(f"li:has(h2:has-text('{name}')) input.link-field")
        assert qr_path(drawn[name]) == qr_path(segno.make(url, error="m").svg_inline(scale=2, lineclass=None)), name
        evening.links[name] = url
        evening.pages[name] = evening.phone()

    # The projector, for the room's screen.
    boss.goto(evening.url(f"/tournaments/{tournament.pk}/"))
    boss.click("text=Projector view")
    boss.wait_for_url(f"**/tournaments/{tournament.pk}/projector/")
    for name in GUESTS + MEMBERS:
        assert boss.locator(f"text={name}").count() >= 1
    evening.accessible(boss, "the projector")

    play_round(evening, boss, tournament, 1, dispute=True)
    for number in (2, 3):
        boss.goto(evening.url(f"/tournaments/{tournament.pk}/"))
        boss.click("text=Seat and start the next round")
        boss.wait_for_selector(f"text=Round {number} is seated and started.")
        play_round(evening, boss, tournament, number)

    # ---- the final of four --------------------------------------------------------------------------------------
    boss.goto(evening.url(f"/tournaments/{tournament.pk}/"))
    boss.click("text=Seat and start the final")
    boss.wait_for_selector("text=Round 4 is seated and started.")
    play_round(evening, boss, tournament, 4)
    boss.goto(evening.url(f"/tournaments/{tournament.pk}/"))
    assert "Final ranking" in boss.text_content("main")
    with quiet():
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.FINISHED
        final = Match.objects.get(tournament_round__tournament=tournament, tournament_round__stage=1)
        assert final.match_seats.count() == 4
        entries = ResultEntry.objects.filter(match__tournament_round__tournament=tournament)
        # Both ways in were used: guests through their links, members with their accounts; one table settled.
        assert entries.filter(entered_by_player__isnull=False).exists()
        assert entries.filter(entered_by__isnull=False, by_organiser=False).exists()
        assert entries.filter(decided_by_player__isnull=False, status=EntryStatus.CONFIRMED).exists()
        assert entries.filter(decided_by__username__in=MEMBERS, status=EntryStatus.CONFIRMED).exists()
        assert entries.filter(status=EntryStatus.RESOLVED, decided_by__username="carla").count() == 1

    # ---- a guest signs up and claims her history ------------------------------------------------------------
    # A guest who played the final if one did (the final's seating is kept by player id: it moves with the claim).
    with quiet():
        in_final = set(MatchSeat.objects.filter(match=final).values_list("player__name", flat=True))
        guest_name = ([name for name in GUESTS if name in in_final] or GUESTS)[0]
        guest = Player.objects.get(name=guest_name)
        seats_before = sorted(MatchSeat.objects.filter(player=guest).values_list("match_id", flat=True))
        rating_before = Rating.objects.get(player=guest, ladder=None, game="diamonds")
    assert len(seats_before) == 3 + (guest_name in in_final) == rating_before.matches  # every table rated
    boss.goto(evening.url(f"/clubs/{club.pk}/roster/"))
    row = boss.locator(f"li:has(a:text-is('{guest_name}'))")
    row.locator("summary").click()
    row.locator("text=Make a claim code").click()
    boss.wait_for_selector("#claim-url")
    evening.accessible(boss, "the claim code page")
    claim_url = boss.input_value("#claim-url")

    gina = evening.sign_up("gina")
    gina.goto(claim_url)
    evening.accessible(gina, "the claim page")
    gina.click(f"text=Yes, I am {guest_name}")
    gina.wait_for_selector(f"text=The history of {guest_name} is yours now.")
    with quiet():
        account = get_user_model().objects.get(username="gina")
        person = Player.objects.get(user=account)
        assert not Player.objects.filter(pk=guest.pk).exists()
        assert sorted(MatchSeat.objects.filter(player=person).values_list("match_id", flat=True)) == seats_before
        rating = Rating.objects.get(player=person, ladder=None, game="diamonds")
        assert (rating.mu, rating.sigma, rating.matches) == (rating_before.mu, rating_before.sigma,
                                                             rating_before.matches)
        assert not ResultEntry.objects.filter(entered_by_player=guest.pk).exists()
    # Her page shows them; the evening's pages show her by her account's name now.
    assert gina.url.endswith(f"/players/{person.pk}/")
    assert gina.locator("text=Thursday evening").count() >= 1
    assert f"{rating.matches} matches)" in gina.text_content("main")  # her rating: the guest's, carried over
    gina.goto(evening.url(f"/tournaments/{tournament.pk}/"))
    main = gina.text_content("main")
    assert person.name in main and guest_name not in main
    # Her tables name her as she is now, and say what the record calls her.
    gina.goto(evening.url(f"/matches/{seats_before[0]}/"))
    assert gina.locator(f"text=played as “{guest_name}”").count() == 1
    assert not evening.errors, evening.errors


def play_round(evening: Evening, boss, tournament, number: int, *, dispute: bool = False) -> None:
    """Every table of the round: the first seat enters the result, the second confirms it (a guest through their
    private link, a member signed in). With `dispute`, table 1's second seat enters other figures instead, and carla
    settles it from the tournament page."""
    with evening.quiet():
        tables = [(m.pk, [ms.player.name for ms in MatchSeat.objects.filter(match=m).select_related("player")
                          .order_by("seat")])
                  for m in Match.objects.filter(tournament_round__tournament=tournament,
                                                tournament_round__index=number).order_by("table_number")]
    for turn, (match_pk, names) in enumerate(tables):
        n = len(names)
        enterer, checker = names[0], names[1]
        page = open_table(evening, enterer, match_pk)
        fill_result(page, n, number + turn)
        page.wait_for_selector("text=Result entered: another player at the table confirms it.")
        page = open_table(evening, checker, match_pk)
        if dispute and turn == 0:
            fill_result(page, n, number + turn, other=True)
            page.wait_for_selector("text=an organiser will settle it")
            boss.goto(evening.url(f"/tournaments/{tournament.pk}/"))
            boss.click(f"[role=alert] >> text=Round {number}, table 1")
            boss.wait_for_url(f"**/matches/{match_pk}/")
            evening.accessible(boss, "a disputed table, for the organiser")
            boss.locator("section.version").first.locator("button[type=submit]").click()
            boss.wait_for_selector("text=Result confirmed: the table is finished.")
        else:
            page.click("text=Confirm this result")
            page.wait_for_selector("text=Result confirmed: the table is finished.")
    with evening.quiet():
        done = Match.objects.filter(tournament_round__tournament=tournament, tournament_round__index=number)
        assert all(m.status == MatchStatus.FINISHED for m in done)


def open_table(evening: Evening, name: str, match_pk: int):
    """The player's page of their table: a guest's private link, or a member's table from My page."""
    page = evening.pages[name]
    if name in evening.links:
        page.goto(evening.links[name])
        evening.accessible(page, "a private link's page")
    else:  # a member finds their table on My page
        page.goto(evening.url("/me/"))
        page.click(f"#next-tables a[href='/matches/{match_pk}/']")
        page.wait_for_url(f"**/matches/{match_pk}/")
        evening.accessible(page, "a member's table")
    return page
