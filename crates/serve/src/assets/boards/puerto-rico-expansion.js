// rulesmith serve: Puerto Rico with Expansion I's board: Puerto Rico's, with the building
// draft at setup (its slots, and the buildings to draft as controls) named as the draft.
"use strict";

(function () {
  const Boards = window.Boards;
  const { S, T, show, short, ctl, face } = Boards.kit;
  const module = {};
  const drafting = v => !!(v.draft && !v.draft.over);

  function draft(pr) {
    return (v, rules, add, bx, pool) => {
      add(T(bx, 40, "Building draft: the slots", { "font-weight": "bold" }));
      v.draft.slots.forEach((slot, i) => {
        const cx = bx + (i % 4) * 136, cy = 48 + Math.floor(i / 4) * 34;
        add(S("g", {}, S("rect", { x: cx, y: cy, width: 132, height: 30, rx: 3, fill: slot.building ? "#e6d8ff" : "#fff", stroke: "#777" }),
          T(cx + 4, cy + 12, "cost " + slot.cost, { "font-size": 10 }), T(cx + 4, cy + 25, slot.building ? short(slot.building) : "empty", { "font-size": 10 })));
      });
      const py = 48 + Math.ceil(v.draft.slots.length / 4) * 34 + 16;
      add(T(bx, py, "Not in the game yet: click one to draft it (plain: no empty slot of its cost)", { "font-weight": "bold", "font-size": 11 }));
      pool.forEach((id, i) => {
        const b = pr.building(rules, id), cx = bx + (i % 3) * 182, cy = py + 6 + Math.floor(i / 3) * 20;
        add(ctl("pool:" + id, { id: "pool-" + id }, face({ x: cx, y: cy, width: 178, height: 18, rx: 3, fill: "#f3ecff", stroke: "#bbb" }),
          T(cx + 4, cy + 13, short(id) + " · cost " + show(b.cost) + " · " + show(b.vp) + " VP", { "font-size": 10 })));
      });
    };
  }

  module.ready = Boards.need("puerto-rico").then(pr => {
    const extra = {
      draft: draft(pr),
      phase: v => drafting(v) ? "building draft (before the first role): pick a building for an empty slot of its cost" : null,
    };
    module.draw = (v, rules, ctx) => pr.draw(v, rules, ctx, extra);
    // `draft BUILDING`: the building in the pool; every other action as in the base game.
    module.path = (a, v, rules, ctx) => a.startsWith("draft ") ? ["pool:" + a.slice(6)] : pr.path(a, v, rules, ctx);
  });
  Boards.register("puerto-rico-expansion", module);
})();
