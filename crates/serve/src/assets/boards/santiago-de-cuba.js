// rulesmith serve: Santiago de Cuba's board. Every action of the game is a click on the
// board (crates/santiago-de-cuba/src/encoding.rs lists the notation).
"use strict";

(function () {
  const { SEAT, S, T, show, svg, title, entries, short, ctl, face, seatLabel, legend, box, dot, controls } = window.Boards.kit;
  const GOOD = { sugar: "#f4f4f4", citrus: "#f29b1b", tobacco: "#3da55a", rum: "#c0392b", cigars: "#5a3a22", wood: "#b08850" };
  const FLOWER = { white: "#ffffff", yellow: "#f5d90a", blue: "#3d7bd9", red: "#d94c3d", transparent: "none" };
  const DIE = { white: "#ffffff", orange: "#f29b1b", green: "#3da55a", red: "#c0392b", black: "#333333" };
  const fillOf = (table, id) => table[id] || id || "#999";
  const dark = fill => ["#333333", "#5a3a22", "#3d7bd9", "#c0392b", "#3da55a"].includes(fill);

  const goodsOf = (rules, v) => (rules.goods || []).map(g => g.id).concat(Object.keys(v.supply || {})).filter((g, i, a) => a.indexOf(g) === i);
  const dieOfGood = (rules, good) => ((rules.dice || []).find(d => d.good === good) || {}).id;
  const effectOf = (rules, id) => (((rules.buildings || []).find(b => b.id === id) || {}).effect) || {};
  // What a building or citizen does, in a few words, from its effect in the ruleset.
  function does(e) {
    e = e || {};
    const not = e.except && e.except.length ? " (not " + e.except.join(", ") + ")" : "";
    const gains = x => [x.pesos ? "+" + x.pesos + " peso" + (x.pesos > 1 ? "s" : "") : null, x.vp ? "+" + x.vp + " VP" : null]
      .concat(entries(x.goods).map(([g, n]) => "+" + n + " " + g)).filter(Boolean).join(" ");
    switch (e.kind) {
      case "gain": return gains(e);
      case "convert": return "each " + e.from + " → " + e.to;
      case "exchange": return "1 good → 1 other" + not;
      case "trade": return entries(e.pay).map(([g, n]) => n + " " + g).join(" ") + " → " + gains(e);
      case "sell": return (e.goods || []).join(", ") + ": " + e.vp + " VP each";
      case "clear_die": return "clear a die's demand";
      case "casino": return e.pesos_per_vp + " pesos ↔ 1 VP";
      case "move_marker": return "move the ship's marker";
      case "deliver_fixed": return "1 good → " + e.vp + " VP" + not;
      case "newspaper": return gains(e) + ", a citizen down";
      case "pickpocket": return "others give you 1";
      case "choose_good": return "take " + (e.count || 1) + " good" + not;
      case "lawyer": return "claim/use a building";
      default: return short(show(e.kind));
    }
  }

  // The clicks of an action (null: the action list only).
  function path(a, v, rules) {
    const w = a.split(" ");
    switch (w[0]) {
      case "drive": {
        // `drive N`: the stop N steps on from the car.
        const stops = ["port"].concat(v.street || []);
        const at = v.car === "port" ? 0 : stops.indexOf(v.car);
        return at < 0 ? null : ["stop:" + stops[(at + Number(w[1])) % stops.length]];
      }
      case "keep": return ["die:" + w[2]];
      case "give": return ["mine:" + w[1]];
      case "take": return ["supply:" + w[1]];
      case "claim": case "pawn": return ["building:" + w[1]];
      case "skip": return ["btn:skip"];
      case "pass": return ["btn:pass"];
      case "deliver": {
        // `deliver GOOD N`, `deliver SUBSTITUTE for GOOD N`: the good's die, then how many.
        if (w.length === 5) return ["mine:" + w[1], "die:" + dieOfGood(rules, w[3]), "btn:" + w[4] + " " + w[1]];
        return ["die:" + dieOfGood(rules, w[1]), "btn:" + w[2] + " " + w[1]];
      }
      case "use": {
        const b = w[1], rest = w.slice(2), effect = effectOf(rules, b), kind = effect.kind;
        const at = ["building:" + b];
        if (!rest.length) return at;
        if (kind === "exchange" && rest.length === 3) return at.concat(["mine:" + rest[0], "supply:" + rest[2]]);
        if (kind === "clear_die") return at.concat(["die:" + rest[0]]);
        if (kind === "newspaper" && rest[0] === "flip") return at.concat(["stop:" + rest[1]]);
        if (rest.length === 1 && (v.supply || {})[rest[0]] !== undefined) return at.concat(["mine:" + rest[0]]);
        // Counts, sets of goods, directions: a button each, named by what it does.
        if (kind === "convert") return at.concat(["btn:" + rest[0] + " " + effect.from + " → " + effect.to]);
        if (kind === "move_marker") return at.concat(["btn:marker " + rest[0]]);
        if (kind === "sell") return at.concat(["btn:sell " + rest.join(" ")]);
        return at.concat(["btn:" + rest.join(" ")]);
      }
      default: return null;
    }
  }

  function draw(v, rules, ctx) {
    const players = v.players || [];
    const over = !!ctx.outcome || (v.phase && v.phase.step === "over");
    const actor = over ? null : ctx.toMove;
    const goods = goodsOf(rules, v);
    const W = 1000, top = Math.max(390, 184 + Math.ceil(entries(v.buildings).length / 3) * 56 + 10), H0 = top + players.length * 64;
    const parts = [S("rect", { x: 0, y: 0, width: W, height: 10000, fill: "#f3ecd9" })];
    const add = (...n) => parts.push(...n);
    const turn = v.turn || {};
    add(T(10, 20, "Santiago de Cuba · round " + show(turn.round) + (over ? " · game over" : " · seat " + show(turn.player) + "'s turn · step: " + short(show(v.phase && v.phase.step))), { "font-weight": "bold", id: "board-heading" }));
    // The street: the port, then the citizens in order, along a loop; each stop a control
    // (driving there, the newspaper's flip), its citizen's flower beside the name.
    const street = v.street || [];
    const stops = ["port"].concat(street);
    const citizen = id => (rules.citizens || []).find(c => c.id === id) || {};
    const flowerOf = id => citizen(id).flower;
    const cx = 262, cy = 205, rx = 200, ry = 140;
    add(S("ellipse", { cx, cy, rx, ry, fill: "none", stroke: "#bba", "stroke-width": 18 }));
    stops.forEach((c, k) => {
      const a = -Math.PI / 2 + (2 * Math.PI * k) / stops.length;
      const x = cx + rx * Math.cos(a), y = cy + ry * Math.sin(a);
      const inactive = v.inactive && v.inactive[c];
      const flower = flowerOf(c);
      // Each citizen says what a visit gives (face down: nothing).
      const what = k === 0 ? "" : inactive ? "face down" : does(citizen(c).effect);
      add(ctl("stop:" + c, { id: "stop-" + c },
        face({ x: x - 54, y: y - 17, width: 108, height: 34, rx: 6, fill: k === 0 ? "#d8ecf7" : inactive ? "#ccc" : "#fffaf0", stroke: v.car === c ? "#d12" : "#776", "stroke-width": v.car === c ? 3 : 1 }),
        flower ? title(S("circle", { cx: x - 42, cy: y, r: 7, fill: fillOf(FLOWER, flower), stroke: "#555", "stroke-dasharray": flower === "transparent" ? "2 2" : null }), flower + " flower") : null,
        T(x - 32, y - 1, short(c) + (v.car === c ? " · car" : ""), { "font-size": 11, "font-weight": k === 0 || v.car === c ? "bold" : null }),
        T(x - 32, y + 12, what, { "font-size": 9, fill: inactive ? "#a00" : "#555" })));
    });
    add(T(cx - 40, cy, "car: " + short(show(v.car)), { "font-weight": "bold" }));
    // The ship and its dice, each die a control (set aside, cleared, delivered to).
    const ship = v.ship || {};
    add(T(520, 40, "Ship · value " + show(ship.value) + " · departed " + show(ship.departed) + " of " + show(rules.ship && rules.ship.ships), { "font-weight": "bold" }));
    let dx = 520;
    for (const [colour, pips] of entries(ship.dice)) {
      const good = ((rules.dice || []).find(d => d.id === colour) || {}).good;
      const fill = fillOf(DIE, colour), aside = (ship.aside || []).includes(colour);
      add(ctl("die:" + colour, { id: "die-" + colour },
        title(face({ x: dx, y: 50, width: 40, height: 40, rx: 7, fill, stroke: "#222", opacity: aside ? 0.45 : 1 }), colour + " die (" + show(good) + "): " + show(pips) + (aside ? ", set aside" : "")),
        T(dx + 15, 76, show(pips), { "font-size": 16, fill: dark(fill) ? "#fff" : "#000" }),
        T(dx, 104, show(good), { "font-size": 9 })));
      dx += 48;
    }
    add(T(520, 124, "set aside: " + ((ship.aside || []).join(", ") || "none") + (ship.awaiting_demand ? " · demand to roll" : ""), { "font-size": 11 }));
    // The supply, each good a control (taking one, the black market's get).
    add(T(520, 146, "supply", { "font-size": 11 }));
    goods.forEach((good, i) => {
      const gx = 560 + i * 70;
      add(ctl("supply:" + good, {}, title(face({ x: gx, y: 134, width: 66, height: 18, rx: 3, fill: fillOf(GOOD, good), stroke: "#333" }), good + " in the supply"),
        T(gx + 4, 147, good + " " + show((v.supply || {})[good]), { "font-size": 10, fill: dark(fillOf(GOOD, good)) ? "#fff" : "#000" })));
    });
    // The buildings: each a control (pawn, use, claim), with its flower and owner.
    add(T(520, 176, "Buildings", { "font-weight": "bold" }));
    entries(v.buildings).forEach(([id, b], i) => {
      const x = 520 + (i % 3) * 156, y = 184 + Math.floor(i / 3) * 56;
      const owned = b.owner !== null && b.owner !== undefined;
      add(ctl("building:" + id, { id: "building-" + id },
        face({ x, y, width: 150, height: 50, rx: 4, fill: "#fff", stroke: owned ? SEAT[b.owner % 5] : "#999", "stroke-width": owned ? 3 : 1 }),
        title(S("circle", { cx: x + 12, cy: y + 25, r: 7, fill: fillOf(FLOWER, b.flower), stroke: "#555" }), show(b.flower) + " flower"),
        T(x + 24, y + 15, short(id), { "font-size": 11, "font-weight": "bold" }),
        T(x + 24, y + 29, does(effectOf(rules, id)), { "font-size": 9, fill: "#555" }),
        T(x + 24, y + 43, owned ? "owner: seat " + b.owner : "no owner", { "font-size": 10 }),
        players.map((p, s) => [p, s]).filter(([p]) => p.pawn === id).map(([, s], m) =>
          title(S("circle", { cx: x + 136 - m * 12, cy: y + 42, r: 6, fill: SEAT[s % 5], stroke: "#000" }), "pawn of seat " + s))));
    });
    // The players: for the one acting, each holding a control (give, deliver, exchange).
    players.forEach((p, s) => {
      const y = top + s * 64, mine = actor === s, here = turn.player === s && !over;
      const key = k => mine ? k : null;
      add(S("rect", { x: 6, y, width: W - 12, height: 56, rx: 6, fill: "#fff", stroke: SEAT[s % 5], "stroke-width": here ? 5 : 1.5 }),
        S("circle", { cx: 22, cy: y + 16, r: 8, fill: SEAT[s % 5] }),
        T(36, y + 21, seatLabel(ctx, s) + (here ? " · turn" : "") + " · pawn at " + short(show(p.pawn)), { "font-weight": "bold" }));
      const chip = (k, label, x, fill) => ctl(key(k), {}, face({ x, y: y + 30, width: 84, height: 20, rx: 3, fill, stroke: "#555" }),
        T(x + 4, y + 44, label, { "font-size": 10, fill: dark(fill) ? "#fff" : "#000" }));
      add(chip("mine:peso", "pesos " + show(p.pesos), 36, "#fff8d8"), chip("mine:vp", "VP " + show(p.vp), 124, "#fff4d6"));
      if (p.goods === "hidden") add(T(220, y + 44, "goods: ? (hidden)"));
      else goods.forEach((good, i) => add(chip("mine:" + good, good + " " + show((p.goods || {})[good]), 220 + i * 88, fillOf(GOOD, good))));
    });
    const ly = H0 + 8;
    const flowers = (rules.flowers || []).map(f => f.id).concat(["transparent"]);
    const [lg, lh] = legend(14, ly, [
      ...goods.map(good => [box(fillOf(GOOD, good)), good]),
      ...flowers.map(f => [(x, y) => S("circle", { cx: x + 7, cy: y + 7, r: 6, fill: fillOf(FLOWER, f), stroke: "#555", "stroke-dasharray": f === "transparent" ? "2 2" : null }), f + " flower"]),
      ...players.map((_, s) => [dot(SEAT[s % 5]), "seat " + s + " (pawn, owner)"]),
      [(x, y) => S("rect", { x, y, width: 14, height: 14, fill: "#fff", stroke: "#d12", "stroke-width": 3 }), "the car's stop"],
      [(x, y) => S("g", {}, S("rect", { x, y, width: 14, height: 14, rx: 3, fill: DIE.green, stroke: "#222" }), T(x + 4, y + 11, "3", { "font-size": 10, fill: "#fff" })), "die: its good wanted"],
      [(x, y) => S("rect", { x, y, width: 14, height: 14, rx: 3, fill: DIE.red, stroke: "#222", opacity: 0.45 }), "die set aside"],
      ...controls,
    ], 6, 160);
    add(lg);
    const H = ly + lh + 8;
    const g = svg(W, H);
    g.append(...parts);
    return g;
  }

  window.Boards.register("santiago-de-cuba", { draw, path });
})();
