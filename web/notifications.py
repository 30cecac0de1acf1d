"""The website's "being told" pages: /notifications/ (list, mark read), the header badge's count, /webhooks/.

Thin views: league.selectors.notifications reads (one's own only), league.services.notifications and .webhooks
write. Another account's ids answer 404."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from league.models.webhook import WEBHOOK_EVENTS
from league.selectors.notifications import (
    deliveries_of,
    endpoints_of,
    notification_link,
    notifications_of,
    unread_count,
)
from league.services import notifications, webhooks
from runtime.secrecy import never_stored
from runtime.throttling import WriteLimit, rate_limited


@login_required
def notification_list(request):
    page = Paginator(notifications_of(request.user), 50).get_page(request.GET.get("page"))
    return render(request, "web/notifications.html", {"page": page, "unread": unread_count(request.user)})


@login_required
@require_POST
def notification_read(request, pk: int):
    if not notifications.mark_read(user=request.user, notification_id=pk):
        return render(request, "web/error.html", {"message": _("No such notification.")}, status=404)
    target = notification_link(request.user, pk)
    # "Open" marks it read and follows its link (a path on this site: links are ours, never a user's).
    if request.POST.get("open") and target and target.startswith("/") and not target.startswith("//"):
        return redirect(target)
    return redirect("web:notifications")


@login_required
@require_POST
def notification_read_all(request):
    count = notifications.mark_all_read(user=request.user)
    messages.success(request, _("%(count)s notifications marked read.") % {"count": count})
    return redirect("web:notifications")


@require_GET
@never_cache
def unread_badge(request):
    """The header badge's count, polled by web/static/web/badge.js (0 for someone signed out)."""
    return JsonResponse({"unread": unread_count(request.user)})


class EndpointForm(forms.Form):
    url = forms.URLField(label=gettext_lazy("URL"), max_length=500, assume_scheme="https",
                         help_text=gettext_lazy("Where the events are POSTed (https:// recommended)."))
    events = forms.MultipleChoiceField(label=gettext_lazy("Events"), widget=forms.CheckboxSelectMultiple,
                                       choices=[(e, e) for e in WEBHOOK_EVENTS])


@login_required
@rate_limited(WriteLimit, what="changes")  # counts the POSTs only
def webhook_list(request):
    form = EndpointForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                endpoint = webhooks.create_endpoint(owner=request.user, url=form.cleaned_data["url"],
                                                    events=form.cleaned_data["events"])
            except webhooks.WebhookError as e:
                form.add_error(e.field, str(e))
            else:
                # The secret, this once: it is not shown again.
                return never_stored(render(request, "web/webhook_created.html", {"endpoint": endpoint}))
    return render(request, "web/webhooks.html", {"form": form, "endpoints": endpoints_of(request.user)},
                  status=400 if form.errors else 200)


@login_required
def webhook_detail(request, pk: int):
    endpoint = get_object_or_404(endpoints_of(request.user), pk=pk)
    page = Paginator(deliveries_of(endpoint), 50).get_page(request.GET.get("page"))
    return render(request, "web/webhook.html", {"endpoint": endpoint, "page": page})


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def webhook_ping(request, pk: int):
    endpoint = get_object_or_404(endpoints_of(request.user), pk=pk)
    webhooks.send_ping(endpoint=endpoint)
    messages.success(request, _("A ping is on its way: see it below in a few seconds."))
    return redirect("web:webhook", pk=pk)


@login_required
@require_POST
@rate_limited(WriteLimit, what="changes")
def webhook_active(request, pk: int):
    endpoint = get_object_or_404(endpoints_of(request.user), pk=pk)
    active = request.POST.get("active") == "1"
    webhooks.set_active(endpoint=endpoint, active=active)
    messages.success(request, _("The webhook is enabled.") if active else _("The webhook is disabled."))
    return redirect("web:webhook", pk=pk)
