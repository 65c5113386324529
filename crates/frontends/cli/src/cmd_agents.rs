//! `sabacc agents`: lists the agent specs that `eval`, `train` and every front-end accept.

use std::path::PathBuf;

/// Arguments of `sabacc agents`.
#[derive(clap::Args)]
pub struct Args {
    /// Folders searched for checkpoints (each direct subfolder holding a checkpoint is listed)
    /// [default: the shipped checkpoints/, found from any folder]
    #[arg(long, value_delimiter = ',')]
    dirs: Vec<PathBuf>,
    /// List only this game's agents (default: every game's).
    #[arg(long, value_parser = crate::args::game())]
    game: Option<games::GameId>,
}

/// Runs `sabacc agents`.
pub fn run(a: Args) -> anyhow::Result<()> {
    let dirs = if a.dirs.is_empty() {
        let shipped = std::path::Path::new("checkpoints");
        match agents::shipped::find(shipped) {
            Some(dir) => vec![dir],
            None => {
                eprintln!(
                    "note: {}; only the bots are listed",
                    agents::shipped::missing(shipped, "the shipped checkpoints", "name folders with --dirs")
                );
                Vec::new()
            }
        }
    } else {
        a.dirs
    };
    let roots: Vec<&std::path::Path> = dirs.iter().map(PathBuf::as_path).collect();
    let games: Vec<games::GameId> = match a.game {
        Some(g) => vec![g],
        None => games::GameId::all().collect(),
    };
    let listed: Vec<agents::Listed> = games.iter().flat_map(|&g| agents::dynamic::for_game(g).list(&roots)).collect();
    let width = listed.iter().map(|l| l.spec.len()).max().unwrap_or(0);
    for l in &listed {
        println!("{:<8} {:<width$}  {}", l.game, l.spec, l.description);
    }
    println!("\nA checkpoint spec may end in @sample (draw from the policy, the default) or @argmax.");
    Ok(())
}
