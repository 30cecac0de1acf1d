"""League events are emitted once each, at the right moment; notifications reach the people concerned only."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import transaction
from django.utils import timezone

from league.events import emit, league_event
from league.models import Match, MatchStatus, Notification, NotificationKind
from league.services import create_bot_player, create_match, create_person_player
from league.services.advancing import start_tournament
from league.services.cancellation import cancel_match
from league.services.notification_emails import send_due_emails
from league.services.notifications import mark_all_read, mark_read, notify, prune
from league.services.play import play_bot_match
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament

from .tournament_support import bot_field

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    events: list[tuple[str, dict]] = []

    def listen(sender, *, name, payload, **kwargs):
        # "match.moved" is the pages' notice of every stored step (web/push.py: many per match, tested in
        # tests/web/test_live_push.py); these tests are about the events that happen once.
        if name != "match.moved":
            events.append((name, payload))

    league_event.connect(listen, dispatch_uid="test-heard")
    yield events
    league_event.disconnect(dispatch_uid="test-heard")


def test_a_bot_tournament_emits_each_event_once_in_order(run_on_commit, heard):
    owner = get_user_model().objects.create_user("owner", email="owner@example.org")
    bots = bot_field(3)
    mine = create_bot_player(name="my-bot", kind="random")
    type(mine).objects.filter(pk=mine.pk).update(owner=owner)
    t = create_tournament(name="cup", rounds=2, table_size=2, seed="ev", ruleset={"rounds": 1})
    register_players(tournament=t, players=[*bots, mine])
    run_on_commit(start_tournament, tournament=t)

    matches = set(Match.objects.filter(tournament_round__tournament=t).values_list("pk", flat=True))
    names = [n for n, _ in heard]
    counts = Counter((n, p.get("match_id")) for n, p in heard if n.startswith("match."))
    assert counts == {(kind, m): 1 for m in matches for kind in ("match.started", "match.finished")}
    assert [(p["round_number"], sorted(p["match_ids"])) for n, p in heard if n == "round.seated"] == [
        (r, sorted(Match.objects.filter(tournament_round__index=r, tournament_round__tournament=t)
                   .values_list("pk", flat=True))) for r in (1, 2)]
    assert names.count("tournament.finished") == 1 and names[-1] == "tournament.finished"
    for m in matches:  # started before finished
        assert names.index("match.started") <= [i for i, (n, p) in enumerate(heard)
                                                 if n == "match.finished" and p["match_id"] == m][0]
    # The bot's owner was told of each of its tables, each of its results and the end; nobody else was told.
    kinds = Counter(Notification.objects.filter(recipient=owner).values_list("kind", flat=True))
    assert kinds == {NotificationKind.ROUND_SEATED: 2, NotificationKind.MATCH_FINISHED: 2,
                     NotificationKind.TOURNAMENT_FINISHED: 1}
    assert Notification.objects.exclude(recipient=owner).count() == 0
    text = Notification.objects.filter(recipient=owner, kind=NotificationKind.ROUND_SEATED).last().text
    assert "round 1" in text and "my-bot" in text


def test_nothing_is_announced_for_a_rollback(heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            emit("tournament.finished", tournament_id=1)
            raise RuntimeError("rolled back")
    assert heard == []


def test_a_cancelled_match_is_not_finished(run_on_commit, heard):
    match = create_match(players=bot_field(2), ruleset={"players": 2}, seed="c")
    run_on_commit(cancel_match, match_id=match.pk)
    assert play_bot_match(match_id=match.pk).status == "cancelled"
    assert [n for n, _ in heard] == []


def test_a_resumed_bot_match_starts_once(run_on_commit, heard):
    match = create_match(players=bot_field(2), ruleset={"players": 2, "rounds": 1}, seed="r")
    run_on_commit(play_bot_match, match_id=match.pk)
    run_on_commit(play_bot_match, match_id=match.pk)  # a repeated delivery
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    assert [n for n, _ in heard] == ["match.started", "match.finished"]


def people(*names):
    User = get_user_model()
    users = [User.objects.create_user(n, email=f"{n}@example.org") for n in names]
    return users, [create_person_player(user=u, name=u.username) for u in users]


def test_one_unread_turn_notification_per_match_and_person(run_on_commit):
    (ann, bob), (pa, pb) = people("ann", "bob")
    match = create_match(players=[pa, pb], ruleset={"players": 2}, seed="t")
    for _ in range(3):
        run_on_commit(league_event.send, sender=None, name="turn.awaited",
                      payload={"match_id": match.pk, "user_ids": [ann.pk]})
    assert Notification.objects.filter(recipient=ann, kind="turn").count() == 1
    assert not Notification.objects.filter(recipient=bob).exists()
    mark_all_read(user=ann)
    run_on_commit(league_event.send, sender=None, name="turn.awaited",
                  payload={"match_id": match.pk, "user_ids": [ann.pk]})
    assert Notification.objects.filter(recipient=ann, kind="turn", read_at__isnull=True).count() == 1


def test_mark_read_only_ones_own():
    (ann, bob), _ = people("ann", "bob")
    notify(user_ids=[ann.pk], kind=NotificationKind.TOURNAMENT_FINISHED, text="cup is over")
    n = Notification.objects.get(recipient=ann)
    assert mark_read(user=bob, notification_id=n.pk) is False
    assert Notification.objects.get(pk=n.pk).read_at is None
    assert mark_read(user=ann, notification_id=n.pk) is True
    assert Notification.objects.get(pk=n.pk).read_at is not None


def test_email_only_to_those_who_want_it(settings):
    (ann,), _ = people("ann")
    User = get_user_model()
    nomail = User.objects.create_user("nomail")
    notify(user_ids=[ann.pk, nomail.pk], kind=NotificationKind.TOURNAMENT_FINISHED, text="cup is over")
    assert mail.outbox == []  # nothing is sent by the code that stores them
    assert send_due_emails() == 1
    assert [m.to for m in mail.outbox] == [["ann@example.org"]] and "cup is over" in mail.outbox[0].body
    assert send_due_emails() == 0  # once


def test_turn_email_only_when_still_awaited_after_a_while(settings, run_on_commit):
    settings.DIAMONDS_TURN_EMAIL_AFTER_SECONDS = 600
    (ann, bob), (pa, pb) = people("ann", "bob")
    match = create_match(players=[pa, pb], ruleset={"players": 2}, seed="e")
    match.match_seats.filter(seat=0).update(awaiting=True)
    run_on_commit(league_event.send, sender=None, name="turn.awaited",
                  payload={"match_id": match.pk, "user_ids": [ann.pk, bob.pk]})
    assert send_due_emails() == 0  # too soon
    later = timezone.now() + timezone.timedelta(seconds=601)
    assert send_due_emails(now=later) == 1  # ann still owes it; bob does not
    assert mail.outbox[0].to == ["ann@example.org"]


def test_prune_keeps_recent_and_unread(settings):
    settings.DIAMONDS_NOTIFICATIONS_KEEP_DAYS = 30
    (ann,), _ = people("ann")
    old = timezone.now() - timezone.timedelta(days=40)
    for read in (True, False):
        notify(user_ids=[ann.pk], kind=NotificationKind.TOURNAMENT_FINISHED, text="old")
        Notification.objects.filter(text="old", created_at__gt=old).update(
            created_at=old, read_at=old if read else None)
    notify(user_ids=[ann.pk], kind=NotificationKind.TOURNAMENT_FINISHED, text="new")
    assert prune() == 1
    assert sorted(Notification.objects.values_list("text", "read_at")) == [("new", None), ("old", None)]
