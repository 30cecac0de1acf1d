"""Helpers for the website's tests: which cards a page must not show, one legal decision as the page posts it, and
accounts as an administrator makes them."""

from __future__ import annotations

import json
import random
import re

from django.contrib.auth import get_user_model

from engine import SUITS, card_str
from engine.diamonds.cards import SUIT_NAMES
from league.selectors.live import match_game
from league.services.accounts import mark_made_by_administrator


def administrators_account(username: str, password: str | None = None, **fields):
    """An account as an administrator makes one (createsuperuser, the admin): verified without an email address, so
    it signs in on the website and takes part (league.selectors.accounts.verified)."""
    user = get_user_model().objects.create_user(username, password=password, **fields)
    mark_made_by_administrator(user)
    return user


def others_cards(match, seat: int) -> list[str]:
    """The cards the other seats hold now (from the stored game), which the seat's page must never show: all but
    those the seat itself passed them this round, which it knows (its page says what it gave)."""
    game = match_game(type(match).objects.get(pk=match.pk))  # the row as it is now, not as the test last read it
    gave = set(game.passed_by(seat) or []) if 0 <= seat < game.n and hasattr(game, "passed_by") else set()
    return [card_str(c) for s in range(game.n) if s != seat for c in game.hands[s] if c not in gave]


def leaked(html: str, cards: list[str]) -> list[str]:
    """The cards of `cards` that appear in the HTML, by code (a whole word), by their spoken label, or drawn (a
    reference to the card's face in the page's sprite, `href="#card-d7"`: the sprite itself holds every face)."""
    found = []
    for code in cards:
        label = f"{int(code[1:])} of {SUIT_NAMES[SUITS.index(code[0])]}"
        drawn = f'#card-{code[0].lower()}{int(code[1:])}"'
        if re.search(rf"\b{code}\b", html) or re.search(rf"(?<!\d){label}", html) or drawn in html:
            found.append(code)
    return found


def form_for(state: dict, rng: random.Random) -> dict:
    """A legal decision for the seat's state (its SeatView dict) as the page's form posts it."""
    kind = state["pending"]["kind"]
    data = {"move_number": state["move_number"], "kind": kind}
    legal = state["legal"]
    if kind == "pass_count":
        data["count"] = rng.choice(legal)
    elif kind == "pass_cards":
        data["cards"] = rng.sample(legal, state["pending"]["count"])
    elif kind == "play":
        data["card"] = rng.choice(legal)
    else:
        data["target"] = rng.choice(legal)
    return data


def replay_steps_on_page(html: str) -> list[int]:
    """The steps (1-based over the whole game) whose frames a replay page holds, in page order."""
    return [int(n) for n in re.findall(r'<section class="frame" id="step-(\d+)"', html)]


def replay_link(html: str, which: str) -> int | None:
    """The step a replay page's link goes to ("first", "prev", "next" or "last"); None when it leads nowhere new."""
    tag = re.search(rf'<a class="button" data-step="{which}" href="\?step=(\d+)"([^>]*)>', html)
    return None if "aria-disabled" in tag.group(2) else int(tag.group(1))


def every_replay_page(client, url: str) -> list[str]:
    """A replay's pages, from the first step to the last, by following each page's link to the next window."""
    pages = [client.get(url).content.decode()]
    while (step := replay_link(pages[-1], "next")) is not None:
        pages.append(client.get(f"{url}?step={step}").content.decode())
    return pages


def vault_figures(html: str) -> dict[int, str]:
    """What each seat's vault shows on a drawn Diamonds table: its number, or "?" while it is secret."""
    return {int(seat): shown for seat, shown in re.findall(
        r'<span class="holding vault[^"]*" data-vault="(\d+)".*?<b>([^<]*)</b>', html, flags=re.S)}


def table_steps(html: str) -> list[dict]:
    """The steps a drawn Diamonds table carries for its page to animate and read out (#table-steps)."""
    found = re.search(r'<script id="table-steps" type="application/json">(.*?)</script>', html, flags=re.S)
    return json.loads(found.group(1)) if found else []
