"""The migration that makes verification a positive fact (league/migrations/0026_verify_made_by_administrator.py):
accounts with no email address at all were made by an administrator (sign-up always required one), and are marked so;
accounts with an address, confirmed or not, and external bots' own accounts are not."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("league", "0025_deadlines_presence"), ("account", "0009_emailaddress_unique_primary_email")]
AFTER = [("league", "0026_verify_made_by_administrator")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_accounts_without_an_address_are_marked_made_by_an_administrator():
    try:
        old = _migrate(BEFORE)
        User, Profile = old.get_model("auth", "User"), old.get_model("league", "Profile")
        EmailAddress, Player = old.get_model("account", "EmailAddress"), old.get_model("league", "Player")
        made = {name: User.objects.create(username=name) for name in ("root", "olga", "newt", "vera", "bot-b")}
        Profile.objects.create(user=made["olga"], language="fr")  # a profile already: kept, marked
        EmailAddress.objects.create(user=made["newt"], email="newt@example.com", verified=False, primary=True)
        EmailAddress.objects.create(user=made["vera"], email="vera@example.com", verified=True, primary=True)
        Player.objects.create(name="b", name_key="b", user=made["bot-b"], bot_kind="external", owner=made["newt"])

        new = _migrate(AFTER)
        marked = set(new.get_model("league", "Profile").objects.filter(made_by_administrator=True)
                     .values_list("user__username", flat=True))
        assert marked == {"root", "olga"}
        assert new.get_model("league", "Profile").objects.get(user__username="olga").language == "fr"
    finally:
        call_command("migrate", verbosity=0)
