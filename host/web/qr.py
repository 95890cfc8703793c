"""QR codes for the seat links, drawn as inline SVG so the table screen needs no images."""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup


@lru_cache(maxsize=64)
def qr_svg(url: str, title: str) -> Markup:
    """An inline ``<svg>`` QR code encoding ``url`` that scales with its box.

    Cached: the table screen redraws the same few links on every load.
    """
    qr = segno.make(url, error="m", micro=False)
    svg = qr.svg_inline(
        scale=1,
        border=2,
        omitsize=True,  # viewBox only, so CSS decides the size on any screen
        title=title,  # segno escapes it
        svgclass="qr",
        lineclass="qr-line",
        dark="#000",
        light="#fff",
    )
    return Markup(svg)
