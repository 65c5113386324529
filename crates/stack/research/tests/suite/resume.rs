//! A stopped token report resumes: the studies it finished are reused, the rest are played, and
//! the document is the one a report that never stopped writes.

use env::{Agent, AgentBuilder};
use games::kessel::Kessel;
use research::report::{self, Provenance, ReportConfig, Scale};
use std::path::Path;

/// The agents layer, except one spec whose agent cannot be built: the report stops at the first
/// study that plays it.
struct StopAt(&'static str);

impl AgentBuilder<Kessel> for StopAt {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<Kessel>>, String> {
        if spec == self.0 {
            return Err(format!("`{spec}`: stopped here"));
        }
        agents::Agents::new().build::<Kessel>(spec).map_err(|e| e.to_string())
    }
}

fn config(out: &Path, resume: bool) -> ReportConfig {
    ReportConfig {
        policy: "greedy".into(),
        scale: Scale::Quick,
        seed: 3,
        out: out.to_path_buf(),
        provenance: Provenance { commit: "abc1234".into(), checkpoints: Vec::new() },
        resume,
    }
}

/// The document without what depends on the wall clock, the folder or the run being resumed.
fn timeless(out: &Path) -> String {
    let text =
        std::fs::read_to_string(out.join("token-research.md")).unwrap().replace(&out.display().to_string(), "OUT");
    let volatile = ["minute", "Resumed after a stop", "games/s", "games per second"];
    text.lines().filter(|l| !l.is_empty() && !volatile.iter().any(|v| l.contains(v))).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_stopped_report_resumes_with_the_studies_it_finished() {
    let (whole, stopped) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let fresh = report::run(&config(whole.path(), false), &agents::Agents::new(), &|_| {}).unwrap();
    assert!(fresh.resumed.0.is_empty());
    assert!(!whole.path().join("token-research/.stages").exists(), "kept stages are removed at the end");

    // `handdraft` plays only in the draft-gain study, late in the report.
    let Err(e) = report::run(&config(stopped.path(), false), &StopAt("handdraft"), &|_| {}) else {
        panic!("the report went past a study whose agent cannot be built");
    };
    assert!(e.to_string().contains("stopped here"), "{e}");
    assert!(!stopped.path().join("token-research.md").exists());
    let kept = std::fs::read_dir(stopped.path().join("token-research/.stages")).unwrap().count();
    assert!(kept >= 10, "the studies before the stop are kept: {kept}");

    let resumed = report::run(&config(stopped.path(), true), &agents::Agents::new(), &|_| {}).unwrap();
    let (reused, studies) = &resumed.resumed;
    assert_eq!(reused.len(), kept, "every kept study is reused: {reused:?}");
    assert!(reused.len() < *studies, "the studies after the stop are played");
    assert!(reused.iter().any(|s| s == "loadouts, 4 seats, expert"), "{reused:?}");
    assert!(!stopped.path().join("token-research/.stages").exists());
    let (resumed_doc, whole_doc) = (timeless(stopped.path()), timeless(whole.path()));
    let differ: Vec<(&str, &str)> = resumed_doc.lines().zip(whole_doc.lines()).filter(|(a, b)| a != b).collect();
    assert!(differ.is_empty(), "the same document as a run that never stopped; differing lines: {differ:#?}");
    assert_eq!(resumed_doc.lines().count(), whole_doc.lines().count());
    let text = std::fs::read_to_string(stopped.path().join("token-research.md")).unwrap();
    assert!(text.contains(&format!("Resumed after a stop: {kept} of its {studies} studies")), "{text}");
}

#[test]
fn a_replaced_report_leaves_no_study_of_the_one_before() {
    let out = tempfile::tempdir().unwrap();
    let first = report::run(&config(out.path(), false), &agents::Agents::new(), &|_| {}).unwrap();
    assert!(first.removed.is_empty(), "{:?}", first.removed);
    let studies = out.path().join("token-research");
    let stale = [studies.join("metagame/metagame.md"), studies.join("answer-2p-policy/race/old.png")];
    for f in &stale {
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, "from an older report").unwrap();
    }
    let second = report::run(&config(out.path(), false), &agents::Agents::new(), &|_| {}).unwrap();
    let mut removed = second.removed.clone();
    removed.sort();
    let mut want: Vec<String> = stale.iter().map(|f| f.display().to_string()).collect();
    want.sort();
    assert_eq!(removed, want);
    assert!(!studies.join("metagame").exists(), "a folder left empty goes too");
    // Everything the report wrote is still there, and every study the document links exists.
    for f in second.files.iter().filter(|f| !f.starts_with("warning")) {
        assert!(Path::new(f).exists(), "{f}");
    }
    let doc = std::fs::read_to_string(out.path().join("token-research.md")).unwrap();
    for link in doc.split("](token-research/").skip(1) {
        let target = link.split([')', '#']).next().unwrap();
        assert!(studies.join(target).exists(), "the document links {target}, which is missing");
    }
}
