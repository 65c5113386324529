//! Finding weights that hold NaN or infinities: such a network plays nonsense (every masked
//! logit NaN) and, resumed, trains nothing, so the checkpoint loader refuses them. This module
//! only finds them; the loader owns the error.

use crate::model::ActorCritic;
use burn::module::{Module, ModuleVisitor, Param};
use burn::tensor::Tensor;

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

/// The first parameter of a model that holds non-finite values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NonFinite {
    /// The parameter's path in the module (`network` for a top-level one).
    pub parameter: String,
    /// How many of its values are NaN or infinite.
    pub count: usize,
}

/// The first parameter of `model` holding NaN or infinite values, if any.
pub(crate) fn first_non_finite(model: &ActorCritic) -> Option<NonFinite> {
    let mut check = FiniteCheck::default();
    model.visit(&mut check);
    check.first_bad.map(|(parameter, count)| NonFinite { parameter, count })
}
