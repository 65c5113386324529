//! `sabacc export CHECKPOINT --out DIR`: a checkpoint as a self-contained bundle (ONNX,
//! safetensors, contract, reference vectors, README) for other front-ends; see `docs/export.md`.

use anyhow::Result;
use policy::export::{ExportSummary, Formats, checkpoint_game, export_checkpoint};
use std::path::Path;
use std::path::PathBuf;

/// Arguments of `sabacc export`.
#[derive(clap::Args)]
pub struct Args {
    /// Checkpoint folder to export (holds metadata.json and model.bpk); a shipped one is found
    /// from any folder, by path (`checkpoints/champion`) or name (`champion`).
    checkpoint: PathBuf,
    /// Bundle folder to create (default: `exports/NAME`, NAME the checkpoint folder's name).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Model files to write, comma-separated: onnx, safetensors, all.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    format: Vec<String>,
    /// Replace an existing bundle at --out.
    #[arg(long)]
    force: bool,
}

/// Runs `sabacc export`.
pub fn run(mut a: Args) -> Result<()> {
    let formats = Formats::parse(&a.format)?;
    a.checkpoint = agents::shipped::checkpoint(&a.checkpoint);
    let out = match a.out {
        Some(o) => o,
        None => {
            let name = a.checkpoint.canonicalize().ok().and_then(|p| p.file_name().map(|n| n.to_owned()));
            match name {
                Some(n) => PathBuf::from("exports").join(n),
                None => {
                    anyhow::bail!("--out: cannot derive a bundle name from {}; pass --out DIR", a.checkpoint.display())
                }
            }
        }
    };
    let started = std::time::Instant::now();
    struct Export<'a>(&'a Path, &'a Path, Formats, bool);
    impl agents::ForGame for Export<'_> {
        type Out = Result<ExportSummary, policy::export::ExportError>;
        fn run<G: env::Game>(self) -> Self::Out {
            export_checkpoint::<G>(self.0, self.1, self.2, self.3)
        }
    }
    let game = checkpoint_game(&a.checkpoint)?;
    let summary = agents::for_game(game, Export(&a.checkpoint, &out, formats, a.force))?;
    let c = &summary.contract;
    println!(
        "exported {} (training step {}) to {} in {:.1}s",
        c.source.checkpoint,
        c.source.training_step,
        summary.out.display(),
        started.elapsed().as_secs_f64()
    );
    for (name, bytes) in &summary.files {
        println!("  {name:<20} {:>10} bytes", bytes);
    }
    println!(
        "contract v{}: obs {} floats (spec v{}), {} actions, onnx opset {}",
        c.contract_version, c.observation.length, c.observation.spec_version, c.actions.count, c.onnx.opset
    );
    Ok(())
}
