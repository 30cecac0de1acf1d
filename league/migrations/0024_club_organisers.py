"""Running a club on the website: a club's details (description, where it meets, its website), invitations to
organise it, and since when each member is one.

Player.clubs keeps its table (league_player_clubs) and now goes through ClubMember, which adds `joined_at`: the
state learns of the model without touching the table, then the column is added, null for the members from before
(unknown) except those whose request to join was accepted, who get the answer's date."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def date_accepted_members(apps, schema_editor):
    ClubMember = apps.get_model("league", "ClubMember")
    MembershipRequest = apps.get_model("league", "MembershipRequest")
    for req in MembershipRequest.objects.filter(status="accepted", decided_at__isnull=False).order_by("decided_at"):
        ClubMember.objects.filter(club_id=req.club_id, player_id=req.player_id, joined_at__isnull=True).update(
            joined_at=req.decided_at)


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0023_unique_name_key"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ClubMember",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                     related_name="club_memberships", to="league.player")),
                        ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                   related_name="player_memberships", to="league.club")),
                    ],
                    options={"db_table": "league_player_clubs", "unique_together": {("player", "club")}},
                ),
                migrations.AlterField(
                    model_name="player",
                    name="clubs",
                    field=models.ManyToManyField(blank=True, related_name="players", through="league.ClubMember",
                                                 to="league.club"),
                ),
            ],
            database_operations=[],
        ),
        # Null for the members from before; a new membership is dated by the model's default (not stored in the
        # database, so adding it does not date the old rows with today).
        migrations.AddField(
            model_name="clubmember",
            name="joined_at",
            field=models.DateTimeField(blank=True, null=True,
                                       help_text="When the player became a member (unknown for the oldest members)."),
        ),
        migrations.AlterField(
            model_name="clubmember",
            name="joined_at",
            field=models.DateTimeField(blank=True, default=django.utils.timezone.now, null=True,
                                       help_text="When the player became a member (unknown for the oldest members)."),
        ),
        migrations.RunPython(date_accepted_members, migrations.RunPython.noop),
        migrations.AddField(
            model_name="club",
            name="description",
            field=models.TextField(blank=True, max_length=2000,
                                   help_text="A few lines about the club, shown on its page (plain text)."),
        ),
        migrations.AddField(
            model_name="club",
            name="location",
            field=models.CharField(blank=True, max_length=200, help_text="Where and when the club meets."),
        ),
        migrations.AddField(
            model_name="club",
            name="website",
            field=models.URLField(blank=True, max_length=200, help_text="The club's own website (http or https)."),
        ),
        migrations.CreateModel(
            name="OrganiserInvitation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("email", models.EmailField(help_text="The address the invitation was sent to.", max_length=254)),
                ("token_digest", models.CharField(editable=False, max_length=64, unique=True)),
                ("status", models.CharField(choices=[("pending", "pending"), ("accepted", "accepted"),
                                                     ("revoked", "revoked")], default="pending", max_length=10)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("expires_at", models.DateTimeField()),
                ("decided_at", models.DateTimeField(blank=True, help_text="When it was accepted or revoked.",
                                                    null=True)),
                ("accepted_by", models.ForeignKey(blank=True, null=True,
                                                  on_delete=django.db.models.deletion.SET_NULL, related_name="+",
                                                  to=settings.AUTH_USER_MODEL)),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name="organiser_invitations", to="league.club")),
                ("invited_by", models.ForeignKey(blank=True, null=True,
                                                 on_delete=django.db.models.deletion.SET_NULL, related_name="+",
                                                 to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["-created_at", "-pk"],
                "constraints": [models.UniqueConstraint(condition=models.Q(("status", "pending")),
                                                        fields=("club", "email"),
                                                        name="organiser_invitation_one_pending")],
            },
        ),
    ]
