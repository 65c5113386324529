//! `sabacc agents`: lists the agent specs that `eval`, `train` and every front-end accept.

use std::path::PathBuf;

/// Arguments of `sabacc agents`.
#[derive(clap::Args)]
#[command(after_help = forms_help())]
pub struct Args {
    /// Folders searched for checkpoints (each direct subfolder holding a checkpoint is listed)
    /// [default: the shipped checkpoints/, found from any folder]
    #[arg(long, value_delimiter = ',')]
    dirs: Vec<PathBuf>,
    /// List only this game's agents (default: every game's); each line starts with its game.
    #[arg(long, value_parser = crate::args::game())]
    game: Option<games::GameId>,
}

/// Runs `sabacc agents`.
pub fn run(a: Args) -> anyhow::Result<()> {
    let mut shipped_dir = None;
    let dirs = if a.dirs.is_empty() {
        let shipped = std::path::Path::new("checkpoints");
        match agents::shipped::find(shipped) {
            Some(dir) => {
                shipped_dir = Some(dir.clone());
                vec![dir]
            }
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
    // The shipped checkpoints are listed as `checkpoints/NAME`, which is found from any folder.
    let shown = |spec: &str| match shipped_dir.as_deref().and_then(|d| std::path::Path::new(spec).strip_prefix(d).ok())
    {
        Some(rel) => std::path::Path::new("checkpoints").join(rel).display().to_string(),
        None => spec.to_string(),
    };
    let specs: Vec<String> = listed.iter().map(|l| shown(&l.spec)).collect();
    let width = specs.iter().map(|s| s.len()).max().unwrap_or(0);
    println!("{:<8} {:<width$}  what it is", "game", "spec");
    for (l, spec) in listed.iter().zip(&specs) {
        println!("{:<8} {:<width$}  {}", l.game, spec, l.description);
    }
    println!("\n{}", forms_help());
    Ok(())
}

/// Every kind of agent spec with an example, as `sabacc agents` and `sabacc eval --help` list it.
pub fn forms_help() -> String {
    format!(
        "Agent specs (every verb that takes agents accepts each form; a folder is found from any folder):\n{}\n\n\
         An agent of another game than --game is refused, naming the --game that would load it.",
        agents::spec_forms_text()
    )
}
