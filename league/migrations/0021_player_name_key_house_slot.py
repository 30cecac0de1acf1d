"""Players get a look-alike key for their names (league.names.name_key), and the house's bots a slot they are found
by (league.services.players.house_bots) instead of their names.

The keys are computed for every player. A house bot is an engine bot with no account named "house-<kind>-<n>" for
its own kind: it gets the slot "<kind>-<n>". A person who already took such a name keeps it; the house makes its bot
under another name (house_bots).
"""

import re

from django.db import migrations, models

from league.names import name_key

HOUSE_NAME = re.compile(r"house-(?P<kind>.+)-(?P<number>[1-9][0-9]*)")


def keys_and_slots(apps, schema_editor):
    Player = apps.get_model("league", "Player")
    changed = []
    for player in Player.objects.only("pk", "name", "bot_kind", "user_id").iterator(chunk_size=1000):
        player.name_key = name_key(player.name)
        house = HOUSE_NAME.fullmatch(player.name)
        if house and player.user_id is None and house["kind"] == player.bot_kind:
            player.house_slot = f"{house['kind']}-{house['number']}"
        changed.append(player)
    Player.objects.bulk_update(changed, ["name_key", "house_slot"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("league", "0020_compact_play")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(db_index=True, default="", editable=False, max_length=400,
                                   help_text="The name's look-alike key: its confusable skeleton, case-folded."),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="player",
            name="house_slot",
            field=models.CharField(blank=True, editable=False, max_length=60, null=True, unique=True,
                                   help_text="For a house bot that fills lobby tables: its kind and number."),
        ),
        migrations.RunPython(keys_and_slots, migrations.RunPython.noop),
    ]
