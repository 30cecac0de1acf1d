"""My bots: a bot author's page (/bots/) to create external bots, renew or revoke their API tokens, resume them when
paused, ask for them to join clubs (or take them out), and enter them in ladders and open tournaments or take them
out. A bot joins and enters by the rules a person does: a club's policy, a competition's membership rule, a
tournament's self-entry window.

Every write calls the same service and the same rule (league.permissions) as the API, so the website allows exactly
what the API does. A new token is shown once: it goes from the write to the next page through the session, which
forgets it as it is shown.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.validators import RegexValidator
from django.db import IntegrityError
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from league.models import Ladder, Player
from league.permissions import (
    admitted_at_once,
    keeps_to_self_entry_window,
    may_act_for,
    members_only,
    refusal_to_add_member,
    refusal_to_enter,
    refusal_to_leave_club,
    refusal_to_manage_bot,
    refusal_to_take_part,
)
from league.selectors import clubs as club_reads
from league.selectors import competitions
from league.selectors import players as player_reads
from league.selectors.bots import bots_of, clubs_to_join, ladders_open_to, token_holders, tournaments_open_to
from league.selectors.presence import presence_of
from league.services.bot_pausing import NotPaused, resume_bot
from league.services.competition import TournamentError
from league.services.entry import register_entrants
from league.services.ladders import join_ladder, leave_ladder
from league.services.membership import MembershipError, add_member, leave_club
from league.services.names import NameRefused
from league.services.players import create_external_bot, regenerate_bot_token, revoke_bot_token
from league.services.registration import take_out
from runtime.secrecy import never_stored
from runtime.throttling import WriteLimit, rate_limited

NEW_TOKEN = "bots.new_token"  # the session key that carries a new token to the one page that shows it


class BotForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"), min_length=2, max_length=60,
        help_text=gettext_lazy("Letters, digits and . @ + - _ (it names the bot's account too)."),
        validators=[RegexValidator(r"^[\w.@+-]+\Z", gettext_lazy("Use letters, digits and . @ + - _ only."))])


@login_required
def bots(request, form: BotForm | None = None):
    mine = list(bots_of(request.user))
    with_token = token_holders(mine)
    rows = [{"bot": b, "has_token": b.pk in with_token, "ladders": ladders_open_to(b)[:100],
             "tournaments": tournaments_open_to(b)[:100], "clubs_to_join": clubs_to_join(b)[:100],
             "presence": presence_of(b)} for b in mine]
    new = request.session.pop(NEW_TOKEN, None)
    new_token = None
    if new:
        # One of the author's bots, or a club's bot its organiser renewed the token of (not in the list above).
        bot = player_reads.player(new.get("player_id"))
        if bot is not None and refusal_to_manage_bot(request.user, bot) is None:
            new_token = {"bot": bot, "key": new["key"]}
    response = render(request, "web/bots.html", {"rows": rows, "form": form or BotForm(), "new_token": new_token},
                      status=400 if form is not None else 200)
    return never_stored(response) if new_token else response  # a token is shown once: no copy in any cache


def _show_once(request, player: Player, key: str):
    request.session[NEW_TOKEN] = {"player_id": player.pk, "key": key}
    return redirect("web:bots")


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def bot_create(request):
    form = BotForm(request.POST)
    if not form.is_valid():
        return bots(request, form)
    if player_reads.is_bot_account(request.user):
        # as the API: a bot's account does not breed bots
        return render(request, "web/error.html", {"message": _("A bot's account cannot create bots.")}, status=403)
    refusal = refusal_to_take_part(request.user)  # as the API: a bot acts for a verified person
    if refusal:
        return _refused(request, refusal)
    name = form.cleaned_data["name"]
    try:
        bot = create_external_bot(name=name, owner=request.user)
    except NameRefused as e:
        form.add_error("name", f"{_('That name is taken: choose another.')} {e}" if e.taken else str(e))
        return bots(request, form)
    except IntegrityError:
        form.add_error("name", _("That name is taken: choose another."))
        return bots(request, form)
    key = regenerate_bot_token(player=bot)
    messages.success(request, _("%(name)s is ready.") % {"name": bot.name})
    return _show_once(request, bot, key)


def _bot(pk: int) -> Player:
    return get_object_or_404(player_reads.bots(), pk=pk)


def _refused(request, reason: str):
    return render(request, "web/error.html", {"message": reason}, status=403)


def _back(request, default: str):
    """Where the form came from (the bot's page or My bots), never another site."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return HttpResponseRedirect(target)
    return HttpResponseRedirect(default)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def bot_regenerate_token(request, pk: int):
    bot = _bot(pk)
    refusal = refusal_to_manage_bot(request.user, bot)
    if refusal:
        return _refused(request, refusal)
    try:
        key = regenerate_bot_token(player=bot)
    except ValueError as e:
        messages.error(request, str(e))
        return _back(request, reverse("web:bots"))
    messages.success(request, _("%(name)s has a new token: the old one no longer works.") % {"name": bot.name})
    return _show_once(request, bot, key)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def bot_revoke_token(request, pk: int):
    bot = _bot(pk)
    refusal = refusal_to_manage_bot(request.user, bot)
    if refusal:
        return _refused(request, refusal)
    try:
        revoke_bot_token(player=bot)
    except ValueError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("%(name)s's token is revoked: the bot can no longer sign in until you make it "
                                    "a new one.") % {"name": bot.name})
    return _back(request, reverse("web:bots"))


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def bot_resume(request, pk: int):
    bot = _bot(pk)
    refusal = refusal_to_manage_bot(request.user, bot)
    if refusal:
        return _refused(request, refusal)
    try:
        resume_bot(player=bot)
    except NotPaused as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("%(name)s is active again: ladders seat it from the next tick.")
                         % {"name": bot.name})
    return _back(request, reverse("web:player", args=[bot.pk]))


def _competition(request):
    """The ladder or tournament named by the form's `competition` ("ladder:ID" or "tournament:ID"), or None."""
    kind, _sep, pk = request.POST.get("competition", "").partition(":")
    if not pk.isdigit() or len(pk) > 18:
        return None
    find = {"ladder": competitions.ladder, "tournament": competitions.tournament}.get(kind)
    return find(int(pk)) if find else None


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def bot_enter(request, pk: int):
    bot = _bot(pk)
    competition = _competition(request)
    if competition is None:
        messages.error(request, _("Choose a ladder or a tournament to enter."))
        return _back(request, reverse("web:bots"))
    # The API's rules (league.permissions), a person's as a bot's: membership, and a tournament's self-entry window.
    refusal = refusal_to_enter(request.user, competition.club_id, [bot], members_only=members_only(competition))
    if refusal:
        return _refused(request, refusal)
    try:
        if isinstance(competition, Ladder):
            join_ladder(ladder=competition, players=[bot])
        else:
            register_entrants(tournament=competition, players=[bot],
                              self_entry_window=keeps_to_self_entry_window(request.user, competition.club_id))
    except (TournamentError, ValueError) as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("%(bot)s is entered in %(competition)s.")
                         % {"bot": bot.name, "competition": competition.name})
    return _back(request, reverse("web:bots"))


def _club(request):
    pk = request.POST.get("club", "")
    return club_reads.club(int(pk)) if pk.isdigit() and len(pk) <= 18 else None


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def bot_join_club(request, pk: int):
    """Ask for the bot to join a club: the club's policy answers, as it answers a person (the API's members/)."""
    bot = _bot(pk)
    club = _club(request)
    if club is None:
        messages.error(request, _("Choose a club."))
        return _back(request, reverse("web:bots"))
    refusal = refusal_to_add_member(request.user, club.pk, bot)
    if refusal:
        return _refused(request, refusal)
    admitted_by = request.user if admitted_at_once(request.user, club.pk) else None
    try:
        outcome = add_member(club=club, player=bot, admitted_by=admitted_by)
    except MembershipError as e:
        messages.error(request, str(e))
        return _back(request, reverse("web:bots"))
    if outcome.joined:
        messages.success(request, _("%(bot)s is a member of %(club)s.") % {"bot": bot.name, "club": club.name})
    else:
        messages.success(request, _("The request for %(bot)s to join %(club)s is sent: its organisers will answer it.")
                         % {"bot": bot.name, "club": club.name})
    return _back(request, reverse("web:bots"))


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def bot_leave_club(request, pk: int):
    """Take the bot out of a club, or withdraw its request to join (the API's clubs/{id}/leave/ naming it)."""
    bot = _bot(pk)
    club = _club(request)
    if club is None:
        messages.error(request, _("Choose a club."))
        return _back(request, reverse("web:bots"))
    refusal = refusal_to_leave_club(request.user, bot)
    if refusal:
        return _refused(request, refusal)
    try:
        leave_club(club=club, player=bot)
    except MembershipError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("%(bot)s is out of %(club)s.") % {"bot": bot.name, "club": club.name})
    return _back(request, reverse("web:bots"))


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def bot_leave(request, pk: int):
    bot = _bot(pk)
    competition = _competition(request)
    if competition is None:
        messages.error(request, _("Choose a ladder or a tournament to leave."))
        return _back(request, reverse("web:bots"))
    if not may_act_for(request.user, competition.club_id, [bot]):  # the API's rule
        return _refused(request, _("Only the bot's owner or the club's organisers may take it out."))
    if isinstance(competition, Ladder):
        leave_ladder(ladder=competition, player=bot)
    else:
        take_out(tournament=competition, player=bot)
    messages.success(request, _("%(bot)s is out of %(competition)s.")
                     % {"bot": bot.name, "competition": competition.name})
    return _back(request, reverse("web:bots"))
