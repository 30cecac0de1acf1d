"""Matches in play whose ruleset the engine now refuses (issue 14: `rounds` 10^6 and 10^9 were accepted) can never be
loaded again, so their workers would fail on every retry and their rounds never close. They are marked failed, with
the engine's reason, which ends them like any failed match (their round closes without them)."""

from django.db import migrations


def fail_out_of_bounds(apps, schema_editor):
    from engine.games import game_type

    Match = apps.get_model("league", "Match")
    for match in Match.objects.filter(status__in=["pending", "running"]).only("pk", "game", "ruleset").iterator():
        try:
            game_type(match.game).make_ruleset(match.ruleset)
        except (ValueError, TypeError) as e:
            Match.objects.filter(pk=match.pk, status__in=["pending", "running"]).update(
                status="failed", error=f"its ruleset is out of the engine's bounds: {e}")


class Migration(migrations.Migration):
    dependencies = [("league", "0010_cancelled_status")]

    operations = [migrations.RunPython(fail_out_of_bounds, migrations.RunPython.noop)]
