//! Run logging: TensorBoard scalars (via the `tblog` crate) and the same scalars in a CSV file.
//!
//! Scalar names follow CleanRL (`charts/episodic_return`, `losses/approx_kl`, …) so dashboards
//! and habits carry over.
//!
//! On resume, `metrics.csv` keeps every row up to the checkpoint's update and drops the later
//! ones (logged before the stop, then redone), so each update appears once. It is never cut
//! short by a row it cannot read: a malformed row is an error naming the file and the line, and
//! the file is left as it was. The one exception is an unterminated last line, the write a crash
//! cut off: updates are logged before their checkpoint is written, so it always belongs to an
//! update after the checkpoint, and it is dropped with a notice.

use anyhow::{Context, bail};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes each update's scalars to TensorBoard and to `metrics.csv`.
pub struct Metrics {
    tb: tblog::EventWriter,
    csv_path: PathBuf,
    csv: File,
    notices: Vec<String>,
}

/// Name of the CSV file in the run folder.
pub const CSV_FILE: &str = "metrics.csv";

/// The CSV's first line.
pub const CSV_HEADER: &str = "update,global_step,tag,value";

/// One CSV row: its update, and the line as written.
struct Row<'a> {
    update: u64,
    line: &'a str,
}

/// Parses `update,global_step,tag,value` (the tag may itself hold commas).
fn parse_row(line: &str) -> Option<Row<'_>> {
    let mut parts = line.splitn(3, ',');
    let update = parts.next()?.parse::<u64>().ok()?;
    parts.next()?.parse::<u64>().ok()?;
    let (tag, value) = parts.next()?.rsplit_once(',')?;
    value.parse::<f64>().ok()?;
    (!tag.is_empty()).then_some(Row { update, line })
}

/// A line for an error message: at most 80 characters.
fn excerpt(line: &str) -> String {
    match line.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

/// Keeps the rows of `path` up to `update`, rewriting the file (atomically) only if rows are
/// dropped. Returns notices for the log.
fn trim_for_resume(path: &Path, update: u64) -> anyhow::Result<Vec<String>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let refuse = |number: usize, what: &str| -> anyhow::Error {
        anyhow::anyhow!(
            "cannot resume: {} line {number} {what}; the file is left as it was. Fix or delete that line (or move \
             the file aside to start a new one), then resume again",
            path.display()
        )
    };
    let mut notices = Vec::new();
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    // The piece after the last newline: empty, or a row the crash cut off.
    let tail = lines.pop().unwrap_or_default();
    if !tail.is_empty() {
        notices.push(format!(
            "{}: dropped its unterminated last line (line {}), a write cut off by the stop this run resumes from: `{}`",
            path.display(),
            lines.len() + 1,
            excerpt(&String::from_utf8_lossy(tail))
        ));
    }
    let mut kept = Vec::with_capacity(lines.len());
    let mut dropped = 0usize;
    for (i, raw) in lines.iter().enumerate() {
        let number = i + 1;
        let line = std::str::from_utf8(raw).map_err(|_| refuse(number, "is not UTF-8 text"))?;
        if number == 1 {
            if line != CSV_HEADER {
                return Err(refuse(number, &format!("is `{}`, not the header `{CSV_HEADER}`", excerpt(line))));
            }
            kept.push(line);
            continue;
        }
        let row = parse_row(line)
            .ok_or_else(|| refuse(number, &format!("is not a metrics row (`{CSV_HEADER}`): `{}`", excerpt(line))))?;
        if row.update <= update {
            kept.push(row.line);
        } else {
            dropped += 1;
        }
    }
    if dropped > 0 || !tail.is_empty() {
        let tmp = path.with_extension("csv.tmp");
        let mut text = kept.join("\n");
        text.push('\n');
        std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))?;
    }
    Ok(notices)
}

impl Metrics {
    /// Opens the logs in `run_dir`: a fresh run (`resume_update` `None`) starts a new CSV; a
    /// resumed one keeps the CSV's rows up to `resume_update` (see the module documentation).
    pub fn open(run_dir: &Path, resume_update: Option<u64>) -> anyhow::Result<Metrics> {
        let csv_path = run_dir.join(CSV_FILE);
        let mut notices = Vec::new();
        if let Some(u) = resume_update {
            if csv_path.is_file() {
                notices = trim_for_resume(&csv_path, u)?;
            } else if csv_path.exists() {
                bail!("cannot resume: {} is not a file", csv_path.display());
            }
        } else if csv_path.exists() {
            std::fs::remove_file(&csv_path)?;
        }
        let new = std::fs::metadata(&csv_path).map(|m| m.len() == 0).unwrap_or(true);
        let mut csv = OpenOptions::new().create(true).append(true).open(&csv_path)?;
        if new {
            writeln!(csv, "{CSV_HEADER}")?;
        }
        let tb = tblog::EventWriter::new(run_dir.join("tb"))?;
        Ok(Metrics { tb, csv_path, csv, notices })
    }

    /// What opening the logs did that the run's log should show (a dropped torn line), once.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Logs scalars for one update at `global_step` (learner decisions so far).
    pub fn log(&mut self, update: u64, global_step: u64, scalars: &BTreeMap<String, f64>) -> anyhow::Result<()> {
        for (tag, &v) in scalars {
            if !v.is_finite() {
                continue;
            }
            self.tb.add_scalar(tag, v as f32, global_step as i64)?;
            writeln!(self.csv, "{update},{global_step},{tag},{v}")?;
        }
        self.tb.flush()?;
        self.csv.flush()?;
        Ok(())
    }

    /// The CSV file's path.
    pub fn csv_path(&self) -> &Path {
        &self.csv_path
    }

    /// The TensorBoard event file's path.
    pub fn tb_path(&self) -> &Path {
        self.tb.path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CSV as the trainer writes it: updates 1..=n, two tags each.
    fn csv(n: u64) -> String {
        let mut s = format!("{CSV_HEADER}\n");
        for u in 1..=n {
            s.push_str(&format!("{u},{},charts/SPS,{}.5\n{u},{},losses/entropy,0.25\n", u * 10, u, u * 10));
        }
        s
    }

    fn resume(text: &[u8], update: u64) -> (tempfile::TempDir, anyhow::Result<Metrics>) {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join(CSV_FILE), text).unwrap();
        let m = Metrics::open(d.path(), Some(update));
        (d, m)
    }

    fn read(d: &tempfile::TempDir) -> String {
        std::fs::read_to_string(d.path().join(CSV_FILE)).unwrap()
    }

    #[test]
    fn resume_keeps_every_row_up_to_the_checkpoint_and_drops_the_redone_ones() {
        let (d, m) = resume(csv(5).as_bytes(), 3);
        assert!(m.unwrap().take_notices().is_empty());
        assert_eq!(read(&d), csv(3));
        // Nothing after the checkpoint: the file is not touched.
        let (d, m) = resume(csv(3).as_bytes(), 3);
        m.unwrap();
        assert_eq!(read(&d), csv(3));
    }

    #[test]
    fn a_malformed_row_refuses_the_resume_naming_the_line_and_leaves_the_file() {
        let good = csv(5);
        for (bad, what) in [
            ("2,20,charts/SPS", "not a metrics row"),
            ("2;20;charts/SPS;20.5", "not a metrics row"),
            ("two,20,charts/SPS,20.5", "not a metrics row"),
            ("2,20,charts/SPS,fast", "not a metrics row"),
            ("2,20,,20.5", "not a metrics row"),
        ] {
            // Line 4 is update 2's first row: before the checkpoint, and rows follow it.
            let mut lines: Vec<&str> = good.lines().collect();
            lines[3] = bad;
            let text = lines.join("\n") + "\n";
            let (d, m) = resume(text.as_bytes(), 3);
            let e = format!("{:#}", m.err().expect("a malformed row must refuse"));
            assert!(e.contains(CSV_FILE) && e.contains("line 4") && e.contains(what), "{e}");
            assert_eq!(read(&d), text, "the file must be left as it was");
            assert!(!d.path().join("tb").exists(), "nothing is opened before the CSV is read");
        }
        let mut bytes = good.clone().into_bytes();
        let at = good.find("3,30").unwrap();
        bytes[at] = 0xff;
        let (d, m) = resume(&bytes, 3);
        let e = format!("{:#}", m.err().expect("invalid UTF-8 must refuse"));
        assert!(e.contains("line 6") && e.contains("UTF-8"), "{e}");
        assert_eq!(std::fs::read(d.path().join(CSV_FILE)).unwrap(), bytes);
        let (_, m) = resume(good.replacen(CSV_HEADER, "step,tag,value", 1).as_bytes(), 3);
        assert!(format!("{:#}", m.err().unwrap()).contains("line 1"));
    }

    #[test]
    fn an_unterminated_last_line_is_dropped_with_a_notice() {
        let text = csv(4) + "5,50,charts/S";
        let (d, m) = resume(text.as_bytes(), 4);
        let notices = m.unwrap().take_notices();
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("line 10") && notices[0].contains("5,50,charts/S"), "{notices:?}");
        assert_eq!(read(&d), csv(4));
    }

    #[test]
    fn rows_logged_after_a_resume_follow_the_kept_ones() {
        let (d, m) = resume(csv(5).as_bytes(), 2);
        let mut m = m.unwrap();
        m.log(3, 30, &BTreeMap::from([("charts/SPS".to_string(), 1.5)])).unwrap();
        assert_eq!(read(&d), csv(2) + "3,30,charts/SPS,1.5\n");
        // An empty file (cut off before its header) gets its header.
        let (d, m) = resume(b"", 2);
        m.unwrap();
        assert_eq!(read(&d), format!("{CSV_HEADER}\n"));
    }
}
