"""A ladder: a continuous pool of players seated again and again at tables of similar rating."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class RatingModel(models.TextChoices):
    # The OpenSkill models (openskill.models); Plackett-Luce is the default for free-for-all tables.
    PLACKETT_LUCE = "PlackettLuce", _("Plackett-Luce")
    BRADLEY_TERRY_FULL = "BradleyTerryFull", _("Bradley-Terry (full pairing)")
    BRADLEY_TERRY_PART = "BradleyTerryPart", _("Bradley-Terry (partial pairing)")
    THURSTONE_MOSTELLER_FULL = "ThurstoneMostellerFull", _("Thurstone-Mosteller (full pairing)")
    THURSTONE_MOSTELLER_PART = "ThurstoneMostellerPart", _("Thurstone-Mosteller (partial pairing)")


class Ladder(models.Model):
    club = models.ForeignKey("league.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="ladders")
    name = models.CharField(max_length=100, unique=True)
    game = models.CharField(max_length=20, default="diamonds", help_text="Which game its tables play (engine.games).")
    ruleset = models.JSONField(default=dict, blank=True, help_text="Engine ruleset fields, without players.")
    table_size = models.PositiveSmallIntegerField(default=4)
    active = models.BooleanField(default=True)
    rating_model = models.CharField(max_length=30, choices=RatingModel.choices, default=RatingModel.PLACKETT_LUCE)
    max_tables_per_tick = models.PositiveIntegerField(default=50, help_text="Tables one seating tick may open.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
