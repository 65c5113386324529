//! Run logging: TensorBoard scalars (via the `tblog` crate) and the same scalars in a CSV file.
//!
//! Scalar names follow CleanRL (`charts/episodic_return`, `losses/approx_kl`, …) so dashboards
//! and habits carry over.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// Writes each update's scalars to TensorBoard and to `metrics.csv`.
pub struct Metrics {
    tb: tblog::EventWriter,
    csv_path: PathBuf,
    csv: File,
}

/// Name of the CSV file in the run folder.
pub const CSV_FILE: &str = "metrics.csv";

impl Metrics {
    /// Opens the logs in `run_dir`. On resume, CSV rows logged after `resume_update` (written
    /// before a crash, then redone) are dropped so every update appears once.
    pub fn open(run_dir: &Path, resume_update: Option<u64>) -> anyhow::Result<Metrics> {
        let tb = tblog::EventWriter::new(run_dir.join("tb"))?;
        let csv_path = run_dir.join(CSV_FILE);
        if let Some(u) = resume_update {
            if csv_path.is_file() {
                let kept: Vec<String> = BufReader::new(File::open(&csv_path)?)
                    .lines()
                    .map_while(Result::ok)
                    .filter(|l| l.split(',').nth(0).and_then(|x| x.parse::<u64>().ok()).is_none_or(|x| x <= u))
                    .collect();
                let mut f = File::create(&csv_path)?;
                for l in kept {
                    writeln!(f, "{l}")?;
                }
            }
        } else if csv_path.exists() {
            std::fs::remove_file(&csv_path)?;
        }
        let new = !csv_path.exists();
        let mut csv = OpenOptions::new().create(true).append(true).open(&csv_path)?;
        if new {
            writeln!(csv, "update,global_step,tag,value")?;
        }
        Ok(Metrics { tb, csv_path, csv })
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
