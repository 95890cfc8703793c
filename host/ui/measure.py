"""How wide a bold label is drawn, for a game's SVG board laid out on the server.

A board's names are placed before any browser sees them, so the drawing needs to
know whether a name fits its box. The widths here are DejaVu Sans Bold's (the
sans-serif of Debian, where the page tests run, and the widest of the tablets'
own sans fonts: Roboto and San Francisco draw the same text narrower), so a name
that fits by this measure fits on every tablet.

>>> round(bold_width("Resyk", 10), 1)
42.0
"""

from __future__ import annotations

#: Advance widths of DejaVu Sans Bold, in thousandths of an em, for " " to "~".
_ASCII = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
    696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580,
    1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
    733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500,
    500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
    716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
)  # fmt: skip
#: Any other character (å, ö, a dash): about as wide as the widest letters.
_OTHER = 850


def bold_width(text: str, size: float) -> float:
    """The width of ``text`` in bold at ``size`` (in the same units as ``size``)."""
    thousandths = sum(
        _ASCII[ord(c) - 32] if 32 <= ord(c) < 127 else _OTHER for c in str(text)
    )
    return thousandths * size / 1000
