"""The lobby's pages: the open tables (a list the page's script refreshes from a small JSON view), opening a table,
a table's waiting room, the invitation link, and joining, leaving, cancelling and starting a table.

Thin views: the writes are league.services.lobby's (which decides every refusal), the reads
league.selectors.lobby's. A table that starts sends everyone at it to its match page (web.play), the page script
finding `match_url` in the table's JSON.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from engine.games import GAMES
from league.models import LobbyStatus
from league.selectors.lobby import (
    my_open_tables,
    open_public_tables,
    seated,
    table_by_token,
    table_for,
    table_summary,
)
from league.services.lobby import (
    LobbyRefused,
    cancel_table,
    create_table,
    join_table,
    leave_table,
    start_with_bots,
)
from runtime.throttling import TableLimit, WriteLimit, rate_limited

from .clock_options import add_clock_fields, clock_settings
from .games import PRESENTERS, presenter_for

# No "no limit": a live table always has a deadline, so that nobody who leaves can keep the others waiting for ever
# (league.services.matches.turn_deadline_for).
DEADLINE_CHOICES = [(30, gettext_lazy("30 seconds")), (60, gettext_lazy("1 minute")),
                    (120, gettext_lazy("2 minutes")), (300, gettext_lazy("5 minutes")),
                    (900, gettext_lazy("15 minutes")), (3600, gettext_lazy("1 hour"))]


class LobbyTableForm(forms.Form):
    game = forms.ChoiceField(label=gettext_lazy("Game"), initial="diamonds", widget=forms.RadioSelect,
                             choices=[(p.name, f"{p.title}: {p.blurb}") for p in PRESENTERS.values()])
    seats = forms.TypedChoiceField(label=gettext_lazy("Seats"), coerce=int, initial=4,
                                   choices=[(n, str(n)) for n in range(2, 7)],
                                   help_text=gettext_lazy("Diamonds: 2 to 6; Diamoniak and the ring race: their own "
                                                          "bounds, checked when you open the table."))
    rounds = forms.TypedChoiceField(label=gettext_lazy("Length (Diamonds)"), coerce=int, initial=0, required=False,
                                    # Django returns any empty_value as it is; the stubs allow only str or None.
                                    empty_value=0,  # type: ignore[arg-type]
                                    choices=[(0, gettext_lazy("a full game (the rulebook's rounds)")),
                                             (1, gettext_lazy("one round (quick)"))])
    clubs = forms.ChoiceField(label=gettext_lazy("Clubs (Diamonds)"), initial="", required=False,
                              choices=[("", gettext_lazy("the rulebook's for the number of players")),
                                       ("thief", gettext_lazy("the Thief (second edition; 3 to 6 players)")),
                                       ("choose", gettext_lazy("choose whom to rob (first edition)"))])
    rated = forms.BooleanField(label=gettext_lazy("Rated (counts for ratings at this game)"), required=False)
    public = forms.BooleanField(label=gettext_lazy("Public (listed here; otherwise join by the invitation link)"),
                                required=False, initial=True)
    bot_kind = forms.ChoiceField(label=gettext_lazy("Bots"), required=False, initial="",
                                 choices=[("", gettext_lazy("people only")),
                                          ("greedy", gettext_lazy("greedy bots may fill empty seats (Diamonds)")),
                                          ("heuristic", gettext_lazy("heuristic bots may fill empty seats "
                                                                     "(Diamoniak, ring race)")),
                                          ("random", gettext_lazy("random bots may fill empty seats (any game)"))],
                                 help_text=gettext_lazy("With bots, you may start before the table is full."))
    turn_deadline = forms.TypedChoiceField(label=gettext_lazy("Time per decision"), coerce=int, initial=120,
                                           choices=DEADLINE_CHOICES,
                                           help_text=gettext_lazy("A late decision is made by a random bot."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_clock_fields(self)  # a chess clock beside the time per decision (web.clock_options)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        data["clock_bank_seconds"], data["clock_increment_seconds"] = clock_settings(self, data)
        return data

    def options(self) -> dict:
        """The ruleset options of the chosen game."""
        data = self.cleaned_data
        if data["game"] != "diamonds":
            return {}
        options = {"clubs": data["clubs"]} if data.get("clubs") else {}
        if data.get("rounds"):
            options["rounds"] = data["rounds"]
        return options


def _refused(request, error: LobbyRefused, wants_json: bool = False):
    if wants_json:
        return JsonResponse({"detail": error.message, "code": error.code}, status=error.status)
    return render(request, "web/error.html", {"heading": _("Not possible"), "message": error.message},
                  status=error.status)


def lobby(request):
    """The open tables, the viewer's own, and the form to open one (a POST opens it)."""
    form = LobbyTableForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('web:login')}?next={request.path}")
        return _open_table(request, form)
    return render(request, "web/lobby.html", _lobby_context(request, form))


def _lobby_context(request, form) -> dict:
    return {"form": form, "tables": [table_summary(t, request.user) for t in open_public_tables()],
            "mine": [table_summary(t, request.user) for t in my_open_tables(request.user)], "games": GAMES}


@rate_limited(WriteLimit, TableLimit, what="new tables")
def _open_table(request, form):
    if form.is_valid():
        data = form.cleaned_data
        try:
            table = create_table(user=request.user, game=data["game"], seats=data["seats"], options=form.options(),
                                 rated=data["rated"], public=data["public"], bot_kind=data["bot_kind"],
                                 turn_deadline_seconds=data["turn_deadline"],
                                 clock_bank_seconds=data["clock_bank_seconds"],
                                 clock_increment_seconds=data["clock_increment_seconds"])
        except LobbyRefused as e:
            form.add_error(None, e.message)
        else:
            messages.success(request, _("Your table is open: share its link, or wait for others to join."))
            return redirect("web:lobby-table", pk=table.pk)
    return render(request, "web/lobby.html", _lobby_context(request, form), status=400)


@require_GET
def lobby_live(request):
    """What the lobby's script polls: the open public tables and the viewer's own, as JSON, with both lists drawn
    by the page's own template (`html`), so the script only swaps them in and every word stays translated. Its
    socket gets the same answer whenever the lobby changes (web.consumers)."""
    return JsonResponse(lobby_update(request))


def lobby_update(request) -> dict:
    """The lobby's lists as the reader sees them (their own tables among them)."""
    tables = [_with_urls(table_summary(t, request.user)) for t in open_public_tables()]
    mine = [_with_urls(table_summary(t, request.user)) for t in my_open_tables(request.user)]
    html = {name: render_to_string("web/_lobby_list.html", {"rows": rows, "which": name}, request=request)
            for name, rows in (("tables", tables), ("mine", mine))}
    return {"tables": tables, "mine": mine, "html": html}


def _with_urls(summary: dict) -> dict:
    summary["url"] = reverse("web:lobby-table", kwargs={"pk": summary["id"]})
    summary["match_url"] = reverse("web:match", kwargs={"pk": summary["match"]}) if summary["match"] else None
    summary["created_at"], summary["expires_at"] = (summary["created_at"].isoformat(),
                                                    summary["expires_at"].isoformat())
    return summary


def _visible(request, pk: int):
    table = table_for(pk, request.user, request.GET.get("token", ""))
    if table is None:
        raise Http404(_("No such table."))
    return table


@never_cache  # the invitation link, for those seated
def lobby_table(request, pk: int):
    """A table's waiting room: who sits there, the invitation link for those seated, and what they may do. Once the
    table has started, those seated are sent to its match."""
    table = _visible(request, pk)
    if table.status == LobbyStatus.STARTED and table.match_id and seated(table, request.user):
        return redirect("web:match", pk=table.match_id)
    summary = table_summary(table, request.user)
    invite = (request.build_absolute_uri(reverse("web:lobby-invite", kwargs={"token": table.token}))
              if summary["seated"] else None)
    return render(request, "web/lobby_table.html", {"table": table, "t": summary, "invite": invite,
                                                    "presenter": presenter_for(table.game)})


@require_GET
@never_cache  # the invitation token, for those seated
def lobby_table_live(request, pk: int):
    table = _visible(request, pk)
    return JsonResponse(_with_urls(table_summary(table, request.user)))


def lobby_table_update(request, pk: int, token: str = "") -> dict | None:
    """A table's JSON as its waiting room's socket sends it (web.consumers); None if the reader may not see it (a
    private table they neither sit at nor hold the invitation of), exactly as the page and its JSON decide."""
    table = table_for(pk, request.user, token)
    return None if table is None else _with_urls(table_summary(table, request.user))


@never_cache  # its address is the invitation token
def lobby_invite(request, token: str):
    """The invitation link: the private (or public) table it names, with a button to join it."""
    table = table_by_token(token)
    if table is None:
        raise Http404(_("This invitation link names no table."))
    if seated(table, request.user):
        return redirect("web:lobby-table", pk=table.pk)
    return render(request, "web/lobby_table.html", {"table": table, "t": table_summary(table, request.user),
                                                    "invite": None, "token": token,
                                                    "presenter": presenter_for(table.game)})


def _act(request, pk: int, action, done: str, **kwargs):
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        table = action(user=request.user, table_id=pk, **kwargs)
    except LobbyRefused as e:
        if wants_json:
            return _refused(request, e, True)
        messages.error(request, e.message)
        return redirect("web:lobby")
    if table.status == LobbyStatus.STARTED:
        messages.success(request, _("The table is full: your game has started."))
        return redirect("web:match", pk=table.match_id)
    messages.success(request, done)
    return redirect("web:lobby-table", pk=table.pk) if table.status == LobbyStatus.OPEN else redirect("web:lobby")


@login_required
@require_POST
@rate_limited(WriteLimit, what="writes")
def lobby_join(request, pk: int):
    return _act(request, pk, join_table, _("You sit at the table."), token=request.POST.get("token", ""))


@login_required
@require_POST
@rate_limited(WriteLimit, what="writes")
def lobby_leave(request, pk: int):
    return _act(request, pk, leave_table, _("You left the table."))


@login_required
@require_POST
@rate_limited(WriteLimit, what="writes")
def lobby_cancel(request, pk: int):
    return _act(request, pk, cancel_table, _("The table is cancelled."))


@login_required
@require_POST
@rate_limited(WriteLimit, what="writes")
def lobby_start(request, pk: int):
    return _act(request, pk, start_with_bots, _("The game has started."))
