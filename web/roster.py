"""A club's roster of guests on the website (people without accounts: league.services.roster), for its organisers:
add guests pasted one a line or from a CSV file after a preview naming each bad line, rename, merge duplicates, hand a
guest a one-time claim code; and the page where a signed-in person claims a guest's history with that code."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.models import Club, Player
from league.permissions import refusal_to_keep_roster, refusal_to_take_part
from league.selectors import clubs as club_reads
from league.selectors.roster import claim_code, guest_of, guests_of
from league.services.names import NameRefused
from league.services.roster import (
    ROSTER_FILE_BYTES_MAX,
    ROSTER_LINES_MAX,
    RosterError,
    add_guests,
    claim_guest,
    csv_names,
    issue_claim_code,
    merge_guests,
    pasted_names,
    preview_guests,
    refusal_of_code,
    rename_guest,
    revoke_claim_codes,
)
from runtime.secrecy import never_stored
from runtime.throttling import WriteLimit, rate_limited

from .qr import qr_svg
from .refusals import refused_page

# A pasted roster: ROSTER_LINES_MAX names of at most a hundred characters, with room for line ends.
PASTE_CHARS_MAX = ROSTER_LINES_MAX * 110




def _organised_club(request, pk: int) -> tuple[Club, str | None]:
    club = get_object_or_404(club_reads.clubs(), pk=pk)
    return club, refusal_to_keep_roster(request.user, club.pk)


def _roster_page(request, club: Club, *, preview=None, pasted: str = "", problem: str = "", status: int = 200):
    return render(request, "web/roster.html", {
        "club": club, "guests": guests_of(club), "preview": preview, "pasted": pasted, "problem": problem,
        "preview_ok": bool(preview) and not any(line.problem for line in preview),
        "lines_max": ROSTER_LINES_MAX, "file_kb": ROSTER_FILE_BYTES_MAX // 1000,
    }, status=status)


@login_required
def roster(request, pk: int):
    club, refusal = _organised_club(request, pk)
    if refusal:
        return refused_page(request, refusal)
    return _roster_page(request, club)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def roster_preview(request, pk: int):
    """The names pasted or in the file, each line with what is wrong with it; nothing is created here."""
    club, refusal = _organised_club(request, pk)
    if refusal:
        return refused_page(request, refusal)
    pasted = request.POST.get("names", "")
    upload = request.FILES.get("roster_file")
    try:
        if upload is not None:
            if upload.size > ROSTER_FILE_BYTES_MAX:
                raise RosterError(_("The file is too big for a roster: at most %(kb)d kB.") % {
                    "kb": ROSTER_FILE_BYTES_MAX // 1000})
            lines = csv_names(upload.read(ROSTER_FILE_BYTES_MAX + 1))
        elif len(pasted) > PASTE_CHARS_MAX:
            raise RosterError(_("At most %(most)d names at once.") % {"most": ROSTER_LINES_MAX})
        else:
            lines = pasted_names(pasted)
        if not lines:
            raise RosterError(_("Give at least one name: one a line, or a CSV file with a “name” column."))
        preview = preview_guests(lines)
    except RosterError as e:
        return _roster_page(request, club, pasted=pasted[:PASTE_CHARS_MAX], problem=str(e), status=400)
    bad = any(line.problem for line in preview)
    return _roster_page(request, club, preview=preview, pasted=pasted, status=400 if bad else 200)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def roster_add(request, pk: int):
    """The organiser confirms the preview: the guests are created, all of them or none."""
    club, refusal = _organised_club(request, pk)
    if refusal:
        return refused_page(request, refusal)
    names = request.POST.getlist("name")[:ROSTER_LINES_MAX + 1]
    try:
        made = add_guests(club=club, names=names)
    except RosterError as e:
        return _roster_page(request, club, problem=str(e), status=400)
    messages.success(request, _("%(count)d guests added to the roster.") % {"count": len(made)})
    return redirect("web:club-roster", pk=club.pk)


def _guest(club: Club, raw) -> Player | None:
    return guest_of(club, int(raw)) if str(raw).isdigit() and len(str(raw)) < 19 else None


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def guest_rename(request, pk: int, guest_id: int):
    club, refusal = _organised_club(request, pk)
    if refusal:
        return refused_page(request, refusal)
    guest = _guest(club, guest_id)
    if guest is None:
        return refused_page(request, _("No such guest on this club's roster."), 404)
    try:
        rename_guest(guest=guest, name=request.POST.get("name", "")[:1000])
    except (NameRefused, RosterError) as e:
        return _roster_page(request, club, problem=str(e), status=400)
    messages.success(request, _("Renamed: %(name)s.") % {"name": guest.name})
    return redirect("web:club-roster", pk=club.pk)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def guests_merge(request, pk: int):
    """Two guests who are one person: the first's history goes to the second."""
    club, refusal = _organised_club(request, pk)
    if refusal:
        return refused_page(request, refusal)
    source, target = _guest(club, request.POST.get("source", "")), _guest(club, request.POST.get("target", ""))
    if source is None or target is None:
        return _roster_page(request, club, problem=_("Choose two guests of the roster to merge."), status=400)
    try:
        merge_guests(club=club, source=source, target=target)
    except RosterError as e:
        return _roster_page(request, club, problem=str(e), status=400)
    messages.success(request, _("%(source)s is merged into %(target)s.") % {"source": source.name,
                                                                              "target": target.name})
    return redirect("web:club-roster", pk=club.pk)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def claim_code_issue(request, pk: int, guest_id: int):
    """A new claim code for the guest, shown this once (its earlier codes stop working)."""
    club, refusal = _organised_club(request, pk)
    if refusal:
        return refused_page(request, refusal)
    guest = _guest(club, guest_id)
    if guest is None:
        return refused_page(request, _("No such guest on this club's roster."), 404)
    code = issue_claim_code(guest=guest, by=request.user)
    url = request.build_absolute_uri(reverse("web:claim", args=[code]))
    response = render(request, "web/claim_code.html", {
        "club": club, "guest": guest, "code": code, "url": url,
        "qr": qr_svg(url, _("QR code of the link to claim %(name)s's history") % {"name": guest.name})})
    response["Referrer-Policy"] = "same-origin"
    return never_stored(response)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def claim_codes_revoke(request, pk: int, guest_id: int):
    club, refusal = _organised_club(request, pk)
    if refusal:
        return refused_page(request, refusal)
    guest = _guest(club, guest_id)
    if guest is None:
        return refused_page(request, _("No such guest on this club's roster."), 404)
    count = revoke_claim_codes(guest=guest)
    messages.success(request, _("%(name)s's claim codes revoked: %(count)d.") % {"name": guest.name, "count": count})
    return redirect("web:club-roster", pk=club.pk)


@rate_limited(WriteLimit, what="changes")
def claim(request, code: str):
    """A guest's history claimed by the signed-in person: the page says whose history it is; only their own POST
    binds it to their account."""
    found = claim_code(code)
    refusal = refusal_of_code(found)
    status = 200
    done = None
    if refusal is None and request.method == "POST":
        taking_part = refusal_to_take_part(request.user)
        if taking_part:
            refusal, status = taking_part, 403
        else:
            assert found is not None and found.guest is not None  # refusal_of_code refuses a code without its guest
            claimed_name = found.guest.name  # the guest's, before the history takes the account's name
            try:
                done = claim_guest(user=request.user, code=code)
            except RosterError as e:
                refusal, status = str(e), 409
    elif refusal is not None:
        status = 404 if found is None or found.revoked_at is not None else 410
    if done is not None:
        messages.success(request, _("The history of %(name)s is yours now.") % {"name": claimed_name})
        return redirect("web:player", pk=done.pk)
    response = render(request, "web/claim.html", {
        "claim": found if refusal_of_code(found) is None else None, "refusal": refusal,
        "not_ready": refusal_to_take_part(request.user) if request.user.is_authenticated else None,
    }, status=status)
    response["Referrer-Policy"] = "same-origin"
    return never_stored(response)
