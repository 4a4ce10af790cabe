//! The extreme games of a report: the longest and shortest, the largest and smallest
//! margin and the games stopped by a cap, each with the commands that replay it.

use crate::rounds::esc;
use rulesmith_core::sim::Report;
use rulesmith_core::sim::extremes::Extreme;
use std::fmt::Write as _;

/// A report's extreme games.
pub fn of(report: &Report) -> Vec<Extreme> {
    report.extremes.clone()
}

/// The section "Extreme games": one row per game (per ruleset, in ruleset order, when
/// comparing), with the commands that play it again.
pub fn section(o: &mut String, runs: &[(String, Vec<Extreme>)]) {
    section_by(o, "ruleset", runs);
}

/// The section "Extreme games" of several runs, each named in a first `column` (`ruleset`
/// when comparing, `value` in a sweep) when there are several.
pub fn section_by(o: &mut String, column: &str, runs: &[(String, Vec<Extreme>)]) {
    if runs.iter().all(|(_, l)| l.is_empty()) {
        return;
    }
    let named = runs.len() > 1;
    o.push_str("<section id=\"extremes\"><h2>Extreme games</h2>");
    o.push_str(
        "<p class=\"note\">The strange games to open: the longest and the shortest (by rounds, then decisions), the largest and the smallest margin of victory, and games stopped by a safety cap (the first 10). Ties go to the lowest game index. Each command plays the same game again with the same bots: <b>play</b> in the terminal, move by move; <b>table</b> on the board of <code>rulesmith serve</code>; <b>show-game</b> writes the run's own game as a record and steps through it screen by screen.</p>",
    );
    // The commands go on a row of their own under each game, across the whole table: in a
    // column of their own they made the table wider than the page and thousands of pixels
    // tall, its scrollbar out of sight below (issue 47).
    o.push_str("<div class=\"scroll\"><table class=\"extremes\"><thead><tr>");
    if named {
        let _ = write!(o, "<th>{}</th>", esc(column));
    }
    o.push_str(
        "<th>game</th><th class=\"n\">index</th><th class=\"n\">seed</th><th class=\"n\">rounds</th><th class=\"n\">decisions</th><th class=\"n\">margin</th><th>scores</th></tr></thead><tbody>",
    );
    let columns = if named { 8 } else { 7 };
    for (name, list) in runs {
        for x in list {
            let g = &x.game;
            o.push_str("<tr class=\"game\">");
            if named {
                let _ = write!(o, "<td>{}</td>", esc(name));
            }
            let margin = if x.what == "stopped by a cap" { esc(&g.end) } else { g.margin.to_string() };
            let scores: Vec<String> = g.scores.iter().map(ToString::to_string).collect();
            let _ = write!(
                o,
                "<td>{}</td><td class=\"n\">{}{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{margin}</td><td>{}</td></tr>",
                esc(&x.what),
                g.index,
                if g.rotation > 0 { format!(" (rotation {})", g.rotation) } else { String::new() },
                g.seed,
                g.rounds,
                g.decisions,
                scores.join(" / "),
            );
            let _ = write!(
                o,
                "<tr class=\"replay\"><td colspan=\"{columns}\"><b>bots</b> {}<br><b>play</b> <code>{}</code><br><b>table</b> <code>{}</code><br><b>show-game</b> <code>{}</code></td></tr>",
                esc(&x.bots.join(", ")),
                esc(&x.play),
                esc(&x.table),
                esc(&x.show_game)
            );
        }
    }
    o.push_str("</tbody></table></div></section>");
}
