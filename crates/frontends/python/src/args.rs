//! Checking and converting Python arguments: seeds, actions, rules, reward modes. Each error
//! names the argument and what it accepts.

use crate::errors::game_error;
use crate::games::table_size;
use game::{Game, RewardMode};
use games::GameId;
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

/// One action index of `game`: a Python `int` or numpy integer (never a bool or a float), in
/// `0..num_actions`. Legality is the game's check.
pub fn action(obj: &Bound<'_, PyAny>, game: GameId) -> PyResult<usize> {
    let n = game.spec().num_actions;
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
            "action {value} is out of range 0..{n} (kessel_sabacc.action_names(\"{}\") lists them)",
            game.name()
        )));
    }
    Ok(value as usize)
}

/// A batch of `n` action indices in `0..num_actions` from a 1-d numpy array (or anything
/// `numpy.asarray` accepts) of an integer dtype, or of a float dtype holding whole numbers. NaN,
/// infinities, fractions, negative or out-of-range values are `ValueError`s naming the row;
/// booleans and other dtypes are `TypeError`s.
pub fn actions(obj: &Bound<'_, PyAny>, n: usize, num_actions: usize, out: &mut Vec<usize>) -> PyResult<()> {
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

/// Game `G`'s rules: `None` (defaults), a dict, or a JSON object string with the game's field
/// names (Kessel's in docs/rules.md, K9; classic Sabacc's in docs/rules-classic.md, C9); a field
/// of another game's rules is refused, naming it. The table size is `num_players` when given
/// (a different `players` in `rules` is an error), else the rules' own, else the game's default.
pub fn rules<G: Game>(obj: Option<&Bound<'_, PyAny>>, num_players: Option<i64>) -> PyResult<G::Rules> {
    let given = num_players.map(|n| table_size(G::SEATS, n)).transpose()?;
    let mut cfg = match obj {
        Some(o) if !o.is_none() => {
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
            if let Some(players) = given.filter(|&p| text.contains("\"players\"") && G::players(&cfg) != p) {
                return Err(PyValueError::new_err(format!(
                    "rules.players = {} but num_players = {players}; give the table size once",
                    G::players(&cfg)
                )));
            }
            cfg
        }
        _ => G::rules_with_players(given.unwrap_or_else(|| G::players(&G::Rules::default()))),
    };
    let players = match given {
        Some(p) => p,
        None => table_size(G::SEATS, i64::from(G::players(&cfg)))?,
    };
    G::set_players(&mut cfg, players);
    // Dealing checks every rule's range; the message starts with the field's name.
    G::new_state(&cfg, 0).map_err(|e| game_error("rules.", e))?;
    Ok(cfg)
}

/// The reward convention: `"win-loss"`, `"placement"` or `"payoff"`; `None` is the game's own
/// default (`default`).
pub fn reward(name: Option<&str>, default: RewardMode) -> PyResult<RewardMode> {
    let Some(name) = name else { return Ok(default) };
    serde_json::from_value(serde_json::Value::from(name.replace('_', "-"))).map_err(|_| {
        PyValueError::new_err(format!(
            "reward must be \"win-loss\", \"placement\" or \"payoff\" (or None for the game's default), got {name:?}"
        ))
    })
}
