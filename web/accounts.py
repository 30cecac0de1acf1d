"""People on their own on the website: the account adapter django-allauth signs people up through (it makes their
profile and player), the profile page and "My page". The sign-in, sign-up, email and password pages themselves are
allauth's (config.urls mounts them under /accounts/; the templates in web/templates/allauth dress them as the site)."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.models import Language
from league.selectors.accounts import email_unverified, my_page
from league.services.accounts import AccountError, ensure_person, update_profile
from league.services.names import NameRefused, checked_name
from runtime.throttling import WriteLimit, rate_limited


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        """A username is also the new player's name: refuse one the name rule refuses (league.services.names: one a
        player, a bot say, has or one that looks like it, or a house bot's)."""
        username = super().clean_username(username, shallow=shallow)
        if not shallow:
            try:
                checked_name(username)
            except NameRefused as e:
                raise forms.ValidationError(str(e)) from None
        return username

    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=commit)
        if commit:
            ensure_person(user, name=user.get_username())
        return user


class ProfileForm(forms.Form):
    display_name = forms.CharField(label=gettext_lazy("Display name"), max_length=100,
                                   help_text=gettext_lazy("Your name at the tables and in standings."))
    language = forms.ChoiceField(label=gettext_lazy("Language"), choices=Language.choices, required=False)
    email_notifications = forms.BooleanField(
        label=gettext_lazy("Email me about my matches and tournaments"), required=False)


@login_required
@rate_limited(WriteLimit, what="changes")
def profile(request):
    profile, player = ensure_person(request.user)
    initial = {"display_name": player.name if player else request.user.get_username(),
               "language": profile.language, "email_notifications": profile.email_notifications}
    form = ProfileForm(request.POST or None, initial=initial)
    if player is None:  # a bot's account: it has no display name of its own to change here
        form.fields["display_name"].disabled = True
    if request.method == "POST" and form.is_valid():
        try:
            update_profile(user=request.user,
                           display_name=form.cleaned_data["display_name"] if player else None,
                           language=form.cleaned_data["language"],
                           email_notifications=form.cleaned_data["email_notifications"])
        except AccountError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("Your profile is saved."))
            return redirect("web:profile")
    return render(request, "web/profile.html", {"form": form, "player": player,
                                                "unverified": email_unverified(request.user)})


@login_required
def me(request):
    ensure_person(request.user)
    return render(request, "web/me.html", {"page": my_page(request.user),
                                           "unverified": email_unverified(request.user)})
