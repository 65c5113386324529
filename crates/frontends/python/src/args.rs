//! Checking and converting Python arguments: seeds, actions, rules, reward modes. Each error
//! names the argument and what it accepts.

use crate::games::{PyGame, table_size};
use kessel::RuleConfig;
use env::{Classic, Game as _, Kessel, RewardMode};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};

/// A seed: a Python `int` (or numpy integer) in `0..2**64`.
pub fn seed(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!("{name} must be an int in 0..2**64, got {}", obj.get_type().name()?)));
    }
    let index = obj.call_method0("__index__").map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be an int in 0..2**64, got {}",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))
    })?;
    index.extract::<u64>().map_err(|_| PyValueError::new_err(format!("{name} must be an int in 0..2**64, got {index}")))
}

/// An optional seed (`None` allowed).
pub fn opt_seed(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<u64>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => seed(o, name).map(Some),
    }
}

/// One action index: a Python `int` or numpy integer (never a bool or a float), in
/// `0..NUM_ACTIONS`. Legality is the environment's check.
pub fn action(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    action_for::<Kessel>(obj)
}

/// One action index of game `G` (as [`action`]), in `0..G::SPEC.num_actions`.
pub fn action_for<G: PyGame>(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let n = G::SPEC.num_actions;
    if obj.is_none() {
        return Err(PyTypeError::new_err(format!(
            "action must be an int in 0..{n}, got None (None is only for agents whose game is over)"
        )));
    }
    let type_err = || {
        PyTypeError::new_err(format!(
            "action must be an int in 0..{n}, got {}",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))
    };
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyString>() {
        return Err(type_err());
    }
    let value: i64 = if obj.is_instance_of::<PyInt>() {
        obj.extract().map_err(|_| PyValueError::new_err(format!("action {obj} is out of range 0..{n}")))?
    } else {
        // numpy integer scalars and 0-d integer arrays implement __index__; floats do not.
        let index = obj.call_method0("__index__").map_err(|_| type_err())?;
        index.extract().map_err(|_| PyValueError::new_err(format!("action {obj} is out of range 0..{n}")))?
    };
    if !(0..n as i64).contains(&value) {
        return Err(PyValueError::new_err(format!(
            "action {value} is out of range 0..{n} (kessel_sabacc.{}() lists them)",
            G::ACTION_NAMES_FN
        )));
    }
    Ok(value as usize)
}

/// A batch of `n` action indices from a 1-d numpy array (or anything `numpy.asarray` accepts)
/// of an integer dtype, or of a float dtype holding whole numbers. NaN, infinities, fractions,
/// negative or out-of-range values are `ValueError`s naming the row; booleans and other dtypes
/// are `TypeError`s.
pub fn actions(obj: &Bound<'_, PyAny>, n: usize, out: &mut Vec<usize>) -> PyResult<()> {
    actions_for(obj, n, crate::SPEC.num_actions, out)
}

/// [`actions`] for a game of `num_actions` actions.
pub fn actions_for(obj: &Bound<'_, PyAny>, n: usize, num_actions: usize, out: &mut Vec<usize>) -> PyResult<()> {
    out.clear();
    if let Ok(a) = obj.cast::<PyArray1<i64>>() {
        let ro = a.readonly();
        let s = ro.as_slice().map_err(|_| PyValueError::new_err("actions must be a contiguous 1-d array"))?;
        return fill_ints(s.iter().copied(), s.len(), n, num_actions, out);
    }
    let np = obj.py().import("numpy")?;
    let arr = np.call_method1("asarray", (obj,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(PyValueError::new_err(format!("actions must be a 1-d array of {n} ints, got {ndim} dimensions")));
    }
    match kind.as_str() {
        "i" | "u" => {
            let a = np.call_method1("ascontiguousarray", (arr, "int64"))?;
            let a = a.cast::<PyArray1<i64>>()?;
            let ro = a.readonly();
            let s = ro.as_slice().map_err(|_| PyValueError::new_err("actions must be a contiguous 1-d array"))?;
            fill_ints(s.iter().copied(), s.len(), n, num_actions, out)
        }
        "f" => {
            let a = np.call_method1("ascontiguousarray", (arr, "float64"))?;
            let a = a.cast::<PyArray1<f64>>()?;
            let ro = a.readonly();
            let s = ro.as_slice().map_err(|_| PyValueError::new_err("actions must be a contiguous 1-d array"))?;
            if s.len() != n {
                return Err(PyValueError::new_err(format!(
                    "expected {n} actions (one per environment), got {}",
                    s.len()
                )));
            }
            for (i, &x) in s.iter().enumerate() {
                if x.is_nan() {
                    return Err(PyValueError::new_err(format!(
                        "actions[{i}] is NaN; actions are ints in 0..{num_actions}"
                    )));
                }
                if x.fract() != 0.0 || !(0.0..num_actions as f64).contains(&x) {
                    return Err(PyValueError::new_err(format!(
                        "actions[{i}] = {x} is not an action index (ints in 0..{num_actions})"
                    )));
                }
                out.push(x as usize);
            }
            Ok(())
        }
        _ => Err(PyTypeError::new_err(format!(
            "actions must be an integer array, got dtype {}",
            arr.getattr("dtype")?.str()?
        ))),
    }
}

fn fill_ints(
    values: impl Iterator<Item = i64>,
    len: usize,
    n: usize,
    num_actions: usize,
    out: &mut Vec<usize>,
) -> PyResult<()> {
    if len != n {
        return Err(PyValueError::new_err(format!("expected {n} actions (one per environment), got {len}")));
    }
    for (i, x) in values.enumerate() {
        if !(0..num_actions as i64).contains(&x) {
            return Err(PyValueError::new_err(format!("actions[{i}] = {x} is out of range 0..{num_actions}")));
        }
        out.push(x as usize);
    }
    Ok(())
}

/// The rules: `None` (defaults), a dict, or a JSON object string, with the engine's field
/// names (`starting_chips`, `round_limit`, …; docs/rules.md, K9). `players` is set from
/// `num_players`; a different `players` in `rules` is an error.
pub fn rules(obj: Option<&Bound<'_, PyAny>>, num_players: i64) -> PyResult<RuleConfig> {
    rules_for::<Kessel>(obj, num_players)
}

/// Game `G`'s rules, as [`rules`]: its own field names (classic Sabacc's in
/// docs/rules-classic.md, C9); a field of another game's rules is refused, naming it.
pub fn rules_for<G: PyGame>(obj: Option<&Bound<'_, PyAny>>, num_players: i64) -> PyResult<G::Rules> {
    let players = table_size(num_players)?;
    let mut cfg = match obj {
        None => G::rules_with_players(players),
        Some(o) if o.is_none() => G::rules_with_players(players),
        Some(o) => {
            let text: String = if o.is_instance_of::<PyString>() {
                o.extract()?
            } else if o.is_instance_of::<PyDict>() {
                o.py().import("json")?.call_method1("dumps", (o,))?.extract()?
            } else {
                return Err(PyTypeError::new_err(format!(
                    "rules must be a dict or a JSON string, got {}",
                    o.get_type().name()?
                )));
            };
            let de = &mut serde_json::Deserializer::from_str(&text);
            let cfg: G::Rules = serde_path_to_error::deserialize(de).map_err(|e| {
                let path = e.path().to_string();
                PyValueError::new_err(format!("rules.{path}: {}", e.into_inner()))
            })?;
            if text.contains("\"players\"") && G::players(&cfg) != players {
                return Err(PyValueError::new_err(format!(
                    "rules.players = {} but num_players = {players}; give the table size once",
                    G::players(&cfg)
                )));
            }
            cfg
        }
    };
    G::set_players(&mut cfg, players);
    G::validate(&cfg).map_err(|e| PyValueError::new_err(format!("rules.{e}")))?;
    Ok(cfg)
}

/// The reward convention: `"win-loss"` (default) or `"placement"`.
pub fn reward(name: &str) -> PyResult<RewardMode> {
    match name {
        "win-loss" | "win_loss" => Ok(RewardMode::WinLoss),
        "placement" => Ok(RewardMode::Placement),
        _ => Err(PyValueError::new_err(format!("reward must be \"win-loss\" or \"placement\", got {name:?}"))),
    }
}

/// The documented name of every action index, `stand`, `draw:sand-deck`, … (`NUM_ACTIONS` of
/// them).
#[pyfunction]
pub fn action_names() -> Vec<&'static str> {
    (0..crate::SPEC.num_actions).map(env::action_name).collect()
}

/// The game seed of episode `episode` of environment `env_index` in a vector env built from
/// `base`: the same derivation the Rust `VecEnv` uses.
#[pyfunction]
pub fn episode_seed(base: u64, env_index: u64, episode: u64) -> u64 {
    env::seed::episode_seed(base, env_index, episode)
}

/// Upper bounds of every observation value at a table of `num_players` (lower bounds are 0):
/// 1 everywhere except chip ratios, which are at most the table's chips over a seat's start.
#[pyfunction]
pub fn observation_high(num_players: u8) -> Vec<f32> {
    Kessel::observation_bounds(num_players).1
}

/// The documented name of every classic Sabacc action index, `check`, `bet:1`, `draw`, …
/// (`CLASSIC_NUM_ACTIONS` of them).
#[pyfunction]
pub fn classic_action_names() -> Vec<&'static str> {
    (0..Classic::SPEC.num_actions).map(Classic::action_name).collect()
}

/// Lower bounds of every classic Sabacc observation value at a table of `num_players`: the
/// documented ranges of `docs/observation-classic.md` (card values and totals may be negative).
#[pyfunction]
pub fn classic_observation_low(num_players: i64) -> PyResult<Vec<f32>> {
    Ok(Classic::observation_bounds(table_size(num_players)?).0)
}

/// Upper bounds of every classic Sabacc observation value at a table of `num_players`: the
/// documented ranges, credit ratios at most the table size.
#[pyfunction]
pub fn classic_observation_high(num_players: i64) -> PyResult<Vec<f32>> {
    Ok(Classic::observation_bounds(table_size(num_players)?).1)
}
