//! Errors crossing into Python: environment, game and spec errors become `ValueError`, and no
//! Rust panic ever unwinds into the interpreter.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// An environment error (illegal action, finished game, bad rules) as a `ValueError`.
pub fn env_error(e: env::EnvError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A game's refusal (rules, action, scenario) as a `ValueError` whose message starts with what
/// was refused (`rules.`, `scenario: `), so the caller knows which argument to fix.
pub fn game_error(what: &str, e: game::GameError) -> PyErr {
    PyValueError::new_err(format!("{what}{e}"))
}

/// Runs `f`, turning a panic into a `RuntimeError` that says it is a bug, so a defect in the
/// engine surfaces as an exception the caller can report instead of a `PanicException`.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(PyRuntimeError::new_err(format!("internal error in kessel_sabacc (please report it): {msg}")))
        }
    }
}
