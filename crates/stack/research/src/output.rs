//! The studies' files: `STUDY.json` (the report), `STUDY.md` (tables) and `STUDY.png` (an
//! interval chart), written into one folder, the text atomically like the arena's reports and
//! the chart through [`eval::plot::write_png`].

use crate::draft::DraftReport;
use crate::error::ResearchError;
use crate::loadouts::LoadoutsReport;
use crate::value::{Performance, ValueReport};
use eval::paired::Paired;
use eval::plot::{PALETTE, PlotResult, nice_step, text};
use plotters::prelude::*;
use plotters::style::RGBColor;
use plotters::style::text_anchor::{HPos, VPos};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// One row of an interval chart: a label and, per series, a point with its interval.
#[derive(Clone, Debug)]
pub struct ChartRow {
    /// The row's label.
    pub label: String,
    /// Per series: (value, low, high); none when the series has no figure here.
    pub points: Vec<Option<(f64, f64, f64)>>,
}

/// A horizontal interval chart: one row per label, one coloured point with whiskers per series.
pub fn interval_chart(path: &Path, title: &str, x_label: &str, series: &[String], rows: &[ChartRow]) -> PlotResult {
    let k = series.len().max(1) as i32;
    let row_h = 12 * k + 12;
    let (left, top) = (240i32, 60i32);
    let (w, h) = (1000u32, (top + row_h * rows.len().max(1) as i32 + 90) as u32);
    let root = BitMapBackend::new(path, (w, h)).into_drawing_area();
    root.fill(&WHITE)?;
    text(&root, title, w as i32 / 2, 22, 18, (HPos::Center, VPos::Center))?;
    let finite = |v: f64| v.is_finite();
    let all: Vec<f64> = rows
        .iter()
        .flat_map(|r| r.points.iter().flatten().flat_map(|&(v, l, hi)| [v, l, hi]))
        .filter(|&v| finite(v))
        .collect();
    let lo = all.iter().copied().fold(0.0f64, f64::min);
    let hi = all.iter().copied().fold(0.0f64, f64::max);
    let pad = ((hi - lo) * 0.05).max(1e-3);
    let (lo, hi) = (lo - pad, hi + pad);
    let (x0, x1) = (left, w as i32 - 40);
    let y1 = top + row_h * rows.len().max(1) as i32;
    let sx = |v: f64| x0 + ((v.clamp(lo, hi) - lo) / (hi - lo) * (x1 - x0) as f64) as i32;
    let step = nice_step(hi - lo);
    let mut t = (lo / step).ceil() * step;
    while t <= hi {
        let x = sx(t);
        root.draw(&PathElement::new(vec![(x, top), (x, y1)], RGBColor(225, 225, 225).stroke_width(1)))?;
        text(&root, &format_tick(t, step), x, y1 + 14, 13, (HPos::Center, VPos::Center))?;
        t += step;
    }
    let zero = sx(0.0);
    root.draw(&PathElement::new(vec![(zero, top), (zero, y1)], RGBColor(120, 120, 120).stroke_width(1)))?;
    for (i, r) in rows.iter().enumerate() {
        let y = top + row_h * i as i32;
        text(&root, &r.label, left - 10, y + row_h / 2, 13, (HPos::Right, VPos::Center))?;
        for (s, p) in r.points.iter().enumerate() {
            let Some((v, l, u)) = *p else { continue };
            let yy = y + 12 + 12 * s as i32;
            let c = PALETTE[s % PALETTE.len()];
            if finite(l) && finite(u) {
                root.draw(&PathElement::new(vec![(sx(l), yy), (sx(u), yy)], c.stroke_width(2)))?;
                for b in [l, u] {
                    root.draw(&PathElement::new(vec![(sx(b), yy - 4), (sx(b), yy + 4)], c.stroke_width(2)))?;
                }
            }
            if finite(v) {
                root.draw(&Circle::new((sx(v), yy), 4, c.filled()))?;
            }
        }
    }
    root.draw(&Rectangle::new([(x0, top), (x1, y1)], BLACK.stroke_width(1)))?;
    text(&root, x_label, (x0 + x1) / 2, y1 + 36, 15, (HPos::Center, VPos::Center))?;
    // Legend entries share the width under the plot (250 px each at most).
    let spacing = (250).min((w as i32 - left - 20) / k);
    for (s, name) in series.iter().enumerate() {
        let x = left + spacing * s as i32;
        root.draw(&Rectangle::new([(x, y1 + 58), (x + 14, y1 + 72)], PALETTE[s % PALETTE.len()].filled()))?;
        text(&root, name, x + 20, y1 + 65, 14, (HPos::Left, VPos::Center))?;
    }
    root.present()?;
    Ok(())
}

fn format_tick(t: f64, step: f64) -> String {
    let digits = if step >= 1.0 { 0 } else { (-step.log10().floor()) as usize };
    format!("{t:.digits$}")
}

/// Writes `STEM.json`, `STEM.md` and `STEM.png` into `dir`; returns the files written (and a
/// warning when the chart has no text for want of a font).
pub fn write_study<R: Serialize>(
    dir: &Path,
    stem: &str,
    report: &R,
    markdown: &str,
    chart: impl FnOnce(&Path) -> PlotResult,
) -> Result<Vec<String>, ResearchError> {
    let io = |path: &Path, e: String| ResearchError::Output { path: path.display().to_string(), message: e };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e.to_string()))?;
    let json = serde_json::to_string_pretty(report).map_err(|e| io(dir, e.to_string()))?;
    let mut out = Vec::new();
    for (name, bytes) in [(format!("{stem}.json"), json.as_bytes()), (format!("{stem}.md"), markdown.as_bytes())] {
        let p = dir.join(name);
        eval::report::write_atomic(&p, bytes).map_err(|e| io(&p, e.to_string()))?;
        out.push(p.display().to_string());
    }
    let png = dir.join(format!("{stem}.png"));
    eval::plot::write_png(&png, chart).map_err(|e| io(&png, e))?;
    out.push(png.display().to_string());
    if !eval::plot::font_available() {
        out.push("warning: no TrueType font found (set SABACC_FONT=/path/to/font.ttf); the chart has no text".into());
    }
    Ok(out)
}

fn pp(v: f64) -> String {
    format!("{:+.2}", 100.0 * v)
}

/// A p-value for a table: `<0.001`, or three decimals.
pub fn p_value(p: f64) -> String {
    if p < 0.001 { "<0.001".into() } else { format!("{p:.3}") }
}

/// `3 [2–5]`: a rank with its bootstrap interval.
pub fn rank_interval(r: crate::stats::RankInterval) -> String {
    if r.low == r.high { format!("{} [{}]", r.rank, r.low) } else { format!("{} [{}–{}]", r.rank, r.low, r.high) }
}

/// A win difference as a share of the table's even share (1 / players), with its paired
/// interval: `+8 pp` at four seats is `+32%`, at two seats `+16%`. Points of win share are not the
/// same size at every table; this is the column to compare across table sizes.
pub fn of_even_share(win: &Paired, players: u8) -> String {
    let f = 100.0 * f64::from(players);
    format!("{:+.0}% [{:+.0}, {:+.0}]", f * win.diff, f * win.low, f * win.high)
}

fn interval(lo: f64, hi: f64, scale: f64) -> String {
    format!("[{:+.2}, {:+.2}]", scale * lo, scale * hi)
}

fn performance_line(p: &Option<Performance>, games: u64) -> String {
    match p {
        Some(p) => format!(
            "{games} games in {:.1} s: **{:.0} games/s** on {} threads.\n",
            p.seconds, p.games_per_second, p.threads
        ),
        None => format!("{games} games.\n"),
    }
}

fn notes_list(md: &mut String, notes: &[String]) {
    md.push_str("\nNotes:\n\n");
    for n in notes {
        let _ = writeln!(md, "- {n}");
    }
}

/// The value study as Markdown: one table per focal agent.
pub fn value_markdown(r: &ValueReport) -> String {
    let s = &r.settings;
    let mut md = String::new();
    let _ = writeln!(md, "# Token value at {} seats\n", s.players);
    // Tables merged from several runs (the report's) each keep their own opponents and deals.
    let per_table: Vec<String> =
        r.tables.iter().map(|t| format!("{}: {}", t.label(), t.rows.first().map_or(s.deals, |v| v.deals))).collect();
    let _ =
        writeln!(md, "Baseline: {}; seed {}; deals per token: {}.", s.baseline.name(), s.seed, per_table.join("; "));
    md.push_str(&performance_line(&r.performance, r.games));
    for t in &r.tables {
        let _ = writeln!(md, "\n## In the hands of {}\n", t.label());
        let _ = writeln!(
            md,
            "Win and chip differences are arm A (holds the token) minus arm B; the token's value *in this agent's hands*. \
             \"Of an even share\" is the win difference over 1/{} (the share each seat would win if all were equal), so \
             tables of different sizes compare. Paired intervals are on average {:.0}% of the width of unpaired ones at the same games.\n",
            s.players,
            100.0 * t.win_width_ratio
        );
        md.push_str("| token | deals | played | win A | win B | win diff (pp) | paired 95% | unpaired 95% | of an even share | Holm p | rank [95%] | chip diff | paired 95% | unpaired 95% |\n");
        md.push_str(
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        );
        let mut rows: Vec<_> = t.rows.iter().collect();
        rows.sort_by(|a, b| b.win.diff.total_cmp(&a.win.diff));
        for v in rows {
            let _ = writeln!(
                md,
                "| {} | {} | {:.1}% | {:.2}% | {:.2}% | {} | {} | {} | {} | {} | {} | {:+.3} | {} | {} |",
                v.token,
                v.deals,
                100.0 * v.played_share,
                100.0 * v.win.mean_a,
                100.0 * v.win.mean_b,
                pp(v.win.diff),
                interval(v.win.low, v.win.high, 100.0),
                interval(v.win.unpaired_low, v.win.unpaired_high, 100.0),
                of_even_share(&v.win, s.players),
                p_value(v.win_p_holm),
                v.rank.map_or("–".into(), rank_interval),
                v.chips.diff,
                interval(v.chips.low, v.chips.high, 1.0),
                interval(v.chips.unpaired_low, v.chips.unpaired_high, 1.0),
            );
        }
    }
    notes_list(&mut md, &r.notes);
    md
}

fn chart_point(p: &Paired, scale: f64) -> Option<(f64, f64, f64)> {
    Some((scale * p.diff, scale * p.low, scale * p.high))
}

/// Writes the value study's files.
pub fn write_value(r: &ValueReport, dir: &Path) -> Result<Vec<String>, ResearchError> {
    let series: Vec<String> = r.tables.iter().map(|t| t.label().replace('`', "")).collect();
    let rows: Vec<ChartRow> = r
        .settings
        .tokens
        .iter()
        .map(|&tok| ChartRow {
            label: tok.name().to_string(),
            points: r
                .tables
                .iter()
                .map(|t| t.rows.iter().find(|v| v.token == tok).and_then(|v| chart_point(&v.win, 100.0)))
                .collect(),
        })
        .collect();
    let title = format!("Token value at {} seats: win difference with paired 95% intervals", r.settings.players);
    write_study(dir, "value", r, &value_markdown(r), |p| {
        interval_chart(p, &title, "win rate with the token minus without (percentage points)", &series, &rows)
    })
}

/// The loadout race as Markdown.
pub fn loadouts_markdown(r: &LoadoutsReport) -> String {
    let s = &r.settings;
    let mut md = String::new();
    let _ = writeln!(md, "# Loadouts at {} seats in the hands of `{}`\n", s.players, s.focal);
    let _ = writeln!(
        md,
        "Opponents: {}; {} loadouts; best-arm identification by successive elimination at δ = {} with a budget of {} \
         games; seed {}.",
        s.agents.join(", "),
        s.loadouts,
        s.delta,
        s.budget,
        s.seed
    );
    md.push_str(&performance_line(&r.performance, r.games));
    let deals = r.rounds.last().map_or(0, |x| x.deals_total);
    let radius = r.rounds.last().map_or(f64::INFINITY, |x| x.radius);
    if r.survivors == 1 {
        let _ = writeln!(
            md,
            "\n**Stopped by its rule**: one loadout is left after {} rounds ({} deals each for the last survivors); \
             with probability at least {:.2} it is the best loadout for this agent against this field. {} games of the \
             budget were not needed.",
            r.rounds.len(),
            deals,
            1.0 - s.delta,
            s.budget - r.games
        );
    } else {
        let _ = writeln!(
            md,
            "\n**Budget spent** ({} games left, less than one deal per seat for each survivor): {} loadouts survive \
             after {} rounds ({} deals each, elimination radius ±{:.1} pp); with probability at least {:.2} the best \
             loadout is among them. Their order below is by win share and is not itself guaranteed.",
            s.budget - r.games,
            r.survivors,
            r.rounds.len(),
            deals,
            100.0 * radius,
            1.0 - s.delta
        );
    }
    md.push_str("\n| round | entrants | new deals each | deals each | games | radius (pp) | eliminated |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for x in &r.rounds {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {:.1} | {} |",
            x.round,
            x.entrants,
            x.deals,
            x.deals_total,
            x.games,
            100.0 * x.radius,
            x.eliminated
        );
    }
    md.push_str("\n| rank | loadout | games | win rate | 95% | vs top (pp) | paired 95% | mean chips | eliminated |\n");
    md.push_str("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for l in &r.ranking {
        let eliminated = match l.eliminated_in_round {
            Some(n) => format!("after round {n}"),
            None => "survived".into(),
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.2}% | {:.2}–{:.2}% | {} | {} | {:.2} | {} |",
            l.rank,
            l.loadout,
            l.games,
            100.0 * l.win_rate,
            100.0 * l.win_low,
            100.0 * l.win_high,
            pp(l.vs_top.diff),
            interval(l.vs_top.low, l.vs_top.high, 100.0),
            l.mean_chips,
            eliminated
        );
    }
    notes_list(&mut md, &r.notes);
    md
}

/// Rows of the loadout chart: the best this many.
pub const LOADOUT_CHART_ROWS: usize = 30;

/// Writes the loadout race's files.
pub fn write_loadouts(r: &LoadoutsReport, dir: &Path) -> Result<Vec<String>, ResearchError> {
    let rows: Vec<ChartRow> = r
        .ranking
        .iter()
        .take(LOADOUT_CHART_ROWS)
        .map(|l| ChartRow {
            label: format!("{}. {}", l.rank, l.loadout),
            points: vec![Some((100.0 * l.win_rate, 100.0 * l.win_low, 100.0 * l.win_high))],
        })
        .collect();
    let title = format!("Best loadouts at {} seats (win rate, Wilson 95%)", r.settings.players);
    write_study(dir, "loadouts", r, &loadouts_markdown(r), |p| {
        interval_chart(p, &title, "win rate of the focal seat (%)", std::slice::from_ref(&r.settings.focal), &rows)
    })
}

/// The draft study as Markdown.
pub fn draft_markdown(r: &DraftReport) -> String {
    let s = &r.settings;
    let mut md = String::new();
    let _ = writeln!(md, "# Token draft at {} seats\n", s.players);
    let _ = writeln!(
        md,
        "Agents: {}; {} deals; seed {}; value ranking: {}.",
        s.agents.join(", "),
        s.deals,
        s.seed,
        s.value_source
    );
    md.push_str(&performance_line(&r.performance, r.games));
    for a in &r.agents {
        let _ = writeln!(md, "\n## `{}` ({} seat-games, win rate {:.2}%)\n", a.agent, a.seat_games, 100.0 * a.win_rate);
        let names = |v: &[kessel::Token]| v.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ");
        let _ = writeln!(
            md,
            "Picks most: {}. Value says: {}. Spearman (pick rate vs value): {}.\n",
            names(&a.picks),
            if a.should_pick.is_empty() { "no value table for this agent".into() } else { names(&a.should_pick) },
            a.spearman.map_or("n/a".to_string(), |x| format!("{x:+.2}"))
        );
        let orders = a.kinds.first().map_or(0, |k| k.by_order.len());
        md.push_str("| token | pick rate |");
        for j in 0..orders {
            let _ = write!(md, " pick {} |", j + 1);
        }
        md.push_str(" value (win diff, pp) | value rank |\n| --- | ---: |");
        for _ in 0..orders {
            md.push_str(" ---: |");
        }
        md.push_str(" ---: | ---: |\n");
        let mut kinds: Vec<_> = a.kinds.iter().collect();
        kinds.sort_by(|x, y| y.pick_rate.total_cmp(&x.pick_rate));
        for k in kinds {
            let _ = write!(md, "| {} | {:.1}% |", k.token, 100.0 * k.pick_rate);
            for c in &k.by_order {
                let _ = write!(md, " {c} |");
            }
            let _ = writeln!(
                md,
                " {} | {} |",
                k.value.map_or("–".into(), pp),
                k.value_rank.map_or("–".into(), |r| r.to_string())
            );
        }
    }
    notes_list(&mut md, &r.notes);
    md
}

/// Writes the draft study's files.
pub fn write_draft(r: &DraftReport, dir: &Path) -> Result<Vec<String>, ResearchError> {
    let series: Vec<String> = r.agents.iter().map(|a| a.agent.clone()).collect();
    let tokens: Vec<kessel::Token> =
        r.agents.first().map(|a| a.kinds.iter().map(|k| k.token).collect()).unwrap_or_default();
    let rows: Vec<ChartRow> = tokens
        .iter()
        .map(|&t| ChartRow {
            label: t.name().to_string(),
            points: r
                .agents
                .iter()
                .map(|a| {
                    a.kinds.iter().find(|k| k.token == t).map(|k| {
                        let (lo, hi) = eval::stats::wilson(k.pick_rate * a.seat_games as f64, a.seat_games as f64);
                        (100.0 * k.pick_rate, 100.0 * lo, 100.0 * hi)
                    })
                })
                .collect(),
        })
        .collect();
    let title = format!("Token picks at {} seats (pick rate, Wilson 95%)", r.settings.players);
    write_study(dir, "draft", r, &draft_markdown(r), |p| {
        interval_chart(p, &title, "share of seat-games in which the agent picked the kind (%)", &series, &rows)
    })
}
