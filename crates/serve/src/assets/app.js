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

function logPanel(log, names, current) {
  const ol = el("ol", { class: "log", id: "log" });
  log.forEach(([s, a], i) => ol.append(el("li", { class: i + 1 === current ? "current" : null, text: "seat " + s + ": " + a })));
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

async function table(id) {
  const seat = params.get("seat"), token = params.get("token");
  const q = seat !== null ? "?seat=" + encodeURIComponent(seat) + "&token=" + encodeURIComponent(token || "") : "";
  const rules = await api("/api/table/" + id + "/rules");
  let state = null, timer = null, sending = false;

  async function refresh() {
    try {
      const s = await api("/api/table/" + id + q);
      if (!state || s.move !== state.move || s.thinking !== state.thinking || s.error !== state.error) { state = s; render(); }
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
      state = s; render();
    } catch (e) { say(e.message); refresh(); }
    finally { sending = false; schedule(); }
  }
  function act(action) { send("/act", { action }); }

  function render() {
    const s = state;
    $title.textContent = s.ruleset + " · table " + s.table + (s.seating === "links" ? " · your seat: " + s.seat : " · hot-seat");
    const legal = new Map(s.legal.map(l => [l.action, l.note]));
    const board = drawBoard(s.game, s.view, rules, { players: s.players, names: s.names, seat: s.seat, toMove: s.to_move, legal, act, outcome: s.outcome });
    let status;
    if (s.outcome) status = "The game is over.";
    else if (s.error) status = "Play stopped: " + s.error;
    else if (s.acts) status = seatName(s.names, s.to_move) + " to move: choose an action.";
    else if (s.to_move !== null) status = seatName(s.names, s.to_move) + " to move" + (s.thinking ? " (the bots are moving…)" : "…");
    const actions = el("ul", { class: "actions", id: "actions" });
    for (const l of s.legal) {
      actions.append(el("li", {}, el("button", { type: "button", "data-action": l.action, onclick: () => act(l.action) }, l.action, l.note ? el("span", { class: "note", text: l.note }) : null)));
    }
    const tools = el("div", { class: "controls" },
      s.undo ? el("button", { type: "button", id: "undo", onclick: () => send("/undo", {}), text: "Undo" }) : null,
      s.record ? el("a", { href: "/api/table/" + s.table + "/record" + q, download: "", id: "save", text: "Save the record" }) : null,
      el("span", { class: "hint", text: "move " + s.move + " · round " + s.round + " · view of seat " + s.seat }));
    $app.replaceChildren(el("div", { class: "layout" },
      el("div", { class: "board", id: "board" }, board),
      el("div", {},
        el("div", { class: "panel" }, el("div", { class: "status", id: "status", text: status }), tools),
        s.outcome ? scores(s.outcome, s.names) : null,
        s.legal.length ? el("div", { class: "panel" }, el("h2", { text: "Your actions" }), actions) : null,
        logPanel(s.log, s.names, null))));
  }

  await refresh();
}

// ---- a replay ----

async function replay(id) {
  const rules = await api("/api/replay/" + id + "/rules");
  let step = Number(params.get("step") || 0) || 0;
  let seat = params.get("seat") || "observer";
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
        logPanel(d.log, d.names, d.step))));
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
