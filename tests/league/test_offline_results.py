"""Tables played with real cards: seated without a deal, results entered, confirmed, disputed and settled, and
counted exactly as a played match is (league.services.offline_results)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from engine.common.offline import InvalidResult
from league.models import (
    ClubAdmin,
    EntryStatus,
    Match,
    MatchSeat,
    MatchStatus,
    OutboxMessage,
    Rating,
    ResultEntry,
    RoundStatus,
    TournamentStatus,
)
from league.selectors.standings import tournament_standings
from league.services import create_club, create_person_player, register_players, start_tournament
from league.services.advancing import start_round
from league.services.offline_results import (
    NotAtTable,
    OfflineResultError,
    confirm_result,
    enter_result,
    set_offline,
)
from league.services.play import play_bot_match
from league.services.rounds import seat_round
from league.services.tournament_setup import create_tournament

from .tournament_support import bot_field

pytestmark = pytest.mark.django_db
User = get_user_model()

FIGURES = {"vault": [10, 4, 0, 7], "showroom": [3, 8, 12, 2]}
OTHER = {"vault": [10, 4, 0, 8], "showroom": [3, 8, 12, 2]}


@pytest.fixture
def club_night(run_on_commit):
    """A club, its organiser, four people and an offline tournament of one table a round, round 1 started."""
    club = create_club(name="Club")
    organiser = User.objects.create_user("org")
    ClubAdmin.objects.create(club=club, user=organiser)
    users = [User.objects.create_user(f"p{i}") for i in range(4)]
    players = [create_person_player(user=u, clubs=[club]) for u in users]
    tournament = create_tournament(name="Evening", rounds=2, club=club, offline_tables=True)
    register_players(tournament=tournament, players=players)
    rnd = run_on_commit(start_tournament, tournament=tournament)
    match = Match.objects.get(tournament_round=rnd)
    by_seat = {ms.seat: ms.player.user for ms in MatchSeat.objects.filter(match=match).select_related("player")}
    return {"club": club, "organiser": organiser, "tournament": tournament, "match": match, "seat": by_seat}


def test_an_offline_table_is_seated_but_nothing_is_dealt_or_played(club_night):
    match = club_night["match"]
    match.refresh_from_db()
    assert match.offline and match.status == MatchStatus.PENDING and match.move_number == 0
    assert MatchSeat.objects.filter(match=match).count() == 4 and match.first_dealer in range(4)
    assert not match.moves and not match.steps.exists()
    assert not OutboxMessage.objects.filter(match_id=match.pk).exists()  # no worker is sent to it
    assert play_bot_match(match_id=match.pk).status == "offline"


def test_a_player_enters_and_another_confirms_then_the_next_round_follows(club_night, run_on_commit):
    match, seat = club_night["match"], club_night["seat"]
    entry = enter_result(match=match, user=seat[0], figures=FIGURES)
    assert entry.status == EntryStatus.ENTERED and entry.entered_at_seat == 0
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING  # not final before someone else confirms
    with pytest.raises(OfflineResultError, match="another player"):
        confirm_result(match=match, user=seat[0], entry_id=entry.pk)
    run_on_commit(confirm_result, match=match, user=seat[2], entry_id=entry.pk)
    match.refresh_from_db()
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and entry.decided_by == seat[2]
    assert match.status == MatchStatus.FINISHED
    assert match.result == {"score": [23, 16, 12, 16], "vault": [10, 4, 0, 7], "showroom": [3, 8, 12, 2],
                            "winners": [0]}
    rows = {r.seat: r for r in MatchSeat.objects.filter(match=match)}
    assert [rows[s].placement for s in range(4)] == [1, 3, 4, 2]  # 16 each: the vault decides (R-WIN-1)
    assert rows[0].is_winner and rows[1].showroom == 8 and rows[3].tiebreak == 7
    # The round closed and, with auto-advance, round 2 is seated offline too.
    rnd = match.tournament_round
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED
    nxt = Match.objects.get(tournament_round__tournament=club_night["tournament"], tournament_round__index=2)
    assert nxt.offline and nxt.status == MatchStatus.PENDING
    # Nothing more is entered for a final result; an organiser corrects it.
    with pytest.raises(OfflineResultError, match="already final"):
        enter_result(match=match, user=seat[1], figures=OTHER)


def test_the_same_figures_from_another_player_confirm_them(club_night, run_on_commit):
    match, seat = club_night["match"], club_night["seat"]
    first = enter_result(match=match, user=seat[0], figures=FIGURES)
    second = run_on_commit(enter_result, match=match, user=seat[1], figures=dict(FIGURES))
    assert second.pk == first.pk and second.status == EntryStatus.CONFIRMED
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED


def test_a_double_submit_stores_one_version(club_night):
    match, seat = club_night["match"], club_night["seat"]
    first = enter_result(match=match, user=seat[0], figures=FIGURES)
    again = enter_result(match=match, user=seat[0], figures=dict(FIGURES))
    assert again.pk == first.pk and ResultEntry.objects.filter(match=match).count() == 1


def test_an_enterer_may_replace_their_own_version_before_confirmation(club_night):
    match, seat = club_night["match"], club_night["seat"]
    first = enter_result(match=match, user=seat[0], figures=FIGURES)
    second = enter_result(match=match, user=seat[0], figures=OTHER)
    first.refresh_from_db()
    assert first.status == EntryStatus.SUPERSEDED and second.status == EntryStatus.ENTERED


def test_a_disagreement_is_flagged_and_the_organiser_settles_it_keeping_every_version(club_night, run_on_commit):
    match, seat, organiser = club_night["match"], club_night["seat"], club_night["organiser"]
    a = enter_result(match=match, user=seat[0], figures=FIGURES)
    b = enter_result(match=match, user=seat[1], figures=OTHER)
    a.refresh_from_db()
    assert a.status == b.status == EntryStatus.DISPUTED
    # Players cannot settle it among themselves.
    with pytest.raises(OfflineResultError, match="organiser"):
        confirm_result(match=match, user=seat[2], entry_id=a.pk)
    run_on_commit(confirm_result, match=match, user=organiser, entry_id=b.pk)
    versions = {e.pk: e for e in ResultEntry.objects.filter(match=match)}
    assert versions[b.pk].status == EntryStatus.RESOLVED and versions[b.pk].decided_by == organiser
    assert versions[a.pk].status == EntryStatus.SUPERSEDED
    assert versions[a.pk].figures == FIGURES and versions[b.pk].figures == OTHER  # every version kept as entered
    assert Match.objects.get(pk=match.pk).result["vault"] == OTHER["vault"]


def test_an_organiser_entry_is_final_at_once_and_resolves_a_dispute(club_night, run_on_commit):
    match, seat, organiser = club_night["match"], club_night["seat"], club_night["organiser"]
    enter_result(match=match, user=seat[0], figures=FIGURES)
    enter_result(match=match, user=seat[1], figures=OTHER)
    final = run_on_commit(enter_result, match=match, user=organiser,
                          figures={"vault": [1, 2, 3, 4], "showroom": [3, 3, 3, 3]})
    assert final.status == EntryStatus.RESOLVED and final.by_organiser and final.entered_at_seat is None
    assert sorted(ResultEntry.objects.filter(match=match).values_list("status", flat=True)) == [
        "resolved", "superseded", "superseded"]
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED


def test_strangers_and_bad_figures_change_nothing(club_night):
    match, seat = club_night["match"], club_night["seat"]
    stranger = User.objects.create_user("stranger")
    other_club = create_club(name="Elsewhere")
    other_organiser = User.objects.create_user("other-org")
    ClubAdmin.objects.create(club=other_club, user=other_organiser)
    for user in (stranger, other_organiser):
        with pytest.raises(NotAtTable):
            enter_result(match=match, user=user, figures=FIGURES)
    entry = enter_result(match=match, user=seat[0], figures=FIGURES)
    with pytest.raises(NotAtTable):
        confirm_result(match=match, user=stranger, entry_id=entry.pk)
    with pytest.raises(InvalidResult) as e:
        enter_result(match=match, user=seat[1], figures={"vault": [-1, 0, 0], "showroom": [300, 0, 0, 0]})
    assert {p.field for p in e.value.problems} == {"vault"}  # a seat missing; then nothing more can be summed
    assert ResultEntry.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).status == MatchStatus.PENDING


def test_an_online_match_takes_no_entered_result(run_on_commit):
    club = create_club(name="Club")
    tournament = create_tournament(name="Online", rounds=1, club=club, auto_advance=False)
    register_players(tournament=tournament, players=bot_field(4))
    rnd = seat_round(tournament=tournament)
    match = Match.objects.get(tournament_round=rnd)
    staff = User.objects.create_user("staff", is_staff=True)
    with pytest.raises(OfflineResultError, match="online"):
        enter_result(match=match, user=staff, figures=FIGURES)


def test_a_mixed_round_plays_its_online_table_and_waits_for_the_offline_ones_result(run_on_commit):
    club = create_club(name="Club")
    staff = User.objects.create_user("staff", is_staff=True)
    tournament = create_tournament(name="Mixed", rounds=1, club=club)
    register_players(tournament=tournament, players=bot_field(8))
    rnd = seat_round(tournament=tournament)
    at_club, online = Match.objects.filter(tournament_round=rnd).order_by("table_number")
    set_offline(match=at_club, offline=True)
    run_on_commit(start_round, tournament_round=rnd)
    at_club.refresh_from_db()
    online.refresh_from_db()
    assert online.status == MatchStatus.FINISHED and online.move_number > 0  # the workers played it
    assert at_club.status == MatchStatus.PENDING and at_club.move_number == 0  # no bot played the real-cards table
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.RUNNING
    run_on_commit(enter_result, match=at_club, user=staff, figures=FIGURES)
    rnd.refresh_from_db()
    tournament.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED and tournament.status == TournamentStatus.FINISHED
    assert len([row for row in tournament_standings(tournament=tournament) if row.games == 1]) == 8
    # A table that has begun is not switched any more.
    with pytest.raises(OfflineResultError, match="begun"):
        set_offline(match=online, offline=True)


def test_an_entered_result_counts_as_the_same_result_played_online(run_on_commit):
    """Standings and ratings of a table entered by hand equal those of the same result played by the server."""
    club = create_club(name="Club")
    online_t = create_tournament(name="Online", rounds=1, club=club)
    register_players(tournament=online_t, players=bot_field(4, prefix="online"))
    rnd = run_on_commit(start_tournament, tournament=online_t)
    played = Match.objects.get(tournament_round=rnd)
    assert played.status == MatchStatus.FINISHED

    users = [User.objects.create_user(f"p{i}") for i in range(4)]
    people = [create_person_player(user=u, clubs=[club]) for u in users]
    offline_t = create_tournament(name="Offline", rounds=1, club=club, offline_tables=True)
    register_players(tournament=offline_t, players=people)
    table = Match.objects.get(tournament_round=run_on_commit(start_tournament, tournament=offline_t))
    # The same figures by seat: people seated as the bots were (by seat), so compare seat by seat.
    entry = enter_result(match=table, user=users[0], figures={"vault": played.result["vault"],
                                                              "showroom": played.result["showroom"]})
    confirmer = next(u for u in users if u != users[0])
    run_on_commit(confirm_result, match=table, user=confirmer, entry_id=entry.pk)
    table.refresh_from_db()
    assert table.result == played.result

    def seats(match):
        return [(r.score, r.tiebreak, r.showroom, r.placement, r.is_winner)
                for r in MatchSeat.objects.filter(match=match).order_by("seat")]

    assert seats(table) == seats(played)

    def by_seat(tournament, match):
        rows = {row.player_ids[0]: row for row in tournament_standings(tournament=tournament)}
        return [(rows[pid].rank, rows[pid].metrics) for pid in
                MatchSeat.objects.filter(match=match).order_by("seat").values_list("player_id", flat=True)]

    assert by_seat(offline_t, table) == by_seat(online_t, played)

    def ratings(match):
        return [Rating.objects.get(player_id=pid, ladder=None, game="diamonds").mu for pid in
                MatchSeat.objects.filter(match=match).order_by("seat").values_list("player_id", flat=True)]

    assert ratings(table) == pytest.approx(ratings(played))


@pytest.mark.parametrize("game, figures_of", [
    ("diamoniak", lambda r: {"castle": r.castle, "diamonds": r.diamonds}),
    ("ringrace", lambda r: {"dollars": r.totals, "set_rings": r.set_rings}),
])
def test_the_other_games_entered_results_are_stored_as_a_played_games(game, figures_of, run_on_commit):
    from engine.common.referee import result_json
    from engine.games import game_type
    from league.services import create_match
    from league.services.progress import seat_results_of

    kind = game_type(game)
    played = kind.new_game({"players": 3}, seed=f"offline-{game}")
    kind.play_game(played, [kind.make_bot("heuristic", seed=s) for s in range(3)])
    staff = User.objects.create_user("staff", is_staff=True)
    people = [create_person_player(user=User.objects.create_user(f"{game}{i}")) for i in range(3)]
    match = create_match(players=people, ruleset=3, game=game)
    Match.objects.filter(pk=match.pk).update(offline=True)
    run_on_commit(enter_result, match=match, user=staff, figures=figures_of(played.result))
    match.refresh_from_db()
    expected = result_json(played.result)
    assert match.status == MatchStatus.FINISHED
    assert {k: v for k, v in match.result.items() if k != "reason"} == {k: v for k, v in expected.items()
                                                                         if k != "reason"}
    stored = {r.seat: {"score": r.score, "tiebreak": r.tiebreak, "placement": r.placement, "is_winner": r.is_winner}
              for r in MatchSeat.objects.filter(match=match)}
    assert stored == seat_results_of(game, played)


def test_an_organiser_corrects_a_confirmed_diamonds_result_later(club_night, run_on_commit):
    from league.services.corrections import correct_result

    match, organiser = club_night["match"], club_night["organiser"]
    run_on_commit(enter_result, match=match, user=organiser, figures=FIGURES)
    correction = correct_result(match=Match.objects.get(pk=match.pk), user=organiser, reason="slip misread",
                                vault=[10, 4, 0, 9], showroom=[3, 8, 12, 2])
    assert correction.before["vault"] == [10, 4, 0, 7] and correction.after["winners"] == [0]
    assert MatchSeat.objects.get(match=match, seat=3).placement == 2
    assert ResultEntry.objects.get(match=match).figures == FIGURES  # the entered version stays as it was entered


def test_the_beat_sweeps_leave_offline_tables_alone(club_night):
    """No sweep sends a worker to a table of real cards, however long it waits for its result."""
    from datetime import timedelta

    from django.utils import timezone

    from league.selectors.live import stalled_live_match_ids
    from league.services.outbox import adopt_orphaned_matches

    club = club_night["club"]
    bots_table = create_tournament(name="Bots at the club", rounds=1, club=club, offline_tables=True)
    register_players(tournament=bots_table, players=bot_field(4, prefix="club-bot"))
    rnd = seat_round(tournament=bots_table)
    start_round(tournament_round=rnd)
    long_ago = timezone.now() - timedelta(hours=2)
    Match.objects.update(updated_at=long_ago)
    assert stalled_live_match_ids(idle_seconds=60) == []
    assert adopt_orphaned_matches(idle_seconds=60) == []
    assert not OutboxMessage.objects.exists()


def test_the_audit_trail_is_listed_in_the_admin_and_not_edited_there(club_night, client):
    from django.urls import reverse

    enter_result(match=club_night["match"], user=club_night["seat"][0], figures=FIGURES)
    client.force_login(User.objects.create_user("root", is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:league_resultentry_changelist"))
    assert page.status_code == 200 and "entered" in page.content.decode()
    assert client.get(reverse("admin:league_resultentry_add")).status_code == 403
