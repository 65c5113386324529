//! Writing an evaluation's files: the reports (from [`crate::report`]) and the plots (from
//! [`crate::plot`]) into one folder. Kept apart from both so neither module depends on the other.

use crate::report::{Report, markdown, write_atomic};
use std::path::Path;

/// Writes `report.json`, `report.md` and the plots into `dir` (the reports atomically). Returns
/// the plot files written and a warning if plots lack text (no font found).
pub fn write_all<R: serde::Serialize>(r: &Report<R>, dir: &Path) -> std::io::Result<Vec<String>> {
    std::fs::create_dir_all(dir)?;
    write_atomic(&dir.join("report.json"), serde_json::to_string_pretty(r).map_err(std::io::Error::other)?.as_bytes())?;
    write_atomic(&dir.join("report.md"), markdown(r).as_bytes())?;
    crate::plot::write_plots(r, dir).map_err(std::io::Error::other)
}
