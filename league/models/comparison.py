"""A comparison: is a candidate bot stronger than a baseline bot? Played in pairs of duplicate deals and decided by
a sequential probability ratio test (engine.sprt; league.services.comparisons plays it).

Each pair (ComparisonPair) is one deal played twice as two league matches: the candidate in the tested seat, then
the baseline in the same seat, the other seats taken by engine bots of the field kind. Both matches share a seed
derived one-way from the comparison's secret `salt` and the pair's index, so neither the deal nor the bots' seeds
can be computed beforehand by an external bot's author, and the seed of one pair says nothing of the next.
Comparison matches belong to no ladder and no tournament: they are never rated.
"""

from django.conf import settings
from django.db import models


class ComparisonStatus(models.TextChoices):
    RUNNING = "running", "running"
    STOPPED = "stopped", "stopped"  # by its author (or an organiser), or after too many void pairs
    DECIDED = "decided", "decided"  # `decision` says how: H0, H1 or max


class ComparisonDecision(models.TextChoices):
    H0 = "H0", "H0 accepted: the candidate is not stronger by elo0 or more"
    H1 = "H1", "H1 accepted: the candidate is stronger by elo1"
    MAX = "max", "no decision within the maximum number of pairs"


class Comparison(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="comparisons")
    candidate = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="comparisons_as_candidate")
    baseline = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="comparisons_as_baseline")
    game = models.CharField(max_length=20, default="diamonds")
    ruleset = models.JSONField(help_text="The engine ruleset with every field explicit.")
    field_kind = models.CharField(max_length=40, help_text="The engine bot kind in every other seat.")
    field_settings = models.JSONField(default=dict, blank=True)
    elo0 = models.FloatField()
    elo1 = models.FloatField()
    alpha = models.FloatField()
    beta = models.FloatField()
    max_pairs = models.PositiveIntegerField()
    # Secret (engine.fairness.new_seed): every pair's deal seed is derived from it one-way; never shown.
    salt = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=ComparisonStatus.choices, default=ComparisonStatus.RUNNING)
    decision = models.CharField(max_length=4, choices=ComparisonDecision.choices, blank=True)
    stop_reason = models.CharField(max_length=200, blank=True)
    # The SPRT's state after the latest pair (engine.sprt.Sprt.state).
    pairs = models.PositiveIntegerField(default=0, help_text="Pairs with an outcome (void pairs not counted).")
    llr = models.FloatField(default=0.0)
    lower_bound = models.FloatField()
    upper_bound = models.FloatField()
    mean_difference = models.FloatField(default=0.0, help_text="The candidate's mean placement-score advantage.")
    difference_low = models.FloatField(default=-1.0, help_text="95% confidence interval of mean_difference.")
    difference_high = models.FloatField(default=1.0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"comparison {self.pk} ({self.status})"


class PairStatus(models.TextChoices):
    PLAYING = "playing", "playing"
    DONE = "done", "done"
    # One of its matches failed or was cancelled: no outcome, the SPRT does not see it, the next pair starts.
    VOID = "void", "void"


class ComparisonPair(models.Model):
    comparison = models.ForeignKey(Comparison, on_delete=models.CASCADE, related_name="pair_set")
    index = models.PositiveIntegerField(help_text="0-based; humans read index + 1.")
    tested_seat = models.PositiveSmallIntegerField(help_text="0-based; rotates with the index.")
    candidate_match = models.OneToOneField("league.Match", on_delete=models.PROTECT,
                                           related_name="comparison_pair_as_candidate")
    baseline_match = models.OneToOneField("league.Match", on_delete=models.PROTECT,
                                          related_name="comparison_pair_as_baseline")
    status = models.CharField(max_length=10, choices=PairStatus.choices, default=PairStatus.PLAYING)
    candidate_place = models.PositiveSmallIntegerField(null=True, blank=True)
    baseline_place = models.PositiveSmallIntegerField(null=True, blank=True)
    outcome = models.FloatField(null=True, blank=True, help_text="The candidate's duplicate score, 0 .. 1.")
    # The comparison's SPRT state once this pair's outcome was counted (for the LLR chart).
    llr = models.FloatField(null=True, blank=True)
    mean_difference = models.FloatField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["comparison", "index"]
        constraints = [models.UniqueConstraint(fields=["comparison", "index"], name="comparison_pair_unique")]

    def __str__(self) -> str:
        return f"comparison {self.comparison_id} pair {self.index + 1}"
