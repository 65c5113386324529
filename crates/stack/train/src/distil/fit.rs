//! `sabacc distil fit`: one step of expert iteration. A checkpoint (the student) is trained by
//! supervised learning to choose as the search teacher chose, on the samples of
//! `sabacc distil collect`.
//!
//! * Policy target: a softmax of the teacher's mean scores over the actions it searched, at
//!   temperature `τ` (τ = 0: the teacher's own pick). Scores are chances of winning in [0, 1],
//!   so τ = 0.02 makes a 5-point gap a factor e^2.5 ≈ 12 in probability: the student learns
//!   which actions the search found close, not only the one it played.
//! * Value anchor: with a shared trunk, moving the policy moves the critic too, and guided
//!   search reads the critic. The critic's output on each sample is kept near the student's
//!   output before training (a squared-error term weighted by `value_coef`).
//! * A held-out share of the samples measures the student before and after each epoch: the
//!   cross-entropy to the targets and how often its most likely action is the teacher's pick.

use super::samples::{self, Sample};
use crate::progress_display::ProgressDisplay;
use anyhow::{Context, Result, anyhow, bail};
use policy::burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use policy::burn::tensor::activation::log_softmax;
use policy::burn::tensor::{Bool, Tensor, TensorData};
use policy::{ActorCritic, Device, Policy, clip_grad_norm, masked_logits};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// The student's starting checkpoint.
    pub init: PathBuf,
    /// Sample files.
    pub data: Vec<PathBuf>,
    /// The new checkpoint folder (must not exist).
    pub out: PathBuf,
    /// Passes over the training samples.
    pub epochs: usize,
    /// Adam's learning rate.
    pub lr: f64,
    /// Lower the learning rate linearly to zero over the fit (as PPO's `anneal_lr`): a fit to
    /// exact targets ends closer to them than one whose last steps still jump at `lr`.
    pub anneal_lr: bool,
    /// Samples per gradient step.
    pub batch: usize,
    /// Target temperature τ (0: the teacher's pick).
    pub temperature: f32,
    /// Weight of the value anchor.
    pub value_coef: f32,
    /// Share of the samples held out for measurement.
    pub holdout: f64,
    /// Seed of the split and the shuffles.
    pub seed: u64,
    /// Show progress.
    pub progress: bool,
}

/// The student on the held-out samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct HoldoutStats {
    /// Mean cross-entropy to the targets (nats).
    pub cross_entropy: f64,
    /// Share of samples where the student's most likely action is the teacher's pick.
    pub agreement: f64,
    /// Root-mean-square change of the critic's output from the starting checkpoint's.
    pub value_drift: f64,
}

/// What a fit did.
#[derive(Clone, Debug, Serialize)]
pub struct FitReport {
    /// The starting checkpoint.
    pub init: PathBuf,
    /// The sample files and their teachers.
    pub data: Vec<(PathBuf, String)>,
    /// Samples trained on.
    pub train_samples: usize,
    /// Samples held out.
    pub holdout_samples: usize,
    /// Epochs, learning rate, batch, temperature, value weight, seed.
    pub epochs: usize,
    /// Adam's learning rate.
    pub lr: f64,
    /// Whether the learning rate fell linearly to zero.
    pub anneal_lr: bool,
    /// Samples per step.
    pub batch: usize,
    /// Target temperature.
    pub temperature: f32,
    /// Value anchor weight.
    pub value_coef: f32,
    /// Seed.
    pub seed: u64,
    /// The starting checkpoint on the held-out samples (`None` when none are held out).
    pub before: Option<HoldoutStats>,
    /// After each epoch (empty when no samples are held out).
    pub after_epoch: Vec<HoldoutStats>,
    /// Training seconds.
    pub seconds: f64,
    /// The new checkpoint.
    pub checkpoint: PathBuf,
}

/// File the report is written to inside the new checkpoint folder.
pub const REPORT_FILE: &str = "distil.json";

/// A sample's policy target (see the module documentation) over all actions.
pub fn target(sample: &Sample, temperature: f32) -> Vec<f32> {
    let mut out = vec![0.0f32; sample.values.len()];
    let searched: Vec<usize> = sample.searched.indices().collect();
    let best = sample.played;
    if temperature <= 0.0 {
        out[best] = 1.0;
        return out;
    }
    let top = sample.values[best];
    let mut total = 0.0f32;
    for &a in &searched {
        let w = ((sample.values[a] - top) / temperature).exp();
        out[a] = w;
        total += w;
    }
    for x in &mut out {
        *x /= total;
    }
    out
}

/// Row-major tensors of a set of samples.
struct Rows {
    obs: Vec<f32>,
    mask: Vec<bool>,
    target: Vec<f32>,
    value0: Vec<f32>,
    n: usize,
}

impl Rows {
    fn gather(samples: &[&Sample], value0: &[f32], temperature: f32) -> Rows {
        let mut r =
            Rows { obs: Vec::new(), mask: Vec::new(), target: Vec::new(), value0: value0.to_vec(), n: samples.len() };
        for s in samples {
            r.obs.extend_from_slice(&s.obs);
            s.legal.extend_bools(&mut r.mask, s.values.len());
            r.target.extend(target(s, temperature));
        }
        r
    }

    fn tensors(&self, device: &Device) -> (Tensor<2>, Tensor<2, Bool>, Tensor<2>, Tensor<1>) {
        let (n, d, a) = (self.n, self.obs.len() / self.n.max(1), self.mask.len() / self.n.max(1));
        (
            Tensor::<2>::from_data(TensorData::new(self.obs.clone(), [n, d]), device),
            Tensor::<2, Bool>::from_data(TensorData::new(self.mask.clone(), [n, a]), device),
            Tensor::<2>::from_data(TensorData::new(self.target.clone(), [n, a]), device),
            Tensor::<1>::from_data(TensorData::new(self.value0.clone(), [n]), device),
        )
    }
}

/// Rows evaluated at once when measuring.
const EVAL_ROWS: usize = 4096;

/// Log-probabilities and values of `samples` under `model`, in batches.
fn evaluate(model: &ActorCritic, samples: &[&Sample]) -> Result<(Vec<f32>, Vec<f32>)> {
    let policy = Policy::new(model, &policy::cpu_device());
    let (mut logp, mut values) = (Vec::new(), Vec::new());
    for part in samples.chunks(EVAL_ROWS) {
        let obs: Vec<f32> = part.iter().flat_map(|s| s.obs.iter().copied()).collect();
        let mut masks = Vec::new();
        for s in part {
            s.legal.extend_bools(&mut masks, s.values.len());
        }
        let (l, v) = policy.log_probs_and_values(&obs, &masks, part.len()).map_err(|e| anyhow!("{e}"))?;
        logp.extend(l);
        values.extend(v);
    }
    Ok((logp, values))
}

/// The student on the held-out samples; `None` when none are held out (zeros there would read as
/// a perfect fit).
fn measure(model: &ActorCritic, holdout: &[&Sample], value0: &[f32], temperature: f32) -> Result<Option<HoldoutStats>> {
    if holdout.is_empty() {
        return Ok(None);
    }
    let (logp, values) = evaluate(model, holdout)?;
    let a = holdout[0].values.len();
    let (mut ce, mut agree, mut drift) = (0.0f64, 0usize, 0.0f64);
    for (i, s) in holdout.iter().enumerate() {
        let row = &logp[i * a..(i + 1) * a];
        let t = target(s, temperature);
        ce -= t.iter().zip(row).filter(|(p, _)| **p > 0.0).map(|(p, l)| f64::from(p * l)).sum::<f64>();
        let mut best = None::<usize>;
        for k in s.legal.indices() {
            if best.is_none_or(|b| row[k] > row[b]) {
                best = Some(k);
            }
        }
        agree += usize::from(best == Some(s.played));
        drift += f64::from(values[i] - value0[i]).powi(2);
    }
    let n = holdout.len() as f64;
    Ok(Some(HoldoutStats { cross_entropy: ce / n, agreement: agree as f64 / n, value_drift: (drift / n).sqrt() }))
}

/// Fits the student and writes it, with its report, as a new checkpoint.
pub fn fit(opts: &FitOptions) -> Result<FitReport> {
    if opts.out.exists() {
        bail!("{} already exists; choose a new --out folder (a fit never overwrites a checkpoint)", opts.out.display());
    }
    if opts.epochs == 0 || opts.batch == 0 {
        bail!("--epochs and --batch must be at least 1");
    }
    if !(opts.lr > 0.0 && opts.lr.is_finite()) {
        bail!("--lr must be a positive number, got {}", opts.lr);
    }
    if !(opts.temperature >= 0.0 && opts.temperature.is_finite()) {
        bail!("--temperature must be 0 or more, got {}", opts.temperature);
    }
    if !(opts.value_coef >= 0.0 && opts.value_coef.is_finite()) {
        bail!("--value-coef must be 0 or more, got {}", opts.value_coef);
    }
    if !(0.0..1.0).contains(&opts.holdout) {
        bail!("--holdout must lie in [0, 1), got {}", opts.holdout);
    }
    if opts.data.is_empty() {
        bail!("no sample files given (--data)");
    }
    let spec = super::checkpoint_spec(&opts.init)?;
    let mut all = Vec::new();
    let mut data = Vec::new();
    for path in &opts.data {
        let file = samples::read(path, spec)?;
        data.push((path.clone(), file.header.teacher.clone()));
        all.extend(file.chunks.into_iter().flatten());
    }
    if all.is_empty() {
        bail!("the sample files hold no samples");
    }
    let device = policy::cpu_training_device();
    let (mut model, meta) = policy::load_checkpoint(&opts.init, &policy::ExpectedSpec::from(spec), &device)
        .with_context(|| format!("--init: cannot load {}", opts.init.display()))?;
    let mut rng = rand_pcg::Pcg64::seed_from_u64(opts.seed);
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.shuffle(&mut rng);
    let held = ((all.len() as f64) * opts.holdout).round() as usize;
    let (holdout_idx, train_idx) = order.split_at(held);
    let holdout: Vec<&Sample> = holdout_idx.iter().map(|&i| &all[i]).collect();
    let train: Vec<&Sample> = train_idx.iter().map(|&i| &all[i]).collect();
    if train.is_empty() {
        bail!("no samples left to train on after holding out {held}");
    }
    let all_refs: Vec<&Sample> = all.iter().collect();
    let (_, value0_all) = evaluate(&model, &all_refs)?;
    let value0 = |idx: &[usize]| idx.iter().map(|&i| value0_all[i]).collect::<Vec<f32>>();
    let (holdout_v0, train_v0) = (value0(holdout_idx), value0(train_idx));
    let before = measure(&model, &holdout, &holdout_v0, opts.temperature)?;
    let rows = Rows::gather(&train, &train_v0, opts.temperature);
    let (obs, mask, tgt, v0) = rows.tensors(&device);
    let mask_f = mask.clone().float();
    let mut optim: ModuleOptimizer = AdamConfig::new().with_epsilon(1e-5).init();
    let steps_per_epoch = train.len().div_ceil(opts.batch);
    let mut display = ProgressDisplay::new(opts.progress, (opts.epochs * steps_per_epoch) as u64, 0).with_unit("step");
    let started = Instant::now();
    let mut after_epoch = Vec::new();
    let mut idx: Vec<usize> = (0..train.len()).collect();
    let mut step = 0u64;
    let total_steps = (opts.epochs * steps_per_epoch) as f64;
    for epoch in 0..opts.epochs {
        idx.shuffle(&mut rng);
        for part in idx.chunks(opts.batch) {
            let m = part.len();
            let sel = Tensor::<1, policy::burn::tensor::Int>::from_data(
                TensorData::new(part.iter().map(|&i| i as i64).collect::<Vec<_>>(), [m]),
                &device,
            );
            let (logits, value) = model.forward(obs.clone().select(0, sel.clone()));
            let legal = mask_f.clone().select(0, sel.clone()).greater_elem(0.5);
            let logp = log_softmax(masked_logits(logits, legal), 1);
            let ce = (tgt.clone().select(0, sel.clone()) * logp).sum_dim(1).mean().neg();
            let v_loss = (value - v0.clone().select(0, sel)).powi_scalar(2).mean() * 0.5;
            let loss = ce + v_loss * opts.value_coef;
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            let (grads, _) = clip_grad_norm(&model, grads, 0.5);
            let lr = if opts.anneal_lr { opts.lr * (1.0 - step as f64 / total_steps) } else { opts.lr };
            model = optim.step(lr, model, grads);
            step += 1;
            display.update(step, format!("epoch {}/{}", epoch + 1, opts.epochs));
        }
        if let (Some(stats), Some(before)) = (measure(&model, &holdout, &holdout_v0, opts.temperature)?, &before) {
            display.println(&format!(
                "epoch {}: held-out cross-entropy {:.4} (was {:.4}), agreement {:.1}% (was {:.1}%), value drift {:.4}",
                epoch + 1,
                stats.cross_entropy,
                before.cross_entropy,
                stats.agreement * 100.0,
                before.agreement * 100.0,
                stats.value_drift
            ));
            after_epoch.push(stats);
        }
    }
    display.finish();
    let new_meta = super::derived_metadata(
        &meta,
        format!(
            "distilled from {} by `sabacc distil fit` ({} samples, {} epochs); started from {}",
            data.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>().join(", "),
            train.len(),
            opts.epochs,
            opts.init.display()
        ),
    );
    policy::save_checkpoint(&opts.out, &model, &new_meta, None)
        .with_context(|| format!("cannot write the checkpoint {}", opts.out.display()))?;
    let report = FitReport {
        init: opts.init.clone(),
        data,
        train_samples: train.len(),
        holdout_samples: holdout.len(),
        epochs: opts.epochs,
        lr: opts.lr,
        anneal_lr: opts.anneal_lr,
        batch: opts.batch,
        temperature: opts.temperature,
        value_coef: opts.value_coef,
        seed: opts.seed,
        before,
        after_epoch,
        seconds: started.elapsed().as_secs_f64(),
        checkpoint: opts.out.clone(),
    };
    let path = opts.out.join(REPORT_FILE);
    std::fs::write(&path, serde_json::to_string_pretty(&report)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use env::Game;
    use games::kessel::Kessel;
    use samples::WordMask;

    const KESSEL: env::EnvSpec = Kessel::SPEC;

    /// A sample whose teacher played `played` after scoring `values`.
    fn sample(values: &[(usize, f32)], played: usize, legal: u64) -> Sample {
        let mut v = vec![0.0; KESSEL.num_actions];
        let mut searched = WordMask::EMPTY;
        for &(a, x) in values {
            v[a] = x;
            searched.set_index(a);
        }
        Sample { obs: vec![0.0; KESSEL.obs_len], legal: WordMask::from_bits(legal), searched, played, values: v }
    }

    #[test]
    fn targets_put_mass_only_on_searched_actions_and_sharpen_with_lower_temperature() {
        let s = sample(&[(1, 0.40), (2, 0.45), (4, 0.45)], 4, 0b11110);
        let hard = target(&s, 0.0);
        assert_eq!(hard[4], 1.0, "the hard target is the action played, even in a tie of means");
        assert_eq!(hard.iter().sum::<f32>(), 1.0);
        let soft = target(&s, 0.05);
        assert!((soft.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert_eq!(soft[3], 0.0, "legal but pruned");
        assert!((soft[2] - soft[4]).abs() < 1e-6);
        assert!((soft[1] / soft[2] - (-1.0f32).exp()).abs() < 1e-5);
        let sharper = target(&s, 0.01);
        assert!(sharper[1] < soft[1]);
    }

    /// A small shared-trunk checkpoint and a sample file whose teacher picks action 7 or 9 as
    /// the observation's first feature says.
    fn fixture(dir: &std::path::Path) -> (PathBuf, PathBuf) {
        let spec = KESSEL;
        let net = policy::PolicyConfig::new(spec.obs_len, spec.num_actions).with_hidden(vec![32]);
        let net = policy::PolicyConfig { shared_trunk: true, ..net };
        let device = policy::cpu_training_device();
        let model = ActorCritic::new_seeded(&net, &device, 3).unwrap();
        let meta = policy::CheckpointMetadata::new(
            spec.id,
            spec.obs_version,
            net,
            1,
            3,
            serde_json::json!({ "rules": games::kessel::RuleConfig::with_players(2), "reward": "win-loss" }),
        );
        let init = dir.join("init");
        policy::save_checkpoint(&init, &model, &meta, None).unwrap();
        let data = dir.join("d.samples");
        let header = samples::SamplesHeader::new(KESSEL, "search:2", &[], 2, 0, 2);
        let (mut w, _) = samples::SamplesWriter::open(&data, header).unwrap();
        let mut chunk = Vec::new();
        for i in 0..400 {
            let side = i % 2;
            let played = if side == 1 { 7 } else { 9 };
            let mut s =
                sample(&[(7, 0.2 + 0.6 * side as f32), (9, 0.8 - 0.6 * side as f32)], played, (1 << 7) | (1 << 9));
            s.obs[0] = side as f32;
            s.obs[1 + i % 5] = 0.5;
            chunk.push(s);
        }
        w.append(&chunk).unwrap();
        (init, data)
    }

    fn options(init: PathBuf, data: PathBuf, out: PathBuf) -> FitOptions {
        FitOptions {
            init,
            data: vec![data],
            out,
            epochs: 30,
            lr: 3e-3,
            anneal_lr: false,
            batch: 64,
            temperature: 0.0,
            value_coef: 1.0,
            holdout: 0.25,
            seed: 1,
            progress: false,
        }
    }

    #[test]
    fn a_fit_learns_the_teachers_choices_keeps_the_critic_and_writes_a_loadable_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let (init, data) = fixture(dir.path());
        let out = dir.path().join("student");
        let r = fit(&options(init.clone(), data.clone(), out.clone())).unwrap();
        assert_eq!((r.train_samples, r.holdout_samples), (300, 100));
        let last = r.after_epoch.last().unwrap();
        let before = r.before.expect("samples were held out");
        assert!(last.agreement > 0.97, "agreement {} (before {})", last.agreement, before.agreement);
        assert!(last.cross_entropy < before.cross_entropy * 0.5, "{:?} vs {:?}", last, before);
        assert!(last.value_drift < 0.1, "the value anchor let the critic drift by {}", last.value_drift);
        let (agent, meta) = policy::PolicyAgent::<Kessel>::load(&out, &policy::cpu_device()).unwrap();
        assert!(meta.notes.contains("distilled from search:2"), "{}", meta.notes);
        drop(agent);
        assert!(out.join(REPORT_FILE).is_file());
        // Same inputs, same seed: the same student.
        let again = dir.path().join("again");
        let r2 = fit(&options(init.clone(), data.clone(), again.clone())).unwrap();
        assert_eq!(r2.after_epoch, r.after_epoch);
        // Never overwrites.
        let err = fit(&options(init, data, out)).err().unwrap().to_string();
        assert!(err.contains("already exists"), "{err}");
    }

    #[test]
    fn an_annealed_fit_settles_closer_to_soft_targets_than_one_that_keeps_its_step() {
        let dir = tempfile::tempdir().unwrap();
        let (init, data) = fixture(dir.path());
        // Soft targets (about 0.88 / 0.12) and a step large enough to keep jumping around them.
        let fitted = |name: &str, anneal_lr: bool| {
            let o = FitOptions {
                lr: 3e-2,
                anneal_lr,
                temperature: 0.3,
                ..options(init.clone(), data.clone(), dir.path().join(name))
            };
            fit(&o).unwrap()
        };
        let (steady, annealed) = (fitted("steady", false), fitted("annealed", true));
        let (s, a) = (steady.after_epoch.last().unwrap(), annealed.after_epoch.last().unwrap());
        assert!(a.cross_entropy < s.cross_entropy, "annealed {a:?}, steady {s:?}");
        assert!(annealed.anneal_lr && !steady.anneal_lr, "the report says which schedule ran");
    }

    #[test]
    fn a_fit_with_nothing_held_out_reports_no_measurement_rather_than_zeros() {
        let dir = tempfile::tempdir().unwrap();
        let (init, data) = fixture(dir.path());
        let out = dir.path().join("student");
        let r = fit(&FitOptions { holdout: 0.0, epochs: 3, ..options(init, data, out.clone()) }).unwrap();
        assert_eq!((r.train_samples, r.holdout_samples), (400, 0));
        assert!(r.before.is_none() && r.after_epoch.is_empty(), "{:?} {:?}", r.before, r.after_epoch);
        let written: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join(REPORT_FILE)).unwrap()).unwrap();
        assert!(written["before"].is_null() && written["after_epoch"].as_array().unwrap().is_empty(), "{written}");
    }

    #[test]
    fn bad_fit_settings_are_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let (init, data) = fixture(dir.path());
        let out = dir.path().join("s");
        for (tweak, needle) in [
            (Box::new(|o: &mut FitOptions| o.lr = 0.0) as Box<dyn Fn(&mut FitOptions)>, "--lr"),
            (Box::new(|o: &mut FitOptions| o.temperature = f32::NAN), "--temperature"),
            (Box::new(|o: &mut FitOptions| o.holdout = 1.0), "--holdout"),
            (Box::new(|o: &mut FitOptions| o.epochs = 0), "--epochs"),
            (Box::new(|o: &mut FitOptions| o.data.clear()), "no sample files"),
            (Box::new(|o: &mut FitOptions| o.init = PathBuf::from("no/such/checkpoint")), "--init"),
        ] {
            let mut o = options(init.clone(), data.clone(), out.clone());
            tweak(&mut o);
            let err = format!("{:#}", fit(&o).err().unwrap());
            assert!(err.contains(needle), "{needle}: {err}");
            assert!(!out.exists());
        }
    }
}
