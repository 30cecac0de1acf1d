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

from .games import by_format

SCHEME = "sha256(nonce:seed)"
NONCE_HEX_DIGITS = 32
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
        deal_problems, deal_notes = by_format(record.get("format")).check_deal(record, seed)
        problems += deal_problems
        notes += deal_notes
    else:
        problems.append("the record has no seed to check its deal against")
    return problems, notes
