"""Starting a club on the website (any verified person, who then organises it), and running it, for its organisers:
its members (since when, taking one out) and the requests to join; who organises it (add by username, invite by
email, remove; the invitations still open); its details and how people join. And the page an invitation's link
opens, where the invited person accepts it while signed in.

Each page is a thin layer over league.services (clubs, membership, organisers) and league.selectors.clubs; who may
is league.permissions (organises, refusal_to_found_club). Every change is a POST from a button or a form
(CSRF-protected); a refusal comes back as a message on the page, a visitor who does not organise the club gets 403
and changes nothing."""

from __future__ import annotations

import functools

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from league.models import Club, ClubAdmin, InvitationStatus, Membership
from league.models.club import (
    CLUB_DESCRIPTION_MAX_LENGTH,
    CLUB_LOCATION_MAX_LENGTH,
    CLUB_NAME_MAX_LENGTH,
    CLUB_WEBSITE_MAX_LENGTH,
)
from league.permissions import organises, refusal_to_found_club
from league.selectors.accounts import pending_requests
from league.selectors.clubs import clubs, invitation_for_token, members_of, open_invitations, organisers_of
from league.selectors.players import player as player_by_id
from league.services.clubs import ClubDetailsRefused, found_club, update_club_details
from league.services.membership import MembershipError, remove_member, set_membership_policy
from league.services.organisers import (
    MAX_OPEN_INVITATIONS,
    OrganiserError,
    accept_invitation,
    add_organiser,
    invitation_closed,
    invite_organiser,
    refusal_to_accept,
    remove_organiser,
    revoke_invitation,
)
from runtime.throttling import WriteLimit, rate_limited

from .refusals import refused_page


def _organisers_only(view):
    """The club (by `pk`) for its organisers and staff; 403 for anyone else signed in, sign-in for a visitor."""

    @functools.wraps(view)
    def wrapped(request, pk: int, *args, **kwargs):
        club = get_object_or_404(clubs(), pk=pk)
        if not organises(request.user, club.pk):
            return render(request, "web/error.html", {"message": _("Only the club's organisers run the club.")},
                          status=403)
        return view(request, club, *args, **kwargs)

    return login_required(rate_limited(WriteLimit, what="changes")(wrapped))


def _change(view):
    return require_POST(_organisers_only(view))


# ---- members and requests ------------------------------------------------------------------------------------------

@_organisers_only
def members(request, club: Club):
    return render(request, "web/club_members.html", {
        "club": club, "members": list(members_of(club)), "requests": pending_requests(club),
    })


@_change
def member_remove(request, club: Club, player_id: int):
    player = player_by_id(player_id)
    if player is None:
        messages.error(request, _("There is no such player."))
        return redirect("web:club-members", pk=club.pk)
    try:
        remove_member(club=club, player=player)
    except MembershipError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("%(player)s is no longer a member of %(club)s.")
                         % {"player": player.name, "club": club.name})
    return redirect("web:club-members", pk=club.pk)


# ---- organisers and invitations ------------------------------------------------------------------------------------

class AddOrganiserForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150,
                               help_text=gettext_lazy("The account's username: they organise the club at once."))


class InviteForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("Email address"), max_length=254)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        days = settings.DIAMONDS_ORGANISER_INVITATION_DAYS
        self.fields["email"].help_text = ngettext(
            "We email them a link that works once, for %(days)d day. They accept it signed in with an account that "
            "has confirmed this address (signing up first if they have none).",
            "We email them a link that works once, for %(days)d days. They accept it signed in with an account that "
            "has confirmed this address (signing up first if they have none).", days) % {"days": days}


def _organisers_page(request, club: Club, *, add_form=None, invite_form=None, status: int = 200):
    admins = list(organisers_of(club))
    return render(request, "web/club_organisers.html", {
        "club": club, "organisers": admins, "last": len(admins) == 1 and not request.user.is_staff,
        "invitations": open_invitations(club), "max_invitations": MAX_OPEN_INVITATIONS,
        "add_form": add_form or AddOrganiserForm(auto_id="add_%s"),
        "invite_form": invite_form or InviteForm(auto_id="invite_%s"),
    }, status=status)


@_organisers_only
def organisers(request, club: Club):
    return _organisers_page(request, club)


@_change
def organiser_add(request, club: Club):
    form = AddOrganiserForm(request.POST, auto_id="add_%s")
    if not form.is_valid():
        return _organisers_page(request, club, add_form=form, status=400)
    try:
        admin, new = add_organiser(club=club, username=form.cleaned_data["username"])
    except OrganiserError as e:
        form.add_error("username", str(e))
        return _organisers_page(request, club, add_form=form, status=400)
    name = admin.user.get_username()
    if new:
        messages.success(request, _("%(name)s organises %(club)s now.") % {"name": name, "club": club.name})
    else:
        messages.info(request, _("%(name)s organises %(club)s already.") % {"name": name, "club": club.name})
    return redirect("web:club-organisers", pk=club.pk)


@_change
def organiser_remove(request, club: Club, user_id: int):
    admin = ClubAdmin.objects.filter(club=club, user_id=user_id).select_related("user").first()
    if admin is None:
        messages.error(request, _("That account does not organise the club."))
        return redirect("web:club-organisers", pk=club.pk)
    try:
        remove_organiser(club=club, user=admin.user, by=request.user)
    except OrganiserError as e:
        messages.error(request, str(e))
        return redirect("web:club-organisers", pk=club.pk)
    if admin.user_id == request.user.pk:
        messages.success(request, _("You no longer organise %(club)s.") % {"club": club.name})
        return redirect("web:club", pk=club.pk)
    messages.success(request, _("%(name)s no longer organises %(club)s.")
                     % {"name": admin.user.get_username(), "club": club.name})
    return redirect("web:club-organisers", pk=club.pk)


@_change
def invitation_send(request, club: Club):
    form = InviteForm(request.POST, auto_id="invite_%s")
    if not form.is_valid():
        return _organisers_page(request, club, invite_form=form, status=400)
    try:
        invitation = invite_organiser(club=club, email=form.cleaned_data["email"], by=request.user,
                                      site_url=request.build_absolute_uri("/"))
    except OrganiserError as e:
        form.add_error("email", str(e))
        return _organisers_page(request, club, invite_form=form, status=400)
    messages.success(request, _("The invitation is sent to %(email)s.") % {"email": invitation.email})
    return redirect("web:club-organisers", pk=club.pk)


@_change
def invitation_revoke(request, club: Club, invitation_id: int):
    try:
        invitation = revoke_invitation(club=club, invitation_id=invitation_id)
    except OrganiserError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("The invitation to %(email)s is withdrawn: its link no longer works.")
                         % {"email": invitation.email})
    return redirect("web:club-organisers", pk=club.pk)


# ---- the club's details ---------------------------------------------------------------------------------------------

class ClubDetailsForm(forms.Form):
    # The bounds here are the browser's first check; league.services.clubs checks again what is stored (a name once
    # normalised, a description once its invisible characters are out).
    name = forms.CharField(label=gettext_lazy("Name"), max_length=CLUB_NAME_MAX_LENGTH, strip=False)
    description = forms.CharField(
        label=gettext_lazy("About the club"), required=False, max_length=CLUB_DESCRIPTION_MAX_LENGTH, strip=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=gettext_lazy("A few lines for people who find the club: plain text, shown on its page."))
    location = forms.CharField(label=gettext_lazy("Where and when it meets"), required=False,
                               max_length=CLUB_LOCATION_MAX_LENGTH, strip=False,
                               help_text=gettext_lazy("For example: Café du Port, Thursdays from 8 pm."))
    website = forms.CharField(label=gettext_lazy("Website"), required=False, max_length=CLUB_WEBSITE_MAX_LENGTH,
                              help_text=gettext_lazy("The club's own site, if it has one (https://...)."),
                              widget=forms.TextInput(attrs={"inputmode": "url", "autocomplete": "url"}))
    membership = forms.ChoiceField(label=gettext_lazy("How people join"), choices=[
        (Membership.OPEN, gettext_lazy("at once (open)")),
        (Membership.REQUEST, gettext_lazy("when an organiser accepts (on request)"))])


@_organisers_only
def details(request, club: Club):
    initial = {"name": club.name, "description": club.description, "location": club.location,
               "website": club.website, "membership": club.membership}
    form = ClubDetailsForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                club = update_club_details(club=club, changes={k: data[k] for k in
                                                               ("name", "description", "location", "website")})
                set_membership_policy(club=club, membership=data["membership"])
            except ClubDetailsRefused as e:
                for field, message in e.errors.items():
                    form.add_error(field if field in form.fields else None, message)
            except MembershipError as e:
                form.add_error("membership", str(e))
            else:
                messages.success(request, _("The club's details are saved."))
                return redirect("web:club", pk=club.pk)
        status = 400
    return render(request, "web/club_details.html", {"club": club, "form": form}, status=status)


# ---- starting a club ------------------------------------------------------------------------------------------------

@login_required
@rate_limited(WriteLimit, what="changes")
def club_new(request):
    """A verified person starts a club: its name, a few lines about it, where it meets, how people join. They
    organise it from then on (league.services.clubs.found_club)."""
    refusal = refusal_to_found_club(request.user)
    if refusal:
        return refused_page(request, refusal)
    form = ClubDetailsForm(request.POST or None, initial={"membership": Membership.OPEN})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                club = found_club(user=request.user, name=data["name"], membership=data["membership"],
                                  details={k: data[k] for k in ("description", "location", "website")})
            except ClubDetailsRefused as e:
                for field, message in e.errors.items():
                    form.add_error(field if field in form.fields else None, message)
            else:
                messages.success(request, _("%(club)s is started and you organise it: add its players to the "
                                            "roster, then create its first tournament.") % {"club": club.name})
                return redirect("web:club", pk=club.pk)
        status = 400
    return render(request, "web/club_new.html", {"form": form}, status=status)


# ---- accepting an invitation ----------------------------------------------------------------------------------------

def invitation(request, token: str):
    """What the invitation's link opens. Opening it changes nothing (mail scanners follow links): the invited
    person accepts with the button, signed in with an account that has confirmed the address it was sent to."""
    if request.method == "POST":
        return _accept(request, token)
    found = invitation_for_token(token)
    user = request.user if request.user.is_authenticated else None
    closed = invitation_closed(found, accepted_by=user)
    if closed is not None:
        return render(request, "web/organiser_invitation.html", {"closed": closed},
                      status=404 if found is None else 410)
    assert found is not None  # invitation_closed refuses a missing one
    return render(request, "web/organiser_invitation.html", {
        "invitation": found, "refusal": refusal_to_accept(found, user) if user else None,
        "accepted": found.status == InvitationStatus.ACCEPTED,
    })


@login_required
@rate_limited(WriteLimit, what="changes")
def _accept(request, token: str):
    try:
        accepted = accept_invitation(token=token, user=request.user)
    except OrganiserError as e:
        messages.error(request, str(e))
        return redirect("web:organiser-invitation", token=token)
    messages.success(request, _("You organise %(club)s now.") % {"club": accepted.club.name})
    return redirect("web:club", pk=accepted.club_id)
