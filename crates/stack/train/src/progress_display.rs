//! How progress reaches the user: a bar with an ETA on a terminal; plain lines at a steady
//! interval when stderr is a file or a pipe (CI logs, `nohup`), where a redrawn bar would be
//! either invisible or thousands of carriage returns. [`ProgressDisplay`] is training's display;
//! [`bar`] is the same choice for the other long commands, which drive an `indicatif` bar from
//! many threads.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle, TermLike};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Interval between plain progress lines.
pub const LINE_INTERVAL: Duration = Duration::from_secs(10);

enum Mode {
    Hidden,
    Bar(ProgressBar),
    Lines { out: Box<dyn Write + Send>, every: Duration, last: Option<Instant> },
}

/// Training progress over `total` updates.
pub struct ProgressDisplay {
    mode: Mode,
    total: u64,
    /// Position and time this invocation started from (ETA uses this invocation's rate only).
    start: (u64, Instant),
    position: u64,
    message: String,
    /// What one step of the position counts ("update", "game").
    unit: &'static str,
    /// When a time-budgeted run stops, whatever its position ([`ProgressDisplay::with_deadline`]).
    deadline: Option<Instant>,
}

/// `1h02m03s`-style duration.
pub fn format_duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

impl ProgressDisplay {
    /// A bar on a terminal, lines on stderr otherwise, or nothing if `!enabled`.
    pub fn new(enabled: bool, total: u64, start: u64) -> ProgressDisplay {
        let mode = if !enabled {
            Mode::Hidden
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template("{elapsed_precise} [{bar:30}] update {pos}/{len} eta {eta} {msg}")
                    .expect("valid template"),
            );
            bar.set_position(start);
            bar.reset_eta();
            Mode::Bar(bar)
        } else {
            Mode::Lines { out: Box::new(std::io::stderr()), every: LINE_INTERVAL, last: None }
        };
        ProgressDisplay {
            mode,
            total,
            start: (start, Instant::now()),
            position: start,
            message: String::new(),
            unit: "update",
            deadline: None,
        }
    }

    /// The same display counting `unit`s (e.g. "game") instead of updates.
    pub fn with_unit(mut self, unit: &'static str) -> ProgressDisplay {
        if let Mode::Bar(bar) = &self.mode {
            let template = format!("{{elapsed_precise}} [{{bar:30}}] {unit} {{pos}}/{{len}} eta {{eta}} {{msg}}");
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(style);
            }
        }
        self.unit = unit;
        self
    }

    /// The same display for a run that stops once `budget` has passed (from now) even if it has
    /// not reached `total`: the ETA is the sooner of the two, so a best response budgeted in
    /// minutes does not show the hours its decision budget would take.
    pub fn with_deadline(mut self, budget: Option<Duration>) -> ProgressDisplay {
        self.deadline = budget.map(|b| Instant::now() + b);
        if let (Mode::Bar(bar), Some(_)) = (&self.mode, self.deadline) {
            // indicatif's own ETA counts to `total`; the message carries the time left instead.
            let template = format!("{{elapsed_precise}} [{{bar:30}}] {} {{pos}}/{{len}} {{msg}}", self.unit);
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(style);
            }
        }
        self
    }

    /// Plain lines into `out` every `every` (tests use this).
    pub fn lines(out: Box<dyn Write + Send>, every: Duration, total: u64, start: u64) -> ProgressDisplay {
        ProgressDisplay {
            mode: Mode::Lines { out, every, last: None },
            total,
            start: (start, Instant::now()),
            position: start,
            message: String::new(),
            unit: "update",
            deadline: None,
        }
    }

    /// Seconds left at this invocation's rate so far (`None` before the first update), or until
    /// the deadline if that comes sooner.
    pub fn eta_secs(&self) -> Option<f64> {
        let done = self.position.saturating_sub(self.start.0);
        let by_rate = (done > 0).then(|| {
            let per = self.start.1.elapsed().as_secs_f64() / done as f64;
            per * self.total.saturating_sub(self.position) as f64
        });
        let by_deadline = self.deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64());
        match (by_rate, by_deadline) {
            (Some(r), Some(d)) => Some(r.min(d)),
            (r, d) => r.or(d),
        }
    }

    /// Records the update reached and a status message; prints a line if one is due.
    pub fn update(&mut self, position: u64, message: String) {
        self.position = position;
        self.message = message;
        let eta = self.eta_secs();
        let (total, pos, start, unit) = (self.total, self.position, self.start.1, self.unit);
        match &mut self.mode {
            Mode::Hidden => {}
            Mode::Bar(bar) => {
                match (self.deadline, eta) {
                    (Some(_), Some(left)) => {
                        bar.set_message(format!("{} left: {}", format_duration(left), self.message))
                    }
                    _ => bar.set_message(self.message.clone()),
                }
                bar.set_position(position);
            }
            Mode::Lines { out, every, last } => {
                let due = last.is_none_or(|t| t.elapsed() >= *every) || pos >= total;
                if due {
                    *last = Some(Instant::now());
                    let eta = eta.map_or("unknown".to_string(), format_duration);
                    let _ = writeln!(
                        out,
                        "{unit} {pos}/{total} ({:.0}%), elapsed {}, eta {eta}: {}",
                        100.0 * pos as f64 / total.max(1) as f64,
                        format_duration(start.elapsed().as_secs_f64()),
                        self.message
                    );
                    let _ = out.flush();
                }
            }
        }
    }

    /// Prints one line outside the bar (a bar is suspended for it).
    pub fn println(&mut self, line: &str) {
        match &mut self.mode {
            Mode::Hidden => {}
            Mode::Bar(bar) => bar.suspend(|| eprintln!("{line}")),
            Mode::Lines { out, .. } => {
                let _ = writeln!(out, "{line}");
            }
        }
    }

    /// Prints a warning: like [`ProgressDisplay::println`], but to standard error when the
    /// display is hidden, since a warning must reach the person running the program.
    pub fn warn(&mut self, line: &str) {
        match &mut self.mode {
            Mode::Hidden => eprintln!("{line}"),
            _ => self.println(line),
        }
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
        }
    }
}

/// The style of a [`bar`] from `template` (a constant: an invalid one is a programming error),
/// whose `{eta}` is the time left at the whole run's average rate, and `?` before the first step.
/// indicatif's own estimate weights recent rates and decays while no step arrives: games that
/// finish in bursts from many threads, or a first game that comes after a long start, made it
/// read hours for a job of minutes.
pub fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).expect("a valid progress template").with_key(
        "eta",
        |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&average_eta(s.pos(), s.len(), s.elapsed()));
        },
    )
}

/// Time left for `len − pos` steps at the average rate of the first `pos`, taken in `elapsed`.
fn average_eta(pos: u64, len: Option<u64>, elapsed: Duration) -> String {
    match len {
        Some(len) if pos > 0 => format_duration(elapsed.as_secs_f64() * len.saturating_sub(pos) as f64 / pos as f64),
        _ => "?".to_string(),
    }
}

/// A progress bar of `total` steps: drawn on stderr when it is a terminal; otherwise each
/// redraw is one plain line, written at most every [`LINE_INTERVAL`] (the first at once).
pub fn bar(total: u64) -> ProgressBar {
    if std::io::stderr().is_terminal() {
        ProgressBar::new(total)
    } else {
        line_bar(total, Box::new(std::io::stderr()), LINE_INTERVAL)
    }
}

/// A bar of `total` steps drawn as plain lines into `out`, one every `every` (tests use this).
pub fn line_bar(total: u64, out: Box<dyn Write + Send>, every: Duration) -> ProgressBar {
    let term = LineTerm { every, out: Mutex::new(LineOut { out, pending: String::new(), last: None }) };
    ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::term_like_with_hz(Box::new(term), 1))
}

/// A terminal stand-in that turns a bar's redraws into lines: cursor moves and clears are
/// dropped, the text of one redraw is collected until the flush that ends it, and written if a
/// line is due.
struct LineTerm {
    every: Duration,
    out: Mutex<LineOut>,
}

struct LineOut {
    out: Box<dyn Write + Send>,
    pending: String,
    last: Option<Instant>,
}

impl std::fmt::Debug for LineTerm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineTerm").field("every", &self.every).finish_non_exhaustive()
    }
}

impl LineTerm {
    fn append(&self, s: &str) -> std::io::Result<()> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(());
        }
        let mut o = self.out.lock().map_err(|_| std::io::Error::other("progress output lock poisoned"))?;
        if !o.pending.is_empty() {
            o.pending.push(' ');
        }
        o.pending.push_str(s);
        Ok(())
    }
}

impl TermLike for LineTerm {
    fn width(&self) -> u16 {
        120
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.append(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.append(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        let mut o = self.out.lock().map_err(|_| std::io::Error::other("progress output lock poisoned"))?;
        let line = std::mem::take(&mut o.pending);
        let due = o.last.is_none_or(|t| t.elapsed() >= self.every);
        if due && !line.is_empty() {
            o.last = Some(Instant::now());
            writeln!(o.out, "{line}")?;
            o.out.flush()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn progress_lines_appear_at_the_interval_with_an_eta() {
        let buf = Shared::default();
        let mut p = ProgressDisplay::lines(Box::new(buf.clone()), Duration::from_millis(200), 10, 2);
        p.update(3, "a".into());
        p.update(4, "b".into());
        std::thread::sleep(Duration::from_millis(250));
        p.update(5, "c".into());
        p.update(10, "done".into());
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "first update, the one after the interval, and the last: {text}");
        assert!(lines[0].starts_with("update 3/10 (30%)") && lines[0].contains("eta ") && lines[0].ends_with(": a"));
        assert!(lines[1].starts_with("update 5/10") && lines[1].ends_with(": c"), "{text}");
        assert!(lines[2].starts_with("update 10/10 (100%)") && lines[2].contains("eta 0s"), "{text}");
    }

    #[test]
    fn a_bar_eta_is_the_average_rate_applied_to_what_is_left() {
        assert_eq!(average_eta(0, Some(100), Duration::from_secs(600)), "?", "no step yet: no estimate");
        assert_eq!(average_eta(1, Some(100), Duration::from_secs(60)), "1h39m00s");
        assert_eq!(average_eta(50, Some(100), Duration::from_secs(60)), "1m00s");
        assert_eq!(average_eta(100, Some(100), Duration::from_secs(60)), "0s");
        assert_eq!(average_eta(5, None, Duration::from_secs(60)), "?", "no length: no estimate");
        // The style's `{eta}` is this figure: a bar drawn as lines shows "?" before its first step.
        let buf = Shared::default();
        let bar = line_bar(10, Box::new(buf.clone()), Duration::ZERO);
        bar.set_style(style("{pos}/{len} eta {eta}"));
        bar.set_position(0);
        bar.tick();
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(text.lines().any(|l| l == "0/10 eta ?"), "{text}");
    }

    #[test]
    fn a_time_budget_caps_the_eta() {
        let buf = Shared::default();
        let p = ProgressDisplay::lines(Box::new(buf.clone()), Duration::ZERO, 1_000_000, 0);
        let mut p = p.with_deadline(Some(Duration::from_secs(60)));
        std::thread::sleep(Duration::from_millis(20));
        p.update(1, "x".into());
        // At one update per ~20 ms the whole run would take hours; the budget ends it in a minute.
        let eta = p.eta_secs().unwrap();
        assert!(eta <= 60.0 && eta > 50.0, "{eta}");
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains("eta 1m00s") || text.contains("eta 59s"), "{text}");
        let mut q = ProgressDisplay::lines(Box::new(Shared::default()), Duration::ZERO, 10, 0).with_deadline(None);
        std::thread::sleep(Duration::from_millis(20));
        q.update(5, "y".into());
        assert!(q.eta_secs().unwrap() < 1.0, "without a budget the rate decides");
    }

    #[test]
    fn a_bar_off_a_terminal_writes_plain_lines_at_the_interval() {
        let buf = Shared::default();
        let bar = line_bar(100, Box::new(buf.clone()), Duration::from_millis(300));
        bar.set_style(ProgressStyle::with_template("games {pos}/{len} {msg}").unwrap());
        bar.set_message("value study");
        bar.inc(1);
        // Redraws within the interval write nothing (the draw rate limit is 1 Hz: wait past it).
        std::thread::sleep(Duration::from_millis(1100));
        bar.inc(9);
        std::thread::sleep(Duration::from_millis(1100));
        bar.inc(40);
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(!lines.is_empty(), "no line written");
        assert!(lines.iter().all(|l| l.starts_with("games ") && l.ends_with("/100 value study")), "{text}");
        assert!(!text.contains('\r') && !text.contains('\u{1b}'), "terminal control characters in {text:?}");
        assert!(lines.len() >= 2 && lines.last().unwrap().starts_with("games 50/100"), "{text}");
        let buf2 = Shared::default();
        let quiet = line_bar(100, Box::new(buf2.clone()), Duration::from_secs(3600));
        quiet.set_style(ProgressStyle::with_template("games {pos}/{len}").unwrap());
        for _ in 0..3 {
            quiet.inc(1);
            std::thread::sleep(Duration::from_millis(1100));
        }
        let text = String::from_utf8(buf2.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text.lines().count(), 1, "one line within the interval: {text}");
    }

    #[test]
    fn progress_durations_read_as_hours_minutes_seconds() {
        assert_eq!(format_duration(5.2), "5s");
        assert_eq!(format_duration(65.0), "1m05s");
        assert_eq!(format_duration(3723.0), "1h02m03s");
    }
}
