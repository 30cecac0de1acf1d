"""Fair deals: seeds nobody can compute, committed to before play and verifiable after it.

Every secret a game draws (Diamonds' deals, Diamoniak's draw pile, the ring race's board, the first seat)
follows from its seed. A server that deals for strangers therefore needs three things, all here:

- `new_seed()`: 128 bits from the operating system's CSPRNG (`secrets`), never a string built from public
  values, so nobody outside the server can compute a deal;
- `commitment(seed, nonce)`: published when the match is created, it binds the server to the seed without
  showing it: `SHA-256(UTF-8(nonce + ":" + seed))` in lowercase hex, where the nonce is 32 lowercase hex digits
  from the CSPRNG (`new_nonce()`). The nonce is fixed-length hex with no colon, so the split is unambiguous, and
  it keeps a guessed or reused seed from being confirmed against the commitment. Anyone can recompute it:
  `printf '%s:%s' "$nonce" "$seed" | sha256sum`;
- `verify_record(record)`: after the reveal, a record carries `commitment` and `reveal: {"seed", "nonce"}`;
  this checks that the two agree, that the revealed seed is the record's, and that the deal the record shows
  (hands, draw pile, board) is the one the engine's own shuffle makes from that seed.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any

SCHEME = "sha256(nonce:seed)"
NONCE_HEX_DIGITS = 32
# Not rules: what the server attests about the deal. Replays carry them over untouched; `verify_record` checks them.
ATTESTATION_FIELDS = ("commitment", "reveal")

_HEX_NONCE = re.compile(rf"[0-9a-f]{{{NONCE_HEX_DIGITS}}}")
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")


def new_seed() -> str:
    """A deal seed nobody outside this process can reproduce (128 bits from the CSPRNG)."""
    return secrets.token_hex(16)


def derived_seed(key: str, message: str) -> str:
    """A deal seed derived from a secret key: HMAC-SHA256(key, message), 128 bits in hex. As unpredictable as a
    fresh one to anyone without the key, and the same every time for the same key and message (so a tournament
    with a secret salt can be dealt again exactly)."""
    return hmac.new(key.encode(), message.encode(), hashlib.sha256).hexdigest()[:32]


def new_nonce() -> str:
    return secrets.token_hex(NONCE_HEX_DIGITS // 2)


def commitment(seed: str, nonce: str) -> str:
    """The published commitment to `seed` (see the module docstring for the scheme)."""
    if not _HEX_NONCE.fullmatch(nonce):
        raise ValueError(f"a nonce is {NONCE_HEX_DIGITS} lowercase hex digits")
    return hashlib.sha256(f"{nonce}:{seed}".encode()).hexdigest()


def carry_attestation(given: dict[str, Any], derived: dict[str, Any]) -> dict[str, Any]:
    """`derived` with the given record's commitment and reveal, which no rule derives, copied over."""
    for name in ATTESTATION_FIELDS:
        if name in given:
            derived[name] = given[name]
    return derived


def verify_record(record: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Check a record's commitment, reveal and deal. Returns (problems, notes): the record is verified when
    `problems` is empty; `notes` say what was checked. The record's choices are replayed by the caller."""
    problems: list[str] = []
    notes: list[str] = []
    committed = record.get("commitment")
    reveal = record.get("reveal")
    seed = record.get("seed")
    if committed is None:
        problems.append("the record carries no commitment (matches stored before commitments existed have none)")
    elif not isinstance(committed, str) or not _HEX_DIGEST.fullmatch(committed):
        problems.append(f"commitment {committed!r} is not 64 lowercase hex digits")
    if not isinstance(reveal, dict):
        problems.append("the record carries no reveal: its seed is not revealed yet")
    else:
        revealed_seed, nonce = reveal.get("seed"), reveal.get("nonce")
        if not isinstance(revealed_seed, str) or not isinstance(nonce, str) or not _HEX_NONCE.fullmatch(nonce):
            problems.append("reveal must hold a seed (text) and a nonce (32 lowercase hex digits)")
        else:
            if revealed_seed != seed:
                problems.append(f"the revealed seed {revealed_seed!r} is not the record's seed {seed!r}")
            if isinstance(committed, str) and _HEX_DIGEST.fullmatch(committed):
                recomputed = commitment(revealed_seed, nonce)
                if recomputed != committed:
                    problems.append(f"the commitment does not match the revealed seed and nonce: "
                                    f"{SCHEME} is {recomputed}, the record committed to {committed}")
                else:
                    notes.append(f"commitment matches {SCHEME} of the revealed seed and nonce")
    if isinstance(seed, str):
        deal_problems, deal_notes = _deal_follows_from_seed(record, seed)
        problems += deal_problems
        notes += deal_notes
    else:
        problems.append("the record has no seed to check its deal against")
    return problems, notes


def _deal_follows_from_seed(record: dict[str, Any], seed: str) -> tuple[list[str], list[str]]:
    from .games import by_format

    kind = by_format(record.get("format"))
    if kind.name == "diamonds":
        return _diamonds_deal(record, seed)
    # Diamoniak's draw pile and the ring race's board are drawn from the seed while the record replays, and the
    # replay compares every drawn card and board space the record shows; a set-up given instead of drawn (a
    # puzzle's deck_top, a fixed board) does not come from the seed at all.
    given = [name for name in ("deck_top", "fixed", "board") if record.get(name) is not None]
    if given:
        return [f"the record gives its set-up ({', '.join(given)}) instead of drawing it from the seed"], []
    return [], [f"{kind.title}: the set-up is drawn from the seed during the replay"]


def _diamonds_deal(record: dict[str, Any], seed: str) -> tuple[list[str], list[str]]:
    from .cards import card_str
    from .game import seeded_hands
    from .ruleset import Ruleset

    ruleset = Ruleset.from_dict(record.get("ruleset"))  # InvalidRuleset for anything but an object of fields
    problems = []
    rounds = record.get("rounds") or []
    if not isinstance(rounds, list):
        return ["the record's rounds are not a list"], []
    for r, rnd in enumerate(rounds):
        dealt = [[card_str(c) for c in hand] for hand in seeded_hands(ruleset, seed, r)]
        hands = rnd.get("hands") if isinstance(rnd, dict) else None
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            problems.append(f"round {r + 1}: the record shows no hands")
            continue
        for s, (shown, expected) in enumerate(zip(hands, dealt)):
            if list(shown) != expected:
                problems.append(f"round {r + 1}, seat {s}: the record's hand {' '.join(shown)} is not the one the "
                                f"seed deals ({' '.join(expected)})")
    return problems, [f"Diamonds: {len(rounds)} round(s) of hands match the seed's shuffle"] if not problems else []
