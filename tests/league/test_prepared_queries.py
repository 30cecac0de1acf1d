"""league.selectors.prepared: a query compiled once answers as the ORM does (same rows, fields and related objects,
on every call with new arguments), and a value out of a 64-bit id's range finds nothing, as the ORM's lookup does."""

from __future__ import annotations

import pytest
from django.db import transaction

from league.models import Match, MatchSeat
from league.selectors.prepared import PreparedQuery
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
