"""Private links, as Tabbycat's private URLs: each entrant of a tournament (a guest without an account, or a member)
opens /p/<token>/ on their phone and sees their table and seat in the latest round (and who deals first), enters or
confirms their table's result as a signed-in player at the table can, and reads the standings. The link reaches
nothing else: no other table's result, no organiser's action, no other link, no sign-in. A revoked link is a 404.

The organisers' page of a tournament's links lists every entrant's link with its QR code, issues them (one by one or
for everyone) and revokes them. Pages carrying a link are never stored by a cache and send no Referer."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine.common.offline import InvalidResult
from league.models import EntryStatus, PrivateLink, Tournament, TournamentEntry
from league.permissions import refusal_to_keep_roster
from league.selectors.competitions import tournament_pages, tournaments
from league.selectors.offline import result_units
from league.selectors.private_links import (
    LinkTable,
    entries_with_links,
    link_token,
    live_link,
    tables_of_entrant,
)
from league.selectors.standings_cache import cached_tournament_standings
from league.services.offline_results import NotAtTable, OfflineResultError, confirm_result, enter_result
from league.services.private_links import issue_link, issue_links, revoke_link
from league.standings import shown_metrics
from runtime.secrecy import never_stored
from runtime.throttling import WriteLimit, rate_limited

from .offline import _figures_from_form, result_section
from .qr import qr_svg
from .refusals import refused_page


def _private(response):
    """A page carrying a private link: no cache keeps it, and no link followed from it to another site sends it on as
    a Referer (same-origin, not no-referrer: a browser then sends its form posts with `Origin: null`, which Django's
    CSRF check refuses; our own access logs redact the token)."""
    response["Referrer-Policy"] = "same-origin"
    return never_stored(response)


def link_url(request, token: str) -> str:
    return request.build_absolute_uri(reverse("web:private-link", args=[token]))


# ---- the entrant's page ---------------------------------------------------------------------------------------

def _link_or_404(token: str) -> PrivateLink:
    link = live_link(token)
    if link is None:
        raise Http404(_("This link is not valid (it may have been revoked): ask the organisers for yours."))
    return link


def _table(link: PrivateLink, match_pk: int) -> LinkTable:
    """One of the entrant's own tables, else 404: a link reaches no other table."""
    table = next((t for t in tables_of_entrant(link.entry) if t.match.pk == match_pk), None)
    if table is None:
        raise Http404(_("No such table of yours."))
    return table


def _page(request, token: str, link: PrivateLink, *, form_values=None, problems=None, status: int = 200):
    entry = link.entry
    tournament = entry.tournament
    tables = tables_of_entrant(entry)
    current = tables[0] if tables else None
    section = {}
    if current is not None and current.match.offline:
        match = current.match
        section = result_section(
            match, seats=current.seats, mine=[current.seat.seat], organiser=False, user=None,
            enter_action=reverse("web:private-link-result", args=[token, match.pk]),
            confirm_action=lambda entry_id: reverse("web:private-link-confirm", args=[token, match.pk, entry_id]),
            form_values=form_values, problems=problems)
    standings = cached_tournament_standings(tournament)
    response = render(request, "web/private_link.html", {
        **section, "entry": entry, "tournament": tournament, "current": current, "earlier": tables[1:],
        "standings": standings, "metric_names": shown_metrics(standings),
    }, status=status)
    return _private(response)


def private_link(request, token: str):
    link = _link_or_404(token)
    return _page(request, token, link)


@require_POST
@rate_limited(WriteLimit, what="changes")
def private_link_result(request, token: str, match_pk: int):
    link = _link_or_404(token)
    table = _table(link, match_pk)
    match = table.match
    figures = _figures_from_form(request.POST, match.game, result_units(match, table.seats))
    try:
        entered = enter_result(match=match, player=link.entry.player, figures=figures)
    except NotAtTable:
        raise Http404(_("No such table of yours.")) from None
    except InvalidResult as e:
        return _page(request, token, link, form_values=request.POST, problems=e.problems, status=400)
    except OfflineResultError as e:
        messages.error(request, str(e))
        return redirect("web:private-link", token=token)
    if entered.status == EntryStatus.ENTERED:
        messages.success(request, _("Result entered: another player at the table confirms it."))
    elif entered.status == EntryStatus.DISPUTED:
        messages.success(request, _("Your result differs from the one entered before: an organiser will settle it."))
    else:
        messages.success(request, _("The result is final."))
    return redirect("web:private-link", token=token)


@require_POST
@rate_limited(WriteLimit, what="changes")
def private_link_confirm(request, token: str, match_pk: int, entry_id: int):
    link = _link_or_404(token)
    table = _table(link, match_pk)
    try:
        confirm_result(match=table.match, player=link.entry.player, entry_id=entry_id)
    except NotAtTable:
        raise Http404(_("No such table of yours.")) from None
    except OfflineResultError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("Result confirmed: the table is finished."))
    return redirect("web:private-link", token=token)


# ---- the organisers' page ---------------------------------------------------------------------------------------

def _organised(request, pk: int) -> tuple[Tournament, str | None]:
    tournament = get_object_or_404(tournaments(), pk=pk)
    return tournament, refusal_to_keep_roster(request.user, tournament.club_id)




@login_required
def links_page(request, pk: int):
    tournament = get_object_or_404(tournament_pages(), pk=pk)
    refusal = refusal_to_keep_roster(request.user, tournament.club_id)
    if refusal:
        return refused_page(request, refusal)
    rows = []
    for entry in entries_with_links(tournament):
        link: PrivateLink | None = getattr(entry, "private_link", None)
        url = link_url(request, link_token(link)) if link is not None and link.revoked_at is None else ""
        live = bool(url)
        rows.append({"entry": entry, "url": url, "revoked": link is not None and not live,
                     "qr": qr_svg(url, _("QR code of %(name)s's private link") % {"name": entry.player.name})
                     if live else ""})
    return _private(render(request, "web/private_links.html", {"tournament": tournament, "rows": rows}))


def _entry(tournament: Tournament, entry_id: int) -> TournamentEntry:
    return get_object_or_404(TournamentEntry.objects.select_related("player"), tournament=tournament, pk=entry_id)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def links_issue_all(request, pk: int):
    tournament, refusal = _organised(request, pk)
    if refusal:
        return refused_page(request, refusal)
    count = issue_links(tournament=tournament)
    messages.success(request, _("Links issued: %(count)d.") % {"count": count})
    # From a round's printed sheet or slips, back to it with the QR codes; anywhere else, the links page.
    printed, number = request.POST.get("back_to", ""), request.POST.get("round", "")
    if printed in ("sheet", "slips") and number.isdigit() and len(number) < 5:
        return redirect(f"web:round-{printed}", pk=pk, number=int(number))
    return redirect("web:tournament-links", pk=pk)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def link_issue(request, pk: int, entry_id: int):
    """A new link for one entrant (a lost phone, a link shared by mistake): the old one answers nothing from now on."""
    tournament, refusal = _organised(request, pk)
    if refusal:
        return refused_page(request, refusal)
    entry = _entry(tournament, entry_id)
    issue_link(entry=entry)
    messages.success(request, _("A new link for %(name)s: the old one no longer opens.") % {"name": entry.player.name})
    return redirect(reverse("web:tournament-links", args=[pk]) + f"#entry-{entry.pk}")


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def link_revoke(request, pk: int, entry_id: int):
    tournament, refusal = _organised(request, pk)
    if refusal:
        return refused_page(request, refusal)
    entry = _entry(tournament, entry_id)
    revoke_link(entry=entry)
    messages.success(request, _("%(name)s's link is revoked.") % {"name": entry.player.name})
    return redirect(reverse("web:tournament-links", args=[pk]) + f"#entry-{entry.pk}")
