"""A player: a person (a user account), an engine bot (a bot kind with its settings, played by the workers), an
external bot (a program that plays through the API with its user account's token, bot_kind "external"), or a guest:
a person without an account on one club's roster (`guest_club`), entered by its organisers (league.services.roster)
and reaching their table through a private link; they never sign in."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from ..names import name_key

# The bot_kind of a bot that is a program outside the league: it has a user account (for its API token) and decides
# through the API like a person; the workers never play it.
EXTERNAL_BOT = "external"

# The longest player name: the name's column, and what a display name may be (league.services.names).
NAME_MAX_LENGTH = 100
# A name's look-alike key (league.names.name_key) can be longer than the name: a character's prototype may be two.
NAME_KEY_MAX_LENGTH = 4 * NAME_MAX_LENGTH


class Player(models.Model):
    name = models.CharField(max_length=NAME_MAX_LENGTH, unique=True,
                            help_text="The name shown at the table and in records.")
    # The key names that look alike share (set on every save): a new name whose key another player has is refused.
    # Unique: the check (league.services.names) reads before it writes, so two look-alike names requested at the
    # same moment would both pass it; the constraint refuses the second (migration 0022 renamed old look-alikes).
    name_key = models.CharField(max_length=NAME_KEY_MAX_LENGTH, unique=True, editable=False,
                                help_text="The name's look-alike key: its confusable skeleton, case-folded.")
    # Which of the house's bots this is (league.services.players.house_bots), e.g. "random-5": house bots are found
    # by this, never by their name, which a person could otherwise have taken first.
    house_slot = models.CharField(max_length=60, null=True, blank=True, unique=True, editable=False,
                                  help_text="For a house bot that fills lobby tables: its kind and number.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="players"
    )
    bot_kind = models.CharField(
        max_length=40, blank=True, help_text="For a bot: the engine bot's name (random, greedy, search, ...)."
    )
    # An external bot's author: the account that created it, who may enter it in ladders and take it out (the bot's
    # own account, `user`, only signs in with its token). Null for people, engine bots and bots made by a command.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="bots",
        help_text="For an external bot: the account that created it.",
    )
    bot_settings = models.JSONField(default=dict, blank=True, help_text="For a bot: keyword settings for make_bot.")
    # Through ClubMember, which keeps when the player joined (player.clubs.add() dates it now).
    clubs = models.ManyToManyField("league.Club", blank=True, related_name="players", through="league.ClubMember")
    # A guest's club: the roster they are on (they are also its member). Null for everyone else.
    guest_club = models.ForeignKey("league.Club", null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="guests", help_text="For a guest (no account): the club whose roster "
                                                                    "keeps them.")
    # Pausing (league.services.bot_pausing): a bot that missed a turn deadline or forfeited in
    # DIAMONDS_BOT_PAUSE_AFTER finished matches in a row is paused until its owner resumes it.
    missed_in_row = models.PositiveIntegerField(
        default=0, help_text="Finished matches in a row in which this bot missed a turn deadline or forfeited.")
    paused_at = models.DateTimeField(null=True, blank=True, help_text="When the bot was paused; null while active.")
    paused_reason = models.CharField(max_length=300, blank=True, help_text="Why the bot was paused.")
    # Presence (league.services.presence, league.selectors.presence): when an external bot last asked the API for its
    # turns or made a decision, written at most about once a minute (not on every request). Ladders seat it only
    # while it is there.
    last_seen_at = models.DateTimeField(null=True, blank=True,
                                        help_text="For an external bot: when it last polled or decided (to a minute).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # A player is exactly one of four: a person (a user, no bot kind), an external bot (a user and the
            # kind "external"), an engine bot (a bot kind and no user) or a guest (no user, no bot kind, a club's
            # roster); only a guest has a guest club.
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot_kind__in=["", EXTERNAL_BOT]) & Q(guest_club__isnull=True))
                | (Q(user__isnull=True) & ~Q(bot_kind__in=["", EXTERNAL_BOT]) & Q(guest_club__isnull=True))
                | (Q(user__isnull=True) & Q(bot_kind="") & Q(guest_club__isnull=False)),
                name="player_is_person_or_bot",
            ),
        ]

    def save(self, *args, **kwargs):
        self.name_key = name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_kind)

    @property
    def is_engine_bot(self) -> bool:
        """A bot the workers play with the engine's bots (not an external one)."""
        return bool(self.bot_kind) and self.bot_kind != EXTERNAL_BOT

    @property
    def is_guest(self) -> bool:
        """A person without an account, on a club's roster: entered by its organisers, never signing in."""
        return self.guest_club_id is not None

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None

    @property
    def is_external_bot(self) -> bool:
        return self.bot_kind == EXTERNAL_BOT

    def acts_for(self, user) -> bool:
        """Whether `user` may enter this player in competitions and take it out: its own account (a person, or a
        bot with its token) or, for an external bot, its owner. Never anyone else (organisers aside, checked
        by the caller)."""
        if user is None or not user.is_authenticated:
            return False
        return user.pk in (self.user_id, self.owner_id if self.is_external_bot else None)

    def __str__(self) -> str:
        return f"{self.name} ({self.bot_kind})" if self.bot_kind else self.name
