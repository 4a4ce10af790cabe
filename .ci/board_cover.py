"""Every form of action of every game has its board element. For each game, a corpus of
positions that between them offer every form of action the game's notation has (listed
below, from each game's action grammar: crates/<game>/src/action.rs), collected from
seeded games of a collecting bot (this file run as an `exec:` bot: it plays a random form
of action, then a random action of that form, and keeps the positions that offer a form it
has kept few of) and from the scenario files (tests/scenarios/<game>/, .ci/board-cover/<game>/:
positions random play seldom reaches). Each position's board is drawn in headless Chromium
from the seat's view (`rulesmith state --seat`, the JSON a bot is sent) with its legal
actions, and every legal action is played by clicking the board: a highlighted element (or
a button of the board's bar) that leads to it, then the next, until the board sends it.
Fails, naming the form, for a form no position offered, an action no click sequence
realizes (or one that plays another action), and an action of a form this list lacks; and
for a control whose click something drawn on top takes (`elementFromPoint` at its centre).
Prints per game the positions, actions and forms met; OUT_DIR/board-cover.txt lists where
each form was first met (BOARD_CHECK_GAMES=a,b checks only those;
BOARD_ASSETS=DIR draws with the board modules of DIR, to try a change without a build).

usage: board_cover.py CHROMIUM RULESMITH OUT_DIR
       board_cover.py --bot DIR RULES_JSON   (the collecting bot; rulesmith runs it)
"""

import glob
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import time

GAMES = ["puerto-rico", "puerto-rico-expansion", "santiago-de-cuba", "mundo-163"]
# Positions kept per form by one collecting bot (one seat of one game).
KEEP = 2
# The collecting games: (players, games) per game, seeded.
RUNS = {
    "puerto-rico": [(2, 3), (3, 3), (4, 3), (5, 3)],
    "puerto-rico-expansion": [(2, 3), (3, 3), (4, 3), (5, 3)],
    "santiago-de-cuba": [(2, 3), (3, 3), (4, 3)],
    "mundo-163": [(2, 3), (3, 3), (4, 3)],
}
SEED = 7
# Positions clicked through per form of action (those offering a form met fewer times first
# kept): every legal action of each is played on its board.
PER_FORM = 6

# Every form of action of each game's notation (the board must realize each).
PR_FORMS = [
    "role settler", "role mayor", "role builder", "role craftsman", "role trader", "role captain",
    "role prospector", "role prospector-2",
    "draw", "take GOOD", "take quarry", "take colonist", "take vp",
    "place N on GOOD", "place N on quarry", "place N on BUILDING", "place 0 on GROUP",
    "build BUILDING", "bonus GOOD", "sell GOOD", "ship GOOD on N", "ship GOOD on wharf",
    "keep GOOD… + GOOD", "keep + GOOD", "keep N GOOD…", "pass",
    # Read by the notation but never offered as a choice by these rulesets (their positions
    # are still checked when one turns up): `place N on san-juan` (the mayor's colonists
    # left over go to San Juan by themselves, crates/puerto-rico/src/phases/mayor.rs), and
    # the forced ones, played for the player as the only choice: `keep GOOD…` (a warehouse
    # keeping every kind held), `keep`, `keep nothing`, `return vp` (the black market's last
    # stage).
]
FORMS = {
    "puerto-rico": PR_FORMS,
    "puerto-rico-expansion": PR_FORMS + [
        "plant GOOD", "return colonist from GOOD", "return colonist from quarry", "return colonist from BUILDING",
        "return colonist from san-juan", "return GOOD", "sell GOOD to BUILDING", "use BUILDING",
        "load N GOOD",
        "draft BUILDING", "forest", "forest GOOD", "guest to GOOD", "guest to quarry", "guest to BUILDING",
    ],
    "santiago-de-cuba": [
        "keep aside DIE", "drive N", "give peso", "give vp", "give GOOD", "take GOOD", "claim BUILDING",
        "pawn BUILDING", "skip", "pass", "deliver GOOD N", "deliver GOOD for GOOD N",
        "use bank", "use church", "use distillery N", "use cigar_factory N", "use black_market GOOD for GOOD",
        "use sawmill", "use cafe GOOD", "use cafe GOOD…", "use customs DIE", "use casino buy N", "use casino sell N",
        "use harbour_office right", "use harbour_office left", "use office GOOD", "use newspaper",
        "use newspaper flip CITIZEN",
    ],
    "mundo-163": [
        "capital CITY", "buy PRIVILEGE for N", "buy PRIVILEGE for 0", "no privilege", "upgrade movement",
        "upgrade cargo", "no upgrade", "buy resident TILE", "end purchase", "move TILE TILE", "step TILE TILE",
        # `road TILE TILE pay 0 0` (no resident lost) only where a road costs nothing: no
        # bundled terrain or privilege makes it so.
        "road TILE TILE pay N N lose TILE", "free road TILE TILE", "again TILE",
        "end residents", "go TILE", "load GOOD", "load resident", "unload GOOD", "unload resident", "end trolley",
    ],
}


def vocabulary(game, rules):
    """The ruleset's names of each kind, for telling an action's parameters apart."""
    ids = lambda xs: {x["id"] for x in xs}
    if game.startswith("puerto-rico"):
        goods = set(rules.get("goods", {}))
        return {"role": ids(rules.get("roles", [])), "GOOD": goods, "BUILDING": ids(rules.get("buildings", []))}
    if game == "santiago-de-cuba":
        return {"GOOD": ids(rules.get("goods", [])), "DIE": ids(rules.get("dice", [])),
                "BUILDING": ids(rules.get("buildings", [])), "CITIZEN": ids(rules.get("citizens", []))}
    hexes = {h["name"] for h in rules.get("map", {}).get("hexes", [])}
    goods = set(rules.get("goods", {}).get("types", []))
    return {"TILE": hexes, "GOOD": goods, "CITY": ids(rules.get("cities", [])),
            "PRIVILEGE": ids(rules.get("privilege_types", rules.get("privileges", [])))}


def form(game, vocab, action):
    """The form of an action: its words with each parameter named by its kind."""
    w = action.split()
    if game.startswith("puerto-rico") and len(w) == 1 and action in vocab["role"]:
        return "role " + action
    if (game.startswith("puerto-rico") and w[0] == "build") or (game == "santiago-de-cuba" and w[0] == "pawn"):
        # Each building is an element of its own.
        return action
    out = []
    for i, word in enumerate(w):
        # A building used, or a use's own words, are part of a Santiago use's form.
        if game == "santiago-de-cuba" and w[0] == "use" and i == 1:
            out.append(word)
            continue
        if game == "santiago-de-cuba" and w[0] == "give" and word in ("peso", "vp"):
            out.append(word)
            continue
        if game.startswith("puerto-rico") and w[0] == "place" and i == 1 and word == "0":
            return "place 0 on GROUP"
        if game.startswith("puerto-rico") and w[0] == "ship" and word == "wharf":
            out.append(word)
            continue
        if game == "mundo-163" and w[0] == "buy" and i == 3 and word == "0":
            out.append("0")
            continue
        if game == "mundo-163" and w[0] == "capital" and i == 1:
            out.append("CITY")
            continue
        kind = None if word.isdigit() else next((k for k, names in vocab.items() if k not in ("role", "CITY") and word in names), None)
        out.append(kind or ("N" if word.isdigit() else word))
    text = " ".join(out)
    # A list of goods (`keep sugar coffee`, `keep 3 corn 1 sugar`, `use cafe rum cigars`).
    text = re.sub(r"^keep N GOOD( N GOOD)*", "keep N GOOD…", text)
    text = re.sub(r"^keep GOOD( GOOD)*", "keep GOOD…", text)
    text = re.sub(r"^use (\S+) GOOD( GOOD)+$", r"use \1 GOOD…", text)
    return text


def bot(out_dir, rules_path):
    """The collecting bot (one seat of one game): a random form of action among the legal
    ones, then a random action of it; writes the positions that offer a form it has kept
    fewer than KEEP of."""
    rules = json.loads(pathlib.Path(rules_path).read_text())
    game = rng = seat = players = vocab = None
    kept = {}
    sink = None
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "start":
            game, seat, players = msg["game"], msg["seat"], msg["players"]
            rng = random.Random(msg["seed"])
            vocab = vocabulary(game, rules)
            sink = open(pathlib.Path(out_dir) / f"{game}-{players}-{msg['seed']}-{seat}.jsonl", "w")
        elif msg["type"] == "decide":
            legal = msg["legal"]
            forms = {}
            for i, a in enumerate(legal):
                forms.setdefault(form(game, vocab, a), []).append(i)
            if any(kept.get(f, 0) < KEEP for f in forms):
                for f in forms:
                    kept[f] = kept.get(f, 0) + 1
                sink.write(json.dumps({"seat": seat, "players": players, "view": msg["view"], "legal": legal, "from": "random play", "rules": game}) + "\n")
            pick = rng.choice(forms[rng.choice(sorted(forms))])
            print(json.dumps({"index": pick}), flush=True)
        elif msg["type"] == "end":
            break
    if sink:
        sink.close()


# Plays every legal action of a position by clicking its board, each from a fresh board;
# returns the actions not realized, with why.
CHECK = """async ({ game, ruleset, view, legal, seat, players }) => {
  const module = await Boards.need(game);
  const rules = window.coverRules[ruleset];
  let box = document.getElementById('cover');
  if (!box) { box = document.createElement('div'); box.id = 'cover'; document.body.prepend(box); }
  const acts = e => { try { return JSON.parse(e.getAttribute('data-acts')); } catch (_) { return []; } };
  const failures = [], covered = [];
  const notes = new Map(legal.map(a => [a, '']));
  for (const a of legal) {
    let sent = null;
    const ctx = { players, names: [], seat, toMove: seat, legal: notes, act: x => { sent = x; } };
    const holder = Boards.mount(game, view, rules, ctx);
    box.replaceChildren(holder);
    const clicked = [];
    let why = null;
    for (let n = 0; n < 6 && sent === null; n++) {
      const hits = [...holder.querySelectorAll('[data-acts]')].filter(e => acts(e).includes(a));
      if (!hits.length) { why = n ? 'nothing to click after ' + clicked.join(' → ') : 'no board element'; break; }
      hits.sort((x, y) => acts(x).length - acts(y).length);
      const e = hits[0];
      const spot = () => (e.querySelector(':scope > .face') || e).getBoundingClientRect();
      if (!spot().width || !spot().height) { why = (e.getAttribute('data-key') || e.textContent) + ' is not drawn'; break; }
      // Where a person clicks it (its face's centre) nothing drawn on top takes the click.
      e.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const r = spot(), top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!top || !(top === e || e.contains(top))) {
        covered.push((e.getAttribute('data-key') || e.textContent) + ' under ' + (top ? (top.getAttribute('class') || top.tagName) : 'nothing') + ' (for `' + a + '`)');
      }
      clicked.push(e.getAttribute('data-key') || e.textContent);
      e.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    }
    if (sent !== a) failures.push({ action: a, why: sent !== null ? 'played `' + sent + '`' : why || 'more than 6 clicks: ' + clicked.join(' → ') });
  }
  box.replaceChildren();
  return { failures, covered };
}"""


def toml(value):
    """A value as TOML (what a scenario's `[set]` holds: numbers, strings, lists, tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {toml(v)}" for k, v in value.items()) + " }"


# The most positions taken from one scenario (its setup, then after each action).
SCENARIO_PREFIXES = 40


def prefixes(root, files, work):
    """Each scenario's positions: its setup, then after each of its actions, as a scenario
    of their own (the setup and the actions so far, in one step)."""
    import tomllib

    for f in files:
        doc = tomllib.loads(pathlib.Path(f).read_text())
        ruleset = doc["ruleset"]
        if ruleset.endswith(".toml") or "/" in ruleset:
            ruleset = str((pathlib.Path(f).parent / ruleset).resolve())
        plays = []
        for step in doc.get("step", []):
            play = step.get("play", [])
            plays.extend([play] if isinstance(play, str) else play)
        head = [f"ruleset = {json.dumps(ruleset)}"]
        head += [f"{k} = {toml(doc[k])}" for k in ("players", "seed") if k in doc]
        if doc.get("set"):
            head.append("[set]")
            head += [f"{json.dumps(k)} = {toml(v)}" for k, v in doc["set"].items()]
        for k in range(min(len(plays), SCENARIO_PREFIXES) + 1):
            step = ["[[step]]", f"play = {toml(plays[:k])}", "expect.over = false"]
            yield f"{os.path.relpath(f, root)} after {k} actions", ruleset, "\n".join(head + step) + "\n"


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"board-cover: `{' '.join(cmd)}` failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def collect(rulesmith, game, rules_path, work):
    """The corpus of a game: positions of the collecting bot's games and of the scenarios."""
    positions = []
    bots = f"exec:{sys.executable} {pathlib.Path(__file__).resolve()} --bot {work} {rules_path}"
    for players, games in RUNS[game]:
        run([rulesmith, "simulate", game, "--players", str(players), "--games", str(games), "--seed", str(SEED),
             "--bots", bots, "--no-metrics", "--threads", "2", "--format", "json"])
    for f in sorted(glob.glob(str(work / f"{game}-*.jsonl"))):
        with open(f) as lines:
            positions.extend(json.loads(line) for line in lines if line.strip())
    root = pathlib.Path(__file__).resolve().parent.parent
    own = root / ".ci/board-cover" / game
    if own.is_dir():
        # This check's own scenarios hold what they say (their expectations pass).
        run([rulesmith, "run", str(own)])
    files = sorted(glob.glob(str(root / "tests/scenarios" / game / "**/*.toml"), recursive=True) + glob.glob(str(root / ".ci/board-cover" / game / "*.toml")))
    for n, (name, ruleset, scenario) in enumerate(prefixes(root, files, work)):
        path = work / f"{game}-scenario-{n}.toml"
        path.write_text(scenario)
        legal = json.loads(run([rulesmith, "legal", str(path), "--format", "json"]))
        if legal["over"] or not legal["legal"]:
            continue
        seat = legal["to_move"]
        view = json.loads(run([rulesmith, "state", str(path), "--seat", str(seat)]))
        players = len(view.get("players", [])) or 2
        positions.append({"seat": seat, "players": players, "view": view, "legal": legal["legal"], "from": name, "rules": ruleset})
    return positions


def select(positions, game, vocab):
    """The positions clicked through: scenarios' first, then random play's, each kept while
    one of its forms has been met fewer than PER_FORM times."""
    met = {}
    chosen = []
    for pos in sorted(positions, key=lambda p: p["from"] == "random play"):
        forms = {form(game, vocab, a) for a in pos["legal"]}
        if any(met.get(f, 0) < PER_FORM for f in forms):
            chosen.append(pos)
            for f in forms:
                met[f] = met.get(f, 0) + 1
    return chosen


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--bot":
        bot(sys.argv[2], sys.argv[3])
        return 0
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    from html_check import FLAGS
    from serve_check import start, watch

    chromium, rulesmith, out = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    problems = []
    summary = []
    only = [g for g in os.environ.get("BOARD_CHECK_GAMES", ",".join(GAMES)).split(",") if g in GAMES]
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        work = pathlib.Path(tmp)
        context = p.chromium.launch_persistent_context(
            str(work / "profile"), executable_path=chromium, headless=True, args=FLAGS,
            viewport={"width": 1400, "height": 1100}, device_scale_factor=1,
        )
        server = start(rulesmith, 2, "puerto-rico", "--players", "2", "--seed", "1")
        try:
            page = context.new_page()
            watch(page, problems, "board-cover")
            if os.environ.get("BOARD_ASSETS"):
                # The board modules read from this folder instead (trying a change without a build).
                folder = pathlib.Path(os.environ["BOARD_ASSETS"])
                page.route("**/assets/boards**", lambda route: route.fulfill(
                    body=(folder / route.request.url.split("/assets/", 1)[1]).read_text(), content_type="text/javascript"))
            page.goto(server.base + "/", wait_until="load")
            page.evaluate("() => { window.coverRules = {}; }")
            for game in only:
                started = time.time()
                rules_path = work / f"rules-{game}.json"
                rules_path.write_text(run([rulesmith, "show", game, "--format", "json"]))
                rules = json.loads(rules_path.read_text())
                vocab = vocabulary(game, rules)
                positions = select(collect(rulesmith, game, rules_path, work), game, vocab)
                met, failed, actions = {}, {}, 0
                for ruleset in sorted({pos["rules"] for pos in positions}):
                    # Each position drawn with its own ruleset's rules (a house rule's too).
                    page.evaluate("([k, r]) => { window.coverRules[k] = r; }", [ruleset, json.loads(run([rulesmith, "show", ruleset, "--format", "json"]))])
                for pos in positions:
                    for a in pos["legal"]:
                        met.setdefault(form(game, vocab, a), pos["from"])
                    actions += len(pos["legal"])
                    found = page.evaluate(CHECK, {"game": game, "ruleset": pos["rules"], "view": pos["view"], "legal": pos["legal"], "seat": pos["seat"], "players": pos["players"]})
                    for c in found["covered"][:3]:
                        problems.append(f"{game}: a click on {c} is taken by what is drawn on top ({pos['from']})")
                    for f in found["failures"]:
                        failed.setdefault(form(game, vocab, f["action"]), []).append(f"`{f['action']}` ({f['why']}; {pos['from']})")
                # `build BUILDING` (Puerto Rico), `pawn BUILDING` (Santiago de Cuba) stand for
                # one form per building of the ruleset.
                each = "build" if game.startswith("puerto-rico") else "pawn" if game == "santiago-de-cuba" else None
                expected = [f for f in FORMS[game] if f != f"{each} BUILDING"] + sorted(f"{each} {b}" for b in vocab.get("BUILDING", ()) if each)
                line = f"{game}: {len(positions)} positions, {actions} legal actions clicked, {len([f for f in expected if f in met])} of {len(expected)} forms met"
                print(f"{line}, {time.time() - started:.0f} s")
                summary.append(line + "\n" + "".join(f"  {f}: first in {met[f]}\n" for f in expected if f in met))
                for f in expected:
                    if f not in met:
                        problems.append(f"{game}: no position offers `{f}` (add a scenario to .ci/board-cover/{game}/)")
                for f in sorted(met):
                    if f not in expected:
                        problems.append(f"{game}: `{f}` is a form of action this check does not list (met in {met[f]})")
                for f, why in sorted(failed.items()):
                    problems.append(f"{game}: `{f}` has no board element realizing it: {len(why)} actions, e.g. " + "; ".join(why[:3]))
        finally:
            server.stop()
        context.close()
    for problem in problems:
        print(problem, file=sys.stderr)
    (out / "board-cover.txt").write_text("".join(summary) + "".join(p + "\n" for p in problems))
    print("board-cover: " + ("FAIL" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
