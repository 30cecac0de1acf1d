"""league.selectors.prepared: a query (or a values_list) compiled once answers as the ORM does (same rows, fields
and related objects, on every call with new arguments), and a value out of a 64-bit id's range finds nothing, as
the ORM's lookup does."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.models import Exists, OuterRef

from league.models import Match, MatchSeat
from league.selectors.prepared import PreparedQuery, PreparedValues
from league.services import create_match
from league.services.players import create_external_bot

pytestmark = pytest.mark.django_db

SEATS = PreparedQuery(lambda m, u: MatchSeat.objects.filter(match__pk=m, player__user=u)
                      .select_related("match", "player").order_by("seat"), 2)
LOCKED = PreparedQuery(lambda pk: Match.objects.select_for_update().filter(pk=pk).order_by("pk")[:1], 1,
                       for_write=True)


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_a_prepared_query_answers_as_the_orm_does_call_after_call():
    bots = [create_external_bot(name=f"prep-{i}") for i in range(4)]
    matches = [create_match(players=bots, ruleset={"players": 4}, seed=f"prep/{k}") for k in range(2)]
    for match in matches:
        for bot in bots:
            orm = list(MatchSeat.objects.filter(match__pk=match.pk, player__user=bot.user)
                       .select_related("match", "player").order_by("seat"))
            got = SEATS(match.pk, bot.user.pk)
            assert [fields(ms) for ms in got] == [fields(ms) for ms in orm] and len(got) == 1
            assert fields(got[0].match) == fields(orm[0].match)
            assert fields(got[0].player) == fields(orm[0].player)
        with transaction.atomic():
            (locked,) = LOCKED(match.pk)
            assert fields(locked) == fields(Match.objects.get(pk=match.pk))
    assert SEATS(matches[0].pk, 10 ** 9) == []


def test_an_id_out_of_range_finds_nothing():
    assert SEATS(2 ** 63, 1) == []
    with transaction.atomic():
        assert LOCKED(10 ** 30) == []


VALUES = PreparedValues(lambda pk: MatchSeat.objects.filter(match_id=pk).values_list(
    "seat", "player_id", "player__name", "forfeited", Exists(Match.objects.filter(pk=OuterRef("match_id")))), 1)


def test_prepared_values_answer_as_the_orm_does():
    bots = [create_external_bot(name=f"prepv-{i}") for i in range(4)]
    matches = [create_match(players=bots, ruleset={"players": 4}, seed=f"prepv/{k}") for k in range(2)]
    MatchSeat.objects.filter(match=matches[1], seat=2).update(forfeited=True)
    for match in matches:
        orm = list(MatchSeat.objects.filter(match_id=match.pk).values_list(
            "seat", "player_id", "player__name", "forfeited", Exists(Match.objects.filter(pk=OuterRef("match_id")))))
        got = VALUES(match.pk)
        assert got == orm and len(got) == 4 and all(row[4] is True for row in got)
    assert [row[3] for row in VALUES(matches[1].pk)] == [False, False, True, False]
    assert VALUES(10 ** 9) == [] and VALUES(2 ** 63) == []
