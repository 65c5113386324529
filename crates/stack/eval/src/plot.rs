//! PNG plots with `plotters` (bitmap backend, no system font libraries).
//!
//! Text is rendered with `ab_glyph` from a TrueType font read at run time: `$SABACC_FONT` if set,
//! else the first of a few well-known paths (DejaVu Sans, Liberation Sans, FreeSans, Arial). If
//! none is found (or `SABACC_FONT=none`) the plots are still drawn, without text, and a warning
//! names the fix. No fontconfig/freetype system libraries are needed.
//!
//! Plots: `ratings.png` (ratings with 95% bootstrap error bars), `head_to_head.png` (heat map of
//! the finished-ahead matrix), `tokens.png` (token plays per 100 seat-games of each agent, so per seat).

use crate::report::Report;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, RGBColor};
use std::path::Path;
use std::sync::OnceLock;

const FONT_PATHS: [&str; 8] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Loads and registers a font once; returns whether text can be drawn.
pub fn font_available() -> bool {
    static FONT: OnceLock<bool> = OnceLock::new();
    *FONT.get_or_init(|| {
        let mut paths: Vec<String> = Vec::new();
        if let Ok(p) = std::env::var("SABACC_FONT") {
            if p == "none" {
                return false;
            }
            paths.push(p);
        }
        paths.extend(FONT_PATHS.iter().map(|s| s.to_string()));
        for p in paths {
            if let Ok(bytes) = std::fs::read(&p) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, bytes);
                    return true;
                }
            }
        }
        false
    })
}

/// A bitmap drawing area.
pub type Root<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;
/// What a drawing function returns.
pub type PlotResult = Result<(), Box<dyn std::error::Error>>;

/// Draws `s` at (`x`, `y`) anchored at `pos`; nothing when no font is available.
pub fn text(root: &Root, s: &str, x: i32, y: i32, size: u32, pos: (HPos, VPos)) -> PlotResult {
    if !font_available() {
        return Ok(());
    }
    let style = TextStyle::from(("sans-serif", size).into_font()).color(&BLACK).pos(Pos::new(pos.0, pos.1));
    root.draw(&Text::new(s.to_string(), (x, y), style))?;
    Ok(())
}

/// Series colours, shared by every plot.
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Writes the three plots; returns the files written (and a note when text is missing). Each
/// plot is drawn into a temporary sibling and renamed over its name, so a reader (or a crash)
/// sees the old picture or the new one, never half of one.
pub fn write_plots<R>(r: &Report<R>, dir: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (name, f) in [
        ("ratings.png", ratings::<R> as fn(&Report<R>, &Path) -> PlotResult),
        ("head_to_head.png", head_to_head::<R>),
        ("tokens.png", tokens::<R>),
    ] {
        if name == "tokens.png" && r.stats.tokens.is_empty() {
            continue; // a game without Shift Tokens
        }
        let p = dir.join(name);
        write_png(&p, |tmp| f(r, tmp))?;
        out.push(p.display().to_string());
    }
    if !font_available() {
        out.push("warning: no TrueType font found (set SABACC_FONT=/path/to/font.ttf); plots have no text".into());
    }
    Ok(out)
}

/// Draws a PNG with `draw` into a temporary sibling of `path` and renames it over `path`, so a
/// reader (or a crash) sees the old picture or the new one, never half of one.
pub fn write_png(path: &Path, draw: impl FnOnce(&Path) -> PlotResult) -> Result<(), String> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // The backend picks the image format from the extension, so the temporary name keeps it.
    let tmp = path.with_file_name(format!(".{name}.tmp-{}.png", std::process::id()));
    let written = draw(&tmp)
        .map_err(|e| format!("{}: {e}", path.display()))
        .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display())));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

fn ratings<R>(r: &Report<R>, path: &Path) -> PlotResult {
    let agents = &r.stats.agents;
    let k = agents.len().max(1);
    let (w, h) = (900u32, 140 + 60 * k as u32);
    let root = BitMapBackend::new(path, (w, h)).into_drawing_area();
    root.fill(&WHITE)?;
    text(
        &root,
        "Ratings (Bradley-Terry, Elo scale) with 95% bootstrap intervals",
        w as i32 / 2,
        24,
        20,
        (HPos::Center, VPos::Center),
    )?;
    let lo = agents.iter().map(|a| a.rating_low).fold(f64::INFINITY, f64::min).min(-10.0);
    let hi = agents.iter().map(|a| a.rating_high).fold(f64::NEG_INFINITY, f64::max).max(10.0);
    let pad = (hi - lo) * 0.08 + 5.0;
    let (lo, hi) = (lo - pad, hi + pad);
    let (x0, x1) = (200i32, w as i32 - 40);
    let (y0, y1) = (60i32, h as i32 - 60);
    let sx = |v: f64| x0 + ((v - lo) / (hi - lo) * (x1 - x0) as f64) as i32;
    root.draw(&Rectangle::new([(x0, y0), (x1, y1)], BLACK.stroke_width(1)))?;
    // Grid and ticks.
    let step = nice_step(hi - lo);
    let mut t = (lo / step).ceil() * step;
    while t <= hi {
        let x = sx(t);
        root.draw(&PathElement::new(vec![(x, y0), (x, y1)], RGBColor(225, 225, 225).stroke_width(1)))?;
        text(&root, &format!("{t:+.0}"), x, y1 + 16, 14, (HPos::Center, VPos::Center))?;
        t += step;
    }
    let zero = sx(0.0);
    root.draw(&PathElement::new(vec![(zero, y0), (zero, y1)], RGBColor(150, 150, 150).stroke_width(1)))?;
    let row = (y1 - y0) / k as i32;
    let mut order: Vec<usize> = (0..agents.len()).collect();
    order.sort_by(|&a, &b| agents[b].rating.total_cmp(&agents[a].rating));
    for (i, &ai) in order.iter().enumerate() {
        let a = &agents[ai];
        let y = y0 + row * i as i32 + row / 2;
        let c = PALETTE[ai % PALETTE.len()];
        root.draw(&PathElement::new(vec![(sx(a.rating_low), y), (sx(a.rating_high), y)], c.stroke_width(3)))?;
        for v in [a.rating_low, a.rating_high] {
            root.draw(&PathElement::new(vec![(sx(v), y - 8), (sx(v), y + 8)], c.stroke_width(3)))?;
        }
        root.draw(&Circle::new((sx(a.rating), y), 7, c.filled()))?;
        text(&root, &a.name, x0 - 10, y, 16, (HPos::Right, VPos::Center))?;
        text(&root, &format!("{:+.0}", a.rating), sx(a.rating), y - 18, 13, (HPos::Center, VPos::Center))?;
    }
    text(&root, "rating (Elo points, mean 0)", (x0 + x1) / 2, y1 + 40, 15, (HPos::Center, VPos::Center))?;
    root.present()?;
    Ok(())
}

/// A round tick step (1, 2 or 5 times a power of ten) giving about eight ticks over `span`.
pub fn nice_step(span: f64) -> f64 {
    let raw = span / 8.0;
    let mag = 10f64.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * mag >= raw {
            return m * mag;
        }
    }
    10.0 * mag
}

fn heat(v: f64) -> RGBColor {
    // 0 → red, 0.5 → white, 1 → green.
    let v = v.clamp(0.0, 1.0);
    if v < 0.5 {
        let t = v / 0.5;
        RGBColor((215.0 + 40.0 * t) as u8, (80.0 + 175.0 * t) as u8, (80.0 + 175.0 * t) as u8)
    } else {
        let t = (v - 0.5) / 0.5;
        RGBColor((255.0 - 195.0 * t) as u8, (255.0 - 75.0 * t) as u8, (255.0 - 175.0 * t) as u8)
    }
}

fn head_to_head<R>(r: &Report<R>, path: &Path) -> PlotResult {
    let hh = &r.stats.head_to_head;
    let k = hh.names.len().max(1) as i32;
    let cell = 110i32;
    let (left, top) = (170i32, 90i32);
    let (w, h) = ((left + cell * k + 30) as u32, (top + cell * k + 40) as u32);
    let root = BitMapBackend::new(path, (w, h)).into_drawing_area();
    root.fill(&WHITE)?;
    text(&root, "Head to head: row finished ahead of column", w as i32 / 2, 22, 18, (HPos::Center, VPos::Center))?;
    for (j, n) in hh.names.iter().enumerate() {
        text(&root, n, left + cell * j as i32 + cell / 2, top - 16, 14, (HPos::Center, VPos::Center))?;
    }
    for (i, n) in hh.names.iter().enumerate() {
        let y = top + cell * i as i32;
        text(&root, n, left - 10, y + cell / 2, 14, (HPos::Right, VPos::Center))?;
        for j in 0..hh.names.len() {
            let x = left + cell * j as i32;
            let (fill, label) = match hh.rate[i][j] {
                Some(v) => (heat(v), format!("{:.1}%", 100.0 * v)),
                None => (RGBColor(235, 235, 235), "–".to_string()),
            };
            root.draw(&Rectangle::new([(x, y), (x + cell, y + cell)], fill.filled()))?;
            root.draw(&Rectangle::new([(x, y), (x + cell, y + cell)], WHITE.stroke_width(2)))?;
            text(&root, &label, x + cell / 2, y + cell / 2, 16, (HPos::Center, VPos::Center))?;
        }
    }
    root.present()?;
    Ok(())
}

/// Seat-games per agent (at least 1), the denominator of `tokens.png`.
pub fn token_rates<R>(r: &Report<R>) -> Vec<f64> {
    (0..r.stats.head_to_head.names.len().max(1))
        .map(|a| r.stats.agents.get(a).map_or(0, |x| x.games).max(1) as f64)
        .collect()
}

/// Token plays per 100 seat-games of each agent: an agent that fills several seats of a table
/// plays in each of them, so its plays are divided by its seat-games, not by the games, and the
/// bars compare what one seat of each agent does.
fn tokens<R>(r: &Report<R>, path: &Path) -> PlotResult {
    let toks = &r.stats.tokens;
    let names = &r.stats.head_to_head.names;
    let k = names.len().max(1);
    let rates = token_rates(r);
    let per_100 = |a: usize, n: u64| n as f64 / rates[a] * 100.0;
    let row = 14 * k as i32 + 10;
    let (left, top) = (190i32, 70i32);
    let (w, h) = (1000u32, (top + row * toks.len() as i32 + 100) as u32);
    let root = BitMapBackend::new(path, (w, h)).into_drawing_area();
    root.fill(&WHITE)?;
    text(
        &root,
        "Shift Token plays per 100 seat-games (per seat), by agent",
        w as i32 / 2,
        22,
        18,
        (HPos::Center, VPos::Center),
    )?;
    let max =
        toks.iter().flat_map(|t| t.by_agent.iter().enumerate().map(|(a, &x)| per_100(a, x))).fold(1.0f64, f64::max);
    let (x0, x1) = (left, w as i32 - 40);
    let y1 = top + row * toks.len() as i32;
    let sx = |v: f64| x0 + (v / (max * 1.05) * (x1 - x0) as f64) as i32;
    let step = nice_step(max * 1.05);
    let mut t = 0.0;
    while t <= max * 1.05 {
        let x = sx(t);
        root.draw(&PathElement::new(vec![(x, top), (x, y1)], RGBColor(225, 225, 225).stroke_width(1)))?;
        text(&root, &format!("{t:.0}"), x, y1 + 14, 13, (HPos::Center, VPos::Center))?;
        t += step;
    }
    for (i, tk) in toks.iter().enumerate() {
        let y = top + row * i as i32;
        text(&root, &tk.token, left - 10, y + row / 2, 14, (HPos::Right, VPos::Center))?;
        for (a, &n) in tk.by_agent.iter().enumerate() {
            let v = per_100(a, n);
            let yy = y + 5 + 14 * a as i32;
            root.draw(&Rectangle::new([(x0, yy), (sx(v).max(x0 + 1), yy + 12)], PALETTE[a % PALETTE.len()].filled()))?;
        }
    }
    root.draw(&PathElement::new(vec![(x0, top), (x0, y1)], BLACK.stroke_width(1)))?;
    root.draw(&PathElement::new(vec![(x0, y1), (x1, y1)], BLACK.stroke_width(1)))?;
    // Axis titles.
    text(&root, "plays per 100 seat-games", (x0 + x1) / 2, y1 + 34, 15, (HPos::Center, VPos::Center))?;
    text(&root, "token", left - 10, top - 14, 15, (HPos::Right, VPos::Center))?;
    // Legend.
    for (a, n) in names.iter().enumerate() {
        let x = left + 150 * a as i32;
        root.draw(&Rectangle::new([(x, y1 + 60), (x + 14, y1 + 74)], PALETTE[a % PALETTE.len()].filled()))?;
        text(&root, n, x + 20, y1 + 67, 14, (HPos::Left, VPos::Center))?;
    }
    root.present()?;
    Ok(())
}
