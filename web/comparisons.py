"""Comparison pages: the list, the form that creates one, the live page (LLR chart against its bounds, the results
table, kept live by web.live_pages: pushed over its socket, or polled from `comparison_state`), a pair's two games
side by side, and stopping one.
Thin views over league.services.comparisons and league.selectors.comparisons."""

from __future__ import annotations

from typing import Any, TypedDict, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from engine.games import GAMES
from league.limits import MAX_COMPARISON_PAIRS
from league.models import Match, Player
from league.models.player import EXTERNAL_BOT
from league.permissions import organises_any
from league.selectors import comparisons as selectors
from league.selectors.live import public_record, record_is_public
from league.selectors.players import bots_to_compare, player
from league.services.cancellation import stop_comparison
from league.services.comparisons import ComparisonInvalid, ComparisonRefused, create_comparison
from runtime.throttling import WriteLimit, rate_limited

from .games import presenter_for
from .live_pages import comparison_live_context


class ComparisonForm(forms.Form):
    # Their bots depend on who asks: set in __init__.
    candidate: forms.ModelChoiceField[Player] = forms.ModelChoiceField(
        queryset=None, label=gettext_lazy("Candidate bot"), help_text=gettext_lazy("The new bot: is it stronger?"))
    baseline: forms.ModelChoiceField[Player] = forms.ModelChoiceField(queryset=None, label=gettext_lazy("Baseline bot"))
    game = forms.ChoiceField(choices=[(g.name, g.title) for g in GAMES.values()], initial="diamonds",
                             label=gettext_lazy("Game"))
    players = forms.IntegerField(min_value=2, max_value=6, initial=4, label=gettext_lazy("Players at the table"))
    field_kind = forms.ChoiceField(
        choices=[("", gettext_lazy("the game's usual bot")),
                 *sorted({(b, b) for g in GAMES.values() for b in g.bots if b != EXTERNAL_BOT})],
        required=False, label=gettext_lazy("Field (the other seats)"))
    elo0 = forms.FloatField(initial=0, label=gettext_lazy("H0: Elo difference at most"))
    elo1 = forms.FloatField(initial=20, label=gettext_lazy("H1: Elo difference of"))
    alpha = forms.FloatField(initial=0.05, min_value=0.001, max_value=0.49, label=gettext_lazy("alpha"))
    beta = forms.FloatField(initial=0.05, min_value=0.001, max_value=0.49, label=gettext_lazy("beta"))
    max_pairs = forms.IntegerField(initial=1000, min_value=1, max_value=MAX_COMPARISON_PAIRS,
                                   label=gettext_lazy("Maximum number of pairs"))

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        # Every engine bot and the account's own external bots; every bot for organisers.
        bots = bots_to_compare(user, every_bot=organises_any(user))
        for name in ("candidate", "baseline"):
            cast(forms.ModelChoiceField, self.fields[name]).queryset = bots


class PairColumn(TypedDict):
    """One side of a pair's page: a bot's game at the shown step."""
    who: Player
    match: Match
    total: int
    step: int
    frame: Any  # the replay frame at that step (None if the window holds none)


def comparison_list(request):
    bot = request.GET.get("bot")
    bot_player = player(int(bot)) if bot and bot.isdigit() and len(bot) < 10 else None
    rows = selectors.comparisons(bot_id=bot_player.pk if bot_player else None)[:100]
    return render(request, "web/comparisons.html", {"comparisons": rows, "bot": bot_player})


@login_required
@rate_limited(WriteLimit, what="changes")
def comparison_new(request):
    form = ComparisonForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            comparison = create_comparison(
                user=request.user, candidate=data["candidate"], baseline=data["baseline"], game=data["game"],
                ruleset=data["players"], field_kind=data["field_kind"] or None, elo0=data["elo0"],
                elo1=data["elo1"], alpha=data["alpha"], beta=data["beta"], max_pairs=data["max_pairs"])
        except (ComparisonRefused, ComparisonInvalid) as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("The comparison has started: its pairs are being played."))
            return redirect("web:comparison", pk=comparison.pk)
    return render(request, "web/comparison_new.html", {"form": form}, status=400 if form.errors else 200)


def comparison_detail(request, pk: int):
    comparison = get_object_or_404(selectors.comparison_pages(), pk=pk)
    may_stop = request.user.is_authenticated and (request.user.pk == comparison.owner_id
                                                  or organises_any(request.user))
    return render(request, "web/comparison.html", {"comparison": comparison, "may_stop": may_stop,
                                                   **comparison_live_context(comparison)})


@login_required
@require_POST
def comparison_stop(request, pk: int):
    comparison = get_object_or_404(selectors.comparison_pages(), pk=pk)
    try:
        stop_comparison(user=request.user, comparison_id=comparison.pk)
    except ComparisonRefused as e:
        return render(request, "web/error.html", {"message": str(e)}, status=403)
    messages.success(request, _("The comparison is stopped."))
    return redirect("web:comparison", pk=pk)


def comparison_pair(request, pk: int, index: int):
    """A pair's two games side by side at the same step (`?step=N`, 1-based): the candidate's and the baseline's.
    Shown once both have ended (their shared deal is secret until then)."""
    comparison = get_object_or_404(selectors.comparison_pages(), pk=pk)
    pair = selectors.pair_at(comparison, index - 1)
    if pair is None:
        raise Http404("no such pair")
    matches = (pair.candidate_match, pair.baseline_match)
    if not all(record_is_public(m) for m in matches):
        raise Http404(_("a pair's games are shown once both have finished"))
    try:
        step = max(1, int(request.GET.get("step", 1)))
    except ValueError:
        step = 1
    presenter = presenter_for(comparison.game)
    columns: list[PairColumn] = []
    for who, match in zip((comparison.candidate, comparison.baseline), matches):
        window = presenter.replay_window(public_record(match), step)
        at = min(step, window.total)
        columns.append({"who": who, "match": match, "total": window.total, "step": at,
                        "frame": window.frames[at - window.start - 1] if window.frames else None})
    total = max(c["total"] for c in columns)
    return render(request, "web/comparison_pair.html", {
        "comparison": comparison, "pair": pair, "columns": columns, "presenter": presenter, "step": min(step, total),
        "total": total, "previous": max(1, step - 1), "next": min(total, step + 1)})
