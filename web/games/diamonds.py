"""Diamonds on the website: its table (diamonds_table.py), its replay trick by trick (diamonds_replay.py) and the
decision a posted form means. Diamonds' forms post the decision's fields (kind, count, cards, card, target) rather
than a whole JSON decision, because passing is a set of ticked cards, which only the form can gather."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext_lazy

from .base import GamePresenter, number_or_text
from .diamonds_replay import replay_steps
from .diamonds_table import build_table


def decision_json(post: QueryDict) -> dict[str, Any]:
    kind = post.get("kind")
    if kind == "pass_count":
        return {"kind": kind, "count": number_or_text(post.get("count"))}
    if kind == "pass_cards":
        return {"kind": kind, "cards": post.getlist("cards")}
    if kind == "play":
        return {"kind": kind, "card": post.get("card")}
    if kind == "clubs_target":
        return {"kind": kind, "target": number_or_text(post.get("target"))}
    return {"kind": kind}


def bot_table_ruleset(form_data: dict[str, Any]) -> dict[str, Any]:
    """Four players, the clubs rule chosen, and one round unless a full game (0) was chosen."""
    ruleset = {"players": 4, "clubs": form_data["clubs"]}
    if form_data["rounds"]:
        ruleset["rounds"] = form_data["rounds"]
    return ruleset


DIAMONDS = GamePresenter(
    name="diamonds", table_template="web/games/diamonds_table.html",
    replay_template="web/games/diamonds_replay.html", build_table=build_table, decision_json=decision_json,
    replay_steps=replay_steps,
    replay_step=gettext_lazy("trick"), default_bot="greedy", bot_table_ruleset=bot_table_ruleset,
    blurb=gettext_lazy("The trick-taking game where the crystals in your vault count "
                       "double."),
    page_template="web/games/diamonds_page.html", stylesheet="web/table_diamonds.css",
)
