//! Optimizer helpers missing from burn 0.22.

use burn::module::{Module, ModuleVisitor, Param};
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
