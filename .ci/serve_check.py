"""`rulesmith serve` in headless Chromium: each game's table loads without a console error
and is screenshotted; one game is played by clicks against bots to its end, then played
again, the first game reviewed from the session's list; a replay is stepped (next,
previous, a log entry, slider, round, seat); at every game's table a hint is asked for and
the move log (and the arrow keys) step the board back and to now; at a table seated by links, a seat's page carries none of
another seat's hidden values (in its past views too), the observer's page shows them all and
cannot act; a page of another site can neither act at a table (a `text/plain` POST, a JSON
one) nor read it through a name pointed at this machine. In every game, the game-over page
(final scores, no one to move, no hint) and "review this game" opening the table's own
record, with a link back to the table; at a hot-seat table of two people, looking back as
either person's seat (never a bot's); hints turned off at one table only.

usage: serve_check.py CHROMIUM RULESMITH OUT_DIR
"""

import json
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

# The same browser flags as the report pages' check (no network, no first-run work).
from html_check import FLAGS

GAMES = ["puerto-rico", "puerto-rico-expansion", "santiago-de-cuba", "mundo-163"]
# The game played to its end by clicks (two players: about 110 decisions of the person).
PLAYED = "santiago-de-cuba"


class Server:
    """`rulesmith serve --port 0 ARGS…`: the address and the links it prints (`expected`
    of them, the index's included)."""

    def __init__(self, rulesmith, expected, *args):
        self.proc = subprocess.Popen(
            [rulesmith, "serve", "--port", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.links = {}
        self.base = None
        while len(self.links) < expected:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"serve exited: {self.proc.stderr.read()}")
            if line.startswith("rulesmith serve: listening on "):
                self.base = line.split()[4].rstrip("/")
            m = re.match(r"\s+(.*?): (http://\S+)$", line)
            if m:
                self.links[m.group(1)] = m.group(2)
        if not self.base:
            raise SystemExit("serve printed no address")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def start(rulesmith, expected, *args):
    return Server(rulesmith, expected, *args)


def get_json(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def watch(page, problems, name):
    page.on(
        "console",
        lambda m: problems.append(f"{name}: console {m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: problems.append(f"{name}: page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"{name}: request failed: {r.url}"))


def tables(context, server, out, problems):
    for i, game in enumerate(GAMES):
        page = context.new_page()
        watch(page, problems, game)
        page.goto(f"{server.base}/?table={i}", wait_until="load")
        page.wait_for_selector("#board svg")
        page.wait_for_selector("#actions button")
        shot = out / f"serve-{game}.png"
        page.screenshot(path=str(shot), full_page=True)
        if page.locator("#board svg *").count() < 20:
            problems.append(f"{game}: the board drew almost nothing")
        if game == "santiago-de-cuba":
            # A stop on the street is a control: clicking it drives the car there.
            stop = page.locator("#board .clickable[id^=stop-]").last
            act = stop.get_attribute("data-act")
            stop.click()
            page.wait_for_function(
                "a => [...document.querySelectorAll('#log li')].some(li => li.textContent === 'seat 0: ' + a)", arg=act
            )
        if game == "puerto-rico":
            # A role card on the board is a control: clicking it takes the role.
            page.click("#role-builder.clickable")
            page.wait_for_function("() => document.querySelector('#log li') !== null")
            if "seat 0: builder" not in page.locator("#log").inner_text():
                problems.append("puerto-rico: clicking the builder card did not take the role")
        print(f"{game}: table ok (screenshot {shot})")
        page.close()


def play_by_clicks(context, server, out, problems):
    page = context.new_page()
    watch(page, problems, "play")
    page.goto(server.links["santiago-de-cuba, 2 players, hot-seat"], wait_until="load")
    clicks = 0
    deadline = time.time() + 600
    while time.time() < deadline:
        page.wait_for_selector("#scores, #actions button", timeout=60_000)
        if page.locator("#scores").count():
            break
        hint = page.locator(".hint").inner_text()
        # Alternate between the first and the last action, so the game moves along.
        buttons = page.locator("#actions button")
        (buttons.first if clicks % 2 == 0 else buttons.last).click()
        clicks += 1
        # Wait for the position to move on from the one clicked.
        page.wait_for_function(
            "h => { const e = document.querySelector('.hint'); return !e || e.textContent !== h; }",
            arg=hint,
            timeout=60_000,
        )
    else:
        problems.append("play: the game did not end within 10 minutes")
    page.screenshot(path=str(out / "serve-game-over.png"), full_page=True)
    text = page.locator("#scores").inner_text()
    if "Game over" not in text:
        problems.append(f"play: no final scores shown: {text!r}")
    print(f"played {PLAYED} to its end by {clicks} clicks")
    # Save the record, as a person would, and replay it through the page's form.
    with page.expect_download() as d:
        page.click("#save")
    record = out / "serve-played.json"
    d.value.save_as(str(record))
    # "review this game": the table's own record, every move; then back to the table.
    moves = int(re.search(r"move (\d+)", page.locator(".hint").inner_text()).group(1))
    page.click("#review")
    page.wait_for_selector("#replay-slider")
    if page.locator("#status").inner_text() != f"step 0 of {moves} · round 0 · after setup":
        problems.append(f"play: review this game opened {page.locator('#status').inner_text()!r}, not its {moves} moves")
    page.click("#back-to-table")
    page.wait_for_selector("#again")
    # Play again: the next game, the first listed for review and opened in the replay viewer.
    page.click("#again")
    page.wait_for_function("() => document.querySelector('#title').textContent.includes('game 2')")
    page.wait_for_selector("#games li button")
    page.click("#games li button")
    page.wait_for_selector("#replay-slider")
    steps = page.locator("#status").inner_text()
    if not steps.startswith("step 0 of "):
        problems.append(f"play again: the first game's review opened at {steps!r}")
    print("played again; the first game reviewed from the session's list")
    page.goto(server.base + "/", wait_until="load")
    page.set_input_files("#record-file", str(record))
    page.click("#replay-form button")
    page.wait_for_selector("#replay-slider")
    page.close()
    return record


def step_replay(context, server, out, problems):
    page = context.new_page()
    watch(page, problems, "replay")
    page.goto(server.base + "/?replay=0", wait_until="load")
    page.wait_for_selector("#replay-next")

    def status():
        return page.locator("#status").inner_text()

    def wait_step(n):
        page.wait_for_function("n => document.querySelector('#status').textContent.startsWith('step ' + n + ' ')", arg=n)

    wait_step(0)
    for n in (1, 2, 3):
        page.click("#replay-next")
        wait_step(n)
    page.click("#replay-prev")
    wait_step(2)
    # A log entry jumps there.
    page.click("#log li[data-step='7']")
    wait_step(7)
    page.locator("#replay-slider").fill("40")
    wait_step(40)
    page.select_option("#replay-seat", "1")
    wait_step(40)
    rounds = page.locator("#replay-round option").all_inner_texts()
    page.select_option("#replay-round", index=len(rounds) // 2)
    page.wait_for_function("() => !document.querySelector('#status').textContent.startsWith('step 40 ')")
    page.click("#replay-last")
    page.wait_for_selector("#scores")
    page.screenshot(path=str(out / "serve-replay.png"), full_page=True)
    print(f"replay stepped ({status()})")
    page.close()


def review_and_hint(context, server, out, problems):
    """At every game's table: a hint (the search's choice and its share of visits), then a
    few moves, the log clicked to step the board back, hovered, stepped, and back to now."""
    for i, game in enumerate(GAMES):
        page = context.new_page()
        watch(page, problems, f"review {game}")
        page.goto(f"{server.base}/?table={i}", wait_until="load")
        page.wait_for_selector("#actions button")
        page.click("#hint")
        page.wait_for_selector("#hint-list td")
        choice = page.locator("#hint-panel b").inner_text()
        legal = page.locator("#actions button").evaluate_all("bs => bs.map(b => b.dataset.action)")
        if choice not in legal:
            problems.append(f"hint {game}: the choice {choice!r} is not a legal action")
        if game == "puerto-rico":
            page.screenshot(path=str(out / "serve-hint.png"), full_page=True)
        for _ in range(3):
            if not page.locator("#actions button").count():
                break
            hint = page.locator(".hint").inner_text()
            page.locator("#actions button").first.click()
            page.wait_for_function(
                "h => { const e = document.querySelector('.hint'); return !e || e.textContent !== h; }", arg=hint
            )
            page.wait_for_selector("#actions button, #scores", timeout=60_000)
        page.click("#log li[data-step='1']")
        page.wait_for_selector("#past")
        if "after move 1 " not in page.locator("#past").inner_text():
            problems.append(f"review {game}: the log's first entry shows {page.locator('#past').inner_text()!r}")
        if page.locator("#actions button").count():
            problems.append(f"review {game}: actions offered while looking back")
        page.click("#forward")
        page.wait_for_function("() => (document.querySelector('#past') || {}).textContent.includes('after move 2 ')")
        # The arrow keys step too.
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("() => (document.querySelector('#past') || {}).textContent.includes('after move 1 ')")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => (document.querySelector('#past') || {}).textContent.includes('after move 2 ')")
        page.hover("#log li[data-step='1']")
        page.wait_for_function("() => (document.querySelector('#past') || {}).textContent.includes('after move 1 ')")
        if game == "puerto-rico":
            page.screenshot(path=str(out / "serve-review.png"), full_page=True)
        page.mouse.move(5, 5)
        page.click("#now")
        page.wait_for_function("() => document.querySelector('#past') === null")
        print(f"{game}: hint {choice!r}; the log stepped the board back and to now")
        page.close()


def post_json(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def settled(base, table):
    """The table's position once the bots have moved."""
    while True:
        s = get_json(f"{base}/api/table/{table}")[1]
        if not s["thinking"]:
            return s
        time.sleep(0.05)


def game_over_everywhere(context, rulesmith, out, problems):
    """Each game played to its end through the API (seeded random choices for the person),
    then its page: the final scores, no one named to move, no hint, the log still stepping
    back; "review this game" opens this table's own record (its every move) in the replay
    viewer, which links back to the table."""
    server = start(rulesmith, len(GAMES) + 1, *GAMES, "--players", "2")
    try:
        for i, game in enumerate(GAMES):
            rnd = random.Random(i)
            s = settled(server.base, i)
            while s["outcome"] is None and not s["error"]:
                action = rnd.choice(s["legal"])["action"]
                code, body = post_json(f"{server.base}/api/table/{i}/act", {"move": s["move"], "action": action})
                if code != 200:
                    problems.append(f"game over {game}: `{action}` refused ({code} {body})")
                    break
                s = settled(server.base, i)
            page = context.new_page()
            watch(page, problems, f"game over {game}")
            page.goto(f"{server.base}/?table={i}", wait_until="load")
            page.wait_for_selector("#scores")
            page.screenshot(path=str(out / f"serve-over-{game}.png"), full_page=True)
            status = page.locator("#status").inner_text()
            if status != "The game is over." or "to move" in page.locator("#app").inner_text():
                problems.append(f"game over {game}: the page still names a seat to move ({status!r})")
            if page.locator("#hint-panel, #actions button").count():
                problems.append(f"game over {game}: a hint or an action is offered")
            page.click("#log li[data-step='2']")
            page.wait_for_selector("#past")
            page.click("#now")
            page.wait_for_function("() => document.querySelector('#past') === null")
            page.click("#review")
            page.wait_for_selector("#replay-slider")
            replay = int(re.search(r"replay=(\d+)", page.url).group(1))
            shown = get_json(f"{server.base}/api/replay/{replay}?step={s['move']}")[1]
            if shown["steps"] != s["move"] or shown["log"] != s["log"] or shown["outcome"] != s["outcome"]:
                problems.append(f"game over {game}: the review is not this table's game ({shown['steps']} steps)")
            page.click("#back-to-table")
            page.wait_for_selector("#scores")
            if f"table={i}" not in page.url:
                problems.append(f"game over {game}: back to the table went to {page.url}")
            # Play again: the next game, the finished one listed and reviewed.
            page.click("#again")
            page.wait_for_function("() => document.querySelector('#title').textContent.includes('game 2')")
            page.wait_for_selector("#games li button")
            page.click("#games li button")
            page.wait_for_selector("#replay-slider")
            if not page.locator("#status").inner_text().startswith(f"step 0 of {s['move']} "):
                problems.append(f"play again {game}: game 1's review opened {page.locator('#status').inner_text()!r}")
            print(f"{game}: over after {s['move']} moves; its page, review, the way back and play again checked")
            page.close()
    finally:
        server.stop()


def past_as_either_person(context, rulesmith, out, problems):
    """Two people and a bot at one screen: looking back offers each person's seat (not the
    bot's), and the past view is that seat's (its own pesos shown, the other's hidden)."""
    server = start(rulesmith, 2, "santiago-de-cuba", "--players", "3", "--human", "0", "1", "--seed", "3")
    try:
        page = context.new_page()
        watch(page, problems, "past seat")
        pasts = []
        page.on("response", lambda r: pasts.append(r) if "/past" in r.url else None)
        page.goto(f"{server.base}/?table=0", wait_until="load")
        for _ in range(4):
            page.wait_for_selector("#actions button", timeout=60_000)
            hint = page.locator(".hint").inner_text()
            page.locator("#actions button").first.click()
            page.wait_for_function(
                "h => { const e = document.querySelector('.hint'); return !e || e.textContent !== h; }", arg=hint
            )
        page.wait_for_selector("#log li[data-step='3']")
        page.click("#log li[data-step='3']")
        page.wait_for_selector("#past-seat")
        options = page.locator("#past-seat option").evaluate_all("os => os.map(o => o.value)")
        if options != ["0", "1"]:
            problems.append(f"past seat: the seats offered are {options}, not the people's 0 and 1")
        for seat in ("1", "0"):
            page.select_option("#past-seat", seat)
            page.wait_for_function(
                "s => document.querySelector('#past-seat') && document.querySelector('#past-seat').value === s", arg=seat
            )
            page.wait_for_timeout(300)
            body = pasts[-1].json()
            other = 1 - int(seat)
            view = body["view"]["players"]
            if body["seat"] != int(seat) or body["step"] != 3:
                problems.append(f"past seat: asked for seat {seat} at step 3, got seat {body['seat']} at {body['step']}")
            elif not isinstance(view[int(seat)]["pesos"], int) or view[other]["pesos"] != "hidden":
                problems.append(f"past seat: seat {seat}'s past view shows {view}")
            if seat == "1":
                page.screenshot(path=str(out / "serve-past-seat.png"), full_page=True)
        code, body = get_json(f"{server.base}/api/table/0/past?step=1&view=2")
        if code != 400:
            problems.append(f"past seat: the bot's seat 2 was shown ({code})")
        print(f"past seat: looking back as seat 1 then seat 0 (offered {options}); the bot's seat refused")
        page.close()
    finally:
        server.stop()


def links_in_every_game(context, rulesmith, problems):
    """Every game by links: a seat's page asks for a hint (a legal action, from its view);
    the observer's page shows the whole state (nothing marked hidden, no generator), offers
    nothing to do, and acting as it is refused."""
    server = start(rulesmith, 1 + 2 * len(GAMES), *GAMES, "--players", "2", "--seats", "links")
    try:
        for i, game in enumerate(GAMES):
            seat0 = server.links[f"{game}, seat 0"]
            page = context.new_page()
            watch(page, problems, f"links {game}")
            page.goto(seat0, wait_until="load")
            page.wait_for_selector("#actions button", timeout=60_000)
            page.click("#hint")
            page.wait_for_selector("#hint-list td")
            choice = page.locator("#hint-panel b").inner_text()
            legal = page.locator("#actions button").evaluate_all("bs => bs.map(b => b.dataset.action)")
            if choice not in legal:
                problems.append(f"links {game}: the hint {choice!r} is not a legal action of seat 0")
            link = server.links[f"{game}, observer (sees every hidden holding: not for a player)"]
            token = re.search(r"token=(\w+)", link).group(1)
            page.goto(link, wait_until="load")
            page.wait_for_selector("#board svg")
            page.wait_for_timeout(300)
            if page.locator("#actions button, #hint, #undo, #again").count():
                problems.append(f"links {game}: the observer's page offers something to do")
            code, body = get_json(f"{server.base}/api/table/{i}?seat=observer&token={token}")
            whole = json.dumps(body["view"])
            if code != 200 or '"hidden"' in whole or "rng" in body["view"]:
                problems.append(f"links {game}: the observer's view is not the whole state without the generator")
            code, _ = post_json(
                f"{server.base}/api/table/{i}/act",
                {"move": body["move"], "action": legal[0], "seat": "observer", "token": token},
            )
            if code != 403:
                problems.append(f"links {game}: the observer's action answered {code}, not 403")
            print(f"links {game}: seat 0's hint {choice!r}; the observer sees the whole game and cannot act")
            page.close()
    finally:
        server.stop()


def hints_off_at_one_table(context, rulesmith, problems):
    """`--no-hints=santiago-de-cuba`: its page offers no hint and the API refuses it;
    Puerto Rico's table still offers one."""
    server = start(rulesmith, 3, "puerto-rico", "santiago-de-cuba", "--players", "2", "--no-hints=santiago-de-cuba")
    try:
        page = context.new_page()
        watch(page, problems, "hints off")
        for i, offered in ((0, True), (1, False)):
            page.goto(f"{server.base}/?table={i}", wait_until="load")
            page.wait_for_selector("#actions button")
            if bool(page.locator("#hint").count()) != offered:
                problems.append(f"hints off: table {i} {'does not offer' if offered else 'offers'} the hint")
        s = settled(server.base, 1)
        code, _ = get_json(f"{server.base}/api/table/1/hint?move={s['move']}")
        if code != 403:
            problems.append(f"hints off: the API answered a hint at the table without hints ({code})")
        print("hints off at santiago-de-cuba's table only: not offered, refused; offered at puerto-rico's")
        page.close()
    finally:
        server.stop()


def observer(context, server, problems):
    """The observer's link: every seat's holdings shown, nothing to act with, acting refused."""
    link = server.links["santiago-de-cuba, observer (sees every hidden holding: not for a player)"]
    token = re.search(r"token=(\w+)", link).group(1)
    page = context.new_page()
    watch(page, problems, "observer")
    page.goto(link, wait_until="load")
    page.wait_for_selector("#board svg")
    if page.locator("#actions button").count():
        problems.append("observer: the page offers actions")
    code, body = get_json(f"{server.base}/api/table/0?seat=observer&token={token}")
    if code != 200 or not isinstance(body["view"]["players"][1].get("pesos"), int):
        problems.append(f"observer: the whole game is not shown ({code})")
    req = urllib.request.Request(
        f"{server.base}/api/table/0/act",
        data=json.dumps({"move": body["move"], "action": "x", "seat": "observer", "token": token}).encode(),
        headers={"content-type": "application/json"},
    )
    try:
        urllib.request.urlopen(req, timeout=30)
        problems.append("observer: an action was taken")
    except urllib.error.HTTPError as e:
        if e.code != 403:
            problems.append(f"observer: acting answered {e.code}, not 403")
    print("observer: the whole game shown, acting refused")
    page.close()


def hidden_values(context, rulesmith, out, problems):
    """Two people by link at Santiago de Cuba (goods and pesos are hidden from others)."""
    server = start(rulesmith, 4, "santiago-de-cuba", "--players", "3", "--human", "0", "1", "--seats", "links")
    try:
        seat0 = server.links["santiago-de-cuba, seat 0"]
        seat1 = server.links["santiago-de-cuba, seat 1"]
        token1 = re.search(r"token=(\w+)", seat1).group(1)
        page = context.new_page()
        watch(page, problems, "links")
        seen = []
        page.on(
            "response",
            lambda r: seen.append(r) if "/api/table/" in r.url and "/rules" not in r.url else None,
        )
        page.goto(seat0, wait_until="load")
        page.wait_for_selector("#board svg")
        page.wait_for_timeout(1500)
        page.screenshot(path=str(out / "serve-links-seat0.png"), full_page=True)
        if not seen:
            problems.append("links: seat 0's page fetched no position")
        own1 = get_json(f"{server.base}/api/table/0?seat=1&token={token1}")[1]["view"]["players"][1]
        for r in seen:
            body = r.json()
            other = body["view"]["players"][1]
            if body["seat"] != 0:
                problems.append(f"links: seat 0's page got seat {body['seat']}'s view")
            for key in ("goods", "pesos", "vp"):
                if other.get(key) != "hidden":
                    problems.append(f"links: seat 0's page sees seat 1's {key}: {other.get(key)!r} (seat 1 has {own1.get(key)!r})")
        # Another seat's token opens nothing.
        code, err = get_json(f"{server.base}/api/table/0?seat=0&token={token1}")
        if code != 403:
            problems.append(f"links: seat 1's token opened seat 0 ({code} {err})")
        # Its past views, stepped from the log, hide them too.
        past = get_json(f"{server.base}/api/table/0/past?{seat0.split('?')[1].replace('table=0&', '')}&step=0")[1]
        for key in ("goods", "pesos", "vp"):
            if past["view"]["players"][1].get(key) != "hidden":
                problems.append(f"links: seat 0's past view shows seat 1's {key}")
        observer(context, server, problems)
        page.goto(seat0.replace("seat=0", "seat=2"), wait_until="load")
        page.wait_for_selector("#message:not([hidden])")
        print("links: seat 0's page carries none of seat 1's hidden values; a wrong token is refused")
        # The page's own error message is expected there; its console line is not a fault.
        problems[:] = [p for p in problems if not (p.startswith("links: console") and "403" in p)]
        page.close()
    finally:
        server.stop()


def other_sites(p, chromium, rulesmith, problems):
    """A page of another origin (a second server, on another port) posts a legal action to a
    hot-seat table as a cross-site form would (`text/plain`, no CORS) and as JSON; the game
    must not move. Then a name mapped to 127.0.0.1 (DNS rebinding) must not read the table."""
    table = start(rulesmith, 2, "santiago-de-cuba", "--players", "2", "--human", "0", "1")
    other = start(rulesmith, 2, "santiago-de-cuba", "--players", "2")
    port = table.base.rsplit(":", 1)[1]
    browser = p.chromium.launch(
        executable_path=chromium, headless=True, args=FLAGS + ["--host-resolver-rules=MAP rebound.test 127.0.0.1"]
    )
    try:
        before = get_json(f"{table.base}/api/table/0")[1]
        page = browser.new_page()
        # A document of the other origin without the page's Content-Security-Policy (which
        # would stop the fetches before they leave).
        page.goto(other.base + "/api/tables", wait_until="load")
        tried = page.evaluate(
            """async ([target, move, action]) => {
                const body = JSON.stringify({ move, action });
                const out = {};
                try {
                  await fetch(target + "/api/table/0/act", { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body });
                  out.plain = "sent";
                } catch (e) { out.plain = String(e); }
                try {
                  const r = await fetch(target + "/api/table/0/act", { method: "POST", headers: { "content-type": "application/json" }, body });
                  out.json = r.status;
                } catch (e) { out.json = String(e); }
                return out;
            }""",
            [table.base, before["move"], before["legal"][0]["action"]],
        )
        after = get_json(f"{table.base}/api/table/0")[1]
        if after["move"] != before["move"]:
            problems.append(f"other sites: a page of another origin moved the game ({tried})")
        response = page.goto(f"http://rebound.test:{port}/api/table/0", wait_until="load")
        if response is None or response.status != 403:
            problems.append(f"other sites: a rebound name read the table ({response and response.status})")
        page.close()
        print(f"other sites: another origin's posts did not move the game ({tried}); a rebound name is refused")
    finally:
        browser.close()
        table.stop()
        other.stop()


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    chromium, rulesmith, out = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    problems = []
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=chromium,
            headless=True,
            args=FLAGS,
            viewport={"width": 1280, "height": 900},
            device_scale_factor=1,
            accept_downloads=True,
        )
        server = start(rulesmith, len(GAMES) + 1, *GAMES, "--players", "2")
        try:
            tables(context, server, out, problems)
            review_and_hint(context, server, out, problems)
        finally:
            server.stop()
        server = start(rulesmith, 2, PLAYED, "--players", "2", "--seed", "7")
        try:
            play_by_clicks(context, server, out, problems)
            step_replay(context, server, out, problems)
        finally:
            server.stop()
        hidden_values(context, rulesmith, out, problems)
        game_over_everywhere(context, rulesmith, out, problems)
        past_as_either_person(context, rulesmith, out, problems)
        hints_off_at_one_table(context, rulesmith, problems)
        links_in_every_game(context, rulesmith, problems)
        context.close()
        other_sites(p, chromium, rulesmith, problems)
    for problem in problems:
        print(problem, file=sys.stderr)
    print("serve-check: " + ("FAIL" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
