"""QR codes of a game's links, as SVG images the browser keeps.

Each link has its code at the link's own address plus ``/qr.svg`` (``sharing.qr_code``). The
code of an address never changes (a new link is a new address), so phones cache the view
link's for good, and the scoreboard, which watchers reload at every change of the score, costs
no code to make. The edit link's code is the edit link itself: it is never stored.
"""

from __future__ import annotations

import io
from functools import lru_cache

import segno

QR_SCALE = 4
QR_ERROR_LEVEL = "m"
QR_CACHE_SIZE = 1024
"""Codes kept per process: making one takes milliseconds, a game's links rarely change."""
QR_CACHE_CONTROL = "private, max-age=31536000, immutable"
EDIT_QR_CACHE_CONTROL = "no-store"
"""The edit link's code is the edit link: like every answer to that address, never stored."""


def qr_cache_control(of_edit_link: bool) -> str:
    return EDIT_QR_CACHE_CONTROL if of_edit_link else QR_CACHE_CONTROL


@lru_cache(maxsize=QR_CACHE_SIZE)
def qr_svg(url: str) -> bytes:
    """An SVG document of the QR code of ``url``: dark on a white square, so it scans in dark
    mode too."""
    out = io.BytesIO()
    segno.make(url, error=QR_ERROR_LEVEL, micro=False).save(
        out,
        kind="svg",
        scale=QR_SCALE,
        dark="#000",
        light="#fff",
        xmldecl=False,
        svgclass=None,
        lineclass=None,
    )
    return out.getvalue()
