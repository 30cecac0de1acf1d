"""Migration 0022 makes Player.name_key unique (issue 27, names under concurrency). Names stored before the
look-alike rule may share a key; the first player keeps its name and each later look-alike is renamed with a number,
said in the migration's output, so the constraint can be added."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection
from django.db.migrations.executor import MigrationExecutor

from league.models import Player
from league.names import name_key

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("league", "0022_round_clock")]
AFTER = [("league", "0023_unique_name_key")]
CYRILLIC_O = "\u043e"


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_old_look_alikes_are_renamed_and_the_key_is_unique_after(capsys):
    """Finding: name_key was not unique, so two look-alike names requested at once could both be stored; the old
    look-alikes that kept it from being unique are renamed, the first of each keeping its name."""
    try:
        old = _migrate(BEFORE)
        User, OldPlayer = old.get_model("auth", "User"), old.get_model("league", "Player")

        def add(name, **kw):
            return OldPlayer.objects.create(name=name, name_key=name_key(name), **kw).pk

        bob = add("bob", user=User.objects.create(username="bob"))
        big_bob = add("Bob", user=User.objects.create(username="bob2"))
        cyrillic = add("b" + CYRILLIC_O + "b", bot_kind="random")
        squatter = add("Bob-2", user=User.objects.create(username="bob3"))  # the first number is someone's
        house = add("house-random-1", bot_kind="random", house_slot="random-1")
        house_squatter = add("HOUSE-random-1", user=User.objects.create(username="hs"))
        ann = add("ann", user=User.objects.create(username="ann"))
        _migrate(AFTER)
        call_command("migrate", verbosity=0)

        names = dict(Player.objects.values_list("pk", "name"))
        assert names[bob] == "bob" and names[ann] == "ann" and names[house] == "house-random-1"
        assert names[squatter] == "Bob-2"
        assert names[big_bob] == "Bob-3" and names[cyrillic] == "b" + CYRILLIC_O + "b-4"
        assert names[house_squatter] == "HOUSE-random-1-2"
        keys = list(Player.objects.values_list("name_key", flat=True))
        assert len(set(keys)) == len(keys)
        assert all(p.name_key == name_key(p.name) for p in Player.objects.all())
        said = capsys.readouterr().out
        assert f"Player #{big_bob} renamed from 'Bob' to 'Bob-3'" in said and f"player #{bob}, 'bob'" in said
        with pytest.raises(IntegrityError):
            Player.objects.create(name="BOB", bot_kind="random")
    finally:
        call_command("migrate", verbosity=0)
