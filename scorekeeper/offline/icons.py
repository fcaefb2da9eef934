"""Draw the app's icons (static/icons/*.png) from static/favicon.svg with Chromium.

Run after changing the favicon: ``.venv/bin/python -m scorekeeper.offline.icons`` (Playwright,
from the test extras); commit the PNGs.
A maskable icon is cut to a circle or a rounded square by the phone: the drawing sits within
the middle 60%, on a background that fills the whole square.
"""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
FAVICON = ROOT / "static" / "favicon.svg"
ICONS = ROOT / "static" / "icons"
MASKABLE_BACKGROUND = "#dbeafe"
# (file, size in pixels, share of the square the drawing takes, background)
DRAWINGS = (
    ("icon-192.png", 192, 1.0, "transparent"),
    ("icon-512.png", 512, 1.0, "transparent"),
    ("icon-maskable-512.png", 512, 0.6, MASKABLE_BACKGROUND),
)


def page_for(svg: str, size: int, share: float, background: str) -> str:
    drawing = int(size * share)
    data = base64.b64encode(svg.encode()).decode()
    return (
        f"<html><body style='margin:0;width:{size}px;height:{size}px;background:{background};"
        f"display:flex;align-items:center;justify-content:center'>"
        f"<img width='{drawing}' height='{drawing}' src='data:image/svg+xml;base64,{data}'>"
        "</body></html>"
    )


def main() -> None:
    svg = FAVICON.read_text(encoding="utf-8")
    ICONS.mkdir(exist_ok=True)
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        for name, size, share, background in DRAWINGS:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(svg, size, share, background))
            page.screenshot(path=str(ICONS / name), omit_background=background == "transparent")
            page.close()
            print(ICONS / name)
        browser.close()


if __name__ == "__main__":
    main()
