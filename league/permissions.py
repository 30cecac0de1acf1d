"""Who may do what, decided here for the API (api/) and the website (web/) alike; api/README.md has the matrix.

Clubs are kept apart: an organiser (league.models.ClubAdmin) acts only within their own club, and what they link
(a tournament's season, the players they seat or enter) must be their club's. Site staff organise every club.
A person's account is bound to nothing by anyone else: a person registers their own account, joins a club and
enters a tournament or a ladder by their own request only (there is no invitation to accept yet). Bots, engine or
external, are the club's: its organisers register them, add them and enter them. An author's bot (an external bot
with an owner) in no club is its author's: only its owner (or the bot's own token) asks for it to join one. Seating a
club's match takes its members: a person is one only by their own joining.

One set of rules for people and bots: what a competitor may do on its own side (a person; a bot through its owner or
its own token) is the same whether it is a person or a bot, and the club's organisers' powers are the same whoever
they act for. Club admission (`admitted_at_once`), the members-only rule (`refusal_to_enter`) and a tournament's
self-entry window (`keeps_to_self_entry_window`) depend on who acts, never on whether the player is a person.

Each `refusal_*` returns why the action is refused (None when it is allowed), so the API answers 403 with that
reason and the website shows it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .models import ClubAdmin, Player, Season
from .selectors.accounts import verified


def signed_in(user) -> bool:
    return user is not None and user.is_authenticated


def organises(user, club_id: int | None) -> bool:
    """Whether `user` may organise the club (staff organise every club, and anything without a club)."""
    if not signed_in(user):
        return False
    if user.is_staff:
        return True
    return club_id is not None and ClubAdmin.objects.filter(user=user, club_id=club_id).exists()


def organises_any(user) -> bool:
    return signed_in(user) and (user.is_staff or ClubAdmin.objects.filter(user=user).exists())


def may_create_club(user) -> bool:
    """The API's club creation: site staff's (a person starts one on the website: refusal_to_found_club)."""
    return signed_in(user) and user.is_staff


def refusal_to_found_club(user) -> str | None:
    """Starting a club on the website, and organising it from then on: any verified person (refusal_to_take_part),
    unless they organise DIAMONDS_CLUBS_ORGANISED_MAX clubs already (so one account cannot fill the club list);
    site staff always."""
    if signed_in(user) and user.is_staff:
        return None
    refusal = refusal_to_take_part(user)
    if refusal:
        return refusal
    most = settings.DIAMONDS_CLUBS_ORGANISED_MAX
    if ClubAdmin.objects.filter(user=user).count() >= most:
        return ngettext("You organise %(count)d club already: that is as many as one account starts.",
                        "You organise %(count)d clubs already: that is as many as one account starts.",
                        most) % {"count": most}
    return None


def owns(user, player: Player) -> bool:
    """The player is the account's own: a person's, an external bot's account acting for itself, or the bot's
    owner (Player.acts_for)."""
    return signed_in(user) and player.acts_for(user)


def is_person(player: Player) -> bool:
    return player.user_id is not None and not player.bot_kind


def may_act_for(user, club_id: int | None, players: Iterable[Player]) -> bool:
    """Taking players out of something (a ladder's pool, a tournament's later rounds): their own account, or the
    club's organisers."""
    players = list(players)
    return all(owns(user, p) for p in players) or organises(user, club_id)


def refusal_to_bind_account(user, account) -> str | None:
    """A person player is made on an account by that account only."""
    if not signed_in(user) or account.pk != user.pk:
        return "a person registers their own account: no one else may bind it to a player"
    return None


def refusal_to_add_member(user, club_id: int, player: Player) -> str | None:
    """A player joins a club by its own side's request (a person's own account; a bot's owner or the bot's own token),
    which the club's membership policy answers (`admitted_at_once`); the club's organisers add the club's bots. Its
    own account or owner joins only as a verified person (refusal_to_take_part)."""
    if owns(user, player):
        return refusal_to_take_part(user)
    if is_person(player):
        return _("%(name)s is a person: only they may join a club") % {"name": player.name}
    if not organises(user, club_id):
        return _("only the club's organisers add bots to it")
    # Another club's bot stays that club's: it is added elsewhere by someone who organises one of its clubs.
    clubs = list(player.clubs.values_list("pk", flat=True))
    if clubs and not user.is_staff and not ClubAdmin.objects.filter(user=user, club_id__in=clubs).exists():
        return _("%(name)s is another club's bot: an organiser of that club adds it elsewhere") % {"name": player.name}
    if not clubs and player.owner_id is not None and not user.is_staff:
        # An author's bot in no club is bound to nothing by anyone else, as a person is.
        return _("%(name)s is its author's bot: only its owner asks for it to join a club") % {"name": player.name}
    return None


def refusal_to_leave_club(user, player: Player) -> str | None:
    """Leaving a club, or withdrawing a request to join it: the player's own side, a person's and a bot's alike (its
    owner or its own token)."""
    if owns(user, player):
        return None
    return _("only %(name)s's own account, or its owner for a bot, may take it out of a club") % {"name": player.name}


def admitted_at_once(user, club_id: int) -> bool:
    """Whether a player joins the club at once rather than by the club's membership policy: only when the club's
    organisers add it. Anyone else's joining, a person's or a bot's (by its owner or its own token), goes by the
    policy: an open club takes it at once, a club on request records a request its organisers answer."""
    return organises(user, club_id)


def refusal_to_enter(user, club_id: int | None, players: Iterable[Player], *, members_only: bool = True) -> str | None:
    """Entering players in a tournament or a ladder of the club `club_id` (None: one without a club, staff's): each
    entered by their own side (a person's own account; a bot's owner or its own token) or, for a bot, by the club's
    organisers. What a player's own side enters is a member of the club when the competition is for `members_only`
    (a ladder always; a tournament when Tournament.members_only), a person and a bot alike; what the organisers
    enter is always the club's (its members). A person who signed up takes part once they have confirmed their email
    address, and so does an external bot entered by its owner or its own token (refusal_to_take_part)."""
    for p in players:
        own_side = owns(user, p)
        if not own_side:
            if is_person(p):
                return _("%(name)s is a person: only they may enter themselves") % {"name": p.name}
            if not organises(user, club_id):
                return _("only the club's organisers enter its bots")
        else:
            refusal = refusal_to_take_part(user)
            if refusal:
                return refusal
        if club_id is not None and (members_only or not own_side) and not _member(p, club_id):
            return _("%(name)s is not a member of the club") % {"name": p.name}
    return None


def members_only(competition) -> bool:
    """Whether only the club's members may enter the competition: a ladder's always; a tournament's when it says so
    (Tournament.members_only)."""
    return getattr(competition, "members_only", True)


def keeps_to_self_entry_window(user, club_id: int | None) -> bool:
    """Whether an entry in a tournament of the club keeps to its self-entry window (until registration_closes_at, and
    never once round 1 is seated: league.services.entry). The club's organisers register late entries (a late comer
    at a club evening joins at the next round: league.services.registration) whoever they may enter; anyone else's
    entry keeps to the window, a person's and a bot's (by its owner or its own token) alike."""
    return not organises(user, club_id)


def refusal_to_keep_roster(user, club_id: int | None) -> str | None:
    """The club's roster of guests (people without accounts: league.services.roster), their claim codes and the private
    links of its tournaments' entrants: the club's organisers only."""
    if club_id is None or not organises(user, club_id):
        return _("only the club's organisers keep its roster and its private links")
    return None


def refusal_to_enter_for_club(user, tournament, players: Iterable[Player]) -> str | None:
    """An organiser entering players in their club's tournament (a club evening): the club's roster guests and its
    members, people included: a person is a member only by their own joining, and withdraws themselves when they
    wish. Anyone else, and anyone outside the club, is refused."""
    club_id = tournament.club_id
    if club_id is None or not organises(user, club_id):
        return _("only the club's organisers enter players in its tournaments")
    for p in players:
        if p.is_guest:
            if p.guest_club_id != club_id:
                return _("%(name)s is another club's guest") % {"name": p.name}
        elif not _member(p, club_id):
            return _("%(name)s is not a member of the club") % {"name": p.name}
    return None


def refusal_to_take_part(user) -> str | None:
    """An account that signed up joins clubs, enters competitions, makes bots and sits at rated tables once its email
    address is confirmed (so one person cannot fill a field with throw-away accounts); one an administrator made, at
    once. An external bot's own account takes part on its owner's (league.selectors.accounts.verified)."""
    if not signed_in(user):
        return _("Sign in first.")
    if not verified(user):
        if Player.objects.filter(user_id=user.pk).exclude(bot_kind="").exists():
            return _("This bot's owner has not confirmed their email address yet: a bot takes part for a confirmed "
                     "person.")
        return _("Confirm your email address first: follow the link in the email we sent you (your profile page "
                 "sends another).")
    return None


def refusal_to_seat(user, club_id: int | None, players: Iterable[Player]) -> str | None:
    """Seating players at a new match of the club: its organisers, with the club's members only (a person becomes
    one by joining). A match without a club is staff's."""
    if not organises(user, club_id):
        return _("only the club's organisers (and staff) may do this")
    if club_id is not None:
        outsiders = [p.name for p in players if not _member(p, club_id)]
        if outsiders:
            return _("%(names)s not a member of the club: a match seats its club's members") % {
                "names": ", ".join(outsiders)}
    return None


def refusal_at_rated_table(players: Iterable[Player]) -> str | None:
    """A rated lobby table is for people only: its match moves people's ratings at the game against people. No bot
    sits at one, whoever brings it: a house bot filling an empty seat (league.services.lobby refuses a rated table
    that allows bots), or an external bot (its account sits at no lobby table). Ladders and rated tournaments rate
    everyone they seat, people and bots alike."""
    bots = [p.name for p in players if not is_person(p)]
    if bots:
        return _("A rated table is for people only: %(names)s cannot sit at it.") % {"names": ", ".join(bots)}
    return None


def refusal_to_check_in(user, tournament, player: Player) -> str | None:
    """Checking a player in or out for a tournament's next round: the club's organisers, anyone; the player's own
    account, only where the tournament lets players check themselves in."""
    if organises(user, tournament.club_id):
        return None
    if not owns(user, player):
        return _("only the club's organisers check in someone else")
    if not tournament.self_check_in:
        return _("this tournament's organisers do the check-in")
    return None


def refusal_to_link_season(club_id: int | None, season: Season | None) -> str | None:
    """A tournament counts towards a season of its own club's league only."""
    if season is not None and season.league.club_id != club_id:
        return "the season belongs to another club's league: a tournament links a season of its own club"
    return None


def _member(player: Player, club_id: int) -> bool:
    # The prefetched clubs when the caller loaded them, else one query.
    cache = getattr(player, "_prefetched_objects_cache", {})
    if "clubs" in cache:
        return any(c.pk == club_id for c in cache["clubs"])
    return player.clubs.filter(pk=club_id).exists()


def refusal_to_manage_bot(user, player: Player) -> str | None:
    """Renewing or revoking a bot's token and resuming a paused bot: an external bot's owner; a bot without one
    (engine bots, or external ones a club registered) by the organisers of one of its clubs, or staff. Never the
    bot's own account: a leaked token must not lock its author out."""
    if not player.is_bot:
        return _("only a bot is managed this way")
    if not signed_in(user):
        return _("sign in to manage a bot")
    if player.owner_id is not None:
        return None if user.pk == player.owner_id or user.is_staff else _("only the bot's owner may do this")
    clubs = list(player.clubs.values_list("pk", flat=True))
    if user.is_staff or ClubAdmin.objects.filter(user=user, club_id__in=clubs).exists():
        return None
    return _("only the organisers of the bot's club may do this")
