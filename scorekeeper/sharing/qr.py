"""QR codes of a game's links, as inline SVG (no image request, nothing inline to run)."""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup

QR_SCALE = 4
QR_ERROR_LEVEL = "m"
QR_CACHE_SIZE = 1024
"""Codes kept per process: making one takes milliseconds, a game's links rarely change."""


@lru_cache(maxsize=QR_CACHE_SIZE)
def qr_svg(url: str, title: str) -> Markup:
    """An SVG QR code of ``url``: dark on a white square, so it scans in dark mode too."""
    code = segno.make(url, error=QR_ERROR_LEVEL, micro=False)
    svg = code.svg_inline(
        scale=QR_SCALE,
        dark="#000",
        light="#fff",
        title=title,
        svgclass="qr",
        lineclass=None,
    )
    return Markup(svg)
