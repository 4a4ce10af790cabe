// rulesmith serve: Mundo 163's board. Every action of the game is a click on the board
// (crates/mundo-163/src/action.rs lists the notation): a hex for a capital, a resident
// bought, a trolley's move; a hex then another for a resident's step or move or a road.
"use strict";

(function () {
  const { SEAT, S, T, show, svg, title, entries, short, ctl, seatLabel, legend, box, dot, controls } = window.Boards.kit;
  const GOOD = { wheat: "#e8c55a", cattle: "#c08a5a", fish: "#5ab0d8", wood: "#4f7a2a", ore: "#8a8a8a" };
  const TERRAIN = { city: "#e9e2d0", forest: "#3f7d3a", water: "#7fbfe8", mountain: "#9b8f85", grassland: "#a9d36b", field: "#e7cf6a", desert: "#e8d9a8" };
  const goodsOf = rules => (rules.goods && rules.goods.types) || Object.keys(GOOD);
  const fill = (table, k) => table[k] || "#bbb";
  // What a privilege does, in a few words, from its effects in the ruleset (REF §2.8).
  function does(e) {
    switch (e.kind) {
      case "city_settlement_income": return "+$" + e.money + " a city settled";
      case "upgrade_discount": return "upgrades $" + e.money + " less";
      case "road_cost": return "road at " + e.terrain + ": " + e.residents;
      case "victory_points": return "+" + e.vp + " VP at the end";
      case "resident_price": return "residents $" + e.money;
      case "extra_movement": return "+" + e.mp + " MP a turn";
      case "trolley_enter_cost": return e.terrain + " " + e.mp + " MP";
      case "extra_resident_action": return "a resident acts again";
      case "free_road": return "a free road a turn";
      default: return short(String(e.kind));
    }
  }
  // A terrain's income, road cost (residents) and trolley cost (MP), for the legend.
  function terrainNote(rules, id) {
    const t = (rules.terrains || {})[id];
    if (!t) return id;
    if (t.kind === "water") return id + " (no road, no settling)";
    return id + (t.income ? " · $" + t.income : "") + " · road " + t.road_residents + " · " + t.enter_mp + " MP";
  }

  // The clicks of an action (null: the action list only); a list of paths where either
  // order of two hexes does (a road between them).
  function path(a, v) {
    const w = a.split(" ");
    switch (w[0]) {
      case "capital": { const c = (v.cities || {})[w[1]]; return c ? ["hex:" + c.tile] : null; }
      case "buy":
        if (w[1] === "resident") return ["hex:" + w[2]];
        // `buy KIND for PRICE`: the privilege's card, then the price where two are offered.
        return ["priv:" + w[1], "btn:pay " + w[3]];
      case "no": return ["btn:no " + w[1]];
      case "upgrade": return ["track:" + w[1]];
      case "end": return ["btn:end " + w[1]];
      case "move": case "step": return ["hex:" + w[1], "hex:" + w[2]];
      case "road": {
        const pay = "btn:road, " + w.slice(3).join(" ");
        return [["hex:" + w[1], "hex:" + w[2], pay], ["hex:" + w[2], "hex:" + w[1], pay]];
      }
      case "free": return [["hex:" + w[2], "hex:" + w[3]], ["hex:" + w[3], "hex:" + w[2]]];
      case "again": return ["hex:" + w[1]];
      case "go": return ["hex:" + w[1]];
      case "load": return ["here:" + w[1]];
      case "unload": return ["cargo:" + w[1]];
      default: return null;
    }
  }

  function draw(v, rules, ctx) {
    const hexes = (rules.map && rules.map.hexes) || [];
    const size = 36;
    const pos = {};
    let minX = 0, maxX = 0, minY = 0, maxY = 0;
    hexes.forEach((h, i) => {
      const x = size * Math.sqrt(3) * (h.q + h.r / 2), y = size * 1.5 * h.r;
      pos[h.name] = [x, y];
      if (!i) { minX = maxX = x; minY = maxY = y; }
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    });
    const ox = -minX + size + 10, oy = -minY + size + 34;
    const at = name => { const p = pos[name]; return p ? [p[0] + ox, p[1] + oy] : null; };
    const mapW = maxX - minX + 2 * size + 20, mapH = maxY - minY + 2 * size + 44;
    const players = v.players || [];
    const over = !!ctx.outcome || !!v.end;
    const actor = over ? null : ctx.toMove;
    const goods = goodsOf(rules);
    const W = Math.max(1000, mapW + 460);
    const parts = [S("rect", { x: 0, y: 0, width: W, height: 10000, fill: "#eef3f7" })];
    const add = (...n) => parts.push(...n);
    add(T(10, 20, "Mundo 163 · round " + show(v.round) + (over ? " · game over" : " · phase " + short(show(v.phase)) + " · seat " + show(v.current_player) + "'s turn"), { "font-weight": "bold", id: "board-heading" }));
    const cityOf = {};
    for (const [id, c] of entries(v.cities)) cityOf[c.tile] = [id, c];
    // Each hex a control holding what stands on it (city, settlements, residents, trolleys,
    // goods lying there), so a click anywhere on it is a click on the hex.
    const onHex = {};
    hexes.forEach(h => { onHex[h.name] = []; });
    players.forEach((p, s) => {
      const colour = SEAT[s % 5];
      for (const t of Array.isArray(p.settlements) ? p.settlements : []) {
        const c = at(t); if (!c || !onHex[t]) continue;
        onHex[t].push(title(S("rect", { x: c[0] - 22 + s * 10, y: c[1] + 18, width: 9, height: 9, fill: colour, stroke: "#000" }), "settlement of seat " + s));
      }
      for (const [t, pieces] of entries(p.residents)) {
        const c = at(t); if (!c || !onHex[t]) continue;
        const n = (pieces.active || 0) + (pieces.moved || 0) + (pieces.exhausted || 0);
        if (!n) continue;
        const cx = c[0] + 20 - s * 3, cy = c[1] - 14 + s * 12;
        onHex[t].push(title(S("g", {}, S("circle", { cx, cy, r: 6, fill: colour, stroke: pieces.active ? "#fff" : "#000", "stroke-width": pieces.active ? 2 : 1 }),
          T(cx - 3, cy + 3, n, { "font-size": 8, fill: "#fff" })), n + " residents of seat " + s + " (" + (pieces.active || 0) + " active, " + (pieces.moved || 0) + " moved, " + (pieces.exhausted || 0) + " exhausted)"));
      }
      const tr = p.trolley || {};
      const c = tr.tile && at(tr.tile);
      if (c && onHex[tr.tile]) onHex[tr.tile].push(title(S("rect", { x: c[0] - 14 + s * 5, y: c[1] - 30 + s * 5, width: 26, height: 11, rx: 3, fill: colour, stroke: "#000", "stroke-width": 2 }), "trolley of seat " + s));
    });
    for (const [t, lying] of entries(v.lying_goods)) {
      const c = at(t); if (!c || !onHex[t]) continue;
      entries(lying).filter(([, n]) => n).forEach(([good, n], k) =>
        onHex[t].push(title(S("polygon", { points: [[0, -5], [5, 0], [0, 5], [-5, 0]].map(([dx, dy]) => (c[0] - 24 + k * 8 + dx) + "," + (c[1] + dy)).join(" "), fill: fill(GOOD, good), stroke: "#000" }), n + " " + good + " lying here")));
    }
    for (const h of hexes) {
      const [x, y] = at(h.name);
      const terrain = (v.terrain && v.terrain[h.name]) || h.terrain;
      const pts = [];
      for (let k = 0; k < 6; k++) { const a = Math.PI / 180 * (60 * k - 30); pts.push((x + size * Math.cos(a)).toFixed(1) + "," + (y + size * Math.sin(a)).toFixed(1)); }
      const hex = ctl("hex:" + h.name, { id: "hex-" + h.name },
        title(S("polygon", { class: "face", points: pts.join(" "), fill: fill(TERRAIN, terrain), stroke: "#fff", "stroke-width": 2 }), h.name + ": " + terrain),
        T(x - 7, y - 20, h.name, { "font-size": 9, fill: "#333" }));
      const city = cityOf[h.name];
      if (city) {
        const [id, c] = city;
        hex.append(title(S("circle", { cx: x, cy: y, r: 14, fill: fill(GOOD, c.goods), stroke: "#333" }), "city " + id + ": makes " + c.goods + ", stock " + show(c.stock)),
          T(x - 10, y + 4, id + "·" + show(c.stock), { "font-size": 10, "font-weight": "bold" }));
        (c.demands || []).forEach((d, k) => hex.append(title(S("rect", { x: x - 14 + k * 10, y: y + 15, width: 8, height: 8, fill: d.covered ? "#333" : fill(GOOD, d.goods), stroke: "#222" }), "wants " + d.goods + (d.covered ? " (delivered)" : ""))));
      }
      hex.append(...onHex[h.name]);
      add(hex);
    }
    // Roads on top, letting clicks through to the hexes under them.
    players.forEach((p, s) => {
      for (const road of Array.isArray(p.roads) ? p.roads : []) {
        const ends = String(road).split(/[-–]/).map(at);
        if (ends.length === 2 && ends[0] && ends[1]) {
          const off = (s - 0.5) * 4;
          add(S("line", { class: "road", x1: ends[0][0] + off, y1: ends[0][1] + off, x2: ends[1][0] + off, y2: ends[1][1] + off, stroke: SEAT[s % 5], "stroke-width": 4, "stroke-linecap": "round", opacity: 0.85, "pointer-events": "none" }));
        }
      }
    });
    // Players: for the one acting, the trolley's holds and the goods where it stands are
    // controls (load, unload), as are the two upgrade tracks.
    const px = mapW + 20;
    const panelH = 150;
    players.forEach((p, s) => {
      const y = 34 + s * (panelH + 8), mine = actor === s, here = v.current_player === s && !over;
      const key = k => mine ? k : null;
      add(S("rect", { x: px, y, width: W - px - 8, height: panelH, rx: 6, fill: "#fff", stroke: SEAT[s % 5], "stroke-width": here ? 5 : 1.5 }),
        S("circle", { cx: px + 14, cy: y + 16, r: 7, fill: SEAT[s % 5] }),
        T(px + 26, y + 21, seatLabel(ctx, s) + (here ? " · turn" : ""), { "font-weight": "bold" }),
        T(px + 10, y + 40, "money " + show(p.money) + " · score " + show(p.score) + " · income " + show(p.income) + " · capital " + show(p.capital), { "font-size": 11 }),
        T(px + 10, y + 56, "in storage: residents " + show(p.residents_in_storage) + ", settlements " + show(p.settlements_in_storage), { "font-size": 11 }));
      const chip = (k, label, x, yy, w, f) => ctl(key(k), {}, S("rect", { class: "face", x, y: yy, width: w, height: 18, rx: 3, fill: f || "#f4f4f4", stroke: "#777" }), T(x + 4, yy + 13, label, { "font-size": 10, fill: f === GOOD.wood ? "#fff" : "#222" }));
      add(chip("track:movement", "movement " + show(p.movement_points) + " MP", px + 10, y + 64, 110), chip("track:cargo", "holds " + show(p.cargo_holds), px + 126, y + 64, 80));
      const tr = p.trolley || {};
      add(T(px + 212, y + 77, "trolley at " + show(tr.tile), { "font-size": 10 }));
      add(T(px + 10, y + 100, "aboard", { "font-size": 10 }));
      const aboard = tr.goods === "hidden" ? null : tr.goods || {};
      goods.concat(["resident"]).forEach((good, i) => {
        const n = good === "resident" ? tr.residents : aboard ? aboard[good] || 0 : "?";
        add(chip("cargo:" + good, short(good) + " " + show(n), px + 52 + i * 58, y + 88, 54, good === "resident" ? "#fff" : fill(GOOD, good)));
      });
      if (mine && tr.tile) {
        const city = cityOf[tr.tile], lying = (v.lying_goods || {})[tr.tile] || {};
        add(T(px + 10, y + 124, "here", { "font-size": 10 }));
        goods.concat(["resident"]).forEach((good, i) => {
          const n = good === "resident" ? "" : (lying[good] || 0) + (city && city[1].goods === good ? Number(city[1].stock) || 0 : 0);
          add(chip("here:" + good, short(good) + " " + n, px + 52 + i * 58, y + 112, 54, good === "resident" ? "#fff" : fill(GOOD, good)));
        });
      }
    });
    // The privileges for sale, each card a control.
    const ry = 34 + players.length * (panelH + 8) + 6;
    add(T(px, ry + 10, "Privileges for sale (deck: " + (v.privilege_deck || []).length + " cards, faces hidden)", { "font-size": 11, "font-weight": "bold" }));
    (v.privilege_row || []).forEach((c, i) => {
      const type = ((rules.privilege_types || []).find(t => t.id === c.privilege) || {});
      const x = px + (i % 3) * 142, y = ry + 18 + Math.floor(i / 3) * 52;
      // The card's effects, one line each (II (7) has two).
      const lines = (type.effects || []).map(does);
      add(ctl("priv:" + c.privilege, { id: "priv-" + c.privilege }, S("rect", { class: "face", x, y, width: 136, height: 46, rx: 4, fill: "#fffaf0", stroke: "#8a6d3b" }),
        T(x + 5, y + 13, show(type.label || c.privilege) + " · price $" + show(c.price), { "font-size": 11, "font-weight": "bold" }),
        lines.slice(0, 2).map((l, k) => T(x + 5, y + 26 + k * 12, l, { "font-size": 10, fill: "#444" }))));
    });
    const rowsH = ry + 18 + Math.ceil((v.privilege_row || []).length / 3) * 52;
    // The legend, under the map.
    const ly = Math.max(mapH, rowsH) + 8;
    const [lg, lh] = legend(14, ly, [
      ...entries(TERRAIN).map(([k, f]) => [box(f), terrainNote(rules, k)]),
      ...goods.map(good => [dot(fill(GOOD, good)), "city making " + good]),
      [(x, y) => S("g", {}, S("circle", { cx: x + 7, cy: y + 7, r: 7, fill: GOOD.wheat, stroke: "#333" }), T(x + 1, y + 10, "5·4", { "font-size": 7, "font-weight": "bold" })), "city 5, 4 goods in stock"],
      [(x, y) => S("rect", { x: x + 3, y: y + 3, width: 8, height: 8, fill: GOOD.fish, stroke: "#222" }), "a city's demand (its good)"],
      [(x, y) => S("rect", { x: x + 3, y: y + 3, width: 8, height: 8, fill: "#333", stroke: "#222" }), "demand delivered"],
      [(x, y) => S("rect", { x: x + 3, y: y + 3, width: 9, height: 9, fill: SEAT[0], stroke: "#000" }), "settlement"],
      [(x, y) => S("circle", { cx: x + 7, cy: y + 7, r: 6, fill: SEAT[0], stroke: "#fff", "stroke-width": 2 }), "residents (ringed: active)"],
      [(x, y) => S("rect", { x, y: y + 2, width: 16, height: 10, rx: 3, fill: SEAT[0], stroke: "#000", "stroke-width": 2 }), "trolley"],
      [(x, y) => S("line", { x1: x, y1: y + 7, x2: x + 16, y2: y + 7, stroke: SEAT[0], "stroke-width": 4 }), "road"],
      [(x, y) => S("polygon", { points: [[7, 2], [12, 7], [7, 12], [2, 7]].map(([a, b]) => (x + a) + "," + (y + b)).join(" "), fill: GOOD.ore, stroke: "#000" }), "goods lying on a hex"],
      ...players.map((_, s) => [dot(SEAT[s % 5]), "seat " + s]),
      ...controls,
    ], 4, 240);
    add(lg);
    const H = ly + lh + 8;
    const g = svg(W, H);
    g.append(...parts);
    return g;
  }

  window.Boards.register("mundo-163", { draw, path });
})();
