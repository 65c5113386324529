//! Value parsers for the numeric arguments of every verb, so that a bad number (negative,
//! `nan`, too large) gets a message with the accepted range instead of clap's "unexpected
//! argument '-1'" or a hang.

use std::fmt::Display;

/// Most games one `simulate` or `eval` invocation may play: days of work at today's speeds,
/// and far from the counters' limits.
pub const MAX_GAMES: u64 = 1_000_000_000_000;
/// Most games one `eval` may play: the arena keeps every game's record for its statistics
/// (intervals, ratings, head-to-head), so memory grows with the count.
pub const MAX_EVAL_GAMES: u64 = 10_000_000;
/// Longest a benchmark may measure, in seconds (one day).
pub const MAX_SECONDS: f64 = 86_400.0;
/// Most worker threads `eval --threads` accepts.
pub const MAX_THREADS: u64 = 1024;

/// A parser for integers in `lo..=hi`; the message names the range. Parsed through `i128` so
/// negative and over-long numbers get the same message as other out-of-range values.
pub fn int_in<T>(lo: u64, hi: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Display + Clone + Send + Sync + 'static,
{
    move |s: &str| {
        let range = format!("the accepted range {lo}..={hi}");
        let v: i128 =
            s.trim().replace('_', "").parse().map_err(|_| format!("`{s}` is not a whole number in {range}"))?;
        if v < lo as i128 || v > hi as i128 {
            return Err(format!("{v} is outside {range}"));
        }
        T::try_from(v as u64).map_err(|_| format!("{v} is outside {range}"))
    }
}

/// The rules of game `G` from `--rules FILE` (a JSON rule config of that game; fields not given
/// take their defaults), found from any folder as every file a command takes
/// ([`agents::shipped::input`]), or the defaults when no file is given.
pub fn read_rules<G: env::Game>(path: Option<&std::path::Path>) -> anyhow::Result<G::Rules> {
    let Some(given) = path else { return Ok(G::Rules::default()) };
    let p = agents::shipped::input(given, "--rules")?;
    let text = std::fs::read_to_string(&p).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))?;
    serde_json::from_str::<G::Rules>(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))
}

/// The parser of `--game`: a registered game's short name (`kessel`, the default everywhere,
/// `classic`, `leduc`: the registry's list), listed in `--help`. `train` and `export` read the
/// game from the config or the checkpoint instead; on `play` and `serve` it is the game the page
/// offers first, and the page deals any.
pub fn game() -> impl clap::builder::TypedValueParser<Value = games::GameId> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(games::GameId::names())
        .map(|name| games::GameId::parse(&name).expect("the possible values are the registered games' names"))
}

/// A parser for a duration in seconds: a finite number in (0, [`MAX_SECONDS`]].
pub fn seconds(s: &str) -> Result<f64, String> {
    let range = format!("the accepted range (0, {MAX_SECONDS}] (a finite number of seconds)");
    let v: f64 = s.trim().parse().map_err(|_| format!("`{s}` is not a number in {range}"))?;
    if !(v.is_finite() && v > 0.0 && v <= MAX_SECONDS) {
        return Err(format!("{v} is outside {range}"));
    }
    Ok(v)
}

/// A parser for a rate: a finite number in [0, 1,000,000] (0 switches the limit off).
pub fn non_negative(s: &str) -> Result<f64, String> {
    let range = "the accepted range [0, 1000000] (0: no limit)";
    let v: f64 = s.trim().parse().map_err(|_| format!("`{s}` is not a number in {range}"))?;
    if !(v.is_finite() && (0.0..=1e6).contains(&v)) {
        return Err(format!("{v} is outside {range}"));
    }
    Ok(v)
}

/// A parser for a duration in minutes: a finite number in (0, 1440] (one day).
pub fn minutes(s: &str) -> Result<f64, String> {
    let range = format!("the accepted range (0, {}] (a finite number of minutes)", MAX_SECONDS / 60.0);
    let v: f64 = s.trim().parse().map_err(|_| format!("`{s}` is not a number in {range}"))?;
    if !(v.is_finite() && v > 0.0 && v <= MAX_SECONDS / 60.0) {
        return Err(format!("{v} is outside {range}"));
    }
    Ok(v)
}
