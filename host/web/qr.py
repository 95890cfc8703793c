"""QR codes for the seat links, drawn as inline SVG so the table screen needs no images."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(url: str, title: str) -> Markup:
    """An inline ``<svg>`` QR code encoding ``url`` that scales with its box."""
    qr = segno.make(url, error="m", micro=False)
    svg = qr.svg_inline(
        scale=1,
        border=2,
        omitsize=True,  # viewBox only, so CSS decides the size on any screen
        title=title,
        svgclass="qr",
        lineclass="qr-line",
        dark="#000",
        light="#fff",
    )
    return Markup(svg)
