"""The header's notification badge: its first count (badge.js keeps it current) and how often it asks."""

from django import template
from django.conf import settings
from django.utils.html import format_html
from django.utils.translation import gettext as _

from league.selectors.notifications import unread_count

register = template.Library()


@register.simple_tag
def unread_badge(user):
    count = unread_count(user)
    return format_html('<span class="unread-count" data-badge aria-label="{}"{}>{}</span>',
                       _("%(count)s unread") % {"count": count}, "" if count else " hidden", count)


@register.simple_tag
def badge_poll_seconds():
    return settings.DIAMONDS_BADGE_POLL_SECONDS
