"""Fair deals on the website: a play-vs-bots table commits to a fresh seed and shows it only once it has ended;
a seed the person chose is said so."""

from __future__ import annotations

from django.urls import reverse

from league.models import Match, MatchStatus


def test_a_bot_table_shows_its_commitment_and_its_seed_only_after_the_end(
        client, site, django_capture_on_commit_callbacks):
    client.force_login(site["ann"].user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("web:play-bots"), {"rounds": 1, "clubs": "thief", "bots": "random"})
    match = Match.objects.order_by("-pk").first()
    assert not match.seed_chosen and len(match.seed) == 32 and match.commitment
    page = client.get(reverse("web:match", args=[match.pk])).content.decode()
    assert match.commitment in page and match.seed not in page and match.nonce not in page
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)  # ended: the deal is safe to show
    page = client.get(reverse("web:match", args=[match.pk])).content.decode()
    assert match.seed in page and match.nonce in page and "diamonds verify" in page


def test_a_chosen_seed_is_named_on_the_page(client, site, django_capture_on_commit_callbacks):
    client.force_login(site["ann"].user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("web:play-bots"), {"rounds": 1, "clubs": "thief", "bots": "random", "seed": "mine"})
    match = Match.objects.order_by("-pk").first()
    assert match.seed == "mine" and match.seed_chosen
    page = client.get(reverse("web:match", args=[match.pk])).content.decode()
    assert "chosen by whoever created it" in page and "mine" not in page.split("Fair deal")[1]
