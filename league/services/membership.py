"""Club membership by a player's own request, a person's or a bot's (by its owner or its own token) alike: an open
club (Club.membership "open") takes them at once; a club "on request" records a MembershipRequest that one of its
organisers accepts (they become a member) or declines. The club's organisers add a player at once (add_member).
Members leave when they like. Who may do each is league.permissions' (the caller checks); these only change the
tables."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..events import emit
from ..models import Club, Membership, MembershipRequest, Player, RequestStatus


class MembershipError(ValueError):
    """A membership change the club's state does not allow (already a member, no such pending request)."""


@dataclass
class JoinOutcome:
    joined: bool  # a member now
    request: MembershipRequest | None = None  # the pending request, for a club on request


@transaction.atomic
def ask_to_join(*, club: Club, player: Player) -> JoinOutcome:
    """Join an open club at once, or ask to join one on request (asking twice keeps the one pending request).
    MembershipError when the player is a member already."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    if player.clubs.filter(pk=club.pk).exists():
        raise MembershipError(_("%(player)s is already a member of %(club)s.") % {"player": player.name,
                                                                                 "club": club.name})
    if club.membership == Membership.OPEN:
        player.clubs.add(club)
        return JoinOutcome(joined=True)
    pending = MembershipRequest.objects.filter(club=club, player=player, status=RequestStatus.PENDING).first()
    if pending is None:
        try:
            with transaction.atomic():
                pending = MembershipRequest.objects.create(club=club, player=player)
        except IntegrityError:  # a double submit: the other one made it
            pending = MembershipRequest.objects.get(club=club, player=player, status=RequestStatus.PENDING)
        else:
            emit("membership.requested", club_id=club.pk, player_id=player.pk, request_id=pending.pk)
    return JoinOutcome(joined=False, request=pending)


@transaction.atomic
def add_member(*, club: Club, player: Player, admitted_by=None) -> JoinOutcome:
    """The one way the API and the website put any player, person or bot, in a club: at once when `admitted_by`, one
    of the club's organisers, adds it (league.permissions.admitted_at_once; a pending request of the player's is
    then accepted by them); otherwise by the club's membership policy (ask_to_join). MembershipError when the player
    asks while a member already."""
    if admitted_by is None:
        return ask_to_join(club=club, player=player)
    Club.objects.select_for_update().get(pk=club.pk)  # one change of the club's members at a time, as ask_to_join
    player.clubs.add(club)
    pending = MembershipRequest.objects.filter(club=club, player=player, status=RequestStatus.PENDING).first()
    if pending is not None:
        decide_request(request_id=pending.pk, club=club, accept=True, by=admitted_by)
    return JoinOutcome(joined=True)


@transaction.atomic
def decide_request(*, request_id: int, club: Club, accept: bool, by) -> MembershipRequest:
    """An organiser's answer to a pending request of `club` (MembershipError when there is no such pending request:
    another organiser answered first, or the person withdrew it)."""
    req = (MembershipRequest.objects.select_for_update().select_related("player", "club")
           .filter(pk=request_id, club=club).first())
    if req is None or req.status != RequestStatus.PENDING:
        raise MembershipError(_("There is no such pending request to join %(club)s.") % {"club": club.name})
    req.status = RequestStatus.ACCEPTED if accept else RequestStatus.DECLINED
    req.decided_at = timezone.now()
    req.decided_by = by
    req.save(update_fields=["status", "decided_at", "decided_by"])
    if accept:
        req.player.clubs.add(club)
    emit("membership.answered", club_id=club.pk, player_id=req.player_id, request_id=req.pk, accepted=accept)
    return req


@transaction.atomic
def leave_club(*, club: Club, player: Player) -> None:
    """Stop being a member (or withdraw a pending request). The player's results stay; their tournament entries
    and ladder places are not touched (they leave those themselves). MembershipError when neither applies."""
    withdrawn = MembershipRequest.objects.filter(club=club, player=player, status=RequestStatus.PENDING).update(
        status=RequestStatus.WITHDRAWN, decided_at=timezone.now())
    if player.clubs.filter(pk=club.pk).exists():
        player.clubs.remove(club)
    elif not withdrawn:
        raise MembershipError(_("%(player)s is not a member of %(club)s.") % {"player": player.name,
                                                                             "club": club.name})


@transaction.atomic
def set_membership_policy(*, club: Club, membership: str) -> Club:
    """An organiser's choice of how people join (Club.membership). Requests already pending stay to be answered.
    MembershipError for a policy that is not one of Membership's."""
    if membership not in Membership.values:
        raise MembershipError(_("Membership is one of: %(choices)s.") % {"choices": ", ".join(Membership.values)})
    Club.objects.filter(pk=club.pk).update(membership=membership)
    club.membership = membership
    return club


@transaction.atomic
def remove_member(*, club: Club, player: Player) -> None:
    """An organiser takes a member out of the club (as if they had left: their results stay, their entries and
    ladder places are theirs to leave). A person may ask to join again. MembershipError when they are no member."""
    if not player.clubs.filter(pk=club.pk).exists():
        raise MembershipError(_("%(player)s is not a member of %(club)s.") % {"player": player.name,
                                                                             "club": club.name})
    player.clubs.remove(club)
