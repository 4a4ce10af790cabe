"""Loads HTML pages in headless Chromium; fails on any console error, page error or
request for a resource (a report page must need nothing but itself); screenshots each.

usage: html_check.py CHROMIUM PAGE.html SHOT.png [PAGE.html SHOT.png ...]
"""

import pathlib
import sys
import tempfile

from playwright.sync_api import sync_playwright

# The flags CI uses for a quiet, offline, throwaway browser.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def check(context, page_path: pathlib.Path, shot: pathlib.Path) -> list[str]:
    problems = []
    page = context.new_page()
    page.on(
        "console",
        lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    url = page_path.resolve().as_uri()
    # The page itself is the only request it may make.
    page.on("request", lambda r: problems.append(f"requests {r.url}") if r.url != url else None)
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.goto(url, wait_until="load")
    page.screenshot(path=str(shot), full_page=True)
    if not shot.exists() or shot.stat().st_size < 1000:
        problems.append("no screenshot")
    if page.locator("svg").count() == 0:
        problems.append("no plot rendered")
    page.close()
    return problems


def main() -> int:
    chromium, rest = sys.argv[1], sys.argv[2:]
    if not rest or len(rest) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    failed = False
    # A fresh profile (--user-data-dir) each run; never a browser Playwright downloads.
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=chromium,
            headless=True,
            args=FLAGS,
            viewport={"width": 1000, "height": 800},
            device_scale_factor=1,
        )
        for page_path, shot in zip(rest[::2], rest[1::2]):
            problems = check(context, pathlib.Path(page_path), pathlib.Path(shot))
            for problem in problems:
                print(f"{page_path}: {problem}", file=sys.stderr)
            print(f"{page_path}: {'FAIL' if problems else 'ok'} (screenshot {shot})")
            failed |= bool(problems)
        context.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
