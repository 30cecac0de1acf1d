"""Profiles say whether an administrator made the account (Profile.made_by_administrator): an account takes part as a
verified person only by a confirmed email address or by this mark, no longer by having no address at all.

Existing accounts with no email address at all are marked: sign-up has always required an address (allauth keeps it
as an EmailAddress), so an account without one was made by an administrator (createsuperuser, the admin, a command
or a script). External bots' own accounts are left alone: a bot takes part on its owner's verification. An account
that signed up and later removed its only address (the hole this closes) still has no address and is marked too;
it cannot be told apart from an administrator's here, and an operator who wants to can unmark it in the admin
(Profiles).
"""

from django.db import migrations, models


def mark_accounts_without_address(apps, schema_editor):
    User = apps.get_model("auth", "User")
    Profile = apps.get_model("league", "Profile")
    EmailAddress = apps.get_model("account", "EmailAddress")
    Player = apps.get_model("league", "Player")
    with_address = EmailAddress.objects.values("user_id")
    bot_accounts = Player.objects.filter(bot_kind="external", user__isnull=False).values("user_id")
    made = User.objects.exclude(pk__in=with_address).exclude(pk__in=bot_accounts).values_list("pk", flat=True)
    for user_id in made.iterator(chunk_size=1000):
        Profile.objects.update_or_create(user_id=user_id, defaults={"made_by_administrator": True})


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0025_deadlines_presence"),
        ("account", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="made_by_administrator",
            field=models.BooleanField(default=False, help_text="An administrator made this account (not a sign-up): "
                                                               "it takes part without a confirmed email address."),
        ),
        migrations.RunPython(mark_accounts_without_address, migrations.RunPython.noop),
    ]
