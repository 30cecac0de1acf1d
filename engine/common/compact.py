"""A game's ordered choices in a few bytes: how the league stores a match's play (league.services.progress).

Everything else a record holds (hands, tricks, Suit Actions, events, the result) follows from the ruleset, the seed
and these choices by replay, so they are all a match needs to keep. The encoding is this module's own, small and
stable, for any game whose decisions are a `kind` from a fixed list and a `value` that is nothing, one
non-negative int or a tuple of them (every game of engine.games: cards, seats, counts, board positions and ring
values are all such ints):

    blob   = VERSION byte, then one item per choice
    item   = header byte (seat << 4 | kind code), then the value: nothing | varint | varint count, varints
    varint = unsigned LEB128 (7 bits a byte, low first; one byte below 128)

A 4-player Diamonds game (about 200 choices, most of them one card) takes about 400 bytes. Blobs concatenate
after their version bytes are dropped, so a match's stored steps (each a blob) read back in order are its
choices. A kind's code is its place in its game's `kinds`: new kinds go at the end and none is ever removed or
reordered, or stored matches would read as other decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

VERSION = 1
NONE, INT, INTS = "none", "int", "ints"  # the shapes of a decision's value
MAX_SEATS = 16  # a seat fits the header's four high bits


class EncodingError(ValueError):
    """Bytes that are not a blob of this codec, or a choice it cannot encode."""


@dataclass(frozen=True)
class ChoiceCodec:
    """One game's decisions: `decision(kind, value)` builds one, and `kinds` lists (kind, shape) in code order.

    Decisions are immutable (every game's is a frozen dataclass), so `decode` makes each decision without a value or
    with a one-byte value once and hands out that object again: most of a game's choices are such, and making a
    frozen dataclass costs more than reading its bytes. Larger values, read from whatever bytes come, are not kept.
    """

    decision: Any
    kinds: tuple[tuple[str, str], ...]
    # code << 8 | value (a one-byte value) or code << 8 | 0xFF (no value: 0xFF is never a one-byte value) -> decision
    _made: dict[int, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.kinds) > 16:
            raise ValueError("a kind code fits in four bits: at most 16 kinds")

    def encode(self, choices: Iterable[tuple[int, Any]]) -> bytes:
        """`choices` as (seat, decision) pairs, in order, to a blob (b"" for none)."""
        codes = {kind: (code, shape) for code, (kind, shape) in enumerate(self.kinds)}
        out = bytearray()
        append = out.append
        for seat, decision in choices:
            try:
                code, shape = codes[decision.kind]
            except KeyError:
                raise EncodingError(f"no code for decision kind {decision.kind!r}") from None
            if not 0 <= seat < MAX_SEATS:
                raise EncodingError(f"seat {seat!r} does not fit")
            append(seat << 4 | code)
            value = decision.value
            if shape == INT:
                # Nearly every value is a card, a position or a seat: one byte, written here without a call.
                # Anything else (a bool, a negative, a large int, not an int) goes through _varint and its checks.
                if type(value) is int and 0 <= value < 0x80:
                    append(value)
                else:
                    _varint(out, value)
            elif shape == INTS:
                _varint(out, len(value))
                for v in value:
                    if type(v) is int and 0 <= v < 0x80:
                        append(v)
                    else:
                        _varint(out, v)
        return bytes([VERSION]) + bytes(out) if out else b""

    def decode(self, data: bytes | memoryview | None) -> list[tuple[int, Any]]:
        """A blob back to its (seat, decision) pairs. EncodingError for bytes that do not read as one."""
        data = bytes(data or b"")
        if not data:
            return []
        if data[0] != VERSION:
            raise EncodingError(f"unknown encoding version {data[0]}")
        kinds, make, made = self.kinds, self.decision, self._made
        out: list[tuple[int, Any]] = []
        i, end = 1, len(data)
        try:
            while i < end:
                header = data[i]
                i += 1
                code = header & 15
                if code >= len(kinds):
                    raise EncodingError(f"unknown kind code {code} at byte {i - 1}")
                kind, shape = kinds[code]
                if shape == NONE or (shape == INT and data[i] < 0x80):
                    if shape == NONE:
                        key = code << 8 | 0xFF
                    else:  # one byte, read here without a call
                        key = code << 8 | data[i]
                        i += 1
                    decision = made.get(key)
                    if decision is None:
                        decision = made[key] = make(kind, None if shape == NONE else key & 0xFF)
                    out.append((header >> 4, decision))
                    continue
                if shape == INT:
                    value, i = _read_varint(data, i)
                    out.append((header >> 4, make(kind, value)))
                else:
                    count, i = _read_varint(data, i)
                    items = []
                    for _ in range(count):
                        v, i = _read_varint(data, i)
                        items.append(v)
                    out.append((header >> 4, make(kind, tuple(items))))
        except IndexError:
            raise EncodingError("the blob ends inside a choice") from None
        return out

    def decode_all(self, blobs: Sequence[bytes | memoryview | None]) -> list[tuple[int, Any]]:
        """Several blobs, in order, as one list of choices (a match's finished part, then its stored steps)."""
        out: list[tuple[int, Any]] = []
        for blob in blobs:
            out.extend(self.decode(blob))
        return out


def _varint(out: bytearray, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise EncodingError(f"{value!r} is not a non-negative int")
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)


def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, i
        shift += 7
