"""QR codes of private links and claim links, drawn by segno as inline SVG (no image file, no request elsewhere)."""

from __future__ import annotations

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, label: str, *, scale: int = 3) -> SafeString:
    """The URL as a QR code in an <svg> a screen reader announces as `label` (escaped here)."""
    svg = segno.make(url, error="m").svg_inline(scale=scale, svgclass="qr", lineclass=None, omitsize=False)
    # segno writes a bare <svg ...>: give it its role and name (segno's own title would not be escaped for us).
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
    return mark_safe(svg)  # noqa: S308 - segno's SVG (paths of the code) and the escaped label only
