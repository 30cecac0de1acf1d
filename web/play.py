"""The match page: a live table (the viewer's own seat only), the decisions a signed-in player makes by clicking,
a table against three bots, and a finished game's replay, for every game the engine has.

What a page shows of a match is the engine's SeatView of the viewer's seat, or the public view for a spectator
(league.selectors.live), exactly what the API's state endpoint sends; decisions go through the same service as the
API's decisions endpoint (league.services.decisions.submit_user_decision), so the rules, the refusals and the
secrecy live there.
How a game looks (its table, its buttons' decision JSON, its replay) is its presenter's (web.games), found by the
match's `game`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import format_lazy
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from engine.diamonds.ruleset import ROUNDS_BY_PLAYERS
from league.models import Match, MatchSeat
from league.models.match import IN_PLAY
from league.permissions import organises
from league.refusals import refusal_text
from league.selectors.clocks import match_clocks
from league.selectors.deals import deal_still_in_play, revealed_seed
from league.selectors.live import (
    match_game,
    public_record,
    public_state,
    record_is_public,
    seat_state,
    seats_of_user,
)
from league.selectors.lobby import lobby_table_of
from league.selectors.matches import match_pages, match_seats, matches, played_as, seat_names
from league.services import create_match
from league.services.accounts import ensure_person
from league.services.decisions import DecisionRefused, start_live_match, submit_user_decision
from league.services.players import house_bots
from runtime.throttling import DecisionLimit, TableLimit, WriteLimit, rate_limited

from .games import PRESENTERS, presenter_for
from .games.base import number_or_text
from .offline import offline_match_page


def _viewer_seat(match: Match, user) -> MatchSeat | None:
    """The viewer's seat: the one awaited if they hold several, else their first; None for a spectator."""
    mine = seats_of_user(match, user)
    return next((ms for ms in mine if ms.awaiting), mine[0] if mine else None)


def _forbidden(request, message: str):
    return render(request, "web/error.html", {"message": message}, status=403)


def clock_context(match: Match, clock: dict | None = None) -> dict:
    """What the table's clocks show: the match's chess clocks now (league.selectors.clocks; `clock` if read
    already), each clocked seat with its name and its time as the page first shows it (`seat_clocks`, by seat: each
    seat draws its own, _seat_clock.html), the server's time they were taken at in ms (`clock_taken_ms`), and the
    time control in words (`clock_summary`, _clocks.html). Empty for a match without a clock."""
    clock = clock if clock is not None else match_clocks(match)
    if clock is None:
        return {"clock": None}
    names = seat_names(match)  # the seats by their players' names now
    seats = [{**c, "name": names[c["seat"]] if c["seat"] < len(names) else "", "shown": _shown(c["remaining_ms"])}
             for c in clock["seats"]]
    taken = datetime.fromisoformat(clock["server_time"])
    bank = clock["bank_seconds"]
    each = (ngettext("%(n)d minute", "%(n)d minutes", bank // 60) % {"n": bank // 60} if bank % 60 == 0
            else ngettext("%(n)d second", "%(n)d seconds", bank) % {"n": bank})
    increment = clock["increment_seconds"]
    summary = (_("%(each)s each, plus %(n)s seconds a decision.") % {"each": each, "n": increment} if increment
               else _("%(each)s each, no time added.") % {"each": each})
    return {"clock": clock, "clock_seats": seats, "seat_clocks": {c["seat"]: c for c in seats},
            "clock_taken_ms": int(taken.timestamp() * 1000), "clock_summary": summary}


def _shown(ms: int) -> str:
    """A clock's time as chess_clock.js shows it (without script, the page's figures as served)."""
    if ms <= 0:
        return "0:00"
    if ms < 10_000:
        return f"{ms // 100 / 10:.1f}"
    seconds = ms // 1000
    hours, minutes = divmod(seconds // 60, 60)
    return f"{hours}:{minutes:02d}:{seconds % 60:02d}" if hours else f"{minutes}:{seconds % 60:02d}"


def _clocks_html(request, match: Match, clock: dict | None) -> str:
    return render_to_string("web/_clocks.html", clock_context(match, clock), request=request) if clock else ""


def _table_context(match: Match, seat: MatchSeat | None, clock: dict | None,
                   seats: list[MatchSeat] | None = None) -> dict:
    """The table as `seat` sees it (a spectator's: None), each seat with its chess clock as `clock` has it."""
    presenter = presenter_for(match.game)
    game = match_game(match)
    state = seat_state(game, seat.seat) if seat is not None else public_state(game)
    # Who sits where by their names of today (the record keeps the names it was made with: seat_names).
    return {"match": match, "presenter": presenter, "table": presenter.build_table(state, seat_names(match, seats)),
            "seat": seat, "move_number": state["move_number"],
            **(clock_context(match, clock) if clock is not None else {})}


def match_page(request, pk: int):
    match = get_object_or_404(match_pages(), pk=pk)
    if match.offline:  # played with real cards: its seating and its result entry (web.offline)
        return offline_match_page(request, match)
    seat = _viewer_seat(match, request.user)
    if seat is None and deal_still_in_play(match):
        return _forbidden(request, _("This duplicate table's deal is still being played at other tables: only its "
                                     "own players see it until the round closes."))
    seats = list(match_seats(match))
    context = _table_context(match, seat, match_clocks(match), seats)  # each seat with its clock, if it has one
    context["seats"] = seats
    context["played_as"] = played_as(match, seats)
    context["replay"] = record_is_public(match)
    context["revealed_seed"] = revealed_seed(match)
    context["can_cancel"] = match.status in IN_PLAY and organises(request.user, match.club_id)
    # A table nobody has played yet may be switched to real cards (web.offline.offline_switch).
    context["can_play_offline"] = (match.status in IN_PLAY and not match.move_number
                                   and organises(request.user, match.club_id))
    # A lobby table's match leads back to the lobby (and says whether it is rated).
    context["lobby_table"] = lobby_table_of(match)
    return render(request, "web/match.html", context)


@require_GET
def match_live(request, pk: int):
    """What the page's script polls: the match's move number and status, and the table re-rendered when either
    differs from what the page shows (`?move=N&status=S`). Its socket gets the same answers (web.consumers)."""
    match = get_object_or_404(matches(), pk=pk)
    data = live_update(request, match, request.GET.get("move"), request.GET.get("status"))
    if data is None:
        return JsonResponse({"detail": _("hidden until the round closes")}, status=403)
    return JsonResponse(data)


def live_update(request, match: Match, shown_move: str | None, shown_status: str | None, *,
                shared: Callable[[tuple, Callable[[], tuple[int, str]]], tuple[int, str]] | None = None) -> dict | None:
    """The reader's answer to "has the match moved since (`shown_move`, `shown_status`)?": the move number and
    status, and the reader's own table (their seat's view, or a spectator's) when either differs. None when the
    reader may not watch the match (a spectator of a duplicate table or comparison game whose deal is still played).

    `shared` (the socket's, web.consumers) memoises the spectators' table, which is the same for every spectator
    of a move in one language: called with the key and the render, it returns the render's answer."""
    seat = _viewer_seat(match, request.user)
    if seat is None and deal_still_in_play(match):
        return None
    data = {"move_number": match.move_number, "status": match.status, "status_label": match.get_status_display()}
    # The chess clocks as they stand at this read, as data for a script, drawn in the table's seats, and the time of
    # this read drawn before the table (_clocks.html): a spectators' table shared from an earlier read has its seats'
    # figures as they stood then, and the page counts them down from then to this read's time.
    clock = match_clocks(match)
    if clock is not None:
        data["clock"] = clock
    if shown_move != str(match.move_number) or shown_status != match.status:
        if seat is None and shared is not None:
            key = (match.pk, match.move_number, match.status, get_language())
            data["move_number"], data["html"] = shared(key, lambda: _table_html(request, match, None, clock))
        else:
            data["move_number"], data["html"] = _table_html(request, match, seat, clock)
        data["html"] = _clocks_html(request, match, clock) + str(data["html"])
    return data


def _table_html(request, match: Match, seat: MatchSeat | None, clock: dict | None) -> tuple[int, str]:
    context = _table_context(match, seat, clock)
    return context["move_number"], render_to_string(context["presenter"].table_template, context, request=request)


@login_required
@require_POST
@rate_limited(DecisionLimit, what="decisions")
def match_decide(request, pk: int):
    """One decision from the page's buttons, through the decisions service's entry for an account, as the API's:
    the seat it answers for is the viewer's awaited one (else their first), chosen under the match's lock. The
    script asks for JSON; a plain form post (no script) gets the match page again, with any refusal as a message."""
    match = get_object_or_404(matches(), pk=pk)  # its game reads the buttons' decision
    wants_json = "application/json" in request.headers.get("Accept", "")
    error, status = None, 201
    try:
        submit_user_decision(match_id=match.pk, user=request.user,
                             move_number=number_or_text(request.POST.get("move_number")),
                             decision_json=presenter_for(match.game).decision_json(request.POST))
    except DecisionRefused as e:
        error, status = refusal_text(e.rule, e.message) + (f" ({e.rule})" if e.rule else ""), e.status
    except Match.DoesNotExist:
        raise Http404("no such match") from None
    if wants_json:
        return JsonResponse({"ok": error is None, "detail": error}, status=status)
    if error:
        messages.error(request, error)
    return redirect("web:match", pk=pk)


def match_replay(request, pk: int):
    """A finished match's replay, one window of steps per page (web.games.replay): `?step=N` (1-based) picks the
    window holding step N, which the page shows first; a step past the end shows the last one."""
    match = get_object_or_404(matches(), pk=pk)
    if not record_is_public(match):
        raise Http404("a match can be replayed once it is over (and its round, for a duplicate table)")
    try:
        step = int(request.GET.get("step", 1))
    except ValueError:
        return render(request, "web/error.html", {"heading": _("No such step"), "message": _(
            "The step to show is a whole number: ?step=1 is the first.")}, status=400)
    seats = list(match_seats(match))
    names = seat_names(match, seats)
    # The record as played, with the seats named as their players are called now (a copy: the stored record and
    # its export keep the names it was made with).
    record = {**public_record(match), "seats": names}
    presenter = presenter_for(match.game)
    return render(request, "web/replay.html", {
        "match": match, "presenter": presenter, "window": presenter.replay_window(record, step),
        "names": names, "played_as": played_as(match, seats),
    })


# A table against bots seats four; a full Diamonds game of four is this many rounds.
FULL_GAME_ROUNDS = ROUNDS_BY_PLAYERS[4]

# The bots a visitor may sit with: the quick ones (Diamonds' search bot thinks for seconds per card).
BOT_LABELS = {"greedy": gettext_lazy("greedy (Diamonds: quick, plays for tricks)"),
              "heuristic": gettext_lazy("heuristic (Diamoniak and the ring race: plays sensibly)"),
              "random": gettext_lazy("random (any legal move, any game)")}


class BotTableForm(forms.Form):
    # Not required: the home page's one-click button (and older links) mean Diamonds.
    game = forms.ChoiceField(choices=[(p.name, format_lazy("{}: {}", p.title, p.blurb)) for p in PRESENTERS.values()],
                             initial="diamonds", required=False, widget=forms.RadioSelect, label=gettext_lazy("Game"))
    # Diamonds' options; a table of another game leaves them out, so they are not required.
    # A full game by default (the rulebook's rounds for four players, R-ROUNDS-1); one round is the quick option.
    # Left out (older links, the other games), it means a full game too.
    rounds = forms.TypedChoiceField(
        choices=[(0, format_lazy(gettext_lazy("a full game: {n} rounds, the rulebook's game for four"),
                                 n=FULL_GAME_ROUNDS)),
                 (1, gettext_lazy("one round only (quick practice)"))],
        # Django returns any empty_value as it is; the stubs allow only str or None.
        coerce=int, initial=0, empty_value=0,  # type: ignore[arg-type]
        required=False, label=gettext_lazy("Length (Diamonds)"))
    clubs = forms.ChoiceField(choices=[("thief", gettext_lazy("the Thief (second edition)")),
                                       ("choose", gettext_lazy("choose whom to rob (first edition)"))], initial="thief",
                              required=False, label=gettext_lazy("Clubs (Diamonds)"))
    bots = forms.ChoiceField(choices=[("", gettext_lazy("the game's usual bot")), *BOT_LABELS.items()], required=False,
                             label=gettext_lazy("Bots"))
    seed = forms.CharField(required=False, max_length=100, label=gettext_lazy("Seed"),
                           help_text=gettext_lazy("Optional: the same seed deals the same cards (for practice)."))

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        data["game"] = data.get("game") or "diamonds"
        data["clubs"] = data.get("clubs") or "thief"
        presenter = presenter_for(data["game"])
        data["bots"] = data.get("bots") or presenter.default_bot
        if data["bots"] not in presenter.bot_kinds:
            self.add_error("bots", _("%(game)s has no %(bot)s bot; its bots are %(bots)s.") % {
                "game": presenter.title, "bot": data["bots"], "bots": _(" and ").join(presenter.bot_kinds)})
        return data


@login_required
@rate_limited(WriteLimit, TableLimit, what="new tables")  # each table is a match the server plays out
def play_bots(request):
    """A table of four at the game the visitor chose: the signed-in person and three bots. The bots play at once
    (a worker, or in-process). Diamonds is a full game unless one round was chosen; the message says which."""
    form = BotTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        presenter = presenter_for(data["game"])
        with transaction.atomic():
            person = ensure_person(request.user)[1]
            if person is None:  # a bot's account: its bot plays through the API
                raise PermissionDenied
            players = [person, *house_bots(data["bots"], 3)]
            match = create_match(players=players, ruleset=presenter.bot_table_ruleset(data), game=presenter.name,
                                 seed=data["seed"] or None, seed_chosen=bool(data["seed"]))
            start_live_match(match=match)
        if presenter.name != "diamonds":
            length = _("a whole game")
        elif data["rounds"] == 1:
            length = _("one round only")
        else:
            length = _("a full game of %(n)d rounds") % {"n": FULL_GAME_ROUNDS}
        messages.success(request, _("Your table is ready (%(length)s): you sit at the bottom.") % {"length": length})
        return redirect(reverse("web:match", kwargs={"pk": match.pk}))
    # A refused form says why on the page, as a 400: bad input is the client's error, and nothing was created.
    return render(request, "web/play.html", {"form": form, "full_game_rounds": FULL_GAME_ROUNDS},
                  status=400 if request.method == "POST" else 200)
