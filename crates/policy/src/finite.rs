//! Refusing weights that hold NaN or infinities: such a network plays nonsense (every masked
//! logit NaN) and, resumed, trains nothing, so a checkpoint holding them is an error at load.

use burn::module::{Module, ModuleVisitor, Param};
use burn::tensor::Tensor;
use std::path::Path;

use crate::checkpoint::CheckpointError;
use crate::model::ActorCritic;

/// Walks every float parameter, remembering the first that holds non-finite values.
#[derive(Default)]
struct FiniteCheck {
    path: Vec<String>,
    first_bad: Option<(String, usize)>,
}

impl ModuleVisitor for FiniteCheck {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.push(name.to_string());
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.pop();
    }

    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if self.first_bad.is_some() {
            return;
        }
        let data = param.val().into_data();
        let count = match data.iter::<f32>().filter(|x| !x.is_finite()).count() {
            0 => return,
            n => n,
        };
        let name = if self.path.is_empty() { "network".to_string() } else { self.path.join(".") };
        self.first_bad = Some((name, count));
    }
}

/// Errors if any weight of `model` (read from `path`) is NaN or infinite.
pub(crate) fn check_finite(model: &ActorCritic, path: &Path) -> Result<(), CheckpointError> {
    let mut check = FiniteCheck::default();
    model.visit(&mut check);
    match check.first_bad {
        Some((parameter, count)) => Err(CheckpointError::NonFinite { path: path.to_path_buf(), parameter, count }),
        None => Ok(()),
    }
}
