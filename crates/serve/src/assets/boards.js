// rulesmith serve: each game's board, drawn as SVG from a seat's view JSON (or the
// observer's state in a replay). A value the seat may not see arrives as "hidden" and is
// drawn as "?". Elements with data-act name the legal action a click plays.
"use strict";

(function () {
  const NS = "http://www.w3.org/2000/svg";
  const SEAT = ["#d94c3d", "#3d7bd9", "#d9a21b", "#3da55a", "#8e5bd0"];
  const GOOD = { corn: "#f2d43a", indigo: "#3b4fa8", sugar: "#f4f4f4", tobacco: "#8a5a2b", coffee: "#3b2616",
    cigars: "#7a4a22", citrus: "#f29b1b", rum: "#b5651d", wood: "#6b8e23",
    cattle: "#c08a5a", fish: "#5ab0d8", ore: "#8a8a8a", wheat: "#e8c55a" };
  // A good's fill: this palette for the bundled goods, else the colour its ruleset names
  // (Puerto Rico's `[goods.*] colour`), so a house rule's new good is drawn in its colour.
  const goodFill = (rules, good) => GOOD[good] || (rules.goods && rules.goods[good] && rules.goods[good].colour) || "#999";
  const TERRAIN = { city: "#e9e2d0", forest: "#3f7d3a", water: "#7fbfe8", mountain: "#9b8f85", grassland: "#a9d36b",
    field: "#e7cf6a", desert: "#e8d9a8" };

  function S(tag, attrs, ...kids) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
    for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  }
  const T = (x, y, s, attrs) => S("text", Object.assign({ x, y, "font-size": 12, fill: "#222" }, attrs || {}), show(s));
  const show = v => v === "hidden" ? "?" : v === null || v === undefined ? "–" : String(v);
  const svg = (w, h, ...kids) => S("svg", { viewBox: "0 0 " + w + " " + h, width: w, height: h, "font-family": "system-ui, sans-serif", role: "img" }, ...kids);
  const title = (node, text) => { node.append(S("title", {}, text)); return node; };
  const entries = o => (o && typeof o === "object") ? Object.entries(o) : [];
  const short = id => String(id).replace(/-/g, " ");

  function seatLabel(ctx, s) {
    return "seat " + s + (ctx.names && ctx.names[s] ? " · " + ctx.names[s] : "") + (ctx.seat === s ? " (you)" : "");
  }

  // ---------------- Puerto Rico (and its Expansion I) ----------------

  function puertoRico(v, rules, ctx) {
    const players = v.players || [];
    const drafting = !!(v.draft && !v.draft.over);
    const pool = drafting && Array.isArray(v.out_of_game) ? v.out_of_game : [];
    const W = 1000, playerH = 170, top = 330 + (pool.length ? 30 + Math.ceil(pool.length / 6) * 16 : 0);
    const H = top + players.length * playerH + 10;
    const g = svg(W, H, S("rect", { x: 0, y: 0, width: W, height: H, fill: "#f6efe0" }));
    const roleDefs = rules.roles || [];
    const roles = v.roles || {};
    // Role cards in play.
    g.append(T(10, 18, "Roles · round " + show(v.round) + " · governor: seat " + show(v.governor) + " · phase: " + short(show(v.phase)), { "font-weight": "bold" }));
    let x = 10;
    roleDefs.forEach((r, i) => {
      if (!((roles.in_play >> i) & 1)) return;
      const taken = (roles.taken >> i) & 1;
      const card = S("g", { "data-act": r.id, id: "role-" + r.id },
        S("rect", { x, y: 26, width: 112, height: 56, rx: 6, fill: taken ? "#ccc" : "#fff4d6", stroke: "#8a6d3b" }),
        T(x + 8, 46, short(r.id), { "font-weight": "bold" }),
        T(x + 8, 66, taken ? "taken" : "coins: " + show((roles.coins || [])[i])));
      g.append(card);
      x += 120;
    });
    // Supply.
    const supply = [
      ["colonist ship", v.colonist_ship], ["colonists", v.colonist_supply], ["VP chips", v.vp_chips],
      ["quarries", v.quarry_supply], ["plantation stack", v.stack ? v.stack.tiles : null],
    ];
    supply.forEach(([k, n], i) => g.append(T(10 + i * 150, 104, k + ": " + show(n))));
    g.append(T(10, 126, "face-up plantations:"));
    x = 140;
    for (const [kind, n] of entries(v.face_up)) {
      for (let k = 0; k < n; k++) {
        g.append(title(S("rect", { x, y: 114, width: 22, height: 18, rx: 3, fill: goodFill(rules, kind), stroke: "#333", "data-act": "take " + kind }), kind));
        x += 26;
      }
    }
    if (v.quarry_supply > 0) {
      g.append(title(S("rect", { x: x + 6, y: 114, width: 22, height: 18, rx: 3, fill: "#777", stroke: "#333", "data-act": "take quarry" }), "quarry"));
    }
    g.append(T(10, 150, "goods supply: " + entries(v.goods_supply).map(([k, n]) => k + " " + show(n)).join(" · ")));
    // Ships.
    g.append(T(10, 176, "Cargo ships", { "font-weight": "bold" }));
    let sy = 184;
    (v.ships || []).filter(s => s.capacity > 0).forEach((ship, i) => {
      g.append(T(10, sy + 13, "ship " + (i + 1) + (ship.good ? " · " + ship.good : "")));
      const loads = JSON.stringify(Object.keys(rules.goods || GOOD).map(good => "ship " + good + " on " + ship.capacity));
      const hold = S("g", { "data-act": loads });
      for (let c = 0; c < ship.capacity; c++) {
        hold.append(S("rect", { x: 110 + c * 18, y: sy, width: 16, height: 16, fill: c < ship.load ? goodFill(rules, ship.good) : "#fff", stroke: "#555" }));
      }
      g.append(hold);
      sy += 22;
    });
    // Trading house.
    g.append(T(520, 176, "Trading house", { "font-weight": "bold" }));
    (v.trading_house || []).slice(0, 4).forEach((good, i) => {
      g.append(title(S("rect", { x: 520 + i * 40, y: 184, width: 34, height: 24, rx: 3, fill: good ? goodFill(rules, good) : "#fff", stroke: "#555" }), good || "empty"));
    });
    // Buildings for sale (or the expansion's draft).
    let bx = 520, by = 230;
    if (pool.length) {
      // The buildings not in the game yet: what the draft may bring in.
      g.append(T(10, 350, "Not in the game yet (draft one into a slot)", { "font-weight": "bold" }));
      pool.forEach((id, i) => {
        const cx = 10 + (i % 6) * 163, cy = 358 + Math.floor(i / 6) * 16;
        g.append(S("g", { "data-act": "draft " + id }, S("rect", { x: cx, y: cy, width: 160, height: 14, fill: "#fff", stroke: "#ddd" }),
          T(cx + 3, cy + 11, short(id), { "font-size": 10 })));
      });
    }
    if (drafting) {
      g.append(T(520, 224, "Building draft", { "font-weight": "bold" }));
      v.draft.slots.forEach((slot, i) => {
        const cx = 520 + (i % 6) * 78, cy = 232 + Math.floor(i / 6) * 30;
        g.append(S("g", { "data-act": slot.building ? null : "draft" }, S("rect", { x: cx, y: cy, width: 74, height: 26, rx: 3, fill: slot.building ? "#e6d8ff" : "#fff", stroke: "#777" }),
          T(cx + 4, cy + 11, "cost " + slot.cost, { "font-size": 9 }), T(cx + 4, cy + 22, slot.building ? short(slot.building) : "", { "font-size": 9 })));
      });
    } else {
      g.append(T(520, 224, "Buildings for sale", { "font-weight": "bold" }));
      const avail = entries(v.buildings).filter(([, n]) => n > 0);
      avail.forEach(([id, n], i) => {
        const cx = bx + (i % 4) * 118, cy = by + Math.floor(i / 4) * 15;
        g.append(S("g", { "data-act": "build " + id }, S("rect", { x: cx, y: cy - 1, width: 116, height: 14, fill: "#fff", stroke: "#ddd" }),
          T(cx + 3, cy + 10, short(id) + " ×" + n, { "font-size": 10 })));
      });
    }
    // Players.
    players.forEach((p, s) => {
      const y = top + s * playerH;
      const here = v.current === s;
      g.append(S("rect", { x: 6, y, width: W - 12, height: playerH - 8, rx: 8, fill: "#fff", stroke: here ? "#e08a00" : SEAT[s % 5], "stroke-width": here ? 4 : 2 }));
      g.append(S("circle", { cx: 22, cy: y + 18, r: 8, fill: SEAT[s % 5] }));
      g.append(T(36, y + 23, seatLabel(ctx, s) + (v.governor === s ? " · governor" : "") + (here ? " · to act" : ""), { "font-weight": "bold" }));
      g.append(T(36, y + 42, "doubloons " + show(p.doubloons) + " · VP " + show(p.vp) + " · San Juan " + show(p.san_juan) + (p.forests !== undefined ? " · forests " + show(p.forests) : "")));
      g.append(T(36, y + 60, "goods: " + (p.goods === "hidden" ? "?" : entries(p.goods).filter(([, n]) => n).map(([k, n]) => k + " " + n).join(", ") || "none")));
      // Island: 12 spaces.
      const tiles = [];
      for (const [kind, n] of entries(p.plantations)) for (let k = 0; k < n; k++) tiles.push([kind, k < ((p.plantations_occupied || {})[kind] || 0)]);
      for (let k = 0; k < (p.quarries || 0); k++) tiles.push(["quarry", k < (p.quarries_occupied || 0)]);
      for (let k = 0; k < (p.forests || p.extension_tiles || 0); k++) tiles.push(["forest", false]);
      g.append(T(36, y + 80, "island"));
      for (let k = 0; k < 12; k++) {
        const tx = 36 + (k % 6) * 30, ty = y + 86 + Math.floor(k / 6) * 30;
        const t = tiles[k];
        const fill = !t ? "#eee" : t[0] === "quarry" ? "#777" : t[0] === "forest" ? "#2f6b2a" : goodFill(rules, t[0]);
        g.append(title(S("rect", { x: tx, y: ty, width: 26, height: 26, rx: 3, fill, stroke: "#555" }), t ? t[0] + (t[1] ? " (occupied)" : "") : "empty"));
        if (t && t[1]) g.append(S("circle", { cx: tx + 13, cy: ty + 13, r: 5, fill: "#6b3e1f", stroke: "#fff" }));
      }
      // City.
      g.append(T(240, y + 80, "city"));
      const city = Array.isArray(p.city) ? p.city : [];
      for (let k = 0; k < 12; k++) {
        const cx = 240 + (k % 6) * 122, cy = y + 86 + Math.floor(k / 6) * 34;
        const b = city[k];
        g.append(S("rect", { x: cx, y: cy, width: 118, height: 30, rx: 3, fill: b ? "#f1e4c8" : "#f6f6f6", stroke: "#bbb" }));
        if (b) {
          g.append(T(cx + 4, cy + 13, short(b.building), { "font-size": 10 }));
          for (let c = 0; c < (b.colonists || 0); c++) g.append(S("circle", { cx: cx + 8 + c * 10, cy: cy + 22, r: 4, fill: "#6b3e1f" }));
        }
      }
    });
    return g;
  }

  // ---------------- Santiago de Cuba ----------------

  function santiago(v, rules, ctx) {
    const players = v.players || [];
    const W = 1000, H = 430 + players.length * 60;
    const g = svg(W, H, S("rect", { x: 0, y: 0, width: W, height: H, fill: "#f3ecd9" }));
    const turn = v.turn || {};
    const over = v.phase && v.phase.step === "over";
    g.append(T(10, 20, "Santiago de Cuba · round " + show(turn.round) + (over ? " · game over" : " · seat " + show(turn.player) + " to play · step: " + short(show(v.phase && v.phase.step))), { "font-weight": "bold" }));
    // The street: the port, then the citizens in order, along a loop; the car stops at one
    // of them (a stop N steps on is `drive N`).
    const street = v.street || [];
    const stops = street.length + 1;
    const cx = 250, cy = 200, rx = 210, ry = 140;
    const carAt = v.car === "port" ? 0 : street.indexOf(v.car) + 1;
    g.append(S("ellipse", { cx, cy, rx, ry, fill: "none", stroke: "#bba", "stroke-width": 18 }));
    ["port", ...street].forEach((c, k) => {
      const a = -Math.PI / 2 + (2 * Math.PI * k) / stops;
      const x = cx + rx * Math.cos(a), y = cy + ry * Math.sin(a);
      const inactive = v.inactive && v.inactive[c];
      const steps = (k - carAt + stops) % stops;
      g.append(S("g", { "data-act": steps > 0 ? "drive " + steps : null, id: "stop-" + c },
        S("rect", { x: x - 44, y: y - 16, width: 88, height: 32, rx: 6, fill: k === 0 ? "#d8ecf7" : inactive ? "#ccc" : "#fffaf0", stroke: v.car === c ? "#d12" : "#776", "stroke-width": v.car === c ? 3 : 1 }),
        T(x - 40, y - 2, short(c), { "font-size": 11, "font-weight": k === 0 ? "bold" : null })));
    });
    g.append(T(cx - 40, cy, "car: " + short(show(v.car)), { "font-weight": "bold" }));
    // The ship and its dice.
    const ship = v.ship || {};
    g.append(T(520, 50, "Ship · value " + show(ship.value) + " · departed " + show(ship.departed), { "font-weight": "bold" }));
    let dx = 520;
    for (const [colour, pips] of entries(ship.dice)) {
      g.append(title(S("rect", { x: dx, y: 60, width: 34, height: 34, rx: 6, fill: colour === "black" ? "#333" : colour, stroke: "#222", "data-act": "keep aside " + colour }), colour + " die: " + pips));
      g.append(T(dx + 12, 83, show(pips), { "font-size": 16, fill: colour === "black" || colour === "red" || colour === "green" ? "#fff" : "#000" }));
      dx += 42;
    }
    g.append(T(520, 114, "aside: " + ((ship.aside || []).join(", ") || "none") + (ship.awaiting_demand ? " · demand to roll" : "")));
    g.append(T(520, 136, "supply: " + entries(v.supply).map(([k, n]) => k + " " + show(n)).join(" · ")));
    // The buildings.
    g.append(T(520, 164, "Buildings", { "font-weight": "bold" }));
    entries(v.buildings).forEach(([id, b], i) => {
      const x = 520 + (i % 3) * 156, y = 172 + Math.floor(i / 3) * 40;
      g.append(S("g", { "data-act": JSON.stringify(["pawn " + id, "use " + id, "claim " + id]), id: "building-" + id },
        S("rect", { x, y, width: 150, height: 34, rx: 4, fill: "#fff", stroke: b.owner === null || b.owner === undefined ? "#999" : SEAT[b.owner % 5], "stroke-width": b.owner === null ? 1 : 3 }),
        S("circle", { cx: x + 12, cy: y + 17, r: 7, fill: b.flower || "#ccc", stroke: "#555" }),
        T(x + 24, y + 15, short(id), { "font-size": 11 }),
        T(x + 24, y + 28, b.owner === null || b.owner === undefined ? "free" : "seat " + b.owner, { "font-size": 10 }),
        // The players' pawns standing on the building.
        players.map((p, s) => [p, s]).filter(([p]) => p.pawn === id).map(([, s], m) =>
          title(S("circle", { cx: x + 136 - m * 12, cy: y + 17, r: 6, fill: SEAT[s % 5], stroke: "#000" }), "pawn of seat " + s))));
    });
    // The players.
    players.forEach((p, s) => {
      const y = 370 + s * 60;
      const here = turn.player === s;
      g.append(S("rect", { x: 6, y, width: W - 12, height: 52, rx: 6, fill: "#fff", stroke: here ? "#e08a00" : SEAT[s % 5], "stroke-width": here ? 4 : 2 }));
      g.append(S("circle", { cx: 22, cy: y + 18, r: 8, fill: SEAT[s % 5] }));
      g.append(T(36, y + 22, seatLabel(ctx, s) + " · pesos " + show(p.pesos) + " · VP " + show(p.vp) + " · pawn at " + short(show(p.pawn)), { "font-weight": "bold" }));
      if (p.goods === "hidden") {
        g.append(T(36, y + 42, "goods: ? (hidden)"));
      } else {
        let x = 36;
        for (const [k, n] of entries(p.goods)) {
          g.append(title(S("rect", { x, y: y + 32, width: 14, height: 14, fill: GOOD[k] || "#999", stroke: "#333" }), k));
          g.append(T(x + 18, y + 44, k + " " + show(n)));
          x += 110;
        }
      }
    });
    return g;
  }

  // ---------------- Mundo 163 ----------------

  function mundo(v, rules, ctx) {
    const hexes = (rules.map && rules.map.hexes) || [];
    const size = 36;
    const pos = {};
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (const h of hexes) {
      const x = size * Math.sqrt(3) * (h.q + h.r / 2), y = size * 1.5 * h.r;
      pos[h.name] = [x, y];
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    if (!hexes.length) { minX = maxX = minY = maxY = 0; }
    const ox = -minX + size + 10, oy = -minY + size + 40;
    const mapW = maxX - minX + 2 * size + 20;
    const players = v.players || [];
    const W = Math.max(1000, mapW + 420), H = Math.max(maxY - minY + 2 * size + 60, 120 + players.length * 110);
    const g = svg(W, H, S("rect", { x: 0, y: 0, width: W, height: H, fill: "#eef3f7" }));
    g.append(T(10, 20, "Mundo 163 · round " + show(v.round) + " · phase " + short(show(v.phase)) + " · seat " + show(v.current_player) + " to play", { "font-weight": "bold" }));
    const at = name => { const p = pos[name]; return p ? [p[0] + ox, p[1] + oy] : null; };
    const cityOf = {};
    for (const [id, c] of entries(v.cities)) cityOf[c.tile] = [id, c];
    for (const h of hexes) {
      const [x, y] = at(h.name);
      const terrain = (v.terrain && v.terrain[h.name]) || h.terrain;
      const pts = [];
      for (let k = 0; k < 6; k++) { const a = Math.PI / 180 * (60 * k - 30); pts.push((x + size * Math.cos(a)).toFixed(1) + "," + (y + size * Math.sin(a)).toFixed(1)); }
      g.append(title(S("polygon", { points: pts.join(" "), fill: TERRAIN[terrain] || "#ddd", stroke: "#fff", "stroke-width": 2, "data-act": "go " + h.name, id: "hex-" + h.name }), h.name + ": " + terrain));
      g.append(T(x - 8, y - 18, h.name, { "font-size": 9, fill: "#333" }));
      const city = cityOf[h.name];
      if (city) {
        const [id, c] = city;
        g.append(title(S("circle", { cx: x, cy: y, r: 15, fill: GOOD[c.goods] || "#bbb", stroke: "#333", "data-act": "capital " + id }), "city " + id + ": " + c.goods + ", stock " + show(c.stock)));
        g.append(T(x - 10, y + 4, id + "·" + show(c.stock), { "font-size": 10, "font-weight": "bold" }));
        (c.demands || []).forEach((d, k) => g.append(title(S("rect", { x: x - 15 + k * 10, y: y + 17, width: 8, height: 8, fill: d.covered ? "#555" : (GOOD[d.goods] || "#bbb"), stroke: "#222" }), "demand " + d.goods + (d.covered ? " (covered)" : ""))));
      }
    }
    // Roads, settlements, residents, trolleys.
    players.forEach((p, s) => {
      const colour = SEAT[s % 5];
      for (const road of Array.isArray(p.roads) ? p.roads : []) {
        const ends = String(road).split(/[-–]/).map(at);
        if (ends.length === 2 && ends[0] && ends[1]) {
          const off = (s - 1.5) * 3;
          g.append(S("line", { x1: ends[0][0] + off, y1: ends[0][1] + off, x2: ends[1][0] + off, y2: ends[1][1] + off, stroke: colour, "stroke-width": 4, "stroke-linecap": "round", opacity: 0.85 }));
        }
      }
      for (const t of Array.isArray(p.settlements) ? p.settlements : []) {
        const c = at(t); if (!c) continue;
        g.append(title(S("rect", { x: c[0] - 20 + s * 9, y: c[1] - 30 + 34, width: 8, height: 8, fill: colour, stroke: "#000" }), "settlement of seat " + s));
      }
      for (const [t, pieces] of entries(p.residents)) {
        const c = at(t); if (!c) continue;
        const n = (pieces.active || 0) + (pieces.moved || 0) + (pieces.exhausted || 0);
        g.append(title(S("circle", { cx: c[0] + 18 - s * 3, cy: c[1] - 14 + s * 7, r: 5, fill: colour, stroke: "#fff" }), n + " residents of seat " + s));
      }
      const tr = p.trolley || {};
      if (tr.tile) {
        const c = at(tr.tile);
        if (c) g.append(title(S("rect", { x: c[0] - 12 + s * 4, y: c[1] - 8 + s * 4, width: 24, height: 12, rx: 3, fill: colour, stroke: "#000", "stroke-width": 2 }), "trolley of seat " + s));
      }
    });
    // Players and privileges.
    const px = mapW + 20;
    players.forEach((p, s) => {
      const y = 34 + s * 110;
      const here = v.current_player === s;
      g.append(S("rect", { x: px, y, width: W - px - 8, height: 102, rx: 6, fill: "#fff", stroke: here ? "#e08a00" : SEAT[s % 5], "stroke-width": here ? 4 : 2 }));
      g.append(S("circle", { cx: px + 14, cy: y + 16, r: 7, fill: SEAT[s % 5] }));
      g.append(T(px + 26, y + 21, seatLabel(ctx, s), { "font-weight": "bold" }));
      g.append(T(px + 10, y + 40, "money " + show(p.money) + " · score " + show(p.score) + " · income " + show(p.income)));
      g.append(T(px + 10, y + 56, "capital " + show(p.capital) + " · MP " + show(p.movement_points) + " · holds " + show(p.cargo_holds)));
      g.append(T(px + 10, y + 72, "storage: residents " + show(p.residents_in_storage) + ", settlements " + show(p.settlements_in_storage)));
      const tr = p.trolley || {};
      const cargo = tr.goods === "hidden" ? "?" : entries(tr.goods).filter(([, n]) => n).map(([k, n]) => k + " " + n).join(", ") || "empty";
      g.append(T(px + 10, y + 88, "trolley " + show(tr.tile) + " · cargo " + cargo + " · residents " + show(tr.residents)));
    });
    const ry = 40 + players.length * 110;
    g.append(T(px, ry, "Privileges for sale: " + (v.privilege_row || []).map(c => show(c.privilege) + " (" + show(c.price) + ")").join(", "), { "font-size": 11 }));
    g.append(T(px, ry + 16, "deck: " + (v.privilege_deck || []).length + " cards, faces hidden", { "font-size": 11 }));
    return g;
  }

  window.Boards = {
    "puerto-rico": puertoRico,
    "puerto-rico-expansion": puertoRico,
    "santiago-de-cuba": santiago,
    "mundo-163": mundo,
  };
})();
