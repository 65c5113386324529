//! `sabacc agents`: lists the agent specs that `eval`, `train` and every front-end accept.

use std::path::PathBuf;

/// Arguments of `sabacc agents`.
#[derive(clap::Args)]
pub struct Args {
    /// Folders searched for checkpoints (each direct subfolder holding a checkpoint is listed).
    #[arg(long, value_delimiter = ',', default_value = "checkpoints")]
    dirs: Vec<PathBuf>,
}

/// Runs `sabacc agents`.
pub fn run(a: Args) -> anyhow::Result<()> {
    let roots: Vec<&std::path::Path> = a.dirs.iter().map(PathBuf::as_path).collect();
    let listed = agents::Agents::list(&roots);
    let width = listed.iter().map(|l| l.spec.len()).max().unwrap_or(0);
    for l in &listed {
        println!("{:<width$}  {}", l.spec, l.description);
    }
    println!("\nA checkpoint spec may end in @sample (draw from the policy, the default) or @argmax.");
    Ok(())
}
