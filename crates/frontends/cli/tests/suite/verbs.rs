//! Every verb's definition and the version line. clap checks a command's definition (argument
//! names, groups, conflicts) only when that command is parsed in a debug build, so asking each
//! verb and sub-verb for its help checks every definition.

use crate::common::{sabacc, stderr};

/// The verbs a `--help` lists: the first word of each indented line of its `Commands:` section.
fn verbs(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|v| *v != "help")
        .map(str::to_string)
        .collect()
}

fn help(path: &[&str]) -> String {
    let mut args = path.to_vec();
    args.push("--help");
    let o = sabacc(&args);
    let e = stderr(&o);
    assert!(o.status.success(), "{args:?}: {e}");
    assert!(!e.contains("panicked"), "{args:?}: {e}");
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn every_verb_and_sub_verb_has_a_valid_definition_and_help() {
    let top = verbs(&help(&[]));
    for want in ["scenario", "simulate", "train", "eval", "export", "tokens", "ladder", "gate", "serve"] {
        assert!(top.iter().any(|v| v == want), "`{want}` is missing from {top:?}");
    }
    let mut checked = 0;
    for verb in &top {
        let text = help(&[verb]);
        checked += 1;
        for sub in verbs(&text) {
            help(&[verb, &sub]);
            checked += 1;
        }
    }
    assert!(checked > top.len(), "the verbs with sub-verbs (tokens, ladder, distil) were walked");
}

#[test]
fn the_version_names_the_commit() {
    let o = sabacc(&["--version"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = String::from_utf8(o.stdout).unwrap();
    assert!(v.starts_with(&format!("sabacc {} (", env!("CARGO_PKG_VERSION"))), "{v}");
    assert!(v.trim_end().ends_with("(unknown commit)") || v.contains(" (commit "), "{v}");
}
