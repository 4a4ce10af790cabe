// rulesmith serve: the page. Reads the position from the server's JSON API and draws it;
// every value shown comes from the seat's view (or the observer's state in a replay).
"use strict";

const $app = document.getElementById("app");
const $msg = document.getElementById("message");
const $title = document.getElementById("title");
const params = new URLSearchParams(location.search);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

function say(text) {
  if (text) { $msg.textContent = text; $msg.hidden = false; } else { $msg.hidden = true; $msg.textContent = ""; }
}

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (_) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || ("HTTP " + r.status));
  return data;
}

function seatName(names, s) { return "seat " + s + (names && names[s] ? " (" + names[s] + ")" : ""); }

function scores(outcome, names) {
  const order = outcome.scores.map((_, s) => s).sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
  return el("div", { class: "panel", id: "scores" },
    el("h2", { text: "Game over (" + String(outcome.end).replace(/_/g, " ") + ")" + (outcome.unfinished ? ": stopped by a safety cap" : "") }),
    el("table", { class: "scores" },
      el("tr", {}, el("th", { text: "rank" }), el("th", { text: "seat" }), el("th", { text: "points" })),
      order.map(s => el("tr", {}, el("td", { text: outcome.ranks[s] + 1 }), el("td", { text: seatName(names, s) }), el("td", { text: outcome.scores[s] })))));
}

// The move log; `pick` (optional): called with a step (the position after that entry) when
// an entry is clicked, and `peek` when one is hovered (null: the pointer left the log).
function logPanel(log, names, current, pick, peek) {
  const ol = el("ol", { class: "log" + (pick ? " steps" : ""), id: "log" });
  log.forEach(([s, a], i) => ol.append(el("li", {
    class: i + 1 === current ? "current" : null, text: "seat " + s + ": " + a, "data-step": i + 1,
    title: pick ? "show the board after this move" : null,
    onclick: pick ? () => pick(i + 1) : null,
    // A pointer moved onto the entry (not the list redrawn under a still one).
    onmousemove: peek ? () => peek(i + 1) : null,
  })));
  if (peek) ol.addEventListener("mouseleave", () => peek(null));
  const panel = el("div", { class: "panel" }, el("h2", { text: "Moves (" + log.length + ")" }), ol);
  requestAnimationFrame(() => {
    const cur = ol.querySelector(".current");
    if (cur) cur.scrollIntoView({ block: "nearest" }); else ol.scrollTop = ol.scrollHeight;
  });
  return panel;
}

function drawBoard(game, view, rules, ctx) {
  // The game's own board module (assets/boards/<game>.js) draws it and turns clicks into actions.
  return window.Boards.mount(game, view, rules || {}, ctx);
}

// ---- index ----

async function index() {
  $title.textContent = "tables and replays";
  const d = await api("/api/tables");
  const tables = el("ul", { class: "tables" });
  for (const t of d.tables) {
    const label = t.ruleset + " · " + t.players + " players · " + t.names.map((n, i) => i + ":" + n).join(", ");
    tables.append(el("li", {}, d.seating === "hot-seat" ? el("a", { href: "/?table=" + t.id, text: label }) : el("span", { text: label + " (open your seat's link as printed by the server)" })));
  }
  if (!d.tables.length) tables.append(el("li", { text: "none (name rulesets to `rulesmith serve` to play them)" }));
  const replays = el("ul", { class: "tables", id: "replays" });
  for (const r of d.replays) {
    replays.append(el("li", {}, el("a", { href: "/?replay=" + r.id, text: r.ruleset + " · " + r.players + " players · " + r.steps + " decisions" })));
  }
  if (!d.replays.length) replays.append(el("li", { text: "none yet" }));
  const file = el("input", { type: "file", id: "record-file", accept: ".json,.jsonl,application/json" });
  const form = el("form", { id: "replay-form", onsubmit: async ev => {
    ev.preventDefault();
    const f = file.files && file.files[0];
    if (!f) { say("Choose a record file first."); return; }
    try {
      const r = await api("/api/replays", { record: await f.text() });
      location.href = "/?replay=" + r.replay;
    } catch (e) { say(e.message); }
  } }, file, " ", el("button", { type: "submit", text: "Replay" }));
  $app.replaceChildren(
    el("h1", { text: "Tables" }), tables,
    el("h1", { text: "Replays" }), replays,
    el("p", {}, "Step through a record (one game's line, as written by ", el("code", { text: "play --record" }), " or ", el("code", { text: "serve --record" }), ", of a ruleset this server plays):"),
    form);
}

// ---- a table ----

// Sends a table's record (this game's, or the session's game `game`) to the replay viewer.
async function review(id, q, game) {
  const sep = q ? "&" : "?";
  const r = await fetch("/api/table/" + id + "/record" + q + (game === undefined ? "" : sep + "game=" + game));
  const text = await r.text();
  if (!r.ok) { let m = "HTTP " + r.status; try { m = JSON.parse(text).error; } catch (_) { /* not JSON */ } throw new Error(m); }
  const added = await api("/api/replays", { record: text });
  // The replay page links back here (this page's own address: a seat's link keeps its token).
  location.href = "/?replay=" + added.replay + "&back=" + encodeURIComponent(location.pathname + location.search);
}

async function table(id) {
  const seat = params.get("seat"), token = params.get("token");
  const q = seat !== null ? "?seat=" + encodeURIComponent(seat) + "&token=" + encodeURIComponent(token || "") : "";
  const amp = q ? "&" : "?";
  const rules = await api("/api/table/" + id + "/rules");
  let state = null, timer = null, sending = false;
  // Looking back: the step pinned by a click (null: now) and the one under the pointer.
  let pinned = null, peeked = null, past = null, hint = null;
  // At a hot-seat table: the person's seat whose past view to show (null: the seat shown now).
  let pastSeat = null;

  async function refresh() {
    try {
      const s = await api("/api/table/" + id + q);
      if (!state || s.move !== state.move || s.thinking !== state.thinking || s.error !== state.error || s.number !== state.number) {
        if (state && (s.move !== state.move || s.number !== state.number)) hint = null;
        if (state && s.number !== state.number) { pinned = null; past = null; }
        state = s; render();
      }
    } catch (e) { say(e.message); }
    schedule();
  }
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(refresh, state && state.thinking ? 300 : 1000);
  }
  async function send(path, body) {
    if (sending) return;
    sending = true;
    try {
      const s = await api("/api/table/" + id + path, Object.assign({ move: state.move }, seat !== null ? { seat, token } : {}, body));
      say("");
      hint = null; pinned = null; past = null;
      state = s; render();
    } catch (e) { say(e.message); refresh(); }
    finally { sending = false; schedule(); }
  }
  function act(action) { send("/act", { action }); }

  // The board after `step` moves, as this page's seat saw it then (computed by the server).
  async function show(step) {
    const want = step === null ? null : Math.max(0, Math.min(state.move, step));
    if (want === null) { past = null; render(); return; }
    try {
      const p = await api("/api/table/" + id + "/past" + q + amp + "step=" + want + (pastSeat !== null ? "&view=" + pastSeat : ""));
      if ((peeked !== null ? peeked : pinned) !== want) return;
      past = p; say(""); render();
    } catch (e) { say(e.message); }
  }
  function pick(step) { pinned = step >= state.move ? null : step; peeked = null; if (pinned === null) pastSeat = null; show(pinned); }
  function peek(step) {
    if (step === peeked) return;
    peeked = step;
    show(step !== null ? step : pinned);
  }

  async function askHint() {
    try {
      hint = { waiting: true };
      render();
      hint = await api("/api/table/" + id + "/hint" + q + amp + "move=" + state.move);
    } catch (e) { hint = null; say(e.message); }
    render();
  }

  function hintPanel(s) {
    if (!s.hints) return null;
    const ask = el("button", { type: "button", id: "hint", onclick: askHint, disabled: hint && hint.waiting, text: hint && hint.waiting ? "Searching…" : "What would the bot do?" });
    const body = [];
    if (hint && hint.top) {
      body.push(el("p", { class: "hint-choice" }, "The search would choose ", el("b", { text: hint.choice }), " (" + hint.iterations + " iterations, from your view only; not played):"));
      body.push(el("table", { class: "hints", id: "hint-list" },
        el("tr", {}, el("th", { text: "action" }), el("th", { text: "share of visits" })),
        hint.top.map(t => el("tr", {},
          el("td", {}, el("button", { type: "button", class: "link", onclick: () => act(t.action), text: t.action, title: "play this move" })),
          el("td", {}, el("span", { class: "bar", style: "width:" + Math.round(100 * t.share) + "px" }), " " + Math.round(100 * t.share) + "%")))));
    }
    return el("div", { class: "panel", id: "hint-panel" }, el("h2", { text: "Hint" }), ask, body);
  }

  function gamesPanel(s) {
    if (!s.games.length && !s.outcome) return null;
    const list = el("ul", { class: "tables", id: "games" });
    s.games.forEach(g => list.append(el("li", {}, "game " + (g.game + 1) + " · " + g.moves + " moves" + (g.outcome ? " · points " + g.outcome.scores.join("–") : " · stopped") + " ",
      el("button", { type: "button", class: "link", onclick: () => review(id, q, g.game).catch(e => say(e.message)), text: "review" }))));
    if (s.outcome || s.record) list.append(el("li", {}, "game " + (s.number + 1) + (s.outcome ? " · over " : " · in play "),
      s.outcome || s.record ? el("button", { type: "button", class: "link", id: "review", onclick: () => review(id, q).catch(e => say(e.message)), text: "review this game" }) : null));
    return el("div", { class: "panel" }, el("h2", { text: "This session's games" }), list);
  }

  function render() {
    const s = state;
    const looking = past !== null;
    // A step pinned from the log puts the actions away; a hovered one only shows the board.
    const pinnedBack = looking && pinned !== null;
    const who = s.observer ? " · observer (every hidden holding shown)" : s.seating === "links" ? " · your seat: " + s.seat : " · hot-seat";
    $title.textContent = s.ruleset + " · table " + s.table + (s.number ? " · game " + (s.number + 1) : "") + who;
    const legal = looking ? new Map() : new Map(s.legal.map(l => [l.action, l.note]));
    const offered = pinnedBack ? [] : s.legal;
    const view = looking ? past.view : s.view;
    // A past position is drawn with nothing clickable (no `act`) and no final scores.
    const board = looking
      ? drawBoard(s.game, view, rules, { players: s.players, names: s.names, seat: past.seat, toMove: past.to_move, legal })
      : drawBoard(s.game, view, rules, { players: s.players, names: s.names, seat: s.seat, toMove: s.to_move, legal, act, outcome: s.outcome });
    let status;
    if (s.outcome) status = "The game is over.";
    else if (s.error) status = "Play stopped: " + s.error;
    else if (s.acts) status = seatName(s.names, s.to_move) + " to move: choose an action.";
    else if (s.to_move !== null) status = seatName(s.names, s.to_move) + " to move" + (s.thinking ? " (the bots are moving…)" : "…");
    const actions = el("ul", { class: "actions", id: "actions" });
    for (const l of offered) {
      actions.append(el("li", {}, el("button", { type: "button", "data-action": l.action, onclick: () => act(l.action) }, l.action, l.note ? el("span", { class: "note", text: l.note }) : null)));
    }
    const tools = el("div", { class: "controls" },
      s.undo ? el("button", { type: "button", id: "undo", onclick: () => send("/undo", {}), text: "Undo" }) : null,
      s.again ? el("button", { type: "button", id: "again", onclick: () => send("/next", {}), text: "Play again" }) : null,
      s.record ? el("a", { href: "/api/table/" + s.table + "/record" + q, download: "", id: "save", text: "Save the record" }) : null,
      el("span", { class: "hint", text: "move " + s.move + " · round " + s.round + (s.observer ? " · the whole game" : " · view of seat " + s.seat) }));
    const shown = looking ? past.step : s.move;
    const travel = el("div", { class: "controls", id: "travel" },
      el("button", { type: "button", id: "back", disabled: shown === 0, onclick: () => pick(shown - 1), text: "◀ back" }),
      el("button", { type: "button", id: "forward", disabled: !looking, onclick: () => pick(shown + 1), text: "forward ▶" }),
      looking ? el("button", { type: "button", id: "now", class: "now", onclick: () => pick(state.move), text: "back to now" }) : null);
    // At one screen, any person's seat may look back as it saw the game (never a bot's).
    const seatPicker = looking && s.seating === "hot-seat" && s.people.length > 1
      ? el("select", { id: "past-seat", title: "whose view of the past", onchange: ev => { pastSeat = Number(ev.target.value); show(past.step); } },
        s.people.map(p => el("option", { value: String(p), text: seatName(s.names, p), selected: p === past.seat })))
      : null;
    const banner = looking ? el("div", { class: "past", id: "past" }, "Looking back: the board after move " + past.step + " of " + s.move + " (round " + past.round + "), as ",
      seatPicker || (past.seat === null ? "the observer" : "seat " + past.seat), " saw it.") : null;
    $app.replaceChildren(el("div", { class: "layout" },
      el("div", { class: "board" + (looking ? " looking" : ""), id: "board" }, banner, board),
      el("div", {},
        el("div", { class: "panel" }, el("div", { class: "status", id: "status", text: status }), tools, travel),
        s.outcome ? scores(s.outcome, s.names) : null,
        offered.length ? el("div", { class: "panel" }, el("h2", { text: "Your actions" }), actions) : null,
        !pinnedBack ? hintPanel(s) : null,
        gamesPanel(s),
        logPanel(s.log, s.names, looking ? past.step : null, pick, peek))));
  }

  // ← and → step the board back and forth, as in the replay viewer.
  document.addEventListener("keydown", ev => {
    if (!state || ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    const at = past !== null ? past.step : state.move;
    if (ev.key === "ArrowLeft" && at > 0) pick(at - 1);
    if (ev.key === "ArrowRight" && past !== null) pick(at + 1);
  });
  await refresh();
}

// ---- a replay ----

async function replay(id) {
  const rules = await api("/api/replay/" + id + "/rules");
  let step = Number(params.get("step") || 0) || 0;
  let seat = params.get("seat") || "observer";
  // Opened by "review" at a table: its page, to return to (this server's own tables only).
  const back = (params.get("back") || "").startsWith("/?table=") ? params.get("back") : null;
  let data = await api("/api/replay/" + id + "?step=" + step + "&seat=" + seat);

  async function go(n) {
    step = Math.max(0, Math.min(data.steps, n));
    try {
      data = await api("/api/replay/" + id + "?step=" + step + "&seat=" + seat);
      say("");
      render();
    } catch (e) { say(e.message); }
  }

  function render() {
    const d = data;
    $title.textContent = "replay of " + d.ruleset + " · " + d.players + " players";
    const seats = el("select", { id: "replay-seat", onchange: ev => { seat = ev.target.value; go(step); } },
      el("option", { value: "observer", text: "observer (sees everything)", selected: seat === "observer" }),
      Array.from({ length: d.players }, (_, s) => el("option", { value: String(s), text: seatName(d.names, s), selected: seat === String(s) })));
    const rounds = [...new Set(d.rounds)];
    const round = el("select", { id: "replay-round", onchange: ev => go(d.rounds.indexOf(Number(ev.target.value))) },
      rounds.map(r => el("option", { value: String(r), text: "round " + r, selected: r === d.round })));
    const slider = el("input", { type: "range", id: "replay-slider", min: 0, max: d.steps, value: d.step, oninput: ev => go(Number(ev.target.value)) });
    const controls = el("div", { class: "controls" },
      back ? el("a", { href: back, id: "back-to-table", text: "back to the table" }) : null,
      el("button", { type: "button", id: "replay-first", onclick: () => go(0), text: "« first" }),
      el("button", { type: "button", id: "replay-prev", onclick: () => go(step - 1), text: "◀ previous" }),
      el("button", { type: "button", id: "replay-next", onclick: () => go(step + 1), text: "next ▶" }),
      el("button", { type: "button", id: "replay-last", onclick: () => go(d.steps), text: "last »" }),
      slider);
    const board = drawBoard(d.game, d.view, rules, { players: d.players, names: d.names, seat: d.seat, toMove: d.to_move, legal: new Map(), outcome: d.outcome });
    const last = d.step > 0 ? d.log[d.step - 1] : null;
    $app.replaceChildren(el("div", { class: "layout" },
      el("div", { class: "board", id: "board" }, board),
      el("div", {},
        el("div", { class: "panel" },
          el("div", { class: "status", id: "status", text: "step " + d.step + " of " + d.steps + " · round " + d.round + (last ? " · last: seat " + last[0] + " " + last[1] : " · after setup") }),
          controls,
          el("div", { class: "controls" }, "as ", seats, " jump to ", round)),
        d.outcome ? scores(d.outcome, d.names) : null,
        // A log entry jumps to the board after it, as at a table.
        logPanel(d.log, d.names, d.step, n => go(n)))));
  }
  document.addEventListener("keydown", ev => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    if (ev.key === "ArrowRight") go(step + 1);
    if (ev.key === "ArrowLeft") go(step - 1);
  });
  render();
}

async function main() {
  try {
    if (params.has("table")) await table(Number(params.get("table")));
    else if (params.has("replay")) await replay(Number(params.get("replay")));
    else await index();
  } catch (e) {
    say(e.message);
    $app.replaceChildren(el("p", {}, el("a", { href: "/", text: "All tables and replays" })));
  }
}

main();
