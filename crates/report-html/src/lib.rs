//! Self-contained HTML pages for rulesmith's `simulate`, `compare`, `sweep` and `tune`
//! reports.
//!
//! A page is one file with inline CSS and inline SVG plots (drawn with `plotters`' SVG
//! backend), no script and no external resource, so it opens anywhere without a network.
//!
//! The pages draw the library's own report types (`rulesmith_core::sim::Report`,
//! `rulesmith_core::study::{CompareReport, SweepReport, TuneReport}`), the same ones the
//! JSON is written from; the designer metrics are rendered generically (figures undefined
//! in a run are left out). [`Distributions`], gathered from the games as they finish, add
//! the score, margin and length plots that a report's sums cannot give.

mod error;
mod extremes;
mod heatmap;
mod plot;
mod rounds;
mod training;
mod verdict;
mod view;

pub use error::Error;
pub use rulesmith_core::study::Distributions;

use plot::{Bar, Marks, Series, colour, css};
use rulesmith_core::study::{SweepReport, TuneReport};
use std::fmt::Write as _;
use view::{CompareReport, Difference, Report, SweepView, esc, is_share, num, pct, seat_label};

/// The page of one `simulate` report, with the run's distributions if gathered.
pub fn simulate_page(r: &Report, dist: Option<&Distributions>) -> Result<String, Error> {
    let mut o = String::new();
    let shard = r.shard.as_ref().map(|s| format!(" · shard {}", esc(s))).unwrap_or_default();
    head(&mut o, &format!("{} · rulesmith simulate", r.ruleset));
    let _ = write!(
        o,
        "<header><p class=\"kicker\">rulesmith simulate</p><h1>{}</h1><p class=\"sub\">{} · {} players · {} games · seed {} · bots {}{shard}</p></header>",
        esc(&r.ruleset),
        esc(&r.game),
        r.players,
        r.games,
        r.seed,
        esc(&r.bots.join(", "))
    );
    if let Some(n) = rulesmith_core::sim::unrotated_note(&r.bots, r.rotate_seats) {
        let _ = write!(o, "<p class=\"note sig\">{}</p>", esc(n.trim_start_matches("note: ")));
    }
    verdict::simulate(&mut o, r);
    cards(&mut o, r);

    section(&mut o, "Win share per seat");
    note(
        &mut o,
        "A win shared by k players counts 1/k to each. Bars: win share; whiskers: 95% Wilson interval; dashed line: the fair share (1 / players). Unfinished games are left out.",
    );
    let bars: Vec<Bar> = r
        .seats
        .iter()
        .map(|s| Bar { label: seat_label(s), value: s.win_rate, ci95: Some(s.win_rate_ci95), colour: colour(s.seat) })
        .collect();
    figure(&mut o, &plot::bars(&bars, "win share", true, Some(fair(r.players)))?);
    seat_table(&mut o, r);
    o.push_str("</section>");

    section(&mut o, "Scores");
    if let Some(d) = dist {
        note(&mut o, "Final scores of each seat over the finished games.");
        let series: Vec<Series> = r
            .seats
            .iter()
            .zip(&d.scores)
            .map(|(s, c)| Series { label: seat_label(s), counts: c.clone(), colour: colour(s.seat) })
            .collect();
        legend(&mut o, series.iter().map(|s| (s.label.as_str(), s.colour)));
        figure(&mut o, &plot::distribution(&series, "final score")?);
        if !d.margins.is_empty() {
            note(&mut o, "Margin of victory: the winner's score minus the best score of the others.");
            let margin = [Series { label: "margin".into(), counts: d.margins.clone(), colour: colour(2) }];
            figure(&mut o, &plot::distribution(&margin, "margin of victory (points)")?);
        }
    } else {
        note(&mut o, "Mean final score per seat; whiskers: ± one standard deviation.");
        let bars: Vec<Bar> = r
            .seats
            .iter()
            .map(|s| Bar {
                label: seat_label(s),
                value: s.score_mean,
                ci95: Some([s.score_mean - s.score_sd, s.score_mean + s.score_sd]),
                colour: colour(s.seat),
            })
            .collect();
        figure(&mut o, &plot::bars(&bars, "score", false, None)?);
    }
    o.push_str("</section>");

    section(&mut o, "Game length");
    let _ = write!(
        o,
        "<p>Mean <b>{:.1}</b> rounds and <b>{:.1}</b> decisions per finished game.</p>",
        r.rounds_mean, r.decisions_mean
    );
    if let Some(d) = dist.filter(|d| !d.rounds.is_empty()) {
        let rounds = [Series { label: "rounds".into(), counts: d.rounds.clone(), colour: colour(0) }];
        figure(&mut o, &plot::distribution(&rounds, "rounds")?);
    }
    ends_table(&mut o, std::slice::from_ref(r));
    o.push_str("</section>");

    rounds::section(&mut o, &rounds::run(r).into_iter().collect::<Vec<_>>())?;
    extremes::section(&mut o, &[(r.ruleset.clone(), extremes::of(r))]);
    metrics_section(&mut o, std::slice::from_ref(r))?;
    footer(&mut o, &[r]);
    Ok(o)
}

/// The page of one `compare` report, with each ruleset's distributions if gathered.
pub fn compare_page(c: &CompareReport, dists: &[Distributions]) -> Result<String, Error> {
    let names: Vec<String> = c.rulesets.iter().map(|r| r.ruleset.clone()).collect();
    let mut o = String::new();
    head(&mut o, &format!("{} · rulesmith compare", names.join(" vs ")));
    let _ = write!(
        o,
        "<header><p class=\"kicker\">rulesmith compare</p><h1>{}</h1><p class=\"sub\">{} players · {} games each, same seeds and bots · seed {} · bots {}</p></header>",
        names.iter().map(|n| esc(n)).collect::<Vec<_>>().join(" <span class=\"vs\">vs</span> "),
        c.players,
        c.games,
        c.seed,
        esc(&c.bots.join(", "))
    );
    if let Some(n) = rulesmith_core::sim::unrotated_note(&c.bots, c.rotate_seats) {
        let _ = write!(o, "<p class=\"note sig\">{}</p>", esc(n.trim_start_matches("note: ")));
    }
    let ruleset_legend = |o: &mut String| legend(o, names.iter().enumerate().map(|(i, n)| (n.as_str(), colour(i))));
    let from = c.differences.from.clone().unwrap_or_else(|| names.first().cloned().unwrap_or_default());
    verdict::compare(&mut o, c, &from);

    section(&mut o, "Side by side");
    side_by_side(&mut o, &c.rulesets);
    o.push_str("</section>");

    section(&mut o, "Win share per seat");
    note(
        &mut o,
        "Bars: win share (ties split); whiskers: 95% Wilson interval; dashed line: the fair share (1 / players).",
    );
    ruleset_legend(&mut o);
    let mut bars = Vec::new();
    for s in 0..c.players {
        for (i, r) in c.rulesets.iter().enumerate() {
            if let Some(seat) = r.seats.get(s) {
                bars.push(Bar {
                    label: if i == 0 { seat_label(seat) } else { String::new() },
                    value: seat.win_rate,
                    ci95: Some(seat.win_rate_ci95),
                    colour: colour(i),
                });
            }
        }
    }
    figure(&mut o, &plot::bars(&bars, "win share", true, Some(fair(c.players)))?);
    o.push_str("</section>");

    if dists.len() == c.rulesets.len() && !dists.is_empty() {
        section(&mut o, "Scores and game length");
        note(&mut o, "Final scores of all seats over the finished games, then game length in rounds.");
        ruleset_legend(&mut o);
        let scores: Vec<Series> = dists
            .iter()
            .enumerate()
            .map(|(i, d)| Series { label: names[i].clone(), counts: d.all_scores(), colour: colour(i) })
            .collect();
        figure(&mut o, &plot::distribution(&scores, "final score")?);
        let rounds: Vec<Series> = dists
            .iter()
            .enumerate()
            .map(|(i, d)| Series { label: names[i].clone(), counts: d.rounds.clone(), colour: colour(i) })
            .collect();
        figure(&mut o, &plot::distribution(&rounds, "rounds")?);
        o.push_str("</section>");
    }

    for set in &c.differences.rulesets {
        section(&mut o, &format!("{} − {}, paired by game", set.ruleset, from));
        let _ = write!(
            o,
            "<p class=\"note\">Each figure's mean difference over the same seeds and bots. Interval: {}. Significance: {}; <span class=\"sig\">marked</span> figures are significant. pp: percentage points.</p>",
            esc(&c.differences.interval),
            esc(&c.differences.correction)
        );
        let wins: Vec<Bar> = set
            .figures
            .iter()
            .filter(|d| d.figure.ends_with("win share"))
            .map(|d| Bar {
                label: d.figure.trim_end_matches(" win share").to_string(),
                value: d.mean,
                ci95: Some(d.ci95),
                colour: if d.significant { colour(5) } else { colour(6) },
            })
            .collect();
        if !wins.is_empty() {
            figure(&mut o, &plot::bars(&wins, "win share difference", true, None)?);
        }
        if set.figures.len() <= LONG_TABLE {
            differences_table(&mut o, &set.figures)?;
        } else {
            // Many figures (designer metrics): the significant ones first, all on demand.
            let significant: Vec<Difference> = set.figures.iter().filter(|d| d.significant).cloned().collect();
            let _ = write!(o, "<h3>{} significant of {} figures</h3>", significant.len(), set.figures.len());
            differences_table(&mut o, &significant)?;
            let _ = write!(o, "<details><summary>table: all {} figures</summary>", set.figures.len());
            differences_table(&mut o, &set.figures)?;
            o.push_str("</details>");
        }
        o.push_str("</section>");
    }

    rounds::section(&mut o, &c.rulesets.iter().filter_map(rounds::run).collect::<Vec<_>>())?;
    let extreme: Vec<_> = c.rulesets.iter().map(|r| (r.ruleset.clone(), extremes::of(r))).collect();
    extremes::section(&mut o, &extreme);
    metrics_section(&mut o, &c.rulesets)?;
    footer(&mut o, &c.rulesets.iter().collect::<Vec<_>>());
    Ok(o)
}

/// Tables longer than this open on demand.
const LONG_TABLE: usize = 40;

/// The fair share of a win share: 1 / players.
fn fair(players: usize) -> f64 {
    1.0 / players.max(1) as f64
}

/// `N games per value`, or the range when the values had different numbers (`tune`
/// confirms its answer with more games).
fn games_per_value(c: &SweepView) -> String {
    let mut most: Vec<(f64, u64)> = Vec::new();
    for p in &c.probes {
        match most.iter_mut().find(|m| m.0 == p.value) {
            Some(m) => m.1 = m.1.max(p.games),
            None => most.push((p.value, p.games)),
        }
    }
    let lo = most.iter().map(|m| m.1).min();
    let hi = most.iter().map(|m| m.1).max();
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo != hi => {
            let at_most = most.iter().filter(|m| m.1 == hi).count();
            format!("{lo} to {hi} games per value ({hi} at {at_most} value{})", if at_most == 1 { "" } else { "s" })
        }
        (Some(n), _) => format!("{n} games per value"),
        _ => format!("{} games per value", c.games),
    }
}

/// The page of one `sweep` report: the answer first, then each figure over the swept value
/// (a marker and 95% interval at each value measured; a heatmap per figure for a grid of
/// two keys), and the differences from the base value.
pub fn sweep_page(sweep: &SweepReport) -> Result<String, Error> {
    swept_page(&SweepView::from(sweep), "sweep")
}

/// The page of one `tune` report: its answer and evidence first, then the figure over the
/// values evaluated.
pub fn tune_page(tune: &TuneReport) -> Result<String, Error> {
    swept_page(&SweepView::from(tune), "tune")
}

fn swept_page(c: &SweepView, command: &str) -> Result<String, Error> {
    let mut o = String::new();
    head(&mut o, &format!("{} · {} · rulesmith {command}", c.ruleset, c.x_axis));
    let tune = c.answer.is_some();
    let _ = write!(
        o,
        "<header><p class=\"kicker\">rulesmith {}</p><h1>{} <span class=\"vs\">over</span> {}</h1><p class=\"sub\">{} values{} · {} players · {}, same seeds and bots · seed {} · bots {}</p></header>",
        esc(command),
        esc(&c.ruleset),
        esc(&c.x_axis),
        c.points.len(),
        if tune { " evaluated" } else { "" },
        c.players,
        games_per_value(c),
        c.seed,
        esc(&c.bots.join(", "))
    );
    let value_text = |x: f64| {
        c.points.iter().find(|p| p.x == Some(x)).map_or_else(
            || if c.integer { format!("{x:.0}") } else { format!("{}", (x * 1e6).round() / 1e6) },
            |p| p.label.clone(),
        )
    };
    if tune {
        verdict::tune(&mut o, c, &value_text);
    } else {
        verdict::sweep(&mut o, c);
    }
    // The value itself on the x axis when every point is a number, else positions with labels.
    let numeric = c.points.iter().all(|p| p.x.is_some());
    let labels: Vec<String> = c.points.iter().map(|p| p.label.clone()).collect();
    let xs: Vec<f64> =
        c.points.iter().enumerate().map(|(i, p)| if numeric { p.x.unwrap_or(0.0) } else { i as f64 }).collect();
    let ticks = (!numeric).then_some(labels.as_slice());
    let base_x = c.points.iter().zip(&xs).find(|(p, _)| p.base).map(|(_, &x)| x).or(c.base_value.filter(|_| numeric));
    let grid = c.vary.len() == 2;
    let series = |names: &[String]| -> Vec<plot::Band> {
        names
            .iter()
            .enumerate()
            .map(|(k, name)| plot::Band {
                points: c
                    .points
                    .iter()
                    .zip(&xs)
                    .map(|(p, &x)| {
                        let f = p.figures.iter().find(|f| &f.figure == name);
                        (x, f.and_then(|f| f.value), f.and_then(|f| f.ci95))
                    })
                    .collect(),
                colour: colour(k),
            })
            .collect()
    };
    let names_where = |keep: &dyn Fn(&str) -> bool| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for p in &c.points {
            for f in &p.figures {
                if keep(&f.figure) && !out.contains(&f.figure) {
                    out.push(f.figure.clone());
                }
            }
        }
        out
    };
    let chart = |o: &mut String,
                 title: &str,
                 text: &str,
                 names: Vec<String>,
                 y: &str,
                 percent: bool,
                 fair_share: bool|
     -> Result<(), Error> {
        if names.is_empty() {
            return Ok(());
        }
        section(o, title);
        if grid {
            note(
                o,
                "Each cell: the figure at that pair of values; below it, the difference from the base cell (* significant at 5%, corrected over the whole sweep). Colour: higher than the base (orange) or lower (blue).",
            );
            o.push_str("<div class=\"heatmaps\">");
            for name in &names {
                heatmap::heatmap(o, name, &c.vary, &c.points);
            }
            o.push_str("</div></section>");
            return Ok(());
        }
        note(o, text);
        legend(o, names.iter().enumerate().map(|(k, n)| (n.as_str(), colour(k))));
        let target = c.target.as_ref().filter(|t| names.len() == 1 && names.contains(&t.figure)).map(|t| t.value);
        let marks = Marks {
            target,
            fair: (fair_share && percent).then(|| fair(c.players)),
            base_x,
            answer_x: c.answer.as_ref().filter(|_| target.is_some() && numeric).map(|a| a.value),
        };
        figure(o, &plot::bands(&series(&names), &c.x_axis, ticks, y, percent, marks)?);
        o.push_str("</section>");
        Ok(())
    };
    let band = "Markers: the figure at each value played; whiskers: its 95% interval (no line: values between were not played). Dashed lines: the base value and, for win shares, the fair share (1 / players).";
    chart(
        &mut o,
        "Win share per seat",
        band,
        names_where(&|f| f.starts_with("seat ") && f.ends_with(" win share")),
        "win share",
        true,
        true,
    )?;
    if let Some(item) = &c.item {
        let needle = format!(": {item} ");
        chart(
            &mut o,
            &format!("Owners and non-owners of {item}"),
            "The win share of the seats that had it against that of the others (seat-games); a gap means it is strong. Dashed lines: the base value and the fair share.",
            names_where(&|f| f.contains(&needle) && f.ends_with(" win share") && !f.contains('−')),
            "win share",
            true,
            true,
        )?;
    }
    chart(&mut o, "Game length", band, names_where(&|f| f == "rounds"), "rounds", false, false)?;
    if !grid {
        chart(
            &mut o,
            "Scores",
            band,
            names_where(&|f| f.starts_with("seat ") && f.ends_with(" score")),
            "mean score",
            false,
            false,
        )?;
    }
    chart(&mut o, "End reasons", band, names_where(&|f| f.starts_with("ended by ")), "share of games", true, false)?;
    chart(
        &mut o,
        "Skill",
        "The win share of one stronger player against weaker ones, seats rotated: above the fair share (dashed), the rules reward the better play.",
        names_where(&|f| f.starts_with("skill: ")),
        "win share",
        true,
        true,
    )?;
    // A figure asked for (`--figure`, `tune`'s target) that a chart above shows alone is
    // not drawn twice.
    for name in c.plots.iter().filter(|n| n.as_str() != "rounds") {
        let percent = is_share(name);
        let fair_share = name.ends_with("win share") && !name.contains('−');
        chart(&mut o, name, band, vec![name.clone()], name, percent, fair_share)?;
    }
    // The games to open come last: a few per value, they would push the differences a
    // designer reads next thousands of pixels down.
    let extreme: Vec<_> = c.points.iter().map(|p| (p.label.clone(), p.extremes.clone())).collect();
    if c.points.iter().all(|p| p.differences.is_empty()) {
        extremes::section_by(&mut o, &c.x_axis, &extreme);
        let _ = writeln!(o, "<footer>Generated by rulesmith</footer></main></body></html>");
        return Ok(o);
    }
    section(&mut o, "Differences from the base, paired by game");
    note(
        &mut o,
        &format!(
            "Each value's mean difference from the base value over the same games. Significance: {}; marked cells are significant.",
            c.correction
        ),
    );
    let base = c.points.iter().find(|p| p.base).map_or(String::new(), |p| p.label.clone());
    let cols: Vec<String> = c
        .points
        .iter()
        .flat_map(|p| p.differences.iter().map(|d| d.figure.clone()))
        .filter(|f| !f.contains(": "))
        .fold(Vec::new(), |mut v, f| {
            if !v.contains(&f) {
                v.push(f);
            }
            v
        });
    let mut cols = cols;
    // Seats first, then length, then ends.
    cols.sort_by_key(|c| (!c.starts_with("seat "), c != "rounds", c.clone()));
    let _ =
        write!(o, "<div class=\"scroll\"><table class=\"wide\"><tr><th>{} (base {})</th>", esc(&c.x_axis), esc(&base));
    for f in &cols {
        let _ = write!(o, "<th class=\"n\">{}</th>", esc(f));
    }
    o.push_str("</tr>");
    for p in c.points.iter().filter(|p| !p.base) {
        let _ = write!(o, "<tr><td>{}</td>", esc(&p.label));
        for f in &cols {
            match p.differences.iter().find(|d| &d.figure == f) {
                Some(d) => {
                    let v = if is_share(f) { format!("{:+.1} pp", 100.0 * d.mean) } else { format!("{:+.2}", d.mean) };
                    let class = if d.significant { " sig" } else { "" };
                    let _ = write!(o, "<td class=\"n{class}\">{v}{}</td>", if d.significant { "*" } else { "" });
                }
                None => o.push_str("<td class=\"n\">–</td>"),
            }
        }
        o.push_str("</tr>");
    }
    o.push_str("</table></div></section>");
    extremes::section_by(&mut o, &c.x_axis, &extreme);
    let _ = writeln!(o, "<footer>Generated by rulesmith</footer></main></body></html>");
    Ok(o)
}

const CSS: &str = "\
:root{--ink:#282c34;--muted:#5c6370;--line:#e1e4e8;--bg:#f6f7f9;--card:#fff;--accent:#0072b2;--sig:#d55e00}\
*{box-sizing:border-box}\
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}\
main{max-width:860px;margin:0 auto;padding:28px 20px 40px}\
header{margin-bottom:18px}\
.kicker{margin:0;color:var(--accent);font-weight:600;letter-spacing:.06em;text-transform:uppercase;font-size:12px}\
h1{margin:2px 0 4px;font-size:28px}\
.vs{color:var(--muted);font-weight:400;font-size:20px}\
.sub{margin:0;color:var(--muted)}\
h2{margin:0 0 8px;font-size:19px}\
h3{margin:18px 0 6px;font-size:16px}\
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:18px 20px;margin:16px 0}\
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px}\
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 16px}\
.card b{display:block;font-size:22px}\
.card span{color:var(--muted);font-size:13px}\
.note{color:var(--muted);font-size:13px;margin:0 0 10px}\
figure{margin:8px 0}\
figure svg{display:block;max-width:100%;height:auto}\
.legend{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px;margin:4px 0}\
.legend i{display:inline-block;width:12px;height:12px;border-radius:3px;margin-right:6px;vertical-align:-1px}\
table{border-collapse:collapse;width:100%;font-size:14px;margin:8px 0}\
th,td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:middle}\
th{font-weight:600;color:var(--muted);font-size:13px}\
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
td svg{display:block}\
tr.sig td{background:#fff4ec}\
.sig{color:var(--sig);font-weight:600}\
details summary{cursor:pointer;color:var(--accent);margin:6px 0}\
footer{color:var(--muted);font-size:12px;text-align:center;margin-top:24px}\
.scroll,section{overflow-x:auto}\
.scroll{padding-bottom:2px}@supports not selector(::-webkit-scrollbar){.scroll{scrollbar-color:#8a919c #eceef1}}\
.scroll::-webkit-scrollbar{height:12px;background:#eceef1}.scroll::-webkit-scrollbar-thumb{background:#8a919c;border-radius:6px}\
th.n{white-space:normal}\
table.extremes{font-size:13px}table.extremes tr.game td{border-bottom:0;padding-bottom:1px}table.extremes tr.replay td{padding-top:1px;font-size:12px;line-height:1.6}\
table.extremes code,table.extremes th:first-child{overflow-wrap:anywhere}\
table.wide{font-size:12px}table.wide td,table.wide th{padding:4px 5px}table.wide th.n{white-space:normal;min-width:64px}\
.verdict{border:2px solid var(--accent);margin-top:0}\
.verdict ul{margin:4px 0 8px;padding-left:22px}.verdict li{margin:2px 0}\
.verdict .p{color:var(--muted);font-size:13px}\
.answer{font-size:26px;font-weight:700;margin:0 0 4px}\
table.evidence{font-size:13px}\
.heatmaps{display:flex;flex-wrap:wrap;gap:0 28px}.hm h3{margin-top:10px}\
table.heatmap{width:auto;border-collapse:separate;border-spacing:3px}table.heatmap th{border:0;font-size:12px;padding:3px 4px}\
table.heatmap td.cell{text-align:center;min-width:76px;padding:5px 6px;border:1px solid var(--line);border-radius:6px;font-variant-numeric:tabular-nums}\
table.heatmap td small{display:block;color:var(--ink);font-size:12px}\
table.heatmap td.sig{border:2px solid var(--ink);font-weight:700}\
table.heatmap td.base{border:2px dashed var(--muted)}";

/// The page of a training run (`rulesmith train --html`), from its JSON (`--json`): the
/// learning curve, the learned player's win share against greedy as training went on.
pub fn training_page(run: &serde_json::Value) -> Result<String, Error> {
    let mut o = String::new();
    let ruleset = run.get("ruleset").and_then(|v| v.as_str()).unwrap_or_default();
    head(&mut o, &format!("Training · {ruleset}"));
    training::body(run, &mut o)?;
    o.push_str("<footer>Generated by rulesmith</footer></main></body></html>\n");
    Ok(o)
}

fn head(o: &mut String, title: &str) {
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title><link rel=\"icon\" href=\"data:,\"><style>{CSS}</style></head><body><main>",
        esc(title)
    );
}

fn footer(o: &mut String, reports: &[&Report]) {
    let speed: Vec<String> =
        reports.iter().map(|r| format!("{}: {} games in {:.2} s", esc(&r.ruleset), r.games, r.seconds)).collect();
    let _ = writeln!(o, "<footer>Generated by rulesmith · {}</footer></main></body></html>", speed.join(" · "));
}

fn section(o: &mut String, title: &str) {
    let _ = write!(o, "<section><h2>{}</h2>", esc(title));
}

fn note(o: &mut String, text: &str) {
    let _ = write!(o, "<p class=\"note\">{}</p>", esc(text));
}

fn figure(o: &mut String, svg: &str) {
    let _ = write!(o, "<figure>{svg}</figure>");
}

fn legend<'a>(o: &mut String, items: impl Iterator<Item = (&'a str, plotters::style::RGBColor)>) {
    o.push_str("<div class=\"legend\">");
    for (label, c) in items {
        let _ = write!(o, "<span><i style=\"background:{}\"></i>{}</span>", css(c), esc(label));
    }
    o.push_str("</div>");
}

fn cards(o: &mut String, r: &Report) {
    let finished = r.games.saturating_sub(r.unfinished);
    let best = r.seats.iter().max_by(|a, b| a.win_rate.total_cmp(&b.win_rate));
    o.push_str("<div class=\"cards\">");
    let _ = write!(o, "<div class=\"card\"><b>{}</b><span>games ({finished} finished)</span></div>", r.games);
    if finished == 0 {
        // Games stopped by a safety cap have no winner: a best win share of 0.0% would
        // read as an answer about no games (the verdict box says the same).
        o.push_str("<div class=\"card\"><b>–</b><span>best win share: no game finished</span></div>");
    } else if let Some(b) = best {
        let _ = write!(
            o,
            "<div class=\"card\"><b>{}</b><span>best win share: {}</span></div>",
            pct(b.win_rate),
            esc(&seat_label(b))
        );
    }
    let _ = write!(o, "<div class=\"card\"><b>{:.1}</b><span>rounds per game (mean)</span></div>", r.rounds_mean);
    let _ = write!(o, "<div class=\"card\"><b>{}</b><span>games per second</span></div>", rate(r.games_per_second));
    o.push_str("</div>");
}

fn rate(r: f64) -> String {
    rulesmith_core::sim::rate_text(r)
}

fn seat_table(o: &mut String, r: &Report) {
    o.push_str("<table><thead><tr><th>seat</th><th>bot</th><th class=\"n\">wins</th><th class=\"n\">win share</th><th class=\"n\">95% interval</th><th class=\"n\">score mean</th><th class=\"n\">score sd</th></tr></thead><tbody>");
    for s in &r.seats {
        let _ = write!(
            o,
            "<tr><td><i class=\"dot\" style=\"color:{}\">●</i> {}</td><td>{}</td><td class=\"n\">{:.1}</td><td class=\"n\">{}</td><td class=\"n\">[{}, {}]</td><td class=\"n\">{:.2}</td><td class=\"n\">{:.2}</td></tr>",
            css(colour(s.seat)),
            s.seat,
            esc(&s.bot),
            s.wins,
            pct(s.win_rate),
            pct(s.win_rate_ci95[0]),
            pct(s.win_rate_ci95[1]),
            s.score_mean,
            s.score_sd
        );
    }
    o.push_str("</tbody></table>");
    if r.unfinished > 0 {
        let _ = write!(
            o,
            "<p class=\"note\">{} games ({}) were stopped by a safety cap: no winner, left out of win shares and score means.</p>",
            r.unfinished,
            pct(r.unfinished as f64 / r.games.max(1) as f64)
        );
    }
}

/// How games ended, one column per report.
fn ends_table(o: &mut String, reports: &[Report]) {
    let mut ends: Vec<&String> = reports.iter().flat_map(|r| r.ends.keys()).collect();
    ends.sort();
    ends.dedup();
    o.push_str("<table><thead><tr><th>ended by</th>");
    for r in reports {
        let _ = write!(o, "<th class=\"n\">{}</th>", if reports.len() > 1 { esc(&r.ruleset) } else { "games".into() });
    }
    o.push_str("</tr></thead><tbody>");
    for end in ends {
        let _ = write!(o, "<tr><td>{}</td>", esc(&end.replace('_', " ")));
        for r in reports {
            let n = r.ends.get(end).copied().unwrap_or(0);
            let _ = write!(o, "<td class=\"n\">{n} ({})</td>", pct(n as f64 / r.games.max(1) as f64));
        }
        o.push_str("</tr>");
    }
    o.push_str("</tbody></table>");
}

fn side_by_side(o: &mut String, reports: &[Report]) {
    // Many rulesets: a smaller table that scrolls inside its card rather than overflowing it.
    let class = if reports.len() >= 5 { " class=\"wide\"" } else { "" };
    let _ = write!(o, "<div class=\"scroll\"><table{class}><thead><tr><th>figure</th>");
    for (i, r) in reports.iter().enumerate() {
        let _ = write!(o, "<th class=\"n\"><i style=\"color:{}\">●</i> {}</th>", css(colour(i)), esc(&r.ruleset));
    }
    o.push_str("</tr></thead><tbody>");
    let row = |o: &mut String, label: &str, cell: &dyn Fn(&Report) -> String| {
        let _ = write!(o, "<tr><td>{}</td>", esc(label));
        for r in reports {
            let _ = write!(o, "<td class=\"n\">{}</td>", esc(&cell(r)));
        }
        o.push_str("</tr>");
    };
    let players = reports.iter().map(|r| r.seats.len()).max().unwrap_or(0);
    for s in 0..players {
        let label = reports.first().and_then(|r| r.seats.get(s)).map_or(format!("seat {s}"), seat_label);
        row(o, &format!("{label} win share"), &|r| {
            r.seats.get(s).map_or(String::new(), |x| {
                format!("{} [{}, {}]", pct(x.win_rate), pct(x.win_rate_ci95[0]), pct(x.win_rate_ci95[1]))
            })
        });
        row(o, &format!("seat {s} score mean (sd)"), &|r| {
            r.seats.get(s).map_or(String::new(), |x| format!("{:.2} ({:.2})", x.score_mean, x.score_sd))
        });
    }
    if reports.iter().any(|r| r.unfinished > 0) {
        row(o, "unfinished (safety cap)", &|r| {
            format!("{} ({})", r.unfinished, pct(r.unfinished as f64 / r.games.max(1) as f64))
        });
    }
    row(o, "rounds (mean)", &|r| format!("{:.1}", r.rounds_mean));
    row(o, "decisions (mean)", &|r| format!("{:.1}", r.decisions_mean));
    let mut ends: Vec<&String> = reports.iter().flat_map(|r| r.ends.keys()).collect();
    ends.sort();
    ends.dedup();
    for end in ends {
        row(o, &format!("ended by {}", end.replace('_', " ")), &|r| {
            let n = r.ends.get(end).copied().unwrap_or(0);
            format!("{n} ({})", pct(n as f64 / r.games.max(1) as f64))
        });
    }
    row(o, "games per second", &|r| rate(r.games_per_second));
    o.push_str("</tbody></table></div>");
}

fn differences_table(o: &mut String, diffs: &[Difference]) -> Result<(), Error> {
    o.push_str("<div class=\"scroll\"><table><thead><tr><th>figure</th><th class=\"n\">difference</th><th class=\"n\">95% interval</th><th>interval around 0</th><th class=\"n\">p</th><th class=\"n\">pairs</th></tr></thead><tbody>");
    for d in diffs {
        let (k, unit) = if is_share(&d.figure) { (100.0, " pp") } else { (1.0, "") };
        let glyph = plot::interval_glyph(d.mean, d.ci95, d.significant)?;
        let _ = write!(
            o,
            "<tr{}><td>{}{}</td><td class=\"n\">{:+.2}{unit}</td><td class=\"n\">[{:+.2}, {:+.2}]</td><td>{glyph}</td><td class=\"n\">{:.4}</td><td class=\"n\">{}</td></tr>",
            if d.significant { " class=\"sig\"" } else { "" },
            esc(&d.figure),
            if d.significant { " <span class=\"sig\">*</span>" } else { "" },
            k * d.mean,
            k * d.ci95[0],
            k * d.ci95[1],
            d.p_value,
            d.pairs
        );
    }
    o.push_str("</tbody></table></div>");
    Ok(())
}

/// Whether a metric gets a bar plot: building popularity and owner win share, every
/// role figure.
fn plotted(group: &str, figure: &str) -> bool {
    match group {
        "building" => figure == "built share" || figure.contains("win share"),
        "role" => true,
        _ => false,
    }
}

/// The designer metrics of one or more reports: per group a bar plot of the plotted
/// figures and a table (rows: item and figure; a column per report).
fn metrics_section(o: &mut String, reports: &[Report]) -> Result<(), Error> {
    // Figures undefined in a run (the owners' win share of what nobody built) are left out.
    let defined: Vec<Vec<&rulesmith_core::metrics::Figure>> =
        reports.iter().map(|r| r.metrics.iter().filter(|m| m.value.is_finite()).collect()).collect();
    let Some(first) = defined.iter().find(|m| !m.is_empty()) else { return Ok(()) };
    section(o, "Designer metrics");
    note(o, "Per game figures over the finished games; intervals are 95% where the report gives them.");
    if reports.len() > 1 {
        legend(o, reports.iter().enumerate().map(|(i, r)| (r.ruleset.as_str(), colour(i))));
    }
    // Groups, figures and items in the order the (first) report lists them.
    let mut groups: Vec<&str> = Vec::new();
    for m in defined.iter().flatten().chain(first.iter()) {
        if !groups.contains(&m.group.as_str()) {
            groups.push(&m.group);
        }
    }
    let find = |r: usize, g: &str, name: &str, fig: &str| {
        defined.get(r)?.iter().find(|m| m.group == g && m.name == name && m.figure == fig).map(|m| (*m).clone())
    };
    for g in groups {
        let _ = write!(o, "<h3>{}</h3>", esc(g));
        let mut keys: Vec<(&str, &str)> = Vec::new();
        let mut figures: Vec<&str> = Vec::new();
        for m in defined.iter().flatten().filter(|m| m.group == g) {
            if !keys.contains(&(m.name.as_str(), m.figure.as_str())) {
                keys.push((&m.name, &m.figure));
            }
            if !figures.contains(&m.figure.as_str()) {
                figures.push(&m.figure);
            }
        }
        // The owners' and the non-owners' win share go on one chart, side by side.
        let paired_with = |fig: &str| {
            let other = format!("non-{fig}");
            (fig.ends_with("win share") && figures.contains(&other.as_str())).then_some(other)
        };
        for fig in figures.iter().filter(|f| plotted(g, f)) {
            if fig.starts_with("non-") && figures.contains(&fig.trim_start_matches("non-")) {
                continue;
            }
            let non = paired_with(fig);
            let mut names: Vec<&str> = keys.iter().filter(|k| k.1 == *fig).map(|k| k.0).collect();
            // Most popular first, by the first report.
            let lead = |n: &str| find(0, g, n, fig).map_or(f64::NEG_INFINITY, |m| m.value);
            names.sort_by(|a, b| lead(b).total_cmp(&lead(a)));
            let mut bars = Vec::new();
            for n in names {
                let first = bars.len();
                for i in 0..reports.len() {
                    for (which, pale) in std::iter::once((*fig, false)).chain(non.as_deref().map(|x| (x, true))) {
                        if let Some(m) = find(i, g, n, which) {
                            let c = colour(i);
                            bars.push(Bar {
                                label: if bars.len() == first { n.to_string() } else { String::new() },
                                value: m.value,
                                ci95: m.ci95,
                                colour: if pale { plot::pale(c) } else { c },
                            });
                        }
                    }
                }
            }
            match &non {
                Some(other) => {
                    let _ = write!(
                        o,
                        "<p class=\"note\">{} {} (solid) against {} (pale): a gap means the item is strong</p>",
                        esc(g),
                        esc(fig),
                        esc(other)
                    );
                }
                None => {
                    let _ = write!(o, "<p class=\"note\">{} {}</p>", esc(g), esc(fig));
                }
            }
            figure(o, &plot::bars(&bars, fig, is_share(fig), None)?);
        }
        let _ = write!(
            o,
            "<details{}><summary>table: {} figures</summary><table><thead><tr><th>{}</th><th>figure</th>",
            if keys.len() <= LONG_TABLE / 3 { " open" } else { "" },
            keys.len(),
            esc(g)
        );
        for r in reports {
            let _ = write!(o, "<th class=\"n\">{}</th>", esc(&r.ruleset));
        }
        o.push_str("<th class=\"n\">games</th></tr></thead><tbody>");
        for (name, fig) in &keys {
            let _ = write!(o, "<tr><td>{}</td><td>{}</td>", esc(name), esc(fig));
            let mut n = None;
            for i in 0..reports.len() {
                let cell = find(i, g, name, fig).map_or(String::new(), |m| {
                    n = n.or(Some(m.n));
                    let show = |v: f64| if is_share(fig) { pct(v) } else { num(v) };
                    match m.ci95 {
                        Some([lo, hi]) => format!("{} [{}, {}]", show(m.value), show(lo), show(hi)),
                        None => show(m.value),
                    }
                });
                let _ = write!(o, "<td class=\"n\">{}</td>", esc(&cell));
            }
            let _ = write!(o, "<td class=\"n\">{}</td></tr>", n.map_or(String::new(), |n| n.to_string()));
        }
        o.push_str("</tbody></table></details>");
    }
    o.push_str("</section>");
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    /// Adds each key of `defaults` that `v` lacks (the fixtures state what they test).
    fn fill(v: &mut serde_json::Value, defaults: serde_json::Value) {
        if let (Some(o), serde_json::Value::Object(d)) = (v.as_object_mut(), defaults) {
            for (k, x) in d {
                o.entry(k).or_insert(x);
            }
        }
    }

    /// A report's JSON read as the library's report.
    fn typed(mut v: serde_json::Value) -> Report {
        fill(&mut v, json!({"tally": rulesmith_core::sim::Tally::new(2)}));
        serde_json::from_value(v).unwrap()
    }

    /// Differences with their exact sums (the fixtures leave them out).
    fn with_sums(diffs: &mut serde_json::Value) {
        for d in diffs.as_array_mut().into_iter().flatten() {
            fill(d, json!({"pairs": 10, "sums": {"n": 10, "sum": 1, "sum_sq": 1}}));
        }
    }

    fn compare_of(mut v: serde_json::Value) -> CompareReport {
        fill(&mut v, json!({"overrides": [], "identical": [], "rotate_seats": false, "power": {}, "skill": null}));
        for set in v["differences"]["rulesets"].as_array_mut().into_iter().flatten() {
            with_sums(&mut set["figures"]);
        }
        for r in v["rulesets"].as_array_mut().into_iter().flatten() {
            fill(r, json!({"tally": rulesmith_core::sim::Tally::new(2)}));
        }
        serde_json::from_value(v).unwrap()
    }

    fn sweep_of(mut v: serde_json::Value) -> SweepReport {
        fill(
            &mut v,
            json!({"kind": "sweep", "version": "", "shard": null, "source": "", "overrides": [], "item": null,
                   "plots": [], "base": null, "base_is_own": true, "rotate_seats": false, "interval": "",
                   "power": {}, "detect": 2.0}),
        );
        for p in v["points"].as_array_mut().into_iter().flatten() {
            with_sums(&mut p["differences"]);
            let mut r = report("puerto-rico", 0.5);
            fill(&mut r, json!({"tally": rulesmith_core::sim::Tally::new(2)}));
            fill(p, json!({"rounds": {}, "report": r}));
        }
        serde_json::from_value(v).unwrap()
    }

    fn seat(s: usize, rate: f64) -> serde_json::Value {
        json!({"seat": s, "bot": "random", "wins": 10.0 * rate, "win_rate": rate,
               "win_rate_ci95": [rate - 0.1, rate + 0.1], "score_mean": 30.0 + s as f64, "score_sd": 8.5})
    }

    /// A report as `simulate --format json` prints it, with a `metrics` list of the shape
    /// the designer metrics use, and a field this page does not know.
    fn report(name: &str, built: f64) -> serde_json::Value {
        let metric = |group: &str, item: &str, figure: &str, value: f64, ci: Option<[f64; 2]>| json!({"group": group, "name": item, "figure": figure, "value": value, "ci95": ci, "n": 10});
        json!({
            "ruleset": name, "digest": "d", "game": "puerto-rico", "players": 2, "seed": 1,
            "bots": ["random", "random"], "run_games": 10, "games": 10, "unfinished": 1,
            "seats": [seat(0, 0.4), seat(1, 0.6)], "rounds_mean": 15.5, "decisions_mean": 321.0,
            "ends": {"colonists": 9, "round_cap": 1}, "seconds": 0.5, "games_per_second": 20.0,
            "not_known_here": [1, 2],
            "metrics": [
                metric("building", "small-market", "built share", built, Some([built - 0.2, built + 0.1])),
                metric("building", "small-market", "owner win share", 0.55, Some([0.3, 0.8])),
                metric("building", "harbor", "built share", 0.25, Some([0.1, 0.5])),
                metric("building", "harbor", "mean build round", 9.5, None),
                metric("role", "captain", "pick share", 0.21, None),
                metric("role", "mayor", "pick share", 0.17, None),
                metric("vp", "shipping", "mean per game", 12.25, None),
                json!({"group": "vp", "name": "nan", "figure": "mean per game", "value": null, "ci95": null, "n": 10}),
            ],
        })
    }

    /// No script, no external resource: nothing a browser would fetch over a network.
    fn self_contained(page: &str) {
        assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"));
        assert!(!page.contains("<script"), "no script");
        for fetch in ["src=", "url(", "@import", "href=\"http", "href=\"//", "<link rel=\"stylesheet\""] {
            assert!(!page.contains(fetch), "the page must not fetch anything: found `{fetch}`");
        }
        // Links: only the empty inline icon (so the browser does not ask for favicon.ico).
        assert_eq!(page.matches("href=").count(), 1);
        assert!(page.contains("<link rel=\"icon\" href=\"data:,\">"));
    }

    #[test]
    fn simulate_page_shows_every_figure_and_the_metrics() {
        let mut dist = Distributions::new(2);
        for (i, scores) in [[30, 25], [20, 41], [33, 33]].iter().enumerate() {
            let ranks = if scores[0] >= scores[1] { vec![0, 1] } else { vec![1, 0] };
            dist.add(&rulesmith_core::sim::GameResult {
                index: i as u64,
                seed: 0,
                outcome: rulesmith_core::game::Outcome {
                    scores: scores.to_vec(),
                    tiebreaks: vec![],
                    ranks,
                    end: "colonists".into(),
                    unfinished: false,
                },
                decisions: 100,
                rounds: 14 + i as u32,
                actions: Default::default(),
                metrics: vec![],
                lead_changes: 0,
                rotation: 0,
                by_round: vec![],
            });
        }
        assert_eq!(dist.margins, BTreeMap::from([(0, 1), (5, 1), (21, 1)]));
        let page = simulate_page(&typed(report("puerto-rico", 0.75)), Some(&dist)).unwrap();
        self_contained(&page);
        for text in [
            "<h1>puerto-rico</h1>",
            "Win share per seat",
            "seat 1 (random)",
            "60.0%",
            "[50.0%, 70.0%]",
            "Scores",
            "margin of victory",
            "Game length",
            "<b>15.5</b> rounds",
            "round cap",
            "1 games (10.0%) were stopped by a safety cap",
            "Designer metrics",
            "small-market",
            "75.0% [55.0%, 85.0%]",
            "owner win share",
            "captain",
            "12.25",
        ] {
            assert!(page.contains(text), "the page shows `{text}`");
        }
        // Plots: win shares, scores, margin, rounds, then built share, owner win share and
        // the role figure; the vp group is a table only.
        assert_eq!(page.matches("<svg").count(), 7);
        // Most built first.
        assert!(page.find(">small-market<").unwrap() < page.find(">harbor<").unwrap());
        // Metrics undefined in the run are left out.
        assert!(!page.contains(">nan<"));

        // From the JSON alone (as after `merge`): scores as mean ± sd, no metrics section.
        let mut plain = report("x<y", 0.5);
        plain.as_object_mut().unwrap().remove("metrics");
        let page = simulate_page(&typed(plain), None).unwrap();
        self_contained(&page);
        assert!(page.contains("x&lt;y") && !page.contains("x<y"));
        assert!(!page.contains("Designer metrics"));
        assert_eq!(page.matches("<svg").count(), 2);
    }

    #[test]
    fn compare_page_shows_both_rulesets_and_the_differences() {
        let diff = |figure: &str, mean: f64, significant: bool| {
            json!({"figure": figure, "pairs": 10, "mean": mean, "ci95": [mean - 0.05, mean + 0.05],
                   "p_value": if significant { 0.001 } else { 0.4 }, "significant": significant,
                   "sums": {"n": 10, "sum": 1, "sum_sq": 1}})
        };
        let compare = json!({
            "players": 2, "games": 10, "seed": 1, "bots": ["random", "random"],
            "rulesets": [report("puerto-rico", 0.75), report("no-hacienda", 0.5)],
            "differences": {
                "from": "puerto-rico", "interval": "95%", "correction": "Holm-Bonferroni",
                "rulesets": [{"ruleset": "no-hacienda", "figures": [
                    diff("seat 0 win share", 0.125, true), diff("seat 1 win share", -0.125, false),
                    diff("rounds", 1.5, false), diff("building small-market built share", -0.25, true),
                ]}],
            },
        });
        let dists = vec![Distributions::new(2), Distributions::new(2)];
        let page = compare_page(&compare_of(compare.clone()), &dists).unwrap();
        self_contained(&page);
        for text in [
            "puerto-rico <span class=\"vs\">vs</span> no-hacienda",
            "Side by side",
            "no-hacienda − puerto-rico, paired by game",
            "+12.50 pp",
            "[+7.50, +17.50]",
            "<tr class=\"sig\"><td>seat 0 win share <span class=\"sig\">*</span>",
            "<tr><td>rounds</td><td class=\"n\">+1.50</td>",
            "-25.00 pp",
            "Designer metrics",
            "50.0% [30.0%, 60.0%]",
        ] {
            assert!(page.contains(text), "the page shows `{text}`");
        }
        // Win shares, scores, rounds, win share differences, a glyph per difference, and the
        // three metric plots.
        assert_eq!(page.matches("<svg").count(), 4 + 4 + 3);

        // Many figures: the significant ones first, then all of them on demand.
        let many: Vec<serde_json::Value> = (0..50).map(|i| diff(&format!("figure {i}"), 1.0, i % 10 == 0)).collect();
        let mut long = compare.clone();
        long["differences"]["rulesets"][0]["figures"] = json!(many);
        let page = compare_page(&compare_of(long), &dists).unwrap();
        assert!(page.contains("<h3>5 significant of 50 figures</h3>"));
        assert!(page.contains("<details><summary>table: all 50 figures</summary>"));
    }

    /// The verdict box comes first: after the header, before any chart or table.
    fn verdict_first(page: &str) -> &str {
        let v = page.find("<section class=\"verdict\"").expect("a verdict box");
        assert!(page.find("</header>").unwrap() < v, "after the header");
        assert!(!page[..v].contains("<svg") && !page[..v].contains("<table"), "before any chart or table");
        let end = v + page[v..].find("</section>").unwrap();
        &page[v..end]
    }

    fn diff_json(figure: &str, mean: f64, significant: bool) -> serde_json::Value {
        json!({"figure": figure, "pairs": 10, "mean": mean, "ci95": [mean - 0.05, mean + 0.05],
               "p_value": if significant { 0.001 } else { 0.4 }, "significant": significant})
    }

    #[test]
    fn every_page_opens_with_its_answer() {
        let page = simulate_page(&typed(report("puerto-rico", 0.75)), None).unwrap();
        let v = verdict_first(&page);
        assert!(v.contains("fair share <b>50.0%</b>"), "{v}");
        // The fair-share line is drawn on the win share bars (dashed, grey).
        assert!(page.contains("stroke-dasharray") || page.matches("<line").count() > 0);

        let compare = json!({
            "players": 2, "games": 10, "seed": 1, "bots": ["random", "random"],
            "rulesets": [report("puerto-rico", 0.75), report("no-hacienda", 0.5)],
            "differences": {"from": "puerto-rico", "interval": "95%", "correction": "Holm-Bonferroni",
                "rulesets": [{"ruleset": "no-hacienda", "figures": [
                    diff_json("seat 0 win share", 0.125, true), diff_json("rounds", 1.5, false),
                    diff_json("building: harbor built share", -0.25, true)]}]},
        });
        let page = compare_page(&compare_of(compare.clone()), &[]).unwrap();
        let v = verdict_first(&page);
        assert!(v.contains("1 outcome figure and 1 designer metric differ significantly"), "{v}");
        assert!(v.contains("<b>seat 0 win share</b>: +12.5 pp [+7.5, +17.5]"), "{v}");
        assert!(!v.contains(">rounds<"), "not significant, not in the verdict: {v}");
        let mut none = compare.clone();
        none["differences"]["rulesets"][0]["figures"] = json!([diff_json("seat 1 win share", -0.02, false)]);
        let page = compare_page(&compare_of(none), &[]).unwrap();
        let v = verdict_first(&page);
        assert!(v.contains("no figure differs significantly") && v.contains("-2.0 pp [-7.0, +3.0]"), "{v}");
    }

    /// A run whose games all stopped at a safety cap has no answer: the box says so rather
    /// than "every seat is fair" or "nothing differs" about no games (Mundo 163 with random
    /// players: every game reaches its round cap).
    #[test]
    fn a_run_with_no_finished_game_gives_no_answer() {
        let capped = || {
            let mut r = report("mundo-163", 0.5);
            r["unfinished"] = json!(10);
            r["ends"] = json!({"round_limit": 10});
            r["seats"] = json!([seat(0, 0.0), seat(1, 0.0)]);
            r["seats"][0]["win_rate_ci95"] = json!([0.0, 1.0]);
            r["seats"][1]["win_rate_ci95"] = json!([0.0, 1.0]);
            r
        };
        let mut r = typed(capped());
        r.by_round = Some(rulesmith_core::sim::rounds::ByRound { money: "money".into(), rounds: Vec::new() });
        let page = simulate_page(&r, None).unwrap();
        assert!(page.contains("No game finished, so there are no per-round figures to draw"), "why no chart");
        let v = verdict_first(&page);
        assert!(v.contains("No game finished: all 10 were stopped by a safety cap (round_limit)"), "{v}");
        assert!(!v.contains("within its 95% interval"), "no claim about no games: {v}");
        // Nor do the summary cards name a best win share of 0.0%.
        let cards = page.split("<div class=\"cards\">").nth(1).and_then(|c| c.split("</div></div>").next()).unwrap();
        assert!(cards.contains("best win share: no game finished"), "{cards}");
        assert!(!cards.contains("0.0%"), "{cards}");

        let compare = json!({
            "players": 2, "games": 10, "seed": 1, "bots": ["random", "random"],
            "rulesets": [capped(), capped()],
            "differences": {"from": "mundo-163", "interval": "95%, normal approximation", "correction": "Holm",
                "rulesets": [{"ruleset": "mundo-163", "figures": []}]},
        });
        let page = compare_page(&compare_of(compare), &[]).unwrap();
        let v = verdict_first(&page);
        assert!(v.contains("<b>mundo-163</b>: no game finished"), "{v}");
        assert!(!v.contains("no figure differs significantly"), "{v}");
        // The interval's name reads as a name, not inside another sentence.
        assert!(v.contains("with its interval (95%, normal approximation)"), "{v}");

        let j = sweep_json(
            vec![point("10", &["10"], false, 0.0, vec![]), point("20", &["20"], true, 0.0, vec![])],
            json!([{"key": "privileges.price", "values": ["10", "20"]}]),
        );
        let mut s = sweep_of(j);
        for p in &mut s.points {
            p.report.unfinished = p.report.games;
        }
        let page = sweep_page(&s).unwrap();
        let v = verdict_first(&page);
        assert!(v.contains("No game finished at buildings.harbor.cost = 10, 20"), "{v}");
        assert!(v.contains("no value can be compared with the base"), "{v}");
        assert!(!v.contains("No value differs significantly"), "{v}");
    }

    /// The extreme games' commands sit on a row of their own across the table, wrapping,
    /// not in a narrow last column that made the table wider than the page and thousands
    /// of pixels tall with its scrollbar out of sight.
    #[test]
    fn the_extreme_games_commands_span_the_table() {
        let page = simulate_page(&typed(extreme_game()), None).unwrap();
        let at = page.find("<section id=\"extremes\">").expect("the extreme games");
        let table = &page[at..at + page[at..].find("</section>").unwrap()];
        assert!(table.contains("<tr class=\"game\"><td>longest game</td><td class=\"n\">3</td>"), "{table}");
        assert!(table.contains("<tr class=\"replay\"><td colspan=\"7\"><b>bots</b> random, random<br><b>play</b> <code>rulesmith play puerto-rico"), "{table}");
        assert!(!table.contains("<th>replay</th>"), "no narrow column of commands: {table}");
        assert!(
            page.contains("table.extremes code,table.extremes th:first-child{overflow-wrap:anywhere}"),
            "commands wrap"
        );
    }

    /// A report with one extreme game.
    fn extreme_game() -> serde_json::Value {
        let mut r = report("puerto-rico", 0.5);
        r["extremes"] = json!([{"what": "longest game", "index": 3, "rotation": 0, "seed": 77, "rounds": 20,
            "decisions": 300, "margin": 4, "scores": [30, 26], "end": "colonists", "bots": ["random", "random"],
            "play": "rulesmith play puerto-rico --players 2 --seed 77 --human --bots random,random",
            "table": "rulesmith serve puerto-rico --players 2 --seed 77 --human --bots random,random",
            "show_game": "rulesmith simulate puerto-rico --players 2 --seed 1 --bots random,random --games 4 --shard 4/4 --record game.jsonl && rulesmith show-game game.jsonl --game 3"}]);
        r
    }

    /// Issue 49: the answer box gives each headline figure's verdict under the second
    /// line-up, and the few-games notes beside the answer.
    #[test]
    fn the_answer_box_gives_the_checks_verdicts_and_the_few_games_notes() {
        let brief = |mean: f64, significant: bool| json!({"mean": mean, "ci95": [mean - 0.02, mean + 0.02], "p_value": 0.01, "significant": significant});
        let line = |figure: &str, second: f64, significant: bool, verdict: &str| {
            json!({"at": "no-hacienda", "figure": figure, "first": brief(0.1, true),
                   "second": brief(second, significant), "verdict": verdict})
        };
        let compare = json!({
            "players": 2, "games": 10, "seed": 1, "bots": ["greedy", "greedy"],
            "rulesets": [report("puerto-rico", 0.75), report("no-hacienda", 0.5)],
            "differences": {"from": "puerto-rico", "interval": "95%", "correction": "Holm-Bonferroni",
                "rulesets": [{"ruleset": "no-hacienda", "figures": [diff_json("seat 0 win share", 0.1, true)]}]},
            "check": {"bots": ["random", "random"], "games": 5, "rotate_seats": false, "rule": "",
                      "verdicts": [line("seat 0 win share", 0.08, true, "holds"),
                                   line("seat 1 win share", -0.05, true, "flips"),
                                   line("rounds", 0.01, false, "weaker")]},
            "few_games": [{"at": "no-hacienda", "item": "building: harbor", "seat_games": 2, "of": 80,
                           "share": 0.025, "text": "the harbor is built in 2.5% of seat-games (2 of 80) at no-hacienda"}],
        });
        let page = compare_page(&compare_of(compare), &[]).unwrap();
        let v = verdict_first(&page);
        assert!(v.contains("<h3>Check with random,random</h3>"), "{v}");
        assert!(v.contains("<li class=\"holds\"><b>holds</b> seat 0 win share at no-hacienda: +10.00 pp"), "{v}");
        assert!(v.contains("<li class=\"flips sig\"><b>flips</b> seat 1 win share"), "{v}");
        assert!(v.contains("<li class=\"weaker\"><b>weaker</b> rounds at no-hacienda: +0.10 [+0.08, +0.12] * under greedy,greedy; +0.01 [-0.01, +0.03] under random,random"), "{v}");
        assert!(v.contains("<li>the harbor is built in 2.5% of seat-games (2 of 80) at no-hacienda</li>"), "{v}");
    }

    fn point(label: &str, values: &[&str], base: bool, share: f64, diffs: Vec<serde_json::Value>) -> serde_json::Value {
        json!({"label": label, "x": label.parse::<f64>().ok(), "values": values, "base": base,
               "figures": [{"figure": "seat 0 win share", "value": share, "ci95": [share - 0.1, share + 0.1]},
                           {"figure": "rounds", "value": 15.0, "ci95": [14.0, 16.0]}],
               "differences": diffs})
    }

    fn sweep_json(points: Vec<serde_json::Value>, vary: serde_json::Value) -> serde_json::Value {
        json!({"ruleset": "puerto-rico", "x_axis": "buildings.harbor.cost", "players": 4, "games": 100,
               "seed": 1, "bots": ["greedy"], "correction": "Holm", "vary": vary, "points": points})
    }

    #[test]
    fn a_sweep_page_marks_the_values_played_the_base_and_the_fair_share() {
        let j = sweep_json(
            vec![
                point("6", &["6"], false, 0.30, vec![diff_json("seat 0 win share", 0.06, true)]),
                point("8", &["8"], true, 0.24, vec![]),
                point("12", &["12"], false, 0.25, vec![diff_json("seat 0 win share", 0.01, false)]),
            ],
            json!([{"key": "buildings.harbor.cost", "values": ["6", "8", "12"]}]),
        );
        let page = sweep_page(&sweep_of(j.clone())).unwrap();
        self_contained(&page);
        let v = verdict_first(&page);
        assert!(v.contains("1 of 2 values differ significantly from the base <b>8</b>"), "{v}");
        assert!(v.contains("<b>buildings.harbor.cost = 6</b>: seat 0 win share +6.0 pp [+1.0, +11.0]"), "{v}");
        // The fair share (1/4) and the base value are labelled on the chart.
        assert!(page.contains("fair share 25%\n</text>") && page.contains(" base\n</text>"), "marks");
        // Markers only: no polyline joining values that were played far apart.
        assert!(!page.contains("<polyline fill=\"none\" opacity=\"1\" stroke=\"#0072B2\""), "no line between values");
        assert!(!page.contains("class=\"heatmap\""), "one key: no heatmap");
        // The differences come before the games to open (a few per value, a long table).
        let mut s = sweep_of(j.clone());
        s.points[0].report.extremes = typed(extreme_game()).extremes;
        let page = sweep_page(&s).unwrap();
        let (differences, games) = (page.find("Differences from the base"), page.find("<section id=\"extremes\">"));
        assert!(differences.is_some() && games.is_some() && differences < games, "differences first");
    }

    #[test]
    fn a_grid_is_a_heatmap_with_significance_per_cell() {
        let vary = json!([{"key": "a", "values": ["1", "2"]}, {"key": "b", "values": ["5", "9"]}]);
        let j = sweep_json(
            vec![
                point("1, 5", &["1", "5"], false, 0.35, vec![diff_json("seat 0 win share", 0.10, true)]),
                point("1, 9", &["1", "9"], true, 0.25, vec![]),
                point("2, 5", &["2", "5"], false, 0.22, vec![diff_json("seat 0 win share", -0.03, false)]),
                point("2, 9", &["2", "9"], false, 0.26, vec![diff_json("seat 0 win share", 0.01, false)]),
            ],
            vary,
        );
        let page = sweep_page(&sweep_of(j)).unwrap();
        self_contained(&page);
        verdict_first(&page);
        let at = page.find("<table class=\"heatmap\" data-figure=\"seat 0 win share\">").expect("a heatmap");
        let table = &page[at..at + page[at..].find("</table>").unwrap()];
        assert!(table.contains("<th>a ↓<br>b →</th><th class=\"n\">5</th><th class=\"n\">9</th>"), "{table}");
        // The significant cell is marked; the base cell says so; the others are plain.
        assert!(table.contains("class=\"cell sig\"") && table.contains("+10.0 pp *"), "{table}");
        assert!(table.contains("class=\"cell base\"") && table.contains("<small>base</small>"), "{table}");
        assert_eq!(table.matches("class=\"cell\"").count(), 2, "{table}");
        // The largest difference is the deepest orange; a lower cell is blue.
        assert!(table.contains("background:#e49659"), "{table}");
        assert!(page.contains("data-figure=\"rounds\""));
        // No zig-zag line over the grid's positions.
        assert!(!page.contains("<svg"), "a grid of two keys has no plot over positions");
    }

    #[test]
    fn a_tune_page_states_the_value_and_its_evidence() {
        let mut j =
            sweep_json(vec![point("4", &[], false, 0.3, vec![]), point("6", &[], false, 0.26, vec![])], json!([]));
        j["games"] = json!(1000);
        j["integer"] = json!(true);
        j["base_value"] = json!(5.0);
        j["target"] = json!({"figure": "seat 0 win share", "value": 0.25});
        j["answer"] = json!({"value": 6.0, "text": "6", "figure": 0.26, "ci95": [0.24, 0.28],
                             "interval": [5.0, 7.0], "crossed": true});
        j["probes"] = json!([
            {"value": 4.0, "games": 1000, "figure": 0.3, "ci95": [0.27, 0.33], "pass": "coarse"},
            {"value": 6.0, "games": 1000, "figure": 0.27, "ci95": [0.24, 0.30], "pass": "coarse"},
            {"value": 6.0, "games": 4000, "figure": 0.26, "ci95": [0.24, 0.28], "pass": "confirm"},
            {"value": 5.0, "games": 4000, "figure": 0.24, "ci95": [0.22, 0.26], "pass": "confirm"},
        ]);
        // As `tune` reports it: its points are the values evaluated.
        fill(
            &mut j,
            json!({"source": "puerto-rico", "overrides": [], "key": "buildings.harbor.cost", "range": [4.0, 6.0],
                   "step": 1.0, "item": "harbor", "plots": ["seat 0 win share"], "rotate_seats": false,
                   "stopping_rule": "", "correction": ""}),
        );
        for p in j["points"].as_array_mut().unwrap() {
            p.as_object_mut().unwrap().remove("values");
            p.as_object_mut().unwrap().remove("differences");
            p["games"] = json!(1000);
        }
        let t: TuneReport = serde_json::from_value(j).unwrap();
        let page = tune_page(&t).unwrap();
        self_contained(&page);
        // The header's game counts are the games each value had.
        assert!(page.contains("1000 to 4000 games per value (4000 at 2 values)"), "header");
        let v = verdict_first(&page);
        assert!(v.contains("<p class=\"answer\">buildings.harbor.cost = 6</p>"), "{v}");
        assert!(v.contains("seat 0 win share: <b>26.0%</b> [24.0%, 28.0%] at that value, over 4000 games"), "{v}");
        assert!(v.contains("Values whose 95% interval holds the target: 5 to 7."), "{v}");
        assert_eq!(v.matches("<tr").count(), 1 + 4, "the evidence table: every evaluation: {v}");
        assert!(v.contains("<td>6 (answer)</td><td>confirm</td><td class=\"n\">4000</td>"), "{v}");
        for mark in ["target\n</text>", " answer\n</text>", " base\n</text>", "fair share 25%\n</text>"] {
            assert!(page.contains(mark), "the chart marks `{mark}`");
        }
    }
}
