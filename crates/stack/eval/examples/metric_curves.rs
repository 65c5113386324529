//! Draws one metric of several training runs against learner decisions, as a PNG: the curves
//! BENCHMARKS.md shows (for example Leduc's NashConv, `eval/nash_conv`, on a log scale).
//!
//! `cargo run --release -p eval --example metric_curves -- TAG OUT.png [--log] LABEL=RUN/metrics.csv …`
//!
//! Each run's `metrics.csv` is the trainer's long format (`update,global_step,tag,value`);
//! `global_step` (learner decisions) is the x axis. `--ref LABEL=VALUE` draws a horizontal line.

use eval::plot::{PALETTE, font_available};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::error::Error;
use std::path::Path;

/// One curve: its label and its (decisions, value) points.
type Curve = (String, Vec<(f64, f64)>);

fn read_curve(path: &Path, tag: &str) -> Result<Vec<(f64, f64)>, Box<dyn Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut points = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let [_, step, t, value] = fields[..] else {
            return Err(format!("{}:{}: expected 4 fields, found {}", path.display(), n + 1, fields.len()).into());
        };
        if t == tag {
            let bad = |e: &dyn std::fmt::Display| format!("{}:{}: {e}", path.display(), n + 1);
            points.push((step.parse::<f64>().map_err(|e| bad(&e))?, value.parse::<f64>().map_err(|e| bad(&e))?));
        }
    }
    if points.is_empty() {
        return Err(format!("{}: no `{tag}` rows", path.display()).into());
    }
    Ok(points)
}

fn label_and_value(arg: &str) -> Result<(String, &str), Box<dyn Error>> {
    let (label, value) = arg.split_once('=').ok_or_else(|| format!("`{arg}`: expected LABEL=VALUE"))?;
    Ok((label.to_string(), value))
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: metric_curves TAG OUT.png [--log] [--ref LABEL=VALUE] LABEL=metrics.csv ...";
    let [tag, out, rest @ ..] = &args[..] else {
        return Err(usage.into());
    };
    let (tag, out) = (tag.clone(), out.clone());
    let (mut log, mut curves, mut refs): (bool, Vec<Curve>, Vec<(String, f64)>) = (false, vec![], vec![]);
    let mut rest = rest.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--log" => log = true,
            "--ref" => {
                let (label, v) = label_and_value(rest.next().ok_or(usage)?)?;
                refs.push((label, v.parse()?));
            }
            _ => {
                let (label, path) = label_and_value(a)?;
                curves.push((label, read_curve(Path::new(path), &tag)?));
            }
        }
    }
    if curves.is_empty() {
        return Err(usage.into());
    }
    if !font_available() {
        eprintln!("no font found: the plot is drawn without text (set SABACC_FONT to a .ttf file)");
    }
    let values = curves.iter().flat_map(|(_, p)| p.iter().map(|&(_, v)| v)).chain(refs.iter().map(|r| r.1));
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
    let x_max = curves.iter().flat_map(|(_, p)| p.iter().map(|&(x, _)| x)).fold(0.0, f64::max);
    let root = BitMapBackend::new(&out, (1000, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root);
    chart.caption(format!("{tag} by learner decisions"), ("sans-serif", 22)).margin(16);
    chart.x_label_area_size(45).y_label_area_size(70);
    let x_range = 0.0..x_max / 1e6;
    if log {
        draw(chart.build_cartesian_2d(x_range, (lo * 0.8..hi * 1.25).log_scale())?, &tag, &curves, &refs, x_max)?;
    } else {
        draw(chart.build_cartesian_2d(x_range, 0.0..hi * 1.05)?, &tag, &curves, &refs, x_max)?;
    }
    root.present()?;
    println!("wrote {out}");
    Ok(())
}

/// Draws the curves and reference lines on a chart whose y axis is linear or logarithmic.
fn draw<'a, Y>(
    mut ctx: ChartContext<'a, BitMapBackend<'a>, Cartesian2d<RangedCoordf64, Y>>,
    tag: &str,
    curves: &[Curve],
    refs: &[(String, f64)],
    x_max: f64,
) -> Result<(), Box<dyn Error>>
where
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    ctx.configure_mesh().x_desc("learner decisions (millions)").y_desc(tag).draw()?;
    for (i, (label, points)) in curves.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let line = points.iter().map(|&(x, v)| (x / 1e6, v));
        ctx.draw_series(LineSeries::new(line, colour.stroke_width(2)))?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
    }
    for (label, v) in refs {
        let line = [(0.0, *v), (x_max / 1e6, *v)];
        ctx.draw_series(LineSeries::new(line, BLACK.stroke_width(1)))?
            .label(label.as_str())
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(1)));
    }
    ctx.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).draw()?;
    Ok(())
}
