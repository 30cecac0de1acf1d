"""People on their own on the website: the account adapter django-allauth signs people up through (it makes their
profile and player, keeps an account's last confirmed address, lets accounts an administrator made sign in without
one, and keeps sign-up from telling whether an address is registered), the profile page and "My page". The sign-in,
sign-up, email and password pages themselves are allauth's (config.urls mounts them under /accounts/; the templates in
web/templates/allauth dress them as the site)."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage as AllauthEmailVerificationStage
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.hashers import make_password
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.models import Language
from league.selectors.accounts import made_by_administrator, my_page, verified
from league.services.accounts import AccountError, ensure_person, update_profile
from league.services.names import NameRefused, checked_name
from runtime.throttling import WriteLimit, rate_limited

ALLAUTH_EMAIL_VERIFICATION_STAGE = "allauth.account.stages.EmailVerificationStage"
# "Confirmation email sent to <address>" after a sign-up: allauth adds it only when an email went out, and none goes
# out to an address it emailed minutes ago (its pace per address), so after a sign-up with an address in use its
# absence would tell that the address signed up lately. The page a sign-up leads to says an email went out without it.
CONFIRMATION_SENT_MESSAGE = "account/messages/email_confirmation_sent.txt"


class SignupForm(AllauthSignupForm):
    """allauth's sign-up form (the website's and POST /api/v1/auth/signup/'s, through ACCOUNT_FORMS). With an address
    already in use it makes no account and emails the address's owner instead (ACCOUNT_PREVENT_ENUMERATION); it
    then hashes the password all the same, as a new account's is, so the time taken does not tell either."""

    def try_save(self, request):
        if self.account_already_exists:
            make_password(self.cleaned_data.get("password1"))
        return super().try_save(request)


class EmailVerificationStage(AllauthEmailVerificationStage):
    """allauth's sign-in step that holds an account back until its address is confirmed (verification is mandatory),
    except an account an administrator made (Profile.made_by_administrator), which needs no address."""

    def handle(self):
        user = self.login.user
        if user is not None and made_by_administrator(user):
            return None, True
        return super().handle()


class AccountAdapter(DefaultAccountAdapter):
    def add_message(self, request, level, message_template=None, message_context=None, extra_tags="", message=None):
        if message_template == CONFIRMATION_SENT_MESSAGE and (message_context or {}).get("signup"):
            return
        super().add_message(request, level, message_template, message_context, extra_tags, message)

    def get_login_stages(self) -> list[str]:
        return [f"{__name__}.EmailVerificationStage" if stage == ALLAUTH_EMAIL_VERIFICATION_STAGE else stage
                for stage in super().get_login_stages()]

    def can_delete_email(self, email_address) -> bool:
        """An account keeps at least one address (one with none can be neither confirmed nor reset), and once it has
        a confirmed one it keeps a confirmed one, what verifies it (league.selectors.accounts.verified)."""
        if email_address.pk:
            others = EmailAddress.objects.filter(user_id=email_address.user_id).exclude(pk=email_address.pk)
            if not others.exists():
                return False
            if email_address.verified and not others.filter(verified=True).exists():
                return False
        return super().can_delete_email(email_address)

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
    return render(request, "web/profile.html", {"form": form, "player": player, "profile": profile,
                                                "unverified": not verified(request.user)})


@login_required
def me(request):
    ensure_person(request.user)
    return render(request, "web/me.html", {"page": my_page(request.user),
                                           "unverified": not verified(request.user)})
