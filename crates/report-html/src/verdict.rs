//! The box each page opens with: its answer, before any chart. What changed significantly,
//! by how much, with intervals (`compare`, `sweep`); the value and its evidence (`tune`);
//! the seats away from the fair share (`simulate`).

use crate::view::{CompareReport, Difference, PointView, Report, SweepView, esc, is_share, pct, seat_label};
use rulesmith_core::study::few::{FEW_SEAT_GAMES, FEW_SHARE, Note};
use rulesmith_core::study::robust::{Check, Verdict, line_text};
use std::fmt::Write as _;

/// Lines a verdict lists before it says how many more there are.
const MOST: usize = 8;

/// `+12.5 pp [+7.5, +17.5]` for a share, `+1.50 [+0.20, +2.80]` otherwise.
pub fn difference_text(figure: &str, mean: f64, ci95: [f64; 2]) -> String {
    if is_share(figure) {
        format!("{:+.1} pp [{:+.1}, {:+.1}]", 100.0 * mean, 100.0 * ci95[0], 100.0 * ci95[1])
    } else {
        format!("{mean:+.2} [{:+.2}, {:+.2}]", ci95[0], ci95[1])
    }
}

/// A designer metric (`building: harbor built share`) rather than an outcome figure.
fn is_metric(figure: &str) -> bool {
    figure.contains(": ")
}

/// Outcome figures first (seats, then length, then the rest), then metrics, each by size.
fn order(diffs: &mut [&Difference]) {
    diffs.sort_by_key(|d| (is_metric(&d.figure), !d.figure.ends_with("win share"), d.figure != "rounds"));
}

/// Where no game of a run finished (every one stopped by a safety cap), there is no answer
/// to give: the figures of finished games are all empty, so "nothing differs" or "every
/// seat is fair" would be claims about no games. Says so, with the cap, and returns true.
fn none_finished(o: &mut String, who: &str, r: &Report) -> bool {
    if r.games == 0 || r.unfinished < r.games {
        return false;
    }
    let ends: Vec<String> = r.ends.keys().map(|e| esc(e)).collect();
    let _ = write!(
        o,
        "<p class=\"sig\">{who}{} game finished: all {} were stopped by a safety cap ({}), so there is no win share, score or difference to judge. Players that finish games (e.g. <code>--bots greedy</code>) give an answer.</p>",
        if who.is_empty() { "No" } else { "no" },
        r.games,
        ends.join(", ")
    );
    true
}

fn open(o: &mut String, title: &str) {
    let _ = write!(o, "<section class=\"verdict\" id=\"verdict\"><h2>{}</h2>", esc(title));
}

fn item(o: &mut String, figure: &str, d: &Difference) {
    let _ = write!(
        o,
        "<li><b>{}</b>: {} <span class=\"p\">(p {:.4})</span></li>",
        esc(figure),
        esc(&difference_text(&d.figure, d.mean, d.ci95)),
        d.p_value
    );
}

/// The robustness check (`--check-with`): a line per headline figure with its verdict.
fn check_lines(o: &mut String, c: &Check, first_bots: &[String]) {
    let (first, second) = (first_bots.join(","), c.bots.join(","));
    let _ = write!(
        o,
        "<h3>Check with {}</h3><p class=\"note\">The run again with a second line-up ({} games{}): holds = same sign, still significant; weaker = no longer significant; flips = opposite sign, significant.</p>",
        esc(&second),
        c.games,
        if c.rotate_seats { ", seats rotated" } else { "" }
    );
    if c.verdicts.is_empty() {
        let _ = write!(o, "<p>No outcome figure is significant under {}: nothing to check.</p>", esc(&first));
        return;
    }
    o.push_str("<ul class=\"check\">");
    for l in &c.verdicts {
        let class = match l.verdict {
            Verdict::Holds => "holds",
            Verdict::Flips => "flips sig",
            _ => "weaker",
        };
        let text = line_text(l, &first, &second);
        let rest = text.get(6..).unwrap_or_default().trim_start();
        let _ = write!(o, "<li class=\"{class}\"><b>{}</b> {}</li>", esc(l.verdict.word()), esc(rest));
    }
    o.push_str("</ul>");
}

/// The figures that rest on few games, in words, beside the answer.
fn few_lines(o: &mut String, notes: &[&Note]) {
    if notes.is_empty() {
        return;
    }
    let _ = write!(
        o,
        "<p class=\"note sig\">Few games (owners in under {:.0}% of seat-games, or under {FEW_SEAT_GAMES} seat-games):</p><ul class=\"few\">",
        100.0 * FEW_SHARE
    );
    for n in notes {
        let _ = write!(o, "<li>{}</li>", esc(&n.text));
    }
    o.push_str("</ul>");
}

/// `compare`: per ruleset, the figures that differ significantly from the first one.
pub fn compare(o: &mut String, c: &CompareReport, from: &str) {
    open(o, "Answer");
    let mut stopped = false;
    for r in &c.rulesets {
        stopped |= none_finished(o, &format!("<b>{}</b>: ", esc(&r.ruleset)), r);
    }
    for set in &c.differences.rulesets {
        let mut sig: Vec<&Difference> = set.figures.iter().filter(|d| d.significant).collect();
        order(&mut sig);
        let outcome = sig.iter().filter(|d| !is_metric(&d.figure)).count();
        let metrics = sig.len() - outcome;
        let _ = write!(o, "<p><b>{}</b> against <b>{}</b> (same games): ", esc(&set.ruleset), esc(from));
        if sig.is_empty() && stopped {
            o.push_str("no answer: a ruleset's games all stopped by a cap.</p>");
            continue;
        }
        if sig.is_empty() {
            o.push_str("no figure differs significantly at 5% (corrected).</p>");
            // The largest outcome difference, so that "nothing" has a size.
            if let Some(d) = set
                .figures
                .iter()
                .filter(|d| !is_metric(&d.figure) && d.figure.ends_with("win share"))
                .max_by(|a, b| a.mean.abs().total_cmp(&b.mean.abs()))
            {
                let _ = write!(
                    o,
                    "<p class=\"note\">The largest win share difference: {} {}, an interval holding 0.</p>",
                    esc(&d.figure),
                    esc(&difference_text(&d.figure, d.mean, d.ci95))
                );
            }
            continue;
        }
        let _ = write!(
            o,
            "{outcome} outcome figure{} and {metrics} designer metric{} differ significantly at 5% (corrected).</p><ul>",
            if outcome == 1 { "" } else { "s" },
            if metrics == 1 { "" } else { "s" }
        );
        for d in sig.iter().take(MOST) {
            item(o, &d.figure, d);
        }
        if sig.len() > MOST {
            let _ = write!(o, "<li>and {} more: the tables below</li>", sig.len() - MOST);
        }
        o.push_str("</ul>");
    }
    few_lines(o, &c.few_games.iter().collect::<Vec<_>>());
    if let Some(check) = &c.check {
        check_lines(o, check, &c.bots);
    }
    let _ = write!(
        o,
        "<p class=\"note\">Mean paired difference with its interval ({}); significance: {}. pp: percentage points.</p></section>",
        esc(&c.differences.interval),
        esc(&c.differences.correction)
    );
}

/// `sweep`: the values whose outcome figures differ significantly from the base.
pub fn sweep(o: &mut String, c: &SweepView) {
    open(o, "Answer");
    let base = c.points.iter().find(|p| p.base).map_or(String::new(), |p| p.label.clone());
    let moved: Vec<(&PointView, Vec<&Difference>)> = c
        .points
        .iter()
        .filter(|p| !p.base)
        .map(|p| {
            let mut sig: Vec<&Difference> =
                p.differences.iter().filter(|d| d.significant && !is_metric(&d.figure)).collect();
            order(&mut sig);
            (p, sig)
        })
        .filter(|(_, sig)| !sig.is_empty())
        .collect();
    let others = c.points.iter().filter(|p| !p.base).count();
    // Values whose games all stopped at a cap have no figures: no claim is made about them.
    let stopped: Vec<&PointView> = c.points.iter().filter(|p| p.none_finished.is_some()).collect();
    if !stopped.is_empty() {
        let labels: Vec<String> = stopped.iter().map(|p| esc(&p.label)).collect();
        let _ = write!(
            o,
            "<p class=\"sig\">No game finished at {} = {}: every one was stopped by a safety cap, so there is nothing to judge there{}. Players that finish games (e.g. <code>--bots greedy</code>) give an answer.</p>",
            esc(&c.x_axis),
            labels.join(", "),
            if stopped.iter().any(|p| p.base) { ", and no value can be compared with the base" } else { "" }
        );
    }
    if stopped.iter().any(|p| p.base) || stopped.len() == c.points.len() {
        // Nothing below would be an answer.
    } else if moved.is_empty() {
        let _ = write!(
            o,
            "<p>No value differs significantly from the base <b>{}</b> in any outcome figure (win shares, length, ends) at 5%, corrected over the whole sweep ({} values{}).</p>",
            esc(&base),
            others - stopped.len(),
            if stopped.is_empty() { "" } else { " whose games finished" }
        );
    } else {
        let _ = write!(
            o,
            "<p>{} of {others} values differ significantly from the base <b>{}</b> at 5%, corrected over the whole sweep:</p><ul>",
            moved.len(),
            esc(&base)
        );
        let mut lines = 0;
        for (p, sig) in &moved {
            if lines >= MOST {
                break;
            }
            let what: Vec<String> = sig
                .iter()
                .take(3)
                .map(|d| format!("{} {}", esc(&d.figure), esc(&difference_text(&d.figure, d.mean, d.ci95))))
                .collect();
            let more = if sig.len() > 3 { format!(" and {} more", sig.len() - 3) } else { String::new() };
            let _ = write!(o, "<li><b>{} = {}</b>: {}{more}</li>", esc(&c.x_axis), esc(&p.label), what.join("; "));
            lines += 1;
        }
        if moved.len() > lines {
            let _ = write!(o, "<li>and {} more values: the table below</li>", moved.len() - lines);
        }
        o.push_str("</ul>");
    }
    few_lines(o, &c.points.iter().flat_map(|p| &p.few_games).collect::<Vec<_>>());
    if let Some(check) = &c.check {
        check_lines(o, check, &c.bots);
    }
    let metrics: usize =
        c.points.iter().map(|p| p.differences.iter().filter(|d| d.significant && is_metric(&d.figure)).count()).sum();
    let _ = write!(
        o,
        "<p class=\"note\">Mean paired difference from the base with its 95% interval; pp: percentage points. Designer metrics that moved: {metrics} (the JSON lists them).</p></section>"
    );
}

/// `tune`: the value, the figure there with its interval, and every evaluation with the
/// games it really had.
pub fn tune(o: &mut String, c: &SweepView, value_text: &dyn Fn(f64) -> String) {
    let Some(a) = &c.answer else { return };
    let Some(t) = &c.target else { return };
    let share = is_share(&t.figure);
    let show = |v: f64| if share { pct(v) } else { format!("{v:.2}") };
    open(o, "Answer");
    let _ = write!(o, "<p class=\"answer\">{} = {}</p>", esc(&c.x_axis), esc(&a.text));
    let at = c.probes.iter().filter(|p| p.value == a.value).map(|p| p.games).max();
    let _ = write!(
        o,
        "<p>{}: <b>{}</b>{} at that value{} (target {}).</p>",
        esc(&t.figure),
        a.figure.map_or("–".to_string(), show),
        a.ci95.map_or(String::new(), |c| format!(" [{}, {}]", show(c[0]), show(c[1]))),
        at.map_or(String::new(), |g| format!(", over {g} games")),
        show(t.value)
    );
    let range = match (a.crossed, a.interval) {
        (_, Some([lo, hi])) => {
            format!("Values whose 95% interval holds the target: {} to {}.", value_text(lo), value_text(hi))
        }
        (true, None) => "No evaluated value's interval holds the target.".to_string(),
        (false, None) => "The figure does not reach the target in the range: this is the closest end.".to_string(),
    };
    let _ = write!(o, "<p>{}{}</p>", if a.crossed { "" } else { "Not crossed in the range. " }, esc(&range));
    // Never the answer without its note, where it rests on few games.
    few_lines(o, &a.few_games.iter().collect::<Vec<_>>());
    if let Some(k) = &c.tune_check {
        let _ = write!(
            o,
            "<h3>Check with {}</h3><p class=\"answer\">{} = {} <span class=\"p\">under {}</span></p><p><b>{}</b>: {}</p>",
            esc(&k.bots.join(",")),
            esc(&c.x_axis),
            esc(&k.answer.text),
            esc(&k.bots.join(",")),
            esc(k.verdict.word()),
            esc(&match k.verdict {
                Verdict::Holds => format!(
                    "the answer under {} lies within the 95% range of values under {}.",
                    k.bots.join(","),
                    c.bots.join(",")
                ),
                _ => format!(
                    "the answer under {} ({}) lies outside the 95% range of values under {} (answer {}): the answer depends on the players.",
                    k.bots.join(","),
                    k.answer.text,
                    c.bots.join(","),
                    a.text
                ),
            })
        );
        few_lines(o, &k.answer.few_games.iter().collect::<Vec<_>>());
    }
    o.push_str("<h3>Evidence: every evaluation</h3><div class=\"scroll\"><table class=\"evidence\"><thead><tr>");
    let _ = write!(
        o,
        "<th>{}</th><th>pass</th><th class=\"n\">games</th><th class=\"n\">{}</th><th class=\"n\">95% interval</th></tr></thead><tbody>",
        esc(&c.x_axis),
        esc(&t.figure)
    );
    // The answer's row: its largest evaluation (the confirming one).
    let answer_games = c.probes.iter().filter(|p| p.value == a.value).map(|p| p.games).max();
    let mut marked = false;
    for p in &c.probes {
        let answer = !marked && p.value == a.value && Some(p.games) == answer_games;
        marked |= answer;
        let _ = write!(
            o,
            "<tr{}><td>{}{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            if answer { " class=\"sig\"" } else { "" },
            esc(&value_text(p.value)),
            if answer { " (answer)" } else { "" },
            esc(&p.pass),
            p.games,
            p.figure.map_or("–".to_string(), show),
            p.ci95.map_or("–".to_string(), |c| format!("[{}, {}]", show(c[0]), show(c[1])))
        );
    }
    o.push_str("</tbody></table></div></section>");
}

/// `simulate`: the seats whose win share's interval leaves out the fair share.
pub fn simulate(o: &mut String, r: &Report) {
    let players = r.seats.len().max(1);
    let fair = 1.0 / players as f64;
    open(o, "Answer");
    if none_finished(o, "", r) {
        o.push_str("</section>");
        return;
    }
    let away: Vec<_> = r.seats.iter().filter(|s| s.win_rate_ci95[0] > fair || s.win_rate_ci95[1] < fair).collect();
    if away.is_empty() {
        let _ = write!(
            o,
            "<p>Every seat's win share is within its 95% interval of the fair share <b>{}</b> (1 / {players} players).</p>",
            pct(fair)
        );
    } else {
        let _ = write!(
            o,
            "<p>Seats whose win share is away from the fair share <b>{}</b> (1 / {players}), beyond their 95% interval:</p><ul>",
            pct(fair)
        );
        for s in away {
            let _ = write!(
                o,
                "<li><b>{}</b>: {} [{}, {}], {:+.1} pp {}</li>",
                esc(&seat_label(s)),
                pct(s.win_rate),
                pct(s.win_rate_ci95[0]),
                pct(s.win_rate_ci95[1]),
                100.0 * (s.win_rate - fair),
                if s.win_rate > fair { "above" } else { "below" }
            );
        }
        o.push_str("</ul>");
    }
    let _ = write!(
        o,
        "<p class=\"note\">{} games, {:.1} rounds a game on average. Intervals: 95% Wilson, each seat on its own (not corrected).</p></section>",
        r.games, r.rounds_mean
    );
}
