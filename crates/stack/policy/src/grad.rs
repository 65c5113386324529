//! Optimizer helpers missing from burn 0.22.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param, ParamId};
use burn::optim::GradientsParams;
use burn::tensor::Tensor;

struct SquaredNorm<'a> {
    grads: &'a GradientsParams,
    total: Option<Tensor<1>>,
}

impl ModuleVisitor for SquaredNorm<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.get::<D>(param.id) {
            let sq = g.square().sum();
            self.total = Some(match self.total.take() {
                Some(t) => t + sq,
                None => sq,
            });
        }
    }
}

struct Scale<'a> {
    grads: &'a mut GradientsParams,
    coef: f32,
}

impl ModuleVisitor for Scale<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.remove::<D>(param.id) {
            self.grads.register::<D>(param.id, g.mul_scalar(self.coef));
        }
    }
}

/// Global L2 norm of all of `module`'s gradients in `grads`.
pub fn grad_norm<M: Module>(module: &M, grads: &GradientsParams) -> f32 {
    let mut v = SquaredNorm { grads, total: None };
    module.visit(&mut v);
    match v.total {
        Some(t) => t.into_scalar::<f32>().sqrt(),
        None => 0.0,
    }
}

/// Clips the *global* gradient norm like PyTorch's `clip_grad_norm_` (what CleanRL's
/// `max_grad_norm` does) and returns the norm measured before clipping.
///
/// Exists because burn's built-in `GradientClippingConfig::Norm` clips each parameter tensor
/// separately, which is a different (weaker) constraint. The scale factor is
/// `min(1, max_norm / (norm + 1e-6))`.
pub fn clip_grad_norm<M: Module>(module: &M, mut grads: GradientsParams, max_norm: f32) -> (GradientsParams, f32) {
    let norm = grad_norm(module, &grads);
    let coef = max_norm / (norm + 1e-6);
    if coef < 1.0 {
        module.visit(&mut Scale { grads: &mut grads, coef });
    }
    (grads, norm)
}

/// Gives every float parameter a new identity: the same values as new leaves with gradients on.
struct Fresh;

impl ModuleMapper for Fresh {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        // From the values: the copy shares no autodiff node with the original.
        let value = param.val();
        Param::from_data(value.to_data(), &value.device())
    }
}

/// A copy of `module` whose parameters are new leaves (new ids, the same values, gradients on).
///
/// Why: burn's autodiff keeps graphs that share a node under one lock, and holds it for a whole
/// backward pass; two threads differentiating through the same parameters would take turns. A
/// copy's forward and backward passes build a graph of their own, so a second learner thread can
/// differentiate half a minibatch beside the first ([`combine_grads`] brings its gradients back).
pub fn independent_copy<M: Module>(module: &M) -> M {
    module.clone().map(&mut Fresh)
}

struct Ids(Vec<ParamId>);

impl ModuleVisitor for Ids {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.0.push(param.id);
    }
}

struct Combine<'a> {
    a: &'a mut GradientsParams,
    b: &'a mut GradientsParams,
    b_ids: std::vec::IntoIter<ParamId>,
    wa: f32,
    wb: f32,
}

impl ModuleVisitor for Combine<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let Some(b_id) = self.b_ids.next() else { return };
        let ga = self.a.remove::<D>(param.id);
        let gb = self.b.remove::<D>(b_id);
        let sum = match (ga, gb) {
            (Some(ga), Some(gb)) => Some(ga.mul_scalar(self.wa) + gb.mul_scalar(self.wb)),
            (Some(ga), None) => Some(ga.mul_scalar(self.wa)),
            (None, Some(gb)) => Some(gb.mul_scalar(self.wb)),
            (None, None) => None,
        };
        if let Some(g) = sum {
            self.a.register::<D>(param.id, g);
        }
    }
}

/// `wa · grads_a + wb · grads_b`, keyed by `a`'s parameters, where `b` is an
/// [`independent_copy`] of `a` and `grads_b` its gradients: the two modules list their
/// parameters in the same order, which pairs them.
pub fn combine_grads<M: Module>(
    a: &M,
    mut grads_a: GradientsParams,
    wa: f32,
    b: &M,
    mut grads_b: GradientsParams,
    wb: f32,
) -> GradientsParams {
    let mut ids = Ids(Vec::new());
    b.visit(&mut ids);
    a.visit(&mut Combine { a: &mut grads_a, b: &mut grads_b, b_ids: ids.0.into_iter(), wa, wb });
    grads_a
}
