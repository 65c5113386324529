//! The network's first layer computed from the observations' nonzero entries, for training.
//!
//! Why: an observation is mostly zeros (about 9 % of Kessel's 654 floats are nonzero), and the
//! first layer of each trunk is most of the network's arithmetic. A dense product multiplies
//! every zero; the rows here are kept as (column, value) pairs, so the first layer's forward pass
//! and its weight gradient cost in proportion to the nonzeros. The input needs no gradient, so
//! nothing else of that layer is computed. The rest of the network runs in burn as before, from
//! the first layer's output, which enters the graph as a leaf; its gradient then gives the first
//! layer's weight and bias gradients ([`FirstLayers::gradients`]). The result is the dense
//! computation's up to the order in which floats are summed.

use burn::nn::Linear;
use burn::optim::GradientsParams;
use burn::tensor::Gradients;
use burn::tensor::{Device, Tensor, TensorData};

use crate::model::ActorCritic;

/// Observation rows in compressed sparse row form: row `r`'s nonzeros are
/// `cols[starts[r]..starts[r + 1]]` with their `values`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SparseRows {
    width: usize,
    starts: Vec<usize>,
    cols: Vec<u32>,
    values: Vec<f32>,
}

impl SparseRows {
    /// The nonzero entries of `rows` row-major rows of `width` floats.
    pub fn from_dense(dense: &[f32], width: usize) -> SparseRows {
        assert!(width > 0 && dense.len().is_multiple_of(width), "{} floats are not rows of {width}", dense.len());
        let mut s = SparseRows { width, starts: vec![0], ..SparseRows::default() };
        for row in dense.chunks_exact(width) {
            for (c, &x) in row.iter().enumerate() {
                if x != 0.0 {
                    s.cols.push(c as u32);
                    s.values.push(x);
                }
            }
            s.starts.push(s.cols.len());
        }
        s
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.starts.len() - 1
    }

    /// Floats per dense row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Nonzero entries in all rows.
    pub fn nonzeros(&self) -> usize {
        self.cols.len()
    }

    /// The rows at `indices`, in that order.
    pub fn select(&self, indices: &[usize]) -> SparseRows {
        let mut s = SparseRows { width: self.width, starts: vec![0], ..SparseRows::default() };
        for &r in indices {
            let span = self.starts[r]..self.starts[r + 1];
            s.cols.extend_from_slice(&self.cols[span.clone()]);
            s.values.extend_from_slice(&self.values[span]);
            s.starts.push(s.cols.len());
        }
        s
    }

    /// Rows `start..start + len`.
    pub fn narrow(&self, start: usize, len: usize) -> SparseRows {
        self.select(&(start..start + len).collect::<Vec<_>>())
    }

    #[inline(always)]
    fn row(&self, r: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let span = self.starts[r]..self.starts[r + 1];
        self.cols[span.clone()].iter().map(|&c| c as usize).zip(self.values[span].iter().copied())
    }

    /// `rows × weight + bias`, row-major, `weight` being `width × out` row-major.
    fn times(&self, weight: &[f32], bias: Option<&[f32]>, out: usize) -> Vec<f32> {
        let mut z = vec![0.0f32; self.rows() * out];
        pulp::Arch::new().dispatch(Times { rows: self, weight, bias, out, z: &mut z });
        z
    }

    /// `rowsᵀ × upstream` (`width × out`), `upstream` being `rows × out` row-major.
    fn transposed_times(&self, upstream: &[f32], out: usize) -> Vec<f32> {
        let mut g = vec![0.0f32; self.width * out];
        pulp::Arch::new().dispatch(TransposedTimes { rows: self, upstream, out, g: &mut g });
        g
    }
}

/// `acc += x · w`, element by element: one fused multiply-add each where the CPU has them.
#[inline(always)]
fn axpy(acc: &mut [f32], x: f32, w: &[f32]) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a = x.mul_add(w, *a);
    }
}

/// The kernels below run through `pulp`'s dispatch, which compiles their bodies (inlined into
/// `with_simd`) once per instruction set and picks the CPU's widest at run time, so the loops
/// vectorise with AVX2 and FMA where they exist and stay correct where they do not.
struct Times<'a> {
    rows: &'a SparseRows,
    weight: &'a [f32],
    bias: Option<&'a [f32]>,
    out: usize,
    z: &'a mut [f32],
}

impl pulp::WithSimd for Times<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let out = self.out;
        for (r, zr) in self.z.chunks_exact_mut(out).enumerate() {
            if let Some(b) = self.bias {
                zr.copy_from_slice(b);
            }
            for (c, x) in self.rows.row(r) {
                axpy(zr, x, &self.weight[c * out..(c + 1) * out]);
            }
        }
    }
}

struct TransposedTimes<'a> {
    rows: &'a SparseRows,
    upstream: &'a [f32],
    out: usize,
    g: &'a mut [f32],
}

impl pulp::WithSimd for TransposedTimes<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let out = self.out;
        for (r, ur) in self.upstream.chunks_exact(out).enumerate() {
            for (c, x) in self.rows.row(r) {
                axpy(&mut self.g[c * out..(c + 1) * out], x, ur);
            }
        }
    }
}

fn host(t: Tensor<2>) -> Vec<f32> {
    t.into_data().try_into_vec_as::<f32>().expect("f32 tensor")
}

fn host1(t: Tensor<1>) -> Vec<f32> {
    t.into_data().try_into_vec_as::<f32>().expect("f32 tensor")
}

/// One trunk's first layer: its parameters and the leaf its output entered the graph as.
#[derive(Debug)]
struct First {
    weight: burn::module::ParamId,
    bias: Option<burn::module::ParamId>,
    out: Tensor<2>,
}

/// The first layers of a forward pass from [`SparseRows`] ([`ActorCritic::forward_sparse`]),
/// kept to turn the backward pass's gradients at their outputs into their parameters' gradients.
#[derive(Debug)]
pub struct FirstLayers {
    rows: SparseRows,
    layers: Vec<First>,
}

impl FirstLayers {
    /// The first layer `layer` of these rows, as a graph leaf on `device`.
    fn push(&mut self, layer: &Linear, device: &Device) -> Tensor<2> {
        let [d_in, d_out] = layer.weight.val().dims();
        assert_eq!(d_in, self.rows.width(), "the first layer takes rows of {d_in}, not {}", self.rows.width());
        let weight = host(layer.weight.val());
        let bias = layer.bias.as_ref().map(|b| host1(b.val()));
        let z = self.rows.times(&weight, bias.as_deref(), d_out);
        let out = Tensor::<2>::from_data(TensorData::new(z, [self.rows.rows(), d_out]), device).require_grad();
        self.layers.push(First { weight: layer.weight.id, bias: layer.bias.as_ref().map(|b| b.id), out: out.clone() });
        out
    }

    /// Adds the first layers' weight and bias gradients to `params`, from their outputs'
    /// gradients in `grads` (a layer whose output took no part in the loss gets none).
    pub fn gradients(&self, grads: &Gradients, params: &mut GradientsParams) {
        for first in &self.layers {
            let Some(upstream) = first.out.grad(grads) else { continue };
            let device = upstream.device();
            let [rows, out] = upstream.dims();
            let upstream = host(upstream);
            let weight = self.rows.transposed_times(&upstream, out);
            params.register::<2>(
                first.weight,
                Tensor::from_data(TensorData::new(weight, [self.rows.width(), out]), &device),
            );
            if let Some(bias) = first.bias {
                let mut b = vec![0.0f32; out];
                for ur in upstream.chunks_exact(out).take(rows) {
                    for (acc, &u) in b.iter_mut().zip(ur) {
                        *acc += u;
                    }
                }
                params.register::<1>(bias, Tensor::from_data(TensorData::new(b, [out]), &device));
            }
        }
    }
}

impl ActorCritic {
    /// [`ActorCritic::forward`] on rows given by their nonzeros (see the module's docs): the
    /// logits and values, and the first layers whose parameters' gradients
    /// [`FirstLayers::gradients`] works out after the backward pass.
    pub fn forward_sparse(&self, rows: &SparseRows, device: &Device) -> (Tensor<2>, Tensor<1>, FirstLayers) {
        let mut first = FirstLayers { rows: rows.clone(), layers: Vec::new() };
        let actor = first.push(&self.actor_trunk[0], device);
        let h = self.run_trunk_from(&self.actor_trunk, actor);
        let logits = self.policy_head.forward(h.clone());
        let value = if self.critic_trunk.is_empty() {
            self.value_head.forward(h)
        } else {
            let critic = first.push(&self.critic_trunk[0], device);
            self.value_head.forward(self.run_trunk_from(&self.critic_trunk, critic))
        };
        (logits, value.squeeze_dim::<1>(1), first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PolicyConfig, cpu_training_device};
    use burn::module::{Module, ModuleVisitor};

    /// Every parameter's gradient in `a` against `b`, the largest difference and the largest
    /// magnitude.
    struct Compare<'a> {
        a: &'a GradientsParams,
        b: &'a GradientsParams,
        worst: f32,
        largest: f32,
        params: usize,
    }

    impl ModuleVisitor for Compare<'_> {
        fn visit_float<const D: usize>(&mut self, param: &burn::module::Param<Tensor<D>>) {
            let ga = self.a.get::<D>(param.id).expect("a gradient for every parameter, dense");
            let gb = self.b.get::<D>(param.id).expect("a gradient for every parameter, sparse");
            let (va, vb) =
                (ga.into_data().try_into_vec_as::<f32>().unwrap(), gb.into_data().try_into_vec_as::<f32>().unwrap());
            for (x, y) in va.iter().zip(&vb) {
                self.worst = self.worst.max((x - y).abs());
                self.largest = self.largest.max(x.abs());
            }
            self.params += 1;
        }
    }

    #[test]
    fn the_sparse_forward_and_its_gradients_are_the_dense_ones() {
        let device = cpu_training_device();
        let (n, d, actions) = (9, 40, 5);
        let dense: Vec<f32> =
            (0..n * d).map(|i| if (i * 7919) % 10 < 2 { ((i as f32) * 0.37).sin() * 2.0 } else { 0.0 }).collect();
        let rows = SparseRows::from_dense(&dense, d);
        for shared in [false, true] {
            let config = PolicyConfig::new(d, actions).with_hidden(vec![16, 8]).with_shared_trunk(shared);
            let model = ActorCritic::new_seeded(&config, &device, 4).unwrap();
            let loss =
                |logits: Tensor<2>, values: Tensor<1>| logits.powi_scalar(2).mean() + (values * 3.0).tanh().sum();
            let (logits, values) = model.forward(Tensor::from_data(TensorData::new(dense.clone(), [n, d]), &device));
            let (l0, v0) = (host(logits.clone()), host1(values.clone()));
            let want = GradientsParams::from_grads(loss(logits, values).backward(), &model);
            let (logits, values, first) = model.forward_sparse(&rows, &device);
            let (l1, v1) = (host(logits.clone()), host1(values.clone()));
            let mut grads = loss(logits, values).backward();
            let mut got = GradientsParams::from_module(&mut grads, &model);
            first.gradients(&grads, &mut got);
            for (x, y) in l0.iter().zip(&l1).chain(v0.iter().zip(&v1)) {
                assert!((x - y).abs() < 1e-5, "shared {shared}: outputs {x} against {y}");
            }
            let mut cmp = Compare { a: &want, b: &got, worst: 0.0, largest: 0.0, params: 0 };
            model.visit(&mut cmp);
            assert_eq!(cmp.params, if shared { 8 } else { 12 }, "weights and biases of every layer");
            assert!(cmp.largest > 1e-3, "the gradients must not all vanish: {}", cmp.largest);
            assert!(cmp.worst < 1e-5 * (1.0 + cmp.largest), "shared {shared}: gradients differ by {}", cmp.worst);
        }
    }

    #[test]
    fn rows_keep_their_nonzeros_and_select_and_narrow_by_row() {
        let dense = [0.0, 1.5, 0.0, -2.0, 0.0, 0.0, 3.0, 0.0, 0.0];
        let s = SparseRows::from_dense(&dense, 3);
        assert_eq!((s.rows(), s.nonzeros()), (3, 3));
        assert_eq!(s.row(0).collect::<Vec<_>>(), vec![(1, 1.5)]);
        assert_eq!(s.row(1).count(), 1);
        assert_eq!(s.select(&[2, 0]).row(0).collect::<Vec<_>>(), vec![(0, 3.0)]);
        assert_eq!(s.narrow(1, 2), s.select(&[1, 2]));
        // A row of zeros has no entries, and the product is the bias.
        let z = SparseRows::from_dense(&[0.0, 0.0], 2).times(&[1.0, 2.0, 3.0, 4.0], Some(&[0.5, -0.5]), 2);
        assert_eq!(z, vec![0.5, -0.5]);
    }

    /// The kernels run vectorised on any CPU with AVX2 and FMA, not only on one with AVX-512:
    /// burn's kernels enable pulp's AVX-512 level alone, and without its AVX2 level such a CPU
    /// fell back to the scalar loop, which made a training step six times slower.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn an_avx2_cpu_runs_the_vector_kernels() {
        use std::is_x86_feature_detected as has;
        // pulp's x86-64-v3 level, feature by feature.
        let v3 = has!("sse3")
            && has!("ssse3")
            && has!("sse4.1")
            && has!("sse4.2")
            && has!("popcnt")
            && has!("avx")
            && has!("avx2")
            && has!("bmi1")
            && has!("bmi2")
            && has!("fma")
            && has!("lzcnt");
        if v3 {
            assert!(!matches!(pulp::Arch::new(), pulp::Arch::Scalar), "AVX2 and FMA present, scalar kernels chosen");
        } else {
            eprintln!("this CPU lacks part of x86-64-v3; nothing to check");
        }
    }

    #[test]
    fn the_products_match_dense_ones() {
        let (n, d, h) = (5, 7, 3);
        let dense: Vec<f32> = (0..n * d).map(|i| if i % 3 == 0 { (i as f32 * 0.37).sin() } else { 0.0 }).collect();
        let weight: Vec<f32> = (0..d * h).map(|i| (i as f32 * 0.11).cos()).collect();
        let up: Vec<f32> = (0..n * h).map(|i| (i as f32 * 0.23).sin()).collect();
        let s = SparseRows::from_dense(&dense, d);
        let z = s.times(&weight, None, h);
        let g = s.transposed_times(&up, h);
        for r in 0..n {
            for j in 0..h {
                let want: f32 = (0..d).map(|c| dense[r * d + c] * weight[c * h + j]).sum();
                assert!((z[r * h + j] - want).abs() < 1e-5);
            }
        }
        for c in 0..d {
            for j in 0..h {
                let want: f32 = (0..n).map(|r| dense[r * d + c] * up[r * h + j]).sum();
                assert!((g[c * h + j] - want).abs() < 1e-5);
            }
        }
    }
}
