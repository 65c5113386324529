//! One network that plays a mixture of networks: the answer of PSRO (`experiments/psro-leduc.py`)
//! is a mixture of its population, which no front-end can load. For a game small enough to walk,
//! this computes the mixture's policy at every information set exactly (`eval::average`), writes
//! one distillation sample per information set with the mixture's probabilities as the target,
//! and fits a checkpoint to them with `sabacc distil fit`'s trainer.
//!
//! `cargo run --release -p train --example distil_mixture -- OUT INIT EPOCHS MEMBER… --weights W,…
//! [--lr L] [--anneal-lr]` (Leduc hold'em; `INIT` is the student's starting checkpoint, which
//! fixes its network; the learning rate is 1e-3 unless given).

use anyhow::{Context, Result, bail};
use env::{Agent, Game};
use games::leduc::Leduc;
use std::collections::HashSet;
use std::path::PathBuf;
use train::distil::fit::{FitOptions, fit};
use train::distil::samples::{Sample, SamplesHeader, SamplesWriter, WordMask};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    const USAGE: &str = "usage: OUT INIT EPOCHS MEMBER… --weights W,… [--lr L] [--anneal-lr]";
    let Some(at) = args.iter().position(|a| a == "--weights") else { bail!(USAGE) };
    if at < 4 || args.len() < at + 2 {
        bail!(USAGE);
    }
    let (mut lr, mut anneal_lr) = (1e-3, false);
    let mut rest = args[at + 2..].iter();
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--lr" => lr = rest.next().context(USAGE)?.parse().context("--lr takes a number")?,
            "--anneal-lr" => anneal_lr = true,
            other => bail!("unknown option {other}; {USAGE}"),
        }
    }
    let (out, init, epochs) = (PathBuf::from(&args[0]), PathBuf::from(&args[1]), args[2].parse::<usize>()?);
    let members = &args[3..at];
    let data = out.with_extension("samples");
    if data.exists() || out.exists() {
        bail!("{} or {} already exists; choose a new OUT", out.display(), data.display());
    }
    let weights: Vec<f64> = args[at + 1].split(',').map(str::parse).collect::<Result<_, _>>()?;
    let rules = Leduc::rules_with_players(2);
    let registry = agents::Agents::new();
    let mut built: Vec<Box<dyn Agent<Leduc>>> = members
        .iter()
        .map(|m| registry.build::<Leduc>(m).map_err(|e| anyhow::anyhow!("{m}: {e}")))
        .collect::<Result<_>>()?;
    let mut mixture = eval::average::average_weighted::<Leduc>("mixture", &mut built, &weights, &rules)
        .map_err(|e| anyhow::anyhow!("{e}"))?;

    // Every decision of every deal, once per information set (the acting seat's observation).
    let spec = Leduc::SPEC;
    let mut seen = HashSet::new();
    let mut samples = Vec::new();
    let mut stack: Vec<_> =
        Leduc::deals(&rules).context("Leduc enumerates its deals")?.into_iter().map(|(_, s)| s).collect();
    while let Some(state) = stack.pop() {
        let Some(actor) = Leduc::current_player(&state) else { continue };
        let legal = Leduc::legal_mask(&state);
        for a in legal.index_list() {
            let mut next = state.clone();
            Leduc::apply(&mut next, <Leduc as Game>::Action::from_index(a).context("a legal index")?)?;
            stack.push(next);
        }
        let view = Leduc::view(&state, actor);
        let mut obs = vec![0.0f32; spec.obs_len];
        Leduc::encode(&view, &mut obs);
        if !seen.insert(obs.iter().map(|x| x.to_bits()).collect::<Vec<_>>()) {
            continue;
        }
        let probs = mixture.distribution(&view, legal).context("the mixture has a distribution")??;
        let mut words = [0u64; 1];
        legal.write_words(&mut words);
        let played =
            legal.index_list().into_iter().max_by(|&a, &b| probs[a].total_cmp(&probs[b])).context("a legal action")?;
        // `fit`'s target is a softmax of these values at temperature 1: the probabilities themselves.
        let values = (0..spec.num_actions)
            .map(|a| if legal.contains_index(a) { probs[a].max(1e-9).ln() as f32 } else { 0.0 })
            .collect();
        samples.push(Sample {
            obs,
            legal: WordMask::from_bits(words[0]),
            searched: WordMask::from_bits(words[0]),
            played,
            values,
        });
    }
    println!("{} information sets", samples.len());
    let header = SamplesHeader::new(spec, &format!("mixture of {} policies", members.len()), &[], 2, 0, 1);
    let (mut writer, _) = SamplesWriter::open(&data, header)?;
    writer.append(&samples)?;
    drop(writer);
    let report = fit(&FitOptions {
        init,
        data: vec![data],
        out: out.clone(),
        epochs,
        lr,
        anneal_lr,
        batch: 64,
        temperature: 1.0,
        value_coef: 0.0,
        holdout: 0.0,
        seed: 1,
        progress: false,
    })?;
    println!("fitted {} in {:.1} s", report.checkpoint.display(), report.seconds);
    Ok(())
}
