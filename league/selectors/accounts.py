"""Reads about one account: its person player, its profile, whether it may take part yet, and what "My page" shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from allauth.account.models import EmailAddress
from django.db.models import Case, Exists, IntegerField, OuterRef, Prefetch, Q, QuerySet, Value, When

from ..models import (
    Club,
    LadderEntry,
    Match,
    MatchSeat,
    MembershipRequest,
    Player,
    Profile,
    RequestStatus,
    RoundStatus,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentStatus,
)
from ..models.match import ENDED
from ..models.player import EXTERNAL_BOT


def person_player(user) -> Player | None:
    """The account's own player as a person (not a bot), or None (not signed in, a bot's account, or an account
    made before sign-up existed that has not needed one yet: league.services.accounts.ensure_person makes it)."""
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user, bot_kind="").order_by("pk").first()


def email_verified(user) -> bool:
    """The account has confirmed one of its email addresses (the link allauth emails)."""
    return EmailAddress.objects.filter(user_id=user.pk, verified=True).exists()


def made_by_administrator(user) -> bool:
    """An administrator made the account (Profile.made_by_administrator): createsuperuser, the admin, a command."""
    return Profile.objects.filter(user_id=user.pk, made_by_administrator=True).exists()


def verified(user) -> bool:
    """Whether the account takes part as a verified person (joins clubs, enters competitions, makes bots, sits at
    rated tables). A positive fact, never the absence of one: a confirmed email address, or the administrator's mark.
    Having no address at all proves nothing (an unverified account could remove its only one).

    An external bot's own account (signed in with its token) takes part on its owner's verification; a bot with no
    owner was registered by a club's organisers or a command and takes part as theirs."""
    if user is None or not user.is_authenticated:
        return False
    bot = Player.objects.filter(user_id=user.pk, bot_kind=EXTERNAL_BOT).select_related("owner").first()
    if bot is not None:
        if bot.owner is None:
            return True
        user = bot.owner
    return email_verified(user) or made_by_administrator(user)


def has_confirmed_email(user, email: str) -> bool:
    """Whether the account has confirmed it holds this address (allauth's confirmation email), in any case."""
    return EmailAddress.objects.filter(user=user, email__iexact=email, verified=True).exists()


@dataclass
class NextTable:
    """Where the person plays next in one tournament: the match of a seated round awaiting them, or nothing yet."""

    tournament: Tournament
    match: Match | None = None
    round_index: int | None = None  # the round seated, counted from 1
    expected: str = ""  # when nothing is seated: what seats the next round (human words, translated by the caller)


@dataclass
class MyPage:
    player: Player | None
    live: list[Match] = field(default_factory=list)  # not ended, the ones awaiting my decision first
    recent: list[Match] = field(default_factory=list)  # ended, latest first
    next_tables: list[NextTable] = field(default_factory=list)
    clubs: list[Club] = field(default_factory=list)
    requests: list[MembershipRequest] = field(default_factory=list)  # pending ones
    tournaments: list[TournamentEntry] = field(default_factory=list)
    ladders: list[LadderEntry] = field(default_factory=list)
    organised: list[Club] = field(default_factory=list)  # the clubs the account organises (ClubAdmin)


def _with_seats(queryset):
    return queryset.select_related("tournament_round__tournament", "ladder").prefetch_related(
        Prefetch("match_seats", queryset=MatchSeat.objects.select_related("player").order_by("seat")))


def my_matches(player: Player, *, recent: int = 20) -> tuple[list[Match], list[Match]]:
    """The player's matches in play (those awaiting their decision first, then the newest) and their latest ended
    ones."""
    mine = Match.objects.filter(match_seats__player=player)
    live = (_with_seats(mine.exclude(status__in=ENDED))
            .annotate(mine_to_play=Case(When(match_seats__player=player, match_seats__awaiting=True, then=Value(0)),
                                        default=Value(1), output_field=IntegerField()))
            .order_by("mine_to_play", "-created_at").distinct())
    # A match is annotated once per seat joined; keep each once, in the order found.
    seen, live_list = set(), []
    for m in live:
        if m.pk not in seen:
            seen.add(m.pk)
            live_list.append(m)
    ended = list(_with_seats(mine.filter(status__in=ENDED)).order_by("-finished_at", "-pk").distinct()[:recent])
    return live_list, ended


def next_tables(player: Player, entries: list[TournamentEntry]) -> list[NextTable]:
    """For each tournament the player is in and that is not over: the table of its latest seated round that is
    theirs and not ended, or when none what will seat them next."""
    out = []
    for entry in entries:
        t = entry.tournament
        if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED) or not entry.active:
            continue
        rnd = (TournamentRound.objects.filter(tournament=t).exclude(status=RoundStatus.CLOSED)
               .order_by("-index").first()) if t.status == TournamentStatus.RUNNING else None
        match = None
        if rnd is not None:
            match = (_with_seats(Match.objects.filter(tournament_round=rnd, match_seats__player=player))
                     .exclude(status__in=ENDED).first())
        if rnd is not None and match is not None:
            out.append(NextTable(tournament=t, match=match, round_index=rnd.index))
            continue
        if t.status == TournamentStatus.REGISTERING:
            expected = "start"
        elif t.auto_advance:
            expected = "round_closes"
        else:
            expected = "organiser"
        out.append(NextTable(tournament=t, round_index=rnd.index if rnd else None, expected=expected))
    return out


def my_page(user) -> MyPage:
    player = person_player(user)
    if player is None:
        return MyPage(player=None)
    live, recent = my_matches(player)
    entries = list(TournamentEntry.objects.filter(player=player).select_related("tournament__club")
                   .order_by("-tournament__created_at"))
    return MyPage(
        player=player, live=live, recent=recent, next_tables=next_tables(player, entries),
        clubs=list(player.clubs.order_by("name")),
        requests=list(MembershipRequest.objects.filter(player=player, status=RequestStatus.PENDING)
                      .select_related("club")),
        tournaments=entries,
        ladders=list(LadderEntry.objects.filter(player=player, active=True).select_related("ladder")
                     .order_by("ladder__name")),
        organised=list(Club.objects.filter(admins__user=user).order_by("name")),
    )


def open_for_self_entry(tournament: Tournament, now: datetime) -> bool:
    """Players may enter the tournament on their own side now (people, and bots by their owners or their own
    tokens), and people leave by removing their entry: it has not started, no round of it is seated (a round seated
    before it starts has its tables: an entry then is a late one, the organisers'), and its registration has not
    closed."""
    return (tournament.status == TournamentStatus.REGISTERING
            and (tournament.registration_closes_at is None or now < tournament.registration_closes_at)
            and not TournamentRound.objects.filter(tournament=tournament).exists())


def open_for_self_entry_q(now: datetime) -> Q:
    """open_for_self_entry as a filter on tournaments."""
    return Q(Q(status=TournamentStatus.REGISTERING),
             Q(registration_closes_at__isnull=True) | Q(registration_closes_at__gt=now),
             ~Exists(TournamentRound.objects.filter(tournament=OuterRef("pk"))))



def _may_become_person(user) -> bool:
    """A signed-in account without a person player yet that gets one when it first takes part (one made before
    sign-up existed); a bot's account never does."""
    return user.is_authenticated and not Player.objects.filter(user=user).exclude(bot_kind="").exists()


def my_membership(user, club: Club) -> str:
    """The signed-in person's standing in the club: "member", "pending" (asked, not answered), "none", or "" when
    nobody (or a bot's account) is signed in."""
    player = person_player(user)
    if player is None:
        return "none" if _may_become_person(user) else ""
    if player.clubs.filter(pk=club.pk).exists():
        return "member"
    if MembershipRequest.objects.filter(club=club, player=player, status=RequestStatus.PENDING).exists():
        return "pending"
    return "none"


def pending_requests(club: Club) -> list[MembershipRequest]:
    return list(MembershipRequest.objects.filter(club=club, status=RequestStatus.PENDING).select_related("player"))


def requests_of(club: Club, players: QuerySet[Player]) -> QuerySet[MembershipRequest]:
    """The players' requests to join the club (pending or answered), newest first."""
    return (MembershipRequest.objects.filter(club=club, player__in=players).select_related("player")
            .order_by("-created_at", "-pk"))


def players_acted_for(user) -> QuerySet[Player]:
    """The players the account acts for (Player.acts_for): its own (a person's, or a bot's own account's) and the
    external bots it owns. None when nobody is signed in."""
    if user is None or not user.is_authenticated:
        return Player.objects.none()
    return Player.objects.filter(Q(user=user) | Q(owner=user, bot_kind=EXTERNAL_BOT))


def my_entry(user, tournament: Tournament) -> TournamentEntry | None:
    player = person_player(user)
    return None if player is None else TournamentEntry.objects.filter(tournament=tournament, player=player).first()


def in_ladder(user, ladder) -> bool | None:
    """Whether the signed-in person is in the ladder's pool (None: nobody, or a bot's account, signed in)."""
    player = person_player(user)
    if player is None:
        return False if _may_become_person(user) else None
    return LadderEntry.objects.filter(ladder=ladder, player=player, active=True).exists()
