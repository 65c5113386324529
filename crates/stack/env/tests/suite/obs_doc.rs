//! `docs/observation.md` matches the code's segment table exactly.

use game::Game as _;
use games::kessel::obs::OBS_LEN;
use games::kessel::obs::OBS_VERSION;
use games::kessel::obs::{SEAT_FIELD_NAMES, SEGMENTS};

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs/observation.md");
    std::fs::read_to_string(path).expect("docs/observation.md exists")
}

/// Rows `| `name` | a | b | ... |` of the table under `heading`.
fn table_rows(doc: &str, heading: &str) -> Vec<Vec<String>> {
    let start = doc.find(heading).unwrap_or_else(|| panic!("heading {heading} missing"));
    doc[start + heading.len()..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("|---") && !l.starts_with("| segment") && !l.starts_with("| field"))
        .map(|l| l.trim().trim_matches('|').split('|').map(|c| c.trim().trim_matches('`').to_string()).collect())
        .collect()
}

#[test]
fn doc_segment_table_matches_code() {
    let d = doc();
    assert!(d.contains(&format!("`OBS_VERSION = {OBS_VERSION}`")), "doc names the version");
    assert!(d.contains(&format!("`OBS_LEN = {OBS_LEN}`")), "doc names the length");
    assert!(d.contains(games::kessel::Kessel::SPEC.id));
    let rows = table_rows(&d, "## Segments");
    let got: Vec<(String, usize, usize)> =
        rows.iter().map(|r| (r[0].clone(), r[1].parse().unwrap(), r[2].parse().unwrap())).collect();
    let want: Vec<(String, usize, usize)> = SEGMENTS.iter().map(|s| (s.name.to_string(), s.offset, s.len)).collect();
    assert_eq!(got, want);
}

#[test]
fn doc_seat_fields_match_code() {
    let rows = table_rows(&doc(), "### `seats` fields");
    let got: Vec<(usize, String)> = rows.iter().map(|r| (r[0].parse().unwrap(), r[1].clone())).collect();
    let want: Vec<(usize, String)> = SEAT_FIELD_NAMES.iter().enumerate().map(|(i, n)| (i, n.to_string())).collect();
    assert_eq!(got, want);
    let seats = games::kessel::obs::segment("seats").unwrap();
    assert_eq!(seats.len, game::MAX_PLAYERS * SEAT_FIELD_NAMES.len());
}
