// rulesmith serve: the board kit. Each game's board is a module of its own,
// assets/boards/<game>.js, loaded by the game's id when a table or replay of it opens; it
// registers { draw, path } here:
//
// - draw(view, rules, ctx) returns the board as SVG, drawn from a seat's view JSON (or the
//   observer's state in a replay): a value the seat may not see arrives as "hidden" and is
//   drawn as "?". An element that may be clicked carries data-key, one or more keys
//   separated by spaces ("face:corn", "hex:c4").
// - path(action, view, rules, ctx) names the keys that realize a legal action, clicked in
//   order (["good:corn", "ship:6"]), or null for an action only the list offers. A key
//   "btn:LABEL" is a button in the bar under the board, shown while it is a next click.
//
// The kit highlights every element whose key starts or continues a legal action's path;
// a click plays the action as soon as one action is left, else it waits (the picked
// elements marked, a Cancel button and Escape to go back) and offers the actions that end
// there as buttons. Each clickable element says the actions it leads to in data-acts.
"use strict";

(function () {
  const NS = "http://www.w3.org/2000/svg";
  const SEAT = ["#d94c3d", "#3d7bd9", "#d9a21b", "#3da55a", "#8e5bd0"];
  const modules = {};
  const loading = {};

  function S(tag, attrs, ...kids) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
    for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  }
  function H(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  }
  const show = v => v === "hidden" ? "?" : v === null || v === undefined ? "–" : String(v);
  const T = (x, y, s, attrs) => S("text", Object.assign({ x, y, "font-size": 12, fill: "#222" }, attrs || {}), show(s));
  const svg = (w, h, ...kids) => S("svg", { viewBox: "0 0 " + w + " " + h, width: w, height: h, "font-family": "system-ui, sans-serif", role: "img" }, ...kids);
  const title = (node, text) => { node.append(S("title", {}, text)); return node; };
  const entries = o => (o && typeof o === "object") ? Object.entries(o) : [];
  const short = id => String(id).replace(/[-_]/g, " ");
  // A clickable element: a group with its keys, its first shape the face the highlight outlines.
  const ctl = (keys, attrs, ...kids) => S("g", Object.assign({ "data-key": [].concat(keys).filter(Boolean).join(" ") || null }, attrs || {}), ...kids);
  const face = attrs => S("rect", Object.assign({ class: "face" }, attrs));
  function seatLabel(ctx, s) {
    return "seat " + s + (ctx.names && ctx.names[s] ? " · " + ctx.names[s] : "") + (ctx.seat === s ? " (you)" : "");
  }
  // A legend: swatches and their meanings in rows of `perRow`, from (x, y); returns [group, height].
  function legend(x, y, items, perRow, colW) {
    const g = S("g", { class: "legend" });
    items.forEach(([swatch, label], i) => {
      const cx = x + (i % perRow) * colW, cy = y + Math.floor(i / perRow) * 18;
      g.append(swatch(cx, cy), T(cx + 20, cy + 11, label, { "font-size": 11 }));
    });
    return [g, Math.ceil(items.length / perRow) * 18];
  }
  const box = fill => (x, y) => S("rect", { x, y, width: 14, height: 14, rx: 2, fill, stroke: "#333" });
  const dot = fill => (x, y) => S("circle", { cx: x + 7, cy: y + 7, r: 6, fill, stroke: "#333" });
  // The legend's entries for the controls: what a click plays, what was picked.
  const controls = [
    [(x, y) => S("rect", { x, y, width: 14, height: 14, fill: "#fff", stroke: "#e08a00", "stroke-width": 3 }), "a click plays"],
    [(x, y) => S("rect", { x, y, width: 14, height: 14, fill: "#fff", stroke: "#c0168a", "stroke-width": 3, "stroke-dasharray": "4 2" }), "picked: click the next"],
  ];
  // The final scores, for a board's own game-over line.
  function finalLine(outcome, ctx) {
    const order = outcome.scores.map((_, s) => s).sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
    return "Game over · " + order.map(s => seatLabel(ctx, s) + ": " + outcome.scores[s]).join(" · ");
  }

  // Loads the module of a game (once, with what it builds on); resolves to it, or rejects
  // when there is none.
  const ready = {};
  function need(game) {
    if (ready[game]) return Promise.resolve(ready[game]);
    if (!/^[a-z0-9][a-z0-9-]*$/.test(game)) return Promise.reject(new Error("no board drawing for " + game));
    if (!loading[game]) {
      loading[game] = new Promise((resolve, reject) => {
        const tag = document.createElement("script");
        tag.src = "/assets/boards/" + game + ".js";
        tag.onload = () => {
          const m = modules[game];
          if (!m) { reject(new Error("the board module of " + game + " registered nothing")); return; }
          Promise.resolve(m.ready).then(() => { ready[game] = m; resolve(m); }, reject);
        };
        tag.onerror = () => reject(new Error("no board drawing for " + game));
        document.head.append(tag);
      });
    }
    return loading[game];
  }
  function register(game, module) { modules[game] = module; }

  const startsWith = (path, prefix) => prefix.every((k, i) => path[i] === k);
  const keysOf = node => (node.getAttribute("data-key") || "").split(/\s+/).filter(Boolean);
  let current = null;
  // The last action a board sent, and how many it has sent (for tests).
  let sent = { count: 0, action: null };
  document.addEventListener("keydown", ev => { if (ev.key === "Escape" && current) current.cancel(); });

  // The board of a position, in a box of its own: the drawing, then a bar of buttons.
  function mount(game, view, rules, ctx) {
    const holder = H("div", { class: "board-box" });
    let pending = [];
    const plays = ctx.act && ctx.legal && ctx.legal.size;
    function paint(module) {
      let paths = [];
      if (plays) {
        for (const action of ctx.legal.keys()) {
          let p = null;
          try { p = module.path(action, view, rules, ctx); } catch (e) { console.warn("board path failed", action, e); }
          // One path, or several that each realize it (two hexes clicked in either order).
          if (Array.isArray(p) && p.length) for (const one of Array.isArray(p[0]) ? p : [p]) paths.push({ action, path: one });
        }
      }
      let drawing;
      try {
        drawing = module.draw(view, rules, Object.assign({}, ctx, { pending }));
      } catch (e) {
        console.warn("board drawing failed", e);
        holder.replaceChildren(H("pre", { text: JSON.stringify(view, null, 1) }));
        return;
      }
      const next = k => paths.filter(p => p.path.length > pending.length && startsWith(p.path, pending) && p.path[pending.length] === k);
      const actions = list => [...new Set(list.map(p => p.action))];
      const note = a => a + (ctx.legal.get(a) ? ": " + ctx.legal.get(a) : "");
      // Sent: the board waits for the next position (marked, for the eye and for tests).
      const play = a => { holder.dataset.sent = a; sent = { count: sent.count + 1, action: a }; ctx.act(a); };
      function choose(k) {
        const left = actions(next(k));
        if (left.length === 1) { play(left[0]); return; }
        if (!left.length) return;
        pending = pending.concat([k]);
        paint(module);
      }
      for (const node of drawing.querySelectorAll("[data-key]")) {
        const keys = keysOf(node);
        if (pending.length && keys.some(k => pending.includes(k))) node.classList.add("picked");
        const k = keys.find(k => next(k).length);
        if (k === undefined) continue;
        const acts = actions(next(k));
        node.classList.add("clickable");
        node.setAttribute("data-acts", JSON.stringify(acts));
        if (acts.length === 1) node.setAttribute("data-act", acts[0]);
        node.addEventListener("click", ev => { ev.stopPropagation(); choose(k); });
        let t = node.querySelector(":scope > title");
        if (!t) { t = S("title"); node.append(t); }
        t.textContent = acts.slice(0, 8).map(note).join("\n") + (acts.length > 8 ? "\n… " + (acts.length - 8) + " more" : "");
      }
      const bar = H("div", { class: "board-bar", id: "board-bar" });
      if (ctx.outcome) bar.append(H("span", { class: "board-over", id: "board-over", text: finalLine(ctx.outcome, ctx) }));
      if (pending.length) {
        bar.append(H("span", { class: "board-pending", text: "Picked " + pending.map(k => k.replace(/^[a-z-]+:/, "")).join(" → ") + ": click the highlighted next step, or" }));
        // The actions that end at the picked elements (two with the same clicks, or one that
        // others continue): chosen by name.
        for (const a of actions(paths.filter(p => p.path.length === pending.length && startsWith(p.path, pending)))) {
          bar.append(H("button", { type: "button", class: "board-choice", "data-acts": JSON.stringify([a]), title: note(a), onclick: () => play(a), text: a }));
        }
      }
      const buttons = new Map();
      for (const p of paths) {
        const k = p.path[pending.length];
        if (p.path.length > pending.length && startsWith(p.path, pending) && k.startsWith("btn:") && !(buttons.get(k) || []).includes(p.action)) buttons.set(k, (buttons.get(k) || []).concat([p.action]));
      }
      for (const [k, acts] of buttons) {
        bar.append(H("button", { type: "button", class: "board-button", "data-key": k, "data-acts": JSON.stringify(acts), title: acts.map(note).join("\n"), onclick: () => choose(k), text: k.slice(4) }));
      }
      const cancel = () => { pending = []; paint(module); };
      if (pending.length) bar.append(H("button", { type: "button", id: "board-cancel", onclick: cancel, text: "Cancel (Esc)" }));
      current = { cancel, holder };
      holder.replaceChildren(bar, drawing);
    }
    if (ready[game]) paint(ready[game]);
    else {
      holder.append(H("p", { text: "Loading the board…" }));
      need(game).then(paint, e => holder.replaceChildren(H("p", { text: e.message + " (the actions list plays every move)" })));
    }
    return holder;
  }

  window.Boards = {
    need, register, mount,
    sent: () => sent,
    kit: { NS, SEAT, S, H, T, show, svg, title, entries, short, ctl, face, seatLabel, legend, box, dot, controls, finalLine },
  };
})();
