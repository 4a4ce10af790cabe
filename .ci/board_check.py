"""The web table's boards in headless Chromium: each game played to its end by one person
(seat 0) against bots, every decision made by clicking the board whenever a highlighted
board element (or a button of the board's bar) realizes the chosen legal action, else from
the action list. The actions are chosen at random (seeded) among the legal ones, so the
share of board decisions measures how much of the game the board covers. Checks, per game:
the game reaches its end (final scores shown, on the board too, with no one "to act"), at
least 90% of the person's decisions were made on the board, and at every decision nothing
drawn on top of a clickable element takes its click (`document.elementFromPoint` at its
centre is the element or inside it). Prints the counts; screenshots go to OUT_DIR (and to
DOCS_DIR, the book's images, when given).

usage: board_check.py CHROMIUM RULESMITH OUT_DIR [DOCS_DIR]
"""

import os
import pathlib
import random
import shutil
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

from html_check import FLAGS
from serve_check import start, watch

GAMES = ["puerto-rico", "puerto-rico-expansion", "santiago-de-cuba", "mundo-163"]
# The table's seed and the person's choices' (BOARD_CHECK_SEED=N plays another game).
SEED = int(os.environ.get("BOARD_CHECK_SEED", "11"))
# At least this share of a person's decisions made on the board, per game.
BOARD_SHARE = 0.90
# Most seconds one game may take (a whole game is a few hundred decisions).
GAME_LIMIT = 240
# The person's decision at which the book's picture of a board is taken (the expansion's
# during its building draft), and the games whose first picked click is pictured too.
PICTURE_AT = {"puerto-rico-expansion": 3}
PICTURED_PICKS = {"puerto-rico", "mundo-163"}

# The board's clickable elements (SVG controls and the bar's buttons) that realize action
# `a` now, each with its centre scrolled into view; and every clickable element whose
# centre is covered by something drawn on top.
FIND = """a => {
  const board = document.querySelector('#board');
  const all = [...board.querySelectorAll('[data-acts]')];
  const hits = all.filter(e => { try { return JSON.parse(e.getAttribute('data-acts')).includes(a); } catch (_) { return false; } });
  // A control the actions it leads to can be told apart by (the fewest first).
  hits.sort((x, y) => JSON.parse(x.getAttribute('data-acts')).length - JSON.parse(y.getAttribute('data-acts')).length);
  const swallowed = [];
  // Where a person clicks: the control's face (its main shape), else its box.
  const spot = e => (e.querySelector(':scope > .face') || e).getBoundingClientRect();
  for (const e of all) {
    const r = spot(e);
    if (r.width === 0 || r.height === 0) { swallowed.push((e.id || e.getAttribute('data-key') || e.tagName) + ' (not drawn)'); continue; }
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    const top = document.elementFromPoint(x, y);
    if (!top || !(top === e || e.contains(top))) {
      swallowed.push((e.id || e.getAttribute('data-key') || e.tagName) + ' under ' + (top ? (top.id || top.getAttribute('class') || top.tagName) : 'nothing'));
    }
  }
  const e = hits[0];
  const state = { swallowed, sent: Boards.sent().count, clickable: board.querySelectorAll('.clickable').length };
  if (!e) return state;
  e.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = spot(e);
  return Object.assign(state, { x: r.left + r.width / 2, y: r.top + r.height / 2, key: e.getAttribute('data-key') || e.textContent });
}"""

# Marks the board drawn now, to wait for the one drawn after an action.
MARK = "() => { const b = document.querySelector('#board .board-box'); if (b) b.dataset.seen = '1'; }"
FRESH = "() => { const b = document.querySelector('#board .board-box'); return (!!b && !b.dataset.seen) || !!document.querySelector('#scores') || !document.querySelector('#message').hidden; }"


def picture(page, path):
    """The page down to the end of its content (the book's pictures, without blank space)."""
    bottom = page.evaluate("() => Math.ceil(document.querySelector('#app').getBoundingClientRect().bottom + scrollY) + 8")
    page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": 1400, "height": bottom}, full_page=True)


def play(context, base, table, game, out, docs, problems):
    page = context.new_page()
    watch(page, problems, game)
    page.goto(f"{base}/?table={table}", wait_until="load")
    rng = random.Random(SEED)
    board = listed = clicks = 0
    swallowed = set()
    shot = picked = False
    started = time.time()
    waits = [0.0, 0.0, 0.0]
    while time.time() - started < GAME_LIMIT:
        t0 = time.time()
        page.wait_for_function(
            "() => document.querySelector('#scores') || (document.querySelector('#actions button') && document.querySelector('#board .board-box svg'))",
            timeout=60_000,
        )
        if page.locator("#scores").count():
            break
        t1 = time.time()
        waits[0] += t1 - t0
        legal = page.eval_on_selector_all("#actions button", "bs => bs.map(b => b.getAttribute('data-action'))")
        # A kind of action (its first word) at random, then one of that kind: every kind is
        # tried often, and Mundo 163's many single steps do not drown its other decisions.
        kind = rng.choice(sorted({a.split()[0] for a in legal}))
        action = rng.choice([a for a in legal if a.split()[0] == kind])
        page.evaluate(MARK)
        on_board = False
        for attempt in range(2):
            # A second try when the page drew the position again between two clicks.
            again = False
            for _ in range(6):
                found = page.evaluate(FIND, action)
                for s in found["swallowed"]:
                    if s not in swallowed:
                        swallowed.add(s)
                        problems.append(f"{game}: a click on {s} is taken by what is drawn on top")
                if "x" not in found:
                    break
                if not shot and board >= PICTURE_AT.get(game, 12) and found["clickable"] > 2:
                    picture(page, out / f"board-{game}.png")
                    shot = True
                page.mouse.click(found["x"], found["y"])
                clicks += 1
                # Played (the board counts what it sent), or waiting for the next click.
                after = page.evaluate("() => Object.assign({ waiting: !!document.querySelector('#board-cancel') }, Boards.sent())")
                if after["count"] != found["sent"]:
                    if after["action"] != action:
                        problems.append(f"{game}: clicking the board for `{action}` played `{after['action']}`")
                    on_board = True
                    break
                if after["waiting"] and not picked:
                    picture(page, out / f"board-{game}-picked.png")
                    picked = True
                if not after["waiting"]:
                    if attempt:
                        problems.append(f"{game}: a click on {found['key']!r} for `{action}` did nothing")
                        page.screenshot(path=str(out / f"board-{game}-nothing.png"), full_page=True)
                    again = True
                    break
            else:
                problems.append(f"{game}: `{action}` took more than 6 clicks on the board")
            if not again:
                break
        if not on_board:
            # Not on the board (or left half-chosen): the action list plays it.
            if page.locator("#board-cancel").count():
                page.click("#board-cancel")
            page.evaluate(MARK)
            if not page.evaluate(
                "a => { const b = [...document.querySelectorAll('#actions button')].find(b => b.getAttribute('data-action') === a); if (b) b.click(); return !!b; }",
                action,
            ):
                problems.append(f"{game}: `{action}` is no longer in the action list")
                break
        t2 = time.time()
        waits[1] += t2 - t1
        page.wait_for_function(FRESH, timeout=60_000)
        waits[2] += time.time() - t2
        if page.locator("#message:not([hidden])").count():
            problems.append(f"{game}: `{action}` was refused: {page.locator('#message').inner_text()}")
            break
        if on_board:
            board += 1
        else:
            listed += 1
            if listed <= 5:
                print(f"{game}: from the list: {action}")
    else:
        problems.append(f"{game}: the game did not end within {GAME_LIMIT} s")
    took = time.time() - started
    if os.environ.get("BOARD_DEBUG"):
        print(f"{game}: waiting for a turn {waits[0]:.0f} s, choosing and clicking {waits[1]:.0f} s, waiting for the answer {waits[2]:.0f} s")
    decisions = board + listed
    share = board / decisions if decisions else 0.0
    over = page.locator("#scores").count() > 0
    print(
        f"{game}: {board} of {decisions} decisions on the board ({share:.0%}), {listed} from the list, "
        f"{clicks} board clicks, {took:.0f} s{'' if over else ', NOT OVER'}"
    )
    if not over:
        problems.append(f"{game}: the game did not reach its end")
    else:
        text = page.locator("#board").inner_text()
        if "Game over" not in text:
            problems.append(f"{game}: the board does not say the game is over: {text[:200]!r}")
        heading = page.locator("#board-heading").text_content() or ""
        if "to play" in heading or "'s turn" in heading or "to act" in page.locator("#board svg").text_content():
            problems.append(f"{game}: the board still names a player to move after the end: {heading!r}")
        page.screenshot(path=str(out / f"board-{game}-over.png"), full_page=True)
    if share < BOARD_SHARE:
        problems.append(f"{game}: {share:.0%} of the decisions on the board, under {BOARD_SHARE:.0%}")
    if docs:
        # The book's pictures of each board (docs/play.md, the README's first picture).
        for name, to in ((f"board-{game}.png", f"serve-{game}.png"), (f"board-{game}-picked.png", f"board-{game}-picked.png")):
            if (out / name).exists() and (to.startswith("serve-") or game in PICTURED_PICKS):
                shutil.copy(out / name, docs / to)
    page.close()
    return board, decisions


def main() -> int:
    if len(sys.argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    chromium, rulesmith, out = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    docs = pathlib.Path(sys.argv[4]) if len(sys.argv) == 5 else None
    out.mkdir(parents=True, exist_ok=True)
    problems = []
    # BOARD_CHECK_GAMES=mundo-163,… plays only those.
    only = [g for g in os.environ.get("BOARD_CHECK_GAMES", ",".join(GAMES)).split(",") if g in GAMES]
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=chromium,
            headless=True,
            args=FLAGS,
            viewport={"width": 1400, "height": 1100},
            device_scale_factor=1,
        )
        server = start(rulesmith, len(only) + 1, *only, "--players", "2", "--seed", str(SEED))
        try:
            for i, game in enumerate(only):
                play(context, server.base, i, game, out, docs, problems)
        finally:
            server.stop()
        context.close()
    for problem in problems:
        print(problem, file=sys.stderr)
    print("board-check: " + ("FAIL" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
