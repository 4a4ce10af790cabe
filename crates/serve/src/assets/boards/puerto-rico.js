// rulesmith serve: Puerto Rico's board (the expansion's module builds on it). Every action
// of the game is a click on the board (crates/puerto-rico/src/action.rs lists the notation).
"use strict";

(function () {
  const { SEAT, S, T, show, svg, title, entries, short, ctl, face, seatLabel, legend, box, dot, controls } = window.Boards.kit;
  const GOOD = { corn: "#f2d43a", indigo: "#3b4fa8", sugar: "#f4f4f4", tobacco: "#8a5a2b", coffee: "#3b2616" };
  const COLONIST = "#6b3e1f";
  // A good's fill: this palette for the bundled goods, else the colour its ruleset names
  // (`[goods.*] colour`), so a house rule's new good is drawn in its colour.
  const goodFill = (rules, good) => GOOD[good] || (rules.goods && rules.goods[good] && rules.goods[good].colour) || "#999";
  const ink = fill => ["#3b4fa8", "#8a5a2b", "#3b2616", "#6b3e1f", "#777", "#2f6b2a", "black", "blue"].includes(fill) ? "#fff" : "#222";
  const building = (rules, id) => (rules.buildings || []).find(b => b.id === id) || {};
  const goodsOf = (rules, v) => Object.keys(rules.goods || v.goods_supply || GOOD);

  // The clicks of an action (null: the action list only).
  function path(a, v, rules) {
    const w = a.split(" ");
    const roles = (rules.roles || []).map(r => r.id);
    if (roles.includes(a)) return ["role:" + a];
    switch (w[0]) {
      case "pass": return ["btn:pass"];
      case "draw": return ["city:hacienda"];
      case "forest": return w.length === 1 ? ["city:forest-house"] : ["face:" + w[1], "city:forest-house"];
      case "plant": return ["island"];
      case "take":
        if (w[1] === "colonist") return ["colonists"];
        if (w[1] === "vp") return ["vp-chips"];
        if (w[1] === "quarry") return ["quarries"];
        return ["face:" + w[1], "island"];
      case "place": {
        // `place N on GROUP`: the Nth space of the group (plantations of a kind, quarries,
        // a building's circles) stands for N colonists there; none is a button.
        const n = Number(w[1]), group = w[3];
        if (group === "san-juan") return ["group:san-juan", "btn:" + n + " in San Juan"];
        return n === 0 ? ["btn:none on " + short(group)] : ["slot:" + group + ":" + n];
      }
      case "build": return ["build:" + w[1]];
      case "bonus": return ["supply:" + w[1]];
      case "sell": return w.length === 2 ? ["good:" + w[1], "house"] : ["good:" + w[1], "city:" + w[3]];
      case "ship": return w[3] === "wharf" ? ["good:" + w[1], "city:wharf"] : ["good:" + w[1], "ship:" + w[3]];
      case "use": return ["city:" + w[1]];
      case "load": return ["good:" + w[2], "btn:" + w[1] + " " + w[2]];
      case "keep":
        if (w.length === 3 && w[1] === "+") return ["good:" + w[2]];
        // `keep` alone and `keep nothing` keep no barrel.
        return ["store", "btn:" + (w.length === 1 || a === "keep nothing" ? "keep nothing" : a.slice(5))];
      case "return":
        if (w[1] === "colonist") return ["group:" + w[3]];
        if (w[1] === "vp") return ["my-vp"];
        return ["good:" + w[1]];
      case "guest": return ["city:guest-house", "group:" + w[2]];
      default: return null;
    }
  }

  function draw(v, rules, ctx, extra) {
    const players = v.players || [];
    const drafting = !!(v.draft && !v.draft.over);
    const over = !!ctx.outcome;
    const actor = over ? null : ctx.toMove;
    const W = 1100, playerH = 178;
    const pool = drafting && Array.isArray(v.out_of_game) ? v.out_of_game : [];
    // In the order of the printed board: by cost.
    const forSale = entries(v.buildings).filter(([, n]) => n > 0)
      .sort(([a], [b]) => (building(rules, a).cost || 0) - (building(rules, b).cost || 0) || (a < b ? -1 : 1));
    const rightRows = drafting ? Math.ceil((v.draft.slots || []).length / 4) * 34 + 30 + Math.ceil(pool.length / 3) * 20 : Math.ceil(forSale.length / 3) * 30;
    const top = Math.max(330, 52 + rightRows + 10);
    const goods = goodsOf(rules, v);
    const g = svg(W, 0);
    const parts = [S("rect", { x: 0, y: 0, width: W, height: 10000, fill: "#f6efe0" })];
    const add = (...n) => parts.push(...n);
    // The heading: the draft is not role selection.
    const phase = (extra && extra.phase && extra.phase(v)) || "phase: " + short(show(v.phase));
    add(T(10, 18, (over ? "Game over" : "Round " + show(v.round)) + " · governor: seat " + show(v.governor) + " · " + phase, { "font-weight": "bold", id: "board-heading" }));
    // Role cards in play.
    let x = 10;
    (rules.roles || []).forEach((r, i) => {
      const roles = v.roles || {};
      if (!((roles.in_play >> i) & 1)) return;
      const taken = (roles.taken >> i) & 1;
      add(ctl("role:" + r.id, { id: "role-" + r.id },
        face({ x, y: 26, width: 62, height: 50, rx: 6, fill: taken ? "#ccc" : "#fff4d6", stroke: "#8a6d3b" }),
        T(x + 4, 44, short(r.id), { "font-weight": "bold", "font-size": 10 }),
        // The doubloons lying on the card (the chooser takes them).
        taken ? T(x + 4, 64, "taken", { "font-size": 10 }) : [T(x + 4, 64, "+" + show((roles.coins || [])[i]), { "font-size": 11, "font-weight": "bold" }),
          T(x + 21, 64, "doubloon" + ((roles.coins || [])[i] === 1 ? "" : "s"), { "font-size": 8 })]));
      x += 66;
    });
    // Supply: each pile a control where an action takes from it.
    const pile = (key, label, n, px, fill) => ctl(key, { id: "pile-" + key.replace(/:.*/, "") },
      face({ x: px, y: 86, width: 96, height: 26, rx: 4, fill: fill || "#fff", stroke: "#8a6d3b" }),
      T(px + 5, 103, label + ": " + show(n), { "font-size": 11 }));
    add(pile("colony-ship", "colonist ship", v.colonist_ship, 10, "#eef6ff"), pile("colonists", "colonists", v.colonist_supply, 110),
      pile("vp-chips", "VP chips", v.vp_chips, 210, "#fff4d6"), pile("quarries", "quarries", v.quarry_supply, 310, "#ddd"),
      pile("stack", "plantations", v.stack ? v.stack.tiles : null, 410, "#e4f1d8"));
    add(T(10, 132, "face-up plantations", { "font-size": 11 }));
    x = 120;
    for (const [kind, n] of entries(v.face_up)) {
      for (let k = 0; k < n; k++) {
        add(ctl("face:" + kind, {}, title(face({ x, y: 120, width: 24, height: 18, rx: 3, fill: goodFill(rules, kind), stroke: "#333" }), kind + " plantation")));
        x += 28;
      }
    }
    add(T(10, 158, "goods supply", { "font-size": 11 }));
    goods.forEach((good, i) => {
      const gx = 120 + i * 62, n = (v.goods_supply || {})[good];
      add(ctl("supply:" + good, {}, title(face({ x: gx, y: 146, width: 58, height: 18, rx: 3, fill: goodFill(rules, good), stroke: "#333" }), good + " in the supply"),
        T(gx + 4, 159, good.slice(0, 4) + " " + show(n), { "font-size": 10, fill: ink(goodFill(rules, good)) })));
    });
    // Cargo ships, each a control (by capacity, as the notation names it).
    add(T(10, 186, "Cargo ships", { "font-weight": "bold" }));
    let sy = 194;
    (v.ships || []).filter(s => s.capacity > 0).forEach(ship => {
      const hold = ctl("ship:" + ship.capacity, { id: "ship-" + ship.capacity },
        face({ x: 8, y: sy - 2, width: 104 + ship.capacity * 18, height: 20, rx: 4, fill: "#e9f3fb", stroke: "#6a8aa6" }),
        T(12, sy + 12, "ship " + ship.capacity + (ship.good ? " · " + ship.good : ""), { "font-size": 11 }));
      for (let c = 0; c < ship.capacity; c++) {
        hold.append(S("rect", { x: 110 + c * 18, y: sy, width: 16, height: 16, fill: c < ship.load ? goodFill(rules, ship.good) : "#fff", stroke: "#555" }));
      }
      add(hold);
      sy += 24;
    });
    // The trading house.
    const spaces = (rules.rules && rules.rules.trading_house_spaces) || 4;
    const house = ctl("house", { id: "trading-house" }, face({ x: 8, y: sy + 6, width: 104 + spaces * 40, height: 32, rx: 4, fill: "#fbf3e4", stroke: "#8a6d3b" }),
      T(12, sy + 26, "trading house", { "font-size": 11 }));
    for (let i = 0; i < spaces; i++) {
      const good = (v.trading_house || [])[i];
      house.append(title(S("rect", { x: 110 + i * 40, y: sy + 10, width: 34, height: 24, rx: 3, fill: good ? goodFill(rules, good) : "#fff", stroke: "#555" }), good || "empty"));
    }
    add(house);
    // Buildings for sale with their printed cost, VP and circles (from the ruleset), or the draft.
    const bx = 540;
    if (drafting && extra && extra.draft) {
      extra.draft(v, rules, add, bx, pool);
    } else {
      add(T(bx, 40, "Buildings for sale: cost · VP · colonist circles", { "font-weight": "bold" }));
      forSale.forEach(([id, n], i) => {
        const b = building(rules, id), cx = bx + (i % 3) * 182, cy = 48 + Math.floor(i / 3) * 30;
        const kind = b.type === "production" ? goodFill(rules, b.produces) : (b.spaces || 1) > 1 ? "#e6d8ff" : "#f1e4c8";
        add(ctl("build:" + id, { id: "build-" + id }, face({ x: cx, y: cy, width: 178, height: 26, rx: 3, fill: "#fff", stroke: "#bbb" }),
          S("rect", { x: cx + 2, y: cy + 2, width: 8, height: 22, fill: kind, stroke: "#888" }),
          T(cx + 14, cy + 11, short(id) + " ×" + n, { "font-size": 10, "font-weight": "bold" }),
          T(cx + 14, cy + 22, "cost " + show(b.cost) + " · " + show(b.vp) + " VP" + (b.circles ? " · " + "○".repeat(b.circles) : ""), { "font-size": 10 })));
      });
    }
    // Players.
    players.forEach((p, s) => add(playerPanel(v, rules, ctx, p, s, top + s * playerH, W, actor, goods)));
    // The legend.
    const ly = top + players.length * playerH + 8;
    const [lg, lh] = legend(14, ly, [
      ...goods.map(good => [box(goodFill(rules, good)), good]),
      [box("#777"), "quarry"], ...(players.some(p => p.forests !== undefined) ? [[box("#2f6b2a"), "forest"]] : []),
      [dot(COLONIST), "colonist"], [box("#eee"), "empty space"],
      // The strip at a building's left: what kind of building it is.
      [(x, y) => S("rect", { x: x + 3, y, width: 8, height: 14, fill: goodFill(rules, "indigo"), stroke: "#888" }), "production"],
      [(x, y) => S("rect", { x: x + 3, y, width: 8, height: 14, fill: "#f1e4c8", stroke: "#888" }), "violet"],
      [(x, y) => S("rect", { x: x + 3, y, width: 8, height: 14, fill: "#e6d8ff", stroke: "#888" }), "large violet"],
      [(x, y) => T(x + 3, y + 12, "?", { "font-weight": "bold" }), "hidden from you"],
      ...players.map((_, s) => [dot(SEAT[s % 5]), "seat " + s]),
      ...controls,
    ], 8, 130);
    add(lg);
    const H = ly + lh + 8;
    g.setAttribute("viewBox", "0 0 " + W + " " + H);
    g.setAttribute("height", H);
    g.append(...parts);
    return g;
  }

  function playerPanel(v, rules, ctx, p, s, y, W, actor, goods) {
    const mine = actor === s;
    const key = k => mine ? k : null;
    const here = v.current === s && !ctx.outcome;
    const g = S("g", { id: "player-" + s });
    g.append(S("rect", { x: 6, y, width: W - 12, height: 170, rx: 8, fill: "#fff", stroke: SEAT[s % 5], "stroke-width": here ? 5 : 1.5 }));
    g.append(S("circle", { cx: 22, cy: y + 18, r: 8, fill: SEAT[s % 5] }));
    g.append(T(36, y + 23, seatLabel(ctx, s) + (v.governor === s ? " · governor" : "") + (here ? " · to act" : ""), { "font-weight": "bold" }));
    g.append(T(36, y + 42, "doubloons " + show(p.doubloons) + (p.forests !== undefined ? " · forests " + show(p.forests) : "")));
    g.append(ctl(key("my-vp"), {}, face({ x: 230, y: y + 29, width: 70, height: 18, rx: 3, fill: "#fff4d6", stroke: "#ccc" }), T(236, y + 42, "VP " + show(p.vp))));
    g.append(ctl(key("group:san-juan"), {}, face({ x: 306, y: y + 29, width: 104, height: 18, rx: 3, fill: "#f6f6f6", stroke: "#ccc" }),
      T(312, y + 42, "San Juan: " + show(p.san_juan), { "font-size": 11 })));
    // Goods: the storage a control (keeping goods), each good a control (sell, ship, …).
    const store = ctl(key("store"), {}, face({ x: 420, y: y + 8, width: 438, height: 42, rx: 4, fill: "#fbf7ee", stroke: "#ccc" }), T(426, y + 22, "goods", { "font-size": 11 }));
    if (p.goods === "hidden") store.append(T(470, y + 22, "? (hidden)", { "font-size": 11 }));
    else goods.forEach((good, i) => {
      const n = (p.goods || {})[good] || 0;
      store.append(ctl(key("good:" + good), {}, title(face({ x: 426 + i * 86, y: y + 27, width: 80, height: 19, rx: 3, fill: n ? goodFill(rules, good) : "#f3f3f3", stroke: "#555" }), good + ": " + n),
        T(430 + i * 86, y + 41, good + " " + n, { "font-size": 10, fill: n ? ink(goodFill(rules, good)) : "#999" })));
    });
    g.append(store);
    // The island: 12 spaces; each plantation/quarry space a control of its group, and the
    // Nth space of a group the mayor's "N colonists there".
    const spaces = (rules.board && rules.board.island_spaces) || 12;
    const island = ctl(key("island"), { id: mine ? "island" : null }, face({ x: 30, y: y + 56, width: 192, height: 106, rx: 4, fill: "#f7fbf2", stroke: "#ccc" }),
      T(36, y + 70, "island", { "font-size": 11 }));
    const tiles = [];
    for (const [kind, n] of entries(p.plantations)) for (let k = 0; k < n; k++) tiles.push([kind, k < ((p.plantations_occupied || {})[kind] || 0), k + 1]);
    for (let k = 0; k < (p.quarries || 0); k++) tiles.push(["quarry", k < (p.quarries_occupied || 0), k + 1]);
    for (let k = 0; k < (p.forests || p.extension_tiles || 0); k++) tiles.push(["forest", false, k + 1]);
    for (let k = 0; k < spaces; k++) {
      const tx = 36 + (k % 6) * 30, ty = y + 76 + Math.floor(k / 6) * 30, t = tiles[k];
      if (!t) { island.append(title(S("rect", { x: tx, y: ty, width: 26, height: 26, rx: 3, fill: "#eee", stroke: "#bbb" }), "empty space")); continue; }
      const fill = t[0] === "quarry" ? "#777" : t[0] === "forest" ? "#2f6b2a" : goodFill(rules, t[0]);
      const tile = ctl(t[0] === "forest" ? null : key("group:" + t[0] + " slot:" + t[0] + ":" + t[2]), {},
        title(face({ x: tx, y: ty, width: 26, height: 26, rx: 3, fill, stroke: "#555" }), t[0] + (t[1] ? " (occupied)" : "")));
      if (t[1]) tile.append(S("circle", { cx: tx + 13, cy: ty + 13, r: 5, fill: COLONIST, stroke: "#fff" }));
      island.append(tile);
    }
    g.append(island);
    // The city: each building a control (use, return a colonist, a guest's target), each of
    // its circles the mayor's "N colonists there".
    const city = Array.isArray(p.city) ? p.city : [];
    g.append(T(240, y + 70, "city", { "font-size": 11 }));
    for (let k = 0; k < ((rules.board && rules.board.city_spaces) || 12); k++) {
      const cx = 240 + (k % 6) * 102, cy = y + 76 + Math.floor(k / 6) * 42, b = city[k];
      if (!b) { g.append(S("rect", { x: cx, y: cy, width: 98, height: 38, rx: 3, fill: "#f6f6f6", stroke: "#ddd" })); continue; }
      const info = building(rules, b.building);
      const bg = ctl(key("city:" + b.building + " group:" + b.building), { id: mine ? "city-" + b.building : null },
        face({ x: cx, y: cy, width: 98, height: 38, rx: 3, fill: "#f1e4c8", stroke: "#bbb" }),
        T(cx + 4, cy + 13, short(b.building), { "font-size": 9 }));
      for (let c = 0; c < (info.circles || Math.max(1, b.colonists || 0)); c++) {
        bg.append(ctl(key("slot:" + b.building + ":" + (c + 1)), {}, title(S("circle", { class: "face", cx: cx + 10 + c * 16, cy: cy + 27, r: 6, fill: c < (b.colonists || 0) ? COLONIST : "#fff", stroke: "#555" }), (c + 1) + " colonist" + (c ? "s" : ""))));
      }
      g.append(bg);
    }
    return g;
  }

  window.Boards.register("puerto-rico", { draw, path, goodFill, building });
})();
