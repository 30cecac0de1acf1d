"""Player names: stored normalised (NFKC, no invisible characters), refused when they look like another player's
(Unicode's confusables) or like a house bot's, wherever a name is set; house bots found by their slot."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from league.models import Player
from league.names import name_key, normalised
from league.services import create_bot_player, create_person_player
from league.services.accounts import AccountError, ensure_person, update_profile
from league.services.names import NameRefused, checked_name
from league.services.players import create_external_bot, house_bots

pytestmark = pytest.mark.django_db

ZERO_WIDTH_SPACE, RIGHT_TO_LEFT_OVERRIDE, CYRILLIC_A = "\u200b", "\u202e", "\u0430"


def person(username: str, name: str | None = None) -> Player:
    return create_person_player(user=get_user_model().objects.create_user(username), name=name)


@pytest.mark.parametrize("given, stored", [
    ("ann" + ZERO_WIDTH_SPACE, "ann"), (RIGHT_TO_LEFT_OVERRIDE + "ann", "ann"), ("ａｎｎ", "ann"),
    ("a\u2060n\ufe0fn", "ann"), ("  Ann   Lee ", "Ann Lee"), ("Zoe\u0308", "Zoë"),
])
def test_names_are_stored_normalised(given, stored):
    assert normalised(given) == stored
    assert person("p", given).name == stored


@pytest.mark.parametrize("look_alike", ["ann" + ZERO_WIDTH_SPACE, CYRILLIC_A + "nn", "ANN", "Ann", "ａｎｎ"])
def test_a_name_that_looks_like_another_players_is_refused_everywhere(look_alike):
    ann = person("ann", "ann")
    with pytest.raises(NameRefused):
        checked_name(look_alike)
    with pytest.raises(NameRefused):
        create_external_bot(name=look_alike)
    with pytest.raises(NameRefused):
        create_bot_player(name=look_alike, kind="random")
    with pytest.raises(NameRefused):
        person("other", look_alike)
    bob = person("bob", "bob")
    with pytest.raises(AccountError):
        update_profile(user=bob.user, display_name=look_alike)
    assert list(Player.objects.values_list("name", flat=True)) == ["ann", "bob"]
    update_profile(user=ann.user, display_name="Ann")  # one's own name, another case: no one else's
    assert Player.objects.get(pk=ann.pk).name == "Ann"


def test_latin_and_cyrillic_look_alikes_and_digits_share_a_key():
    assert name_key("paypal") == name_key("p" + CYRILLIC_A + "yp" + CYRILLIC_A + "l") == name_key("PAYPAL")
    assert name_key("lily") == name_key("Iily") == name_key("1ily")
    assert name_key("ann") != name_key("anne")


@pytest.mark.parametrize("name", ["house-random-5", "House-Random-5", "hоuse-greedy-1", "house-anything",
                                  "house" + ZERO_WIDTH_SPACE + "-random-2"])
def test_house_bot_names_are_kept_for_the_house(name):
    with pytest.raises(NameRefused, match="house"):
        checked_name(name)
    user = person("pat", "pat").user
    with pytest.raises(AccountError):
        update_profile(user=user, display_name=name)
    with pytest.raises(NameRefused):
        create_external_bot(name=name)


def test_sign_up_falls_back_to_a_free_name_when_the_chosen_one_looks_like_anothers():
    person("ann", "ann")
    user = get_user_model().objects.create_user("house-random-1")
    assert ensure_person(user, name=CYRILLIC_A + "nn")[1].name == "player"


def test_house_bots_are_found_by_slot_even_when_a_person_has_their_name():
    """Before names were kept for the house, a person could take "house-random-1": the house's bot is found by its
    slot all the same (it was Player.DoesNotExist, a 500 on every lobby table filled with that bot)."""
    squatter = Player.objects.create(name="house-random-1", user=get_user_model().objects.create_user("sq"))
    bots = house_bots("random", 3)
    assert [b.house_slot for b in bots] == ["random-1", "random-2", "random-3"]
    assert bots[0].pk != squatter.pk and bots[0].name == "house-random-1-2" and bots[0].is_engine_bot
    assert house_bots("random", 3) == bots  # the same three, found again by slot
    renamed = bots[1]
    renamed.name = "Renamed by an admin"
    renamed.save()
    assert house_bots("random", 2)[1].pk == renamed.pk


def test_the_migration_keys_every_name_and_finds_the_existing_house_bots():
    migration = importlib.import_module("league.migrations.0021_player_name_key_house_slot")
    bot = Player.objects.create(name="house-greedy-2", bot_kind="greedy")
    impostor = Player.objects.create(name="house-random-3", user=get_user_model().objects.create_user("imp"))
    other_kind = Player.objects.create(name="house-random-4", bot_kind="greedy")
    for player in Player.objects.all():  # as before the migration (the keys, unique now, told apart by id)
        Player.objects.filter(pk=player.pk).update(name_key=f"unset-{player.pk}", house_slot=None)
    migration.keys_and_slots(apps, None)
    slots = dict(Player.objects.values_list("pk", "house_slot"))
    assert slots == {bot.pk: "greedy-2", impostor.pk: None, other_kind.pk: None}
    assert Player.objects.get(pk=bot.pk).name_key == name_key("house-greedy-2")
