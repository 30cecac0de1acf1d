"""Comparisons: is my new bot better? Create one, play it pair after pair (models: league.models.comparison); its
author stops it through league.services.cancellation.stop_comparison, which cancels the pair in play.

A pair is one deal played twice as two league matches (engine.comparison describes the design): the candidate in
the tested seat of the first, the baseline in the same seat of the second, the field's engine bots in every other
seat. Both matches share one seed, derived one-way from the comparison's secret salt and the pair's index
(engine.fairness.derived_seed), hence the same deal and the same first seat; and the league seeds every engine bot
decision from the match seed, the seat and the move number (league.services.play.bot_seed), so the field's twin bots
decide alike, and differ only once the tested seat's own choices have made the games differ. The tested seat
rotates with the pair's index.

When both matches of a pair have ended (`on_match_finished`, called wherever a match ends, idempotently), the pair's
outcome (engine.sprt.duplicate_score) is recorded, the test updated, and the next pair started, unless the test has
decided, the maximum is reached or the comparison was stopped. A pair one of whose matches failed or was cancelled
is void: it has no outcome, the test never sees it, and the next pair starts (after MAX_VOID_PAIRS_IN_A_ROW void
pairs in a row the comparison stops: a bot that cannot play would loop for ever). The comparison row is locked
(select_for_update) around all of this, so a redelivered task or two workers finishing the pair's two games at the
same moment record the outcome once and start the next pair once.

Comparison matches are in no ladder and no tournament, so league.services.ratings never rates them.
"""

from __future__ import annotations

import hashlib

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import InvalidRuleset
from engine.fairness import derived_seed, new_seed
from engine.games import game_type
from engine.sprt import Hypotheses, Sprt, duplicate_score, placement_score

from .. import permissions
from ..events import emit
from ..limits import (
    MAX_COMPARISON_PAIRS,
    MAX_RUNNING_COMPARISONS_PER_ACCOUNT,
    MAX_VOID_PAIRS_IN_A_ROW,
    checked_bot_settings,
)
from ..models import (
    Comparison,
    ComparisonPair,
    ComparisonStatus,
    Match,
    MatchSeat,
    MatchStatus,
    OutboxKind,
    PairStatus,
    Player,
)
from ..models.match import ENDED
from . import outbox
from .caps import hold_account
from .matches import create_match


class ComparisonRefused(Exception):
    """The account may not do this (the API answers 403)."""


class ComparisonInvalid(ValueError):
    """The comparison's parameters are wrong (the API answers 400), with a message saying which."""


def refusal_to_compare(user, player: Player) -> str | None:
    """Engine bots: anyone signed in. External bots: their owner (or their own account) and organisers. People
    never: a comparison is between bots."""
    if not permissions.signed_in(user):
        return _("sign in to compare bots")
    if not player.is_bot:
        return _("%(name)s is a person, not a bot") % {"name": player.name}
    if player.is_external_bot and not (permissions.owns(user, player) or permissions.organises_any(user)):
        return _("%(name)s is somebody else's bot: only its owner or an organiser may compare it") % {
            "name": player.name}
    return None


def _checked_hypotheses(elo0, elo1, alpha, beta, difference0=None, difference1=None) -> Hypotheses:
    """H0/H1 as logistic Elo on the pair's score, or (`difference0`, `difference1`, both or neither) as the
    candidate's mean placement-score advantage, -1 .. 1 (engine.sprt.Hypotheses.from_difference)."""
    try:
        if difference0 is not None or difference1 is not None:
            if difference0 is None or difference1 is None:
                raise ValueError("give both difference0 and difference1, or neither")
            return Hypotheses.from_difference(float(difference0), float(difference1), float(alpha), float(beta))
        return Hypotheses(float(elo0), float(elo1), float(alpha), float(beta))
    except (TypeError, ValueError, OverflowError) as e:
        raise ComparisonInvalid(str(e)) from None


def create_comparison(*, user, candidate: Player, baseline: Player, game: str = "diamonds", ruleset=4,
                      field_kind: str | None = None, field_settings: dict | None = None, elo0: float = 0.0,
                      elo1: float = 20.0, alpha: float = 0.05, beta: float = 0.05,
                      max_pairs: int = 1000, difference0: float | None = None,
                      difference1: float | None = None) -> Comparison:
    """Create a comparison and start its first pair. ComparisonRefused (403) or ComparisonInvalid (400), nothing
    stored, for anything wrong. `ruleset` is the game's ruleset, its dict or the number of players; the field
    defaults to the game's strongest cheap bot (greedy in Diamonds, heuristic in the other games). The bounds are
    stored as Elo whichever way they were given."""
    for player in (candidate, baseline):
        refusal = refusal_to_compare(user, player)
        if refusal:
            raise ComparisonRefused(refusal)
    try:
        kind = game_type(game)
    except (KeyError, ValueError):
        raise ComparisonInvalid(_("unknown game %(game)r") % {"game": game}) from None
    try:
        rules = kind.make_ruleset(ruleset)
    except (InvalidRuleset, TypeError, ValueError) as e:
        raise ComparisonInvalid(str(e)) from None
    if not kind.min_players <= rules.players <= kind.max_players:
        raise ComparisonInvalid(_("%(game)s is for %(low)s to %(high)s players") % {
            "game": kind.title, "low": kind.min_players, "high": kind.max_players})
    if getattr(rules, "partnerships", False):
        # A tested bot would have to sit in both seats of its team, and a player takes one seat at a table.
        raise ComparisonInvalid(_("comparisons are played without partnerships"))
    for player in (candidate, baseline):
        if player.is_engine_bot and player.bot_kind not in kind.bots:
            raise ComparisonInvalid(_("%(name)s is a %(kind)s bot, which does not play %(game)s") % {
                "name": player.name, "kind": player.bot_kind, "game": kind.title})
    field_kind = field_kind or ("greedy" if "greedy" in kind.bots else "heuristic" if "heuristic" in kind.bots
                                else sorted(kind.bots)[0])
    if field_kind not in kind.bots or field_kind == "external":
        raise ComparisonInvalid(_("the field's bot must be one of %(bots)s") % {"bots": ", ".join(sorted(kind.bots))})
    try:
        field_settings = checked_bot_settings(field_kind, field_settings or {})
    except ValueError as e:
        raise ComparisonInvalid(str(e)) from None
    hypotheses = _checked_hypotheses(elo0, elo1, alpha, beta, difference0, difference1)
    if isinstance(max_pairs, bool) or not isinstance(max_pairs, int) or not 1 <= max_pairs <= MAX_COMPARISON_PAIRS:
        raise ComparisonInvalid(_("max_pairs must be a whole number from 1 to %(max)s") % {
            "max": MAX_COMPARISON_PAIRS})
    lower, upper = hypotheses.bounds
    with transaction.atomic():
        # The owner's row orders two creations by one account, so the limit holds under a double submit.
        hold_account(user)
        running = Comparison.objects.filter(owner=user, status=ComparisonStatus.RUNNING).count()
        if running >= MAX_RUNNING_COMPARISONS_PER_ACCOUNT:
            raise ComparisonRefused(_("you already have %(n)s comparisons running: stop one or wait for it") % {
                "n": running})
        comparison = Comparison.objects.create(
            owner=user, candidate=candidate, baseline=baseline, game=kind.name, ruleset=rules.to_dict(),
            field_kind=field_kind, field_settings=field_settings, elo0=hypotheses.elo0, elo1=hypotheses.elo1,
            alpha=hypotheses.alpha, beta=hypotheses.beta, max_pairs=max_pairs, salt=new_seed(),
            lower_bound=lower, upper_bound=upper)
        _start_pair(comparison, 0)
    return comparison


def pair_seed(comparison: Comparison, index: int) -> str:
    """The deal seed of pair `index`: secret until both of its matches end, and one-way, so a revealed seed tells
    nothing of the salt or of any other pair's deal."""
    return derived_seed(comparison.salt, f"pair-{index}")


def tested_seat(comparison: Comparison, index: int) -> int:
    return index % int(comparison.ruleset["players"])


def field_player(kind: str, settings: dict, seat: int, avoid: frozenset[int] = frozenset()) -> Player:
    """The engine-bot player of the field in `seat` (one per seat: a player takes one seat at a table). Shared by
    every comparison with that field; the same kind and settings always play alike."""
    label = ",".join(f"{k}={v}" for k, v in sorted(settings.items()))
    if len(label) > 40:
        label = hashlib.sha256(label.encode()).hexdigest()[:12]
    name = f"field {kind}{f'({label})' if label else ''} #{seat + 1}"
    # Player names are anybody's to take (an external bot may be called "field greedy #2"): a name taken by any other
    # player than exactly this engine bot is passed over, never seated.
    for attempt in range(100):
        candidate = name if attempt == 0 else f"{name} ({attempt + 1})"
        try:
            player, _created = Player.objects.get_or_create(name=candidate,
                                                            defaults={"bot_kind": kind, "bot_settings": settings})
        except IntegrityError:  # another player's name looks like this one (the unique look-alike key)
            continue
        if (player.is_engine_bot and player.bot_kind == kind and player.bot_settings == settings
                and player.pk not in avoid):  # a field player compared itself takes the tested seat, not this one
            return player
    raise ComparisonInvalid(_("no name is free for the field's players"))


def _start_pair(comparison: Comparison, index: int) -> ComparisonPair:
    """Create pair `index`'s two matches and send them to the workers (in the caller's transaction)."""
    seat = tested_seat(comparison, index)
    players = int(comparison.ruleset["players"])
    tested_ids = frozenset((comparison.candidate_id, comparison.baseline_id))
    field = {s: field_player(comparison.field_kind, comparison.field_settings, s, avoid=tested_ids)
             for s in range(players) if s != seat}
    seed = pair_seed(comparison, index)
    matches = []
    for tested in (comparison.candidate, comparison.baseline):
        seated = [tested if s == seat else field[s] for s in range(players)]
        matches.append(create_match(players=seated, ruleset=comparison.ruleset, seed=seed, game=comparison.game))
    pair = ComparisonPair.objects.create(comparison=comparison, index=index, tested_seat=seat,
                                         candidate_match=matches[0], baseline_match=matches[1])
    for match in matches:
        outbox.record(kind=OutboxKind.PLAY_MATCH, match_id=match.pk)
    return pair


def pair_of_match(match_id: int) -> ComparisonPair | None:
    return ComparisonPair.objects.filter(Q(candidate_match_id=match_id) | Q(baseline_match_id=match_id)).first()


def on_match_finished(*, match_id: int) -> None:
    """A match has ended (finished, failed or cancelled): if it closes a comparison's pair, record the pair and start
    the next one or finish the comparison. Safe to call any number of times, from any number of processes."""
    pair = pair_of_match(match_id)
    if pair is not None:
        close_pair(pair_id=pair.pk)


def _placement(match_id: int, seat: int) -> int | None:
    return MatchSeat.objects.filter(match_id=match_id, seat=seat).values_list("placement", flat=True).first()


def _places(match_id: int) -> list[int] | None:
    """The match's placements in seat order; None while a seat has none (the match did not finish)."""
    places = list(MatchSeat.objects.filter(match_id=match_id).order_by("seat").values_list("placement", flat=True))
    placed = [p for p in places if p is not None]
    return placed if len(placed) == len(places) else None


@transaction.atomic
def close_pair(*, pair_id: int) -> bool:
    """Record a pair whose two matches have ended; True if this call recorded it."""
    comparison_id = ComparisonPair.objects.filter(pk=pair_id).values_list("comparison_id", flat=True).first()
    if comparison_id is None:
        return False
    comparison = Comparison.objects.select_for_update().get(pk=comparison_id)  # comparison first, then the pair
    pair = ComparisonPair.objects.select_for_update().get(pk=pair_id)
    if pair.status != PairStatus.PLAYING:
        return False  # recorded already: a redelivery, or the other game's worker
    statuses = dict(Match.objects.filter(pk__in=[pair.candidate_match_id, pair.baseline_match_id])
                    .values_list("pk", "status"))
    if not all(statuses.get(m) in ENDED for m in (pair.candidate_match_id, pair.baseline_match_id)):
        return False
    now = timezone.now()
    pair.finished_at = now
    # The pair's games were not announced as they finished (league.services.progress): their results were withheld
    # until now, and are announced together (webhooks, notifications), once, under the comparison's lock.
    for match_id in (pair.candidate_match_id, pair.baseline_match_id):
        if statuses[match_id] == MatchStatus.FINISHED:
            emit("match.finished", match_id=match_id, round_id=None, ladder_id=None)
    candidate_places, baseline_places = _places(pair.candidate_match_id), _places(pair.baseline_match_id)
    if (all(statuses[m] == MatchStatus.FINISHED for m in statuses) and candidate_places is not None
            and baseline_places is not None):
        seat = pair.tested_seat
        pair.status = PairStatus.DONE
        pair.candidate_place, pair.baseline_place = candidate_places[seat], baseline_places[seat]
        pair.outcome = duplicate_score(placement_score(candidate_places, seat),
                                       placement_score(baseline_places, seat))
        pair.save()
        _update_test(comparison)
        pair.llr, pair.mean_difference = comparison.llr, comparison.mean_difference
        pair.save(update_fields=["llr", "mean_difference"])
    else:
        pair.status = PairStatus.VOID
        pair.save()
    emit("comparison.changed", comparison_id=comparison.pk)  # its open page shows the pair (web.push)
    if comparison.status != ComparisonStatus.RUNNING:
        return True
    if comparison.decision:
        comparison.status, comparison.finished_at = ComparisonStatus.DECIDED, now
        comparison.save(update_fields=["status", "finished_at"])
        return True
    recent = list(comparison.pair_set.order_by("-index").values_list("status", flat=True)[:MAX_VOID_PAIRS_IN_A_ROW])
    if len(recent) == MAX_VOID_PAIRS_IN_A_ROW and all(s == PairStatus.VOID for s in recent):
        comparison.status, comparison.finished_at = ComparisonStatus.STOPPED, now
        comparison.stop_reason = f"{MAX_VOID_PAIRS_IN_A_ROW} void pairs in a row (failed or cancelled matches)"
        comparison.save(update_fields=["status", "finished_at", "stop_reason"])
        return True
    _start_pair(comparison, pair.index + 1)
    return True


def sprt_of(comparison: Comparison) -> Sprt:
    recorded = comparison.pair_set.filter(status=PairStatus.DONE).order_by("index").values_list("outcome", flat=True)
    outcomes = [o for o in recorded if o is not None]  # a done pair always has its outcome
    return Sprt(Hypotheses(comparison.elo0, comparison.elo1, comparison.alpha, comparison.beta),
                competitors=int(comparison.ruleset["players"]), max_pairs=comparison.max_pairs, outcomes=outcomes)


def _update_test(comparison: Comparison) -> None:
    """Recompute the test from every recorded outcome (a few thousand at most) and store its state."""
    sprt = sprt_of(comparison)
    estimate = sprt.estimate()
    comparison.pairs, comparison.llr = sprt.pairs, sprt.llr
    comparison.lower_bound, comparison.upper_bound = sprt.hypotheses.bounds
    comparison.mean_difference = estimate["mean_difference"]
    comparison.difference_low, comparison.difference_high = estimate["difference_low"], estimate["difference_high"]
    if comparison.status == ComparisonStatus.RUNNING:  # a pair ending after a stop does not decide it any more
        comparison.decision = sprt.decision or ""
    comparison.save(update_fields=["pairs", "llr", "lower_bound", "upper_bound", "mean_difference",
                                   "difference_low", "difference_high", "decision"])


def refusal_to_stop(user, comparison: Comparison) -> str | None:
    if permissions.signed_in(user) and (user.pk == comparison.owner_id or permissions.organises_any(user)):
        return None
    return _("only the comparison's author or an organiser may stop it")


def catch_up_comparisons(*, limit: int = 200) -> int:
    """Close pairs whose matches have all ended but whose follow-up was lost (a worker gone between finishing a
    match and closing its pair). Beat calls it with the other catch-ups."""
    open_pairs = ComparisonPair.objects.filter(status=PairStatus.PLAYING, candidate_match__status__in=ENDED,
                                               baseline_match__status__in=ENDED)
    ids = list(open_pairs.values_list("pk", flat=True)[:limit])
    for pair_id in ids:
        close_pair(pair_id=pair_id)
    return len(ids)
