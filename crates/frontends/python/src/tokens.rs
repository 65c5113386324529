//! The token-value study from Python (`sabacc tokens value`): the whole study, one shard of its
//! deals, and the merge of shards into the single run's report, for spreading the study over
//! processes or machines ([`research::value`]). Shift Tokens are Kessel Sabacc's, so this module
//! alone names a game.

use crate::agents::factory;
use crate::args;
use crate::errors::guard;
use crate::vector::build_pool;
use games::kessel::Kessel;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use research::value::{self, Baseline, ValueConfig, ValueShard};

/// The arguments that say which study is run ([`token_values`], [`token_values_shard`],
/// [`token_values_merge`]).
struct Study<'a, 'py> {
    agents: Vec<String>,
    focal: Option<Vec<String>>,
    tokens: &'a Bound<'py, PyAny>,
    players: i64,
    deals: u64,
    seed: Option<&'a Bound<'py, PyAny>>,
    baseline: &'a str,
    rules: Option<&'a Bound<'py, PyAny>>,
}

fn settings_error(e: research::ResearchError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The study's settings from the arguments, checked as `sabacc tokens value` checks them.
fn config(s: Study<'_, '_>) -> PyResult<ValueConfig> {
    let rules = args::rules::<Kessel>(s.rules, Some(s.players))?;
    // `tokens`: "all", names joined by commas, or a list of names.
    let tokens = if s.tokens.is_instance_of::<PyString>() {
        s.tokens.extract::<String>()?
    } else {
        s.tokens
            .extract::<Vec<String>>()
            .map_err(|_| {
                PyTypeError::new_err("tokens must be \"all\", a comma-separated string or a list of token names")
            })?
            .join(",")
    };
    let focal = s.focal.unwrap_or_else(|| eval::arena::agent_names(&s.agents));
    let cfg = ValueConfig {
        players: rules.players,
        tokens: value::parse_tokens(&tokens, &rules).map_err(settings_error)?,
        baseline: Baseline::parse(s.baseline).map_err(settings_error)?,
        agents: s.agents,
        focal,
        deals: s.deals,
        seed: args::opt_seed(s.seed, "seed")?.unwrap_or(0),
        rules,
    };
    value::check(&cfg).map_err(settings_error)?;
    Ok(cfg)
}

/// Runs the study, or only the deals `deals`, on `num_threads` threads (default: all cores) with
/// the GIL released.
fn play(
    py: Python<'_>,
    cfg: &ValueConfig,
    num_threads: Option<usize>,
    deals: std::ops::Range<u64>,
) -> PyResult<ValueShard> {
    let factory = factory();
    let pool = build_pool(num_threads)?;
    let run = || value::run_deals(cfg, factory, &|| {}, deals.clone());
    guard(|| {
        Ok(py.detach(|| match &pool {
            Some(p) => p.install(run),
            None => run(),
        }))
    })?
    .map_err(settings_error)
}

/// A report or shard as JSON text.
fn json(text: serde_json::Result<String>) -> PyResult<String> {
    text.map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Runs the token-value study (`sabacc tokens value`): for each focal agent and token, `deals`
/// paired deals with and without the token against `agents` (cycled over the other seats);
/// returns the report (the fields of `value.json`) as JSON text.
#[pyfunction]
#[pyo3(signature = (agents, focal=None, tokens=None, players=4, deals=2000, seed=None, baseline="removed", rules=None, num_threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn token_values(
    py: Python<'_>,
    agents: Vec<String>,
    focal: Option<Vec<String>>,
    tokens: Option<&Bound<'_, PyAny>>,
    players: i64,
    deals: u64,
    seed: Option<&Bound<'_, PyAny>>,
    baseline: &str,
    rules: Option<&Bound<'_, PyAny>>,
    num_threads: Option<usize>,
) -> PyResult<String> {
    let all = PyString::new(py, "all").into_any();
    let tokens = tokens.unwrap_or(&all);
    let cfg = config(Study { agents, focal, tokens, players, deals, seed, baseline, rules })?;
    let shard = play(py, &cfg, num_threads, 0..cfg.deals)?;
    json(serde_json::to_string(&value::finish(&shard).map_err(settings_error)?))
}

/// Plays the deals `deal_range = (start, end)` (clamped to `0..deals`) of the study
/// [`token_values`] runs with the same arguments and returns that shard's pairs of games as JSON
/// text (for [`token_values_merge`]): the pieces of one study spread over processes or machines.
/// An empty range plays nothing but checks every argument and agent.
#[pyfunction]
#[pyo3(signature = (agents, deal_range, focal=None, tokens=None, players=4, deals=2000, seed=None, baseline="removed", rules=None, num_threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn token_values_shard(
    py: Python<'_>,
    agents: Vec<String>,
    deal_range: (u64, u64),
    focal: Option<Vec<String>>,
    tokens: Option<&Bound<'_, PyAny>>,
    players: i64,
    deals: u64,
    seed: Option<&Bound<'_, PyAny>>,
    baseline: &str,
    rules: Option<&Bound<'_, PyAny>>,
    num_threads: Option<usize>,
) -> PyResult<String> {
    let (start, end) = deal_range;
    if start > end {
        return Err(PyValueError::new_err(format!("deal_range: ({start}, {end}) is reversed; give (start, end)")));
    }
    let all = PyString::new(py, "all").into_any();
    let tokens = tokens.unwrap_or(&all);
    let cfg = config(Study { agents, focal, tokens, players, deals, seed, baseline, rules })?;
    json(serde_json::to_string(&play(py, &cfg, num_threads, start..end)?))
}

/// Merges the shards ([`token_values_shard`] JSON texts, in any order) of the study the other
/// arguments describe into its report, equal to [`token_values`]'s when the shards cover every
/// deal once. Shards of other settings are refused, naming the settings that differ.
#[pyfunction]
#[pyo3(signature = (shards, agents, focal=None, tokens=None, players=4, deals=2000, seed=None, baseline="removed", rules=None))]
#[allow(clippy::too_many_arguments)]
pub fn token_values_merge(
    py: Python<'_>,
    shards: Vec<String>,
    agents: Vec<String>,
    focal: Option<Vec<String>>,
    tokens: Option<&Bound<'_, PyAny>>,
    players: i64,
    deals: u64,
    seed: Option<&Bound<'_, PyAny>>,
    baseline: &str,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let all = PyString::new(py, "all").into_any();
    let tokens = tokens.unwrap_or(&all);
    let cfg = config(Study { agents, focal, tokens, players, deals, seed, baseline, rules })?;
    let parts = shards
        .iter()
        .enumerate()
        .map(|(i, s)| {
            serde_json::from_str::<ValueShard>(s)
                .map_err(|e| PyValueError::new_err(format!("shards[{i}] is not a token_values_shard result: {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let merged = value::merge(parts).map_err(settings_error)?;
    let differ = value::differences(&cfg, &merged.settings);
    if !differ.is_empty() {
        return Err(PyValueError::new_err(format!(
            "shards: they were played with other settings than given here ({} differ)",
            differ.join(", ")
        )));
    }
    json(serde_json::to_string(&value::finish(&merged).map_err(settings_error)?))
}
