"""Loads HTML pages in headless Chromium at 1366x768; fails on any console error, page
error or request for a resource (a report page must need nothing but itself), on a page
whose answer (the verdict box) is not on the first screen, on a table wider than its box
without a visible scrollbar or with its scrollbar out of sight (a box taller than the screen:
its bar sits below the table's end, so a person reading the table sees the rows cut off), on a grid page (`--heatmap`) without a heatmap, and on a
page of games (`--rounds`: simulate, compare) without its per-round charts (#rounds) or
its extreme games (#extremes) with their replay commands.
Screenshots each page whole (SHOT), its first screen (SHOT with `.first.png`) and, with
`--rounds`, its per-round charts (SHOT with `.rounds.png`).

usage: html_check.py CHROMIUM [--heatmap|--rounds] PAGE.html SHOT.png [[--heatmap|--rounds] PAGE.html SHOT.png ...]
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

# The screen of the audit (issue #47): a common laptop.
SCREEN = {"width": 1366, "height": 768}

# Boxes whose content is wider than they are, and how much height their scrollbar takes
# (0: none shown, or one that overlays the content only while scrolling).
OVERFLOWING = """() => [...document.querySelectorAll('.scroll, section')]
  .filter(e => e.scrollWidth > e.clientWidth + 1)
  .map(e => ({what: e.className || e.tagName, wide: e.scrollWidth, box: e.clientWidth, tall: e.offsetHeight,
              bar: e.offsetHeight - e.clientHeight - 2 * parseFloat(getComputedStyle(e).borderTopWidth),
              overflow: getComputedStyle(e).overflowX}))"""


def check(context, page_path: pathlib.Path, shot: pathlib.Path, heatmap: bool, rounds: bool = False) -> list[str]:
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
    # Measured before the screenshots: a whole-page screenshot resizes the page.
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    overflowing = page.evaluate(OVERFLOWING)
    page.screenshot(path=str(shot), full_page=True)
    page.screenshot(path=str(shot.with_suffix(".first.png")), full_page=False)
    if not shot.exists() or shot.stat().st_size < 1000:
        problems.append("no screenshot")
    if page.locator("svg").count() == 0 and page.locator("table.heatmap").count() == 0:
        problems.append("no plot rendered")
    # The answer opens the page: the verdict's heading and first statement on the first screen.
    verdict = page.locator("#verdict")
    if verdict.count() != 1:
        problems.append("no verdict box (#verdict)")
    else:
        first = page.locator("#verdict > p").first.bounding_box()
        top = verdict.bounding_box()
        if top is None or first is None or first["y"] + first["height"] > SCREEN["height"]:
            problems.append(f"the verdict is not on the first {SCREEN['width']}x{SCREEN['height']} screen: {top}")
    if heatmap and page.locator("table.heatmap").count() == 0:
        problems.append("a grid page without a heatmap (table.heatmap)")
    if rounds:
        charts = page.locator("#rounds figure svg")
        if charts.count() < 2:
            problems.append(f"no per-round charts of the score and the money (#rounds figure svg: {charts.count()})")
        else:
            page.locator("#rounds").screenshot(path=str(shot.with_suffix(".rounds.png")))
        replays = page.locator("#extremes td code")
        if page.locator("#extremes").count() != 1 or replays.count() == 0:
            problems.append("no extreme games with their replay commands (#extremes td code)")
        elif "rulesmith play " not in replays.first.inner_text():
            problems.append(f"an extreme game without its command: {replays.first.inner_text()!r}")
    # Nothing wider than the screen; a wide table scrolls in its box with a scrollbar shown.
    if wide > SCREEN["width"]:
        problems.append(f"the page is {wide} px wide, wider than the screen")
    for box in overflowing:
        if box["overflow"] not in ("auto", "scroll") or box["bar"] < 6:
            problems.append(f"a {box['wide']} px table in a {box['box']} px box ({box['what']}) with no visible scrollbar ({box})")
        elif box["tall"] > SCREEN["height"]:
            problems.append(
                f"a {box['wide']} px table in a {box['box']} px box ({box['what']}) {box['tall']} px tall: "
                f"its scrollbar is out of sight below the rows it cuts off ({box})"
            )
    page.close()
    return problems


def main() -> int:
    chromium, rest = sys.argv[1], sys.argv[2:]
    pages = []
    heatmap = rounds = False
    while rest:
        if rest[0] == "--heatmap":
            heatmap, rest = True, rest[1:]
            continue
        if rest[0] == "--rounds":
            rounds, rest = True, rest[1:]
            continue
        if len(rest) < 2:
            break
        pages.append((rest[0], rest[1], heatmap, rounds))
        heatmap, rounds, rest = False, False, rest[2:]
    if not pages or rest:
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
            # Scrollbars as a user's browser shows them (Playwright hides them by default).
            ignore_default_args=["--hide-scrollbars"],
            viewport=SCREEN,
            device_scale_factor=1,
        )
        for page_path, shot, grid, rounds in pages:
            problems = check(context, pathlib.Path(page_path), pathlib.Path(shot), grid, rounds)
            for problem in problems:
                print(f"{page_path}: {problem}", file=sys.stderr)
            print(f"{page_path}: {'FAIL' if problems else 'ok'} (screenshot {shot})")
            failed |= bool(problems)
        context.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
