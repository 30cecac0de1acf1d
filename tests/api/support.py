"""Helpers for API tests: pick and make a seat's decision over HTTP, the way the example bot does."""

from __future__ import annotations

import random

from rest_framework.test import APIClient


def choose(legal: dict, rng: random.Random) -> dict:
    if legal["pass_cards"]:
        offer = legal["pass_cards"]
        return {"kind": "pass_cards", "cards": rng.sample(offer["from"], offer["count"])}
    return rng.choice(legal["decisions"])


def take_turn(client: APIClient, match_id: int, rng: random.Random) -> bool:
    """If the client's seat is to decide, make a random legal decision; returns whether one was made."""
    legal = client.get(f"/api/v1/matches/{match_id}/legal/").json()
    if not legal["my_turn"]:
        return False
    response = client.post(f"/api/v1/matches/{match_id}/decisions/",
                           {"move_number": legal["move_number"], "decision": choose(legal, rng)}, format="json")
    assert response.status_code == 201, response.content
    return True


def play_out(clients: list[APIClient], match_id: int, seed: int = 7, limit: int = 5000) -> int:
    """Let the clients take their turns until none of them has one; returns the decisions made."""
    rng, made = random.Random(seed), 0
    for _ in range(limit):
        moved = [take_turn(c, match_id, rng) for c in clients]
        made += sum(moved)
        if not any(moved):
            return made
    raise AssertionError("the match did not end")
