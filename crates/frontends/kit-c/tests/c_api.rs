//! The C library through its extern "C" functions, as C calls them: the header declares exactly
//! what the library exports; every registered game's observations and masks equal the Rust
//! environment's, float for float, on every state of an exported bundle's `reference.json`; bad
//! arguments are statuses with messages, never panics; a bundle's policy plays whole games and a
//! bundle of another game is refused.

use sabacc_c::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::ffi::{CStr, CString, c_char};
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::OnceLock;

const CRATE: &str = env!("CARGO_MANIFEST_DIR");

// ---------------------------------------------------------------------------------------------
// Calling the library.

fn c(s: &str) -> CString {
    CString::new(s).unwrap()
}

fn last_error() -> String {
    unsafe { CStr::from_ptr(sabacc_last_error()) }.to_str().unwrap().to_string()
}

/// `status` is OK, or the test fails with the library's message.
fn ok(status: i32) {
    assert_eq!(status, SABACC_OK, "status {status}: {}", last_error());
}

/// A string the library returned, freed.
fn take(s: *mut c_char) -> String {
    assert!(!s.is_null());
    let text = unsafe { CStr::from_ptr(s) }.to_str().unwrap().to_string();
    unsafe { sabacc_string_free(s) };
    text
}

fn json_out(f: impl FnOnce(*mut *mut c_char) -> i32) -> Value {
    let mut s = ptr::null_mut();
    ok(f(&mut s));
    serde_json::from_str(&take(s)).unwrap()
}

/// A game handle, freed when dropped.
struct G(*mut SabaccGame);

impl Drop for G {
    fn drop(&mut self) {
        unsafe { sabacc_game_free(self.0) };
    }
}

impl G {
    fn new(id: &str, rules: Option<&Value>, seats: u32, seed: u64) -> G {
        let rules = rules.map(|r| c(&r.to_string()));
        let mut g = ptr::null_mut();
        ok(unsafe {
            sabacc_game_new(c(id).as_ptr(), rules.as_ref().map_or(ptr::null(), |r| r.as_ptr()), seats, seed, &mut g)
        });
        G(g)
    }
    fn clone(&self) -> G {
        let mut g = ptr::null_mut();
        ok(unsafe { sabacc_game_clone(self.0, &mut g) });
        G(g)
    }
    fn sizes(&self) -> (usize, usize) {
        let (mut o, mut n) = (0, 0);
        ok(unsafe { sabacc_game_sizes(self.0, &mut o, &mut n) });
        (o, n)
    }
    fn actor(&self) -> Option<u32> {
        let mut a = 0;
        ok(unsafe { sabacc_game_current_player(self.0, &mut a) });
        u32::try_from(a).ok()
    }
    fn legal(&self) -> Vec<u32> {
        let mut buf = vec![0u32; self.sizes().1];
        let mut n = 0;
        ok(unsafe { sabacc_game_legal_actions(self.0, buf.as_mut_ptr(), buf.len(), &mut n) });
        buf.truncate(n);
        buf
    }
    fn apply(&self, a: u32) {
        ok(unsafe { sabacc_game_apply(self.0, a) });
    }
    fn observation(&self, seat: u32) -> Vec<u32> {
        let mut buf = vec![f32::NAN; self.sizes().0];
        ok(unsafe { sabacc_game_observation(self.0, seat, buf.as_mut_ptr(), buf.len()) });
        buf.iter().map(|f| f.to_bits()).collect()
    }
    fn mask(&self, seat: i32) -> Vec<u32> {
        let mut buf = vec![f32::NAN; self.sizes().1];
        ok(unsafe { sabacc_game_mask(self.0, seat, buf.as_mut_ptr(), buf.len()) });
        buf.iter().map(|f| f.to_bits()).collect()
    }
    fn view(&self, seat: u32) -> Value {
        json_out(|s| unsafe { sabacc_game_view(self.0, seat, s) })
    }
    fn state_json(&self) -> String {
        let mut s = ptr::null_mut();
        ok(unsafe { sabacc_game_state_json(self.0, &mut s) });
        take(s)
    }
    fn is_over(&self) -> bool {
        let mut o = 0;
        ok(unsafe { sabacc_game_is_over(self.0, &mut o) });
        o != 0
    }
}

fn bits(values: &[f32]) -> Vec<u32> {
    values.iter().map(|f| f.to_bits()).collect()
}

// ---------------------------------------------------------------------------------------------
// Bundles: one exported from a shipped checkpoint of every registered game, once per run.

/// `(game id, bundle folder)` of every registered game.
fn bundles() -> &'static [(String, PathBuf)] {
    static BUNDLES: OnceLock<(tempfile::TempDir, Vec<(String, PathBuf)>)> = OnceLock::new();
    &BUNDLES
        .get_or_init(|| {
            let out = tempfile::tempdir().unwrap();
            let root = Path::new(CRATE).join("../../../checkpoints");
            let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
            dirs.sort();
            let mut found: BTreeMap<String, PathBuf> = BTreeMap::new();
            for dir in dirs {
                let Ok(id) = policy::export::checkpoint_game(&dir) else { continue };
                let game = id.game_type().id().to_string();
                if found.contains_key(&game) {
                    continue;
                }
                let bundle = out.path().join(&game);
                export(&dir, &bundle);
                found.insert(game, bundle);
            }
            let list: Vec<(String, PathBuf)> = games::GAMES
                .iter()
                .filter_map(|g| found.get_key_value(g.id()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            (out, list)
        })
        .1
}

fn export(checkpoint: &Path, out: &Path) {
    let id = policy::export::checkpoint_game(checkpoint).unwrap();
    macro_rules! by_game {
        ($($g:ty),* $(,)?) => {{
            $(
                if games::GameId::of::<$g>() == Some(id) {
                    policy::export::export_checkpoint::<$g>(checkpoint, out, Default::default(), false)
                        .unwrap_or_else(|e| panic!("export {}: {e}", checkpoint.display()));
                    return;
                }
            )*
        }};
    }
    games::registered!(by_game);
    panic!("{}: not a registered game's checkpoint", checkpoint.display());
}

// ---------------------------------------------------------------------------------------------
// The header.

/// Braces as characters (written so that no brace counter takes them for a block).
const OPEN: char = '\x7b';
const CLOSE: char = '\x7d';

/// `rust` (a parameter or return type in the Rust source) as C writes it, spaced one way.
fn c_type(rust: &str) -> String {
    let rust = rust.trim();
    for (prefix, constant) in [("*const ", true), ("*mut ", false)] {
        if let Some(rest) = rust.strip_prefix(prefix) {
            let inner = c_type(rest);
            return if inner.ends_with('*') {
                assert!(!constant, "`{rust}`: a const pointer to a pointer is not written here");
                format!("{inner}*")
            } else {
                format!("{}{inner} *", if constant { "const " } else { "" })
            };
        }
    }
    match rust {
        "c_char" => "char",
        "f32" => "float",
        "i32" => "int32_t",
        "u32" => "uint32_t",
        "u64" => "uint64_t",
        "usize" => "size_t",
        "SabaccGame" | "SabaccPolicy" => rust,
        other => panic!("no C type is known for `{other}`: add it to this table and the header"),
    }
    .to_string()
}

/// One C type, spaced one way.
fn norm(c: &str) -> String {
    c.replace('*', " * ").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `name(type name, …) -> type` of each exported function in the Rust source.
fn rust_declarations(source: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for part in source.split("#[unsafe(no_mangle)]").skip(1) {
        let start = part.find(" fn ").expect("a function follows no_mangle") + 4;
        let open = start + part[start..].find('(').unwrap();
        let close = open + part[open..].find(')').unwrap();
        let name = part[start..open].trim().to_string();
        let params: Vec<String> = part[open + 1..close]
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                let (n, t) = p.split_once(':').unwrap();
                format!("{} {}", norm(&c_type(t)), n.trim())
            })
            .collect();
        let ret = part[close + 1..part[close..].find(OPEN).unwrap() + close].trim();
        let ret = ret.strip_prefix("->").map_or("void".to_string(), c_type);
        let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
        out.insert(name.clone(), format!("{} {name}({params})", norm(&ret)));
    }
    out
}

/// The same of each function the header declares.
fn header_declarations(header: &str) -> BTreeMap<String, String> {
    let mut code = String::new();
    let mut rest = header;
    while let Some(i) = rest.find("/*") {
        code.push_str(&rest[..i]);
        rest = &rest[i + rest[i..].find("*/").unwrap() + 2..];
    }
    code.push_str(rest);
    let code: String = code.lines().filter(|l| !l.trim_start().starts_with('#')).collect::<Vec<_>>().join(" ");
    let mut out = BTreeMap::new();
    for decl in code.split(';') {
        // What follows the last brace (of `extern "C"` in C++) is the declaration.
        let decl = decl.rsplit([OPEN, CLOSE]).next().unwrap().trim();
        let Some(open) = decl.find('(') else { continue };
        if decl.starts_with("typedef") {
            continue;
        }
        let head = norm(&decl[..open]);
        let (ret, name) = head.rsplit_once(' ').unwrap();
        let params: Vec<String> = decl[open + 1..decl.rfind(')').unwrap()]
            .split(',')
            .map(|p| {
                let p = norm(p);
                match p.rsplit_once(' ') {
                    Some((t, n)) if p != "void" => format!("{} {n}", norm(t)),
                    _ => p,
                }
            })
            .collect();
        out.insert(name.to_string(), format!("{ret} {name}({})", params.join(", ")));
    }
    out
}

/// `NAME value` of each `pub const SABACC_*: i32` or `#define SABACC_* value`.
fn constants(text: &str, rust: bool) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            if rust {
                let rest = l.strip_prefix("pub const SABACC_")?;
                let (name, value) = rest.split_once(": i32 = ")?;
                Some((format!("SABACC_{name}"), value.trim_end_matches(';').to_string()))
            } else {
                let rest = l.strip_prefix("#define SABACC_")?;
                let mut words = rest.split_whitespace();
                let name = words.next()?;
                if name == "H" {
                    return None;
                }
                Some((format!("SABACC_{name}"), words.next()?.to_string()))
            }
        })
        .collect()
}

#[test]
fn the_header_declares_exactly_what_the_library_exports() {
    let source = std::fs::read_to_string(Path::new(CRATE).join("src/lib.rs")).unwrap();
    let header = std::fs::read_to_string(Path::new(CRATE).join("include/sabacc.h")).unwrap();
    let (rust, c) = (rust_declarations(&source), header_declarations(&header));
    assert!(rust.len() > 30, "{rust:?}");
    for (name, decl) in &rust {
        assert_eq!(c.get(name), Some(decl), "include/sabacc.h must declare `{decl};`");
    }
    for name in c.keys() {
        assert!(rust.contains_key(name), "include/sabacc.h declares `{name}`, which the library does not export");
    }
    let consts = constants(&source, true);
    assert_eq!(consts.len(), 6);
    assert_eq!(constants(&header, false), consts, "the statuses of include/sabacc.h and src/lib.rs");
}

// ---------------------------------------------------------------------------------------------
// Parity with the Rust environment.

/// One game of a reference file: its rows (observation and mask bits) and its states.
struct Recorded<'a> {
    rows: Vec<(Vec<u32>, Vec<u32>)>,
    states: BTreeMap<usize, &'a policy::export::StateSample>,
}

struct Replay<'a> {
    game: &'a Recorded<'a>,
    last: usize,
    nodes: usize,
    checked: usize,
}

const NODE_LIMIT: usize = 2_000_000;

impl Replay<'_> {
    /// Whether a line of play from `g` (at `decision`) reproduces the recording; a state whose
    /// views are the recorded ones must then match in every observation, mask and the engine's
    /// state, or the test fails.
    fn search(&mut self, g: &G, decision: usize) -> bool {
        self.nodes += 1;
        assert!(self.nodes <= NODE_LIMIT, "no replay found within {NODE_LIMIT} positions");
        if decision.is_multiple_of(2)
            && let Some((obs, mask)) = self.game.rows.get(decision / 2)
        {
            let Some(actor) = g.actor() else { return false };
            if g.mask(-1) != *mask || g.observation(actor) != *obs {
                return false;
            }
        }
        if let Some(state) = self.game.states.get(&decision) {
            if !state.seats.iter().all(|s| g.view(u32::from(s.seat)) == s.view) {
                return false;
            }
            self.check_state(g, state, decision);
        }
        if decision == self.last {
            return true;
        }
        for a in g.legal() {
            let next = g.clone();
            next.apply(a);
            if self.search(&next, decision + 1) {
                return true;
            }
        }
        false
    }

    fn check_state(&mut self, g: &G, state: &policy::export::StateSample, decision: usize) {
        let at = format!("game {}, decision {decision}", state.game_seed);
        assert_eq!(g.actor().map(|a| a as u8), state.actor, "{at}: the seat to act");
        let legal: Vec<usize> = g.legal().into_iter().map(|a| a as usize).collect();
        assert_eq!(legal, state.legal, "{at}: legal actions");
        assert_eq!(g.state_json(), state.state_json, "{at}: the engine's state");
        let actions = g.sizes().1;
        for s in &state.seats {
            assert_eq!(g.observation(u32::from(s.seat)), bits(&s.obs), "{at}, seat {}: observation", s.seat);
            let expected: Vec<f32> = (0..actions)
                .map(|a| if state.actor == Some(s.seat) && state.legal.contains(&a) { 1.0 } else { 0.0 })
                .collect();
            assert_eq!(g.mask(i32::from(s.seat)), bits(&expected), "{at}, seat {}: mask", s.seat);
        }
        self.checked += 1;
    }
}

#[test]
fn observations_and_masks_equal_the_rust_environment_on_every_reference_state_of_every_game() {
    let ids: Vec<&str> = bundles().iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, sabacc_kit::game_ids(), "a bundle of every registered game (a shipped checkpoint of each)");
    for (id, dir) in bundles() {
        let contract: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("contract.json")).unwrap()).unwrap();
        let reference: policy::export::Reference =
            serde_json::from_str(&std::fs::read_to_string(dir.join("reference.json")).unwrap()).unwrap();
        let config = &contract["game"]["config"];
        let rows = &reference.rows;
        let mut games: Vec<(u64, Recorded)> = Vec::new();
        let index = |seed: u64, games: &mut Vec<(u64, Recorded)>| match games.iter().position(|(s, _)| *s == seed) {
            Some(i) => i,
            None => {
                games.push((seed, Recorded { rows: Vec::new(), states: BTreeMap::new() }));
                games.len() - 1
            }
        };
        for i in 0..rows.count {
            let k = index(rows.game_seed[i], &mut games);
            let mask: Vec<f32> = rows.mask[i].iter().map(|&m| f32::from(m)).collect();
            games[k].1.rows.push((bits(&rows.obs[i]), bits(&mask)));
        }
        for s in &reference.states {
            let k = index(s.game_seed, &mut games);
            games[k].1.states.insert(s.decision, s);
        }
        let (mut nodes, mut checked) = (0, 0);
        for (seed, recorded) in &games {
            let last =
                recorded.states.keys().copied().chain([2 * recorded.rows.len().saturating_sub(1)]).max().unwrap();
            let g = G::new(id, Some(&config["rules"]), 0, *seed);
            ok(unsafe { sabacc_game_set_event_logging(g.0, i32::from(config["event_log"] == true)) });
            let mut replay = Replay { game: recorded, last, nodes: 0, checked: 0 };
            assert!(replay.search(&g, 0), "{id}: game {seed}: no line of play reproduces the recorded rows");
            assert_eq!(replay.checked, recorded.states.len());
            nodes += replay.nodes;
            checked += replay.checked;
        }
        assert_eq!(checked, reference.states.len());
        println!(
            "{id}: {} rows of {} games and {checked} states equal bit for bit ({nodes} positions)",
            rows.count,
            games.len()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Refusals and play.

#[test]
fn bad_arguments_are_statuses_with_messages_never_panics() {
    let mut g = ptr::null_mut();
    let status = unsafe { sabacc_game_new(c("chess").as_ptr(), ptr::null(), 0, 0, &mut g) };
    assert_eq!(status, SABACC_INVALID);
    assert!(g.is_null() && last_error().contains("kessel"), "{}", last_error());
    let status = unsafe { sabacc_game_new(ptr::null(), ptr::null(), 0, 0, &mut g) };
    assert_eq!((status, last_error().as_str()), (SABACC_NULL_ARGUMENT, "game is null"));
    let status = unsafe { sabacc_game_new(c("kessel").as_ptr(), c("[nope").as_ptr(), 0, 0, &mut g) };
    assert!(status == SABACC_INVALID && last_error().contains("rules_json is not JSON"));
    let status = unsafe { sabacc_game_new(c("kessel").as_ptr(), c(r#"{"nope": 1}"#).as_ptr(), 0, 0, &mut g) };
    assert!(status == SABACC_INVALID && last_error().contains("rules.nope"), "{}", last_error());
    assert_eq!(unsafe { sabacc_game_new(c("kessel").as_ptr(), ptr::null(), 9, 0, &mut g) }, SABACC_INVALID);
    assert!(last_error().contains("seats must be a whole number from 2 to 8"), "{}", last_error());
    let bad_utf8 = [0xffu8, 0];
    assert_eq!(unsafe { sabacc_game_new(bad_utf8.as_ptr().cast(), ptr::null(), 0, 0, &mut g) }, SABACC_INVALID);
    assert!(last_error().contains("not UTF-8"));
    assert_eq!(
        unsafe { sabacc_game_new(c("kessel").as_ptr(), ptr::null(), 0, 0, ptr::null_mut()) },
        SABACC_NULL_ARGUMENT
    );
    assert_eq!(unsafe { sabacc_game_apply(ptr::null_mut(), 0) }, SABACC_NULL_ARGUMENT);
    let ids = json_out(|s| unsafe { sabacc_game_ids(s) });
    assert_eq!(ids, serde_json::json!(sabacc_kit::game_ids()));
    let info = json_out(|s| unsafe { sabacc_game_info(c("leduc_holdem_v1").as_ptr(), s) });
    assert_eq!(info["id"], "leduc");
}

#[test]
fn bad_arguments_to_a_game_are_statuses_with_messages_and_change_nothing() {
    let game = G::new("kessel", None, 2, 1);
    let before = game.state_json();
    let (obs_len, actions) = game.sizes();
    let mut short = vec![0f32; obs_len - 1];
    assert_eq!(unsafe { sabacc_game_observation(game.0, 0, short.as_mut_ptr(), short.len()) }, SABACC_BUFFER_TOO_SMALL);
    assert!(last_error().contains(&format!("{obs_len} floats")));
    assert_eq!(unsafe { sabacc_game_observation(game.0, 2, short.as_mut_ptr(), obs_len) }, SABACC_INVALID);
    assert!(last_error().contains("seat must be"), "{}", last_error());
    let mut n = 0;
    assert_eq!(unsafe { sabacc_game_legal_actions(game.0, ptr::null_mut(), 0, &mut n) }, SABACC_BUFFER_TOO_SMALL);
    assert_eq!(n, game.legal().len());
    let illegal = (0..actions as u32).find(|a| !game.legal().contains(a)).unwrap();
    assert_eq!(unsafe { sabacc_game_apply(game.0, illegal) }, SABACC_INVALID);
    assert!(last_error().contains("not legal here"), "{}", last_error());
    assert_eq!(unsafe { sabacc_game_apply_named(game.0, c("fly").as_ptr()) }, SABACC_INVALID);
    let mut s = ptr::null_mut();
    for seat in [-2, 2] {
        assert_eq!(unsafe { sabacc_game_render(game.0, seat, &mut s) }, SABACC_INVALID);
        assert_eq!(unsafe { sabacc_game_events(game.0, seat, 0, &mut s) }, SABACC_INVALID);
    }
    assert_eq!(unsafe { sabacc_game_events(game.0, -1, 1 << 40, &mut s) }, SABACC_INVALID);
    assert_eq!(unsafe { sabacc_game_outcome(game.0, c("points").as_ptr(), &mut s) }, SABACC_INVALID);
    let mut name = ptr::null();
    assert_eq!(unsafe { sabacc_game_action_name(game.0, actions as u32, &mut name) }, SABACC_INVALID);
    ok(unsafe { sabacc_game_action_name(game.0, 0, &mut name) });
    let mut back = u32::MAX;
    ok(unsafe { sabacc_game_action_index(game.0, name, &mut back) });
    assert_eq!(back, 0);
    assert!(s.is_null(), "nothing is written on a refusal");
    assert_eq!(game.state_json(), before, "a refused call changes nothing");
}

#[test]
fn a_bundle_plays_whole_games_and_a_bundle_of_another_game_is_refused() {
    for (id, dir) in bundles() {
        let dir_c = c(dir.to_str().unwrap());
        let mut p = ptr::null_mut();
        ok(unsafe { sabacc_policy_load(c(id).as_ptr(), dir_c.as_ptr(), c("sample").as_ptr(), 5, &mut p) });
        let describe = json_out(|s| unsafe { sabacc_policy_describe(p, s) });
        assert_eq!(describe["game"], id.as_str());
        let g = G::new(id, None, 0, 3);
        let mut players = 0;
        ok(unsafe { sabacc_game_players(g.0, &mut players) });
        assert!(players >= 2);
        while !g.is_over() {
            let mut a = u32::MAX;
            ok(unsafe { sabacc_policy_act(p, g.0, &mut a) });
            assert!(g.legal().contains(&a));
            g.apply(a);
        }
        let outcome = json_out(|s| unsafe { sabacc_game_outcome(g.0, ptr::null(), s) });
        assert_eq!(outcome["over"], true);
        let mut a = 0;
        assert_eq!(unsafe { sabacc_policy_act(p, g.0, &mut a) }, SABACC_INVALID);
        assert!(last_error().contains("the game is over"));
        for (other, _) in bundles().iter().filter(|(o, _)| o != id) {
            let og = G::new(other, None, 0, 0);
            assert_eq!(unsafe { sabacc_policy_act(p, og.0, &mut a) }, SABACC_INVALID);
            let mut q = ptr::null_mut();
            let status = unsafe { sabacc_policy_load(c(other).as_ptr(), dir_c.as_ptr(), ptr::null(), 0, &mut q) };
            assert_eq!(status, SABACC_LOAD_FAILED, "{id}'s bundle loaded for {other}");
            assert!(q.is_null() && last_error().contains("a network only plays the game it was trained on"));
        }
        let status = unsafe { sabacc_policy_load(c(id).as_ptr(), dir_c.as_ptr(), c("best").as_ptr(), 0, &mut p) };
        assert_eq!(status, SABACC_INVALID);
        let status = unsafe { sabacc_policy_load(c(id).as_ptr(), dir_c.as_ptr(), c("level").as_ptr(), 0, &mut p) };
        assert_eq!(status, SABACC_LOAD_FAILED, "a bundle without a level section: {}", last_error());
        unsafe { sabacc_policy_free(p) };
    }
    let mut p = ptr::null_mut();
    let status = unsafe { sabacc_policy_load(c("kessel").as_ptr(), c(CRATE).as_ptr(), ptr::null(), 0, &mut p) };
    assert_eq!(status, SABACC_LOAD_FAILED);
    assert!(p.is_null());
}
