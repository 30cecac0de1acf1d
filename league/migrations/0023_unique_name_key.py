"""Player.name_key becomes unique, so that two look-alike names requested at the same moment cannot both be stored
(the check in league.services.names reads before it writes; the constraint is the last word).

Why it was not unique at first: names stored before the look-alike rule may already share a key ("bob" and "Bob",
or a Latin and a Cyrillic spelling were both allowed; a person may have taken a house bot's name in another case).
Those rows must be dealt with before the constraint can be added. The player created first keeps its name; each
later look-alike is renamed to its name with the first free number after it ("Bob" becomes "Bob-2"), whoever it
is, person or bot. Nothing else changes: the renamed player keeps its account, results and ratings (they hang on
its id), and house bots are found by their slot, never by name. Each renaming is printed, with the player it looked
like, for the operator to tell the people concerned. Every key is computed afresh first, as league.names computes
it now.

Going back drops the constraint and keeps the new names.
"""

from django.db import migrations, models

from league.names import name_key

NAME_MAX_LENGTH = 100


def _renamed(name: str, taken_names: set[str], taken_keys: set[str]) -> str:
    """`name` with the first number after it that makes a name and a key nobody has."""
    n = 2
    while True:
        suffix = f"-{n}"
        candidate = name[:NAME_MAX_LENGTH - len(suffix)] + suffix
        if candidate not in taken_names and name_key(candidate) not in taken_keys:
            return candidate
        n += 1


def rename_look_alikes(apps, schema_editor):
    Player = apps.get_model("league", "Player")
    rows = list(Player.objects.order_by("pk").values_list("pk", "name"))
    keys = {pk: name_key(name) for pk, name in rows}
    taken_names = {name for _pk, name in rows}
    # Every key an existing name has stays its first holder's: a new name never takes one, even a later row's.
    first_with_key: dict[str, tuple[int, str]] = {}
    for pk, name in rows:
        first_with_key.setdefault(keys[pk], (pk, name))
    taken_keys = set(first_with_key)
    renames = []
    for pk, name in rows:
        first = first_with_key[keys[pk]]
        if first[0] == pk:
            continue
        new = _renamed(name, taken_names, taken_keys)
        taken_names.add(new)
        keys[pk] = name_key(new)
        taken_keys.add(keys[pk])
        renames.append((pk, name, new, first))
    new_names = {pk: new for pk, _old, new, _first in renames}
    for player in Player.objects.only("pk", "name", "name_key").iterator(chunk_size=1000):
        new_name = new_names.get(player.pk)
        if new_name is None and player.name_key == keys[player.pk]:
            continue
        player.name = new_name or player.name
        player.name_key = keys[player.pk]
        player.save(update_fields=["name", "name_key"])
    for pk, old, new, (first_pk, first_name) in renames:
        print(f"\n  Player #{pk} renamed from {old!r} to {new!r}: its name looked like that of player #{first_pk}, "
              f"{first_name!r}, who had it first.", end="")


class Migration(migrations.Migration):
    dependencies = [("league", "0022_round_clock")]

    operations = [
        migrations.RunPython(rename_look_alikes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(editable=False, max_length=400, unique=True,
                                   help_text="The name's look-alike key: its confusable skeleton, case-folded."),
        ),
    ]
