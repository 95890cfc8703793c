"""PNG renders of the drawings, to look at (``python -m lawmaster.hardware.mechanical.render``).

Headless Debian Chromium through playwright (the dev setup's), at a fixed pixel
density, into ``hardware/mechanical/renders/``. Renders are pictures for people,
not compared byte for byte; the SVGs are the drawings.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from lawmaster.hardware.mechanical import DRAWINGS, HERE, RENDERS

TEMPLATES = HERE.parent / "templates"

CHROMIUM = "/usr/bin/chromium"
PX_PER_MM = 4.0


def render(paths: list[Path], out_dir: Path = RENDERS, px_per_mm: float = PX_PER_MM) -> list[Path]:
    """Render each SVG to ``out_dir/<name>.png``; returns the PNGs written."""
    from playwright.sync_api import sync_playwright

    out_dir.mkdir(parents=True, exist_ok=True)
    css_px_per_mm = 96 / 25.4  # a browser draws 1 mm as 96/25.4 CSS pixels
    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(device_scale_factor=px_per_mm / css_px_per_mm)
        page = context.new_page()
        for path in paths:
            w, h = _size_mm(path.read_text("utf-8"))
            page.set_viewport_size(
                {"width": round(w * css_px_per_mm), "height": round(h * css_px_per_mm)}
            )
            page.goto(path.resolve().as_uri())
            png = out_dir / (path.stem + ".png")
            page.screenshot(path=str(png))
            written.append(png)
        browser.close()
    return written


def render_pages(html: Path, out_dir: Path, pages: list[int], px_per_mm: float = 2.0) -> list[Path]:
    """Render pages (0 = the first) of a template page set to ``<stem>-p<n>.png``."""
    from playwright.sync_api import sync_playwright

    out_dir.mkdir(parents=True, exist_ok=True)
    css_px_per_mm = 96 / 25.4
    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(
            device_scale_factor=px_per_mm / css_px_per_mm, viewport={"width": 1200, "height": 1200}
        )
        page = context.new_page()
        page.goto(html.resolve().as_uri())
        sections = page.locator("section.page")
        for n in pages:
            png = out_dir / f"{html.stem}-p{n + 1}.png"
            sections.nth(n).screenshot(path=str(png))
            written.append(png)
        browser.close()
    return written


def _size_mm(svg: str) -> tuple[float, float]:
    m = re.search(r'width="([\d.]+)mm" height="([\d.]+)mm"', svg)
    if not m:
        raise ValueError("not a drawing in mm")
    return float(m.group(1)), float(m.group(2))


def main(argv: list[str] | None = None) -> int:
    """Render the given SVGs, or every drawing and the first two pages of each board's
    A4 template page set."""
    args = sys.argv[1:] if argv is None else argv
    paths = [Path(a) for a in args] or sorted(DRAWINGS.glob("*.svg"))
    written = render(paths)
    if not args:
        for html in sorted(TEMPLATES.glob("*-a4.html")):
            written += render_pages(html, RENDERS, [0, 1])
    for png in written:
        print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
