//! `sabacc export CHECKPOINT --out DIR`: a checkpoint as a self-contained bundle (ONNX,
//! safetensors, contract, reference vectors, README) for other front-ends; see `docs/export.md`.
//! `sabacc export level:N` exports a difficulty level: the champion's bundle whose contract also
//! records the level, its rating on the ladder and its random-move rate.

use anyhow::{Context, Result, anyhow, bail};
use policy::export::{
    ExportSummary, Formats, Level, LevelRating, LevelSizeRating, checkpoint_game, export_checkpoint, export_level,
    sha256_hex,
};
use std::path::{Path, PathBuf};

/// Arguments of `sabacc export`.
#[derive(clap::Args)]
pub struct Args {
    /// Checkpoint folder to export (holds metadata.json and model.bpk); a shipped one is found
    /// from any folder, by path (`checkpoints/champion`) or name (`champion`). `level:N` (1 to 5)
    /// exports that difficulty level: the champion's network with the level, its ladder rating
    /// and its random-move rate in the contract.
    checkpoint: PathBuf,
    /// Bundle folder to create (default: `exports/NAME`, NAME the checkpoint folder's name, or
    /// `level-N` for a level).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Model files to write, comma-separated: onnx, safetensors, all.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    format: Vec<String>,
    /// Replace an existing bundle at --out.
    #[arg(long)]
    force: bool,
    /// With `level:N`: the ladder file holding the level's rating [default: the game's shipped
    /// ladder, ladder/GAME.json].
    #[arg(long)]
    ladder: Option<PathBuf>,
    /// With `level:N`: the game whose level to export (a checkpoint names its own game).
    #[arg(long, default_value_t, value_parser = crate::args::game())]
    game: games::GameId,
}

/// What one export is asked for, with the checkpoint already found.
pub struct Request<'a> {
    /// The checkpoint (a level's is its game's champion, found by the game's code).
    pub checkpoint: &'a Path,
    /// The level, if a level is exported.
    pub level: Option<&'static agents::levels::Level>,
    /// The ladder to read the level's rating from, if not the game's shipped one.
    pub ladder: Option<&'a Path>,
    /// The bundle folder.
    pub out: &'a Path,
    /// Model files.
    pub formats: Formats,
    /// Replace an existing bundle.
    pub force: bool,
}

/// What an export wrote.
pub struct Exported {
    /// The files and contract.
    pub summary: ExportSummary,
}

/// The level number of a `level:N` argument: `None` when the argument is not a level at all, an
/// error naming the levels when N is not one of them.
fn level_number(arg: &Path) -> Result<Option<&'static agents::levels::Level>> {
    let Some(n) = arg.to_str().and_then(|s| s.trim().strip_prefix("level:")) else {
        return Ok(None);
    };
    let levels: Vec<String> =
        agents::levels::LEVELS.iter().map(|l| format!("level:{} ({})", l.number, l.name)).collect();
    n.trim()
        .parse::<u8>()
        .ok()
        .and_then(agents::levels::level)
        .map(Some)
        .ok_or_else(|| anyhow!("`level:{n}` is not a difficulty level; the levels are {}", levels.join(", ")))
}

/// The contract's `level` section for `level`, rated by the ladder at `ladder_path` (named
/// `ladder_name` in the contract).
fn level_contract<G: env::Game>(level: &agents::levels::Level, ladder_path: &Path, ladder_name: &str) -> Result<Level> {
    let bytes = std::fs::read(ladder_path)
        .with_context(|| format!("cannot read the ladder {} for the level's rating", ladder_path.display()))?;
    let ladder = eval::ladder::Ladder::read(ladder_path)?;
    agents::pins::check::<G>(&ladder).with_context(|| format!("the ladder {}", ladder_path.display()))?;
    let spec = format!("level:{}", level.number);
    let entry = ladder.agents.iter().find(|e| e.spec == spec).ok_or_else(|| {
        anyhow!(
            "the ladder {} rates no `{spec}`, so the bundle could not carry its rating; rate it with `sabacc ladder \
             build` (docs/ladder.md) or name another ladder with --ladder FILE",
            ladder_path.display()
        )
    })?;
    let mistake_rate = f64::from(level.mistakes) / 100.0;
    Ok(Level {
        number: level.number,
        spec,
        name: level.name.to_string(),
        description: level.description.to_string(),
        selection: "argmax".to_string(),
        mistake_rate,
        rule: Level::rule_text(mistake_rate),
        rating: LevelRating {
            rating: entry.rated.rating,
            low: entry.rated.low,
            high: entry.rated.high,
            games: entry.games,
            anchors: ladder.anchors.iter().map(|a| format!("{}={}", a.spec, a.rating)).collect(),
            scale: "Luce model of the winner on the Elo scale: heads-up, a rating difference d wins with \
                    probability 1 / (1 + 10^(-d/400)); 95 % bootstrap interval (docs/ladder.md)"
                .to_string(),
            ladder_file: ladder_name.to_string(),
            ladder_sha256: sha256_hex(&bytes),
            by_size: entry
                .by_size
                .iter()
                .map(|s| LevelSizeRating {
                    players: s.players,
                    rating: s.rated.rating,
                    low: s.rated.low,
                    high: s.rated.high,
                    games: s.games,
                })
                .collect(),
        },
    })
}

/// Runs `sabacc export`.
pub fn run(a: Args) -> Result<()> {
    let formats = Formats::parse(&a.format)?;
    let level = level_number(&a.checkpoint)?;
    if level.is_none() && a.ladder.is_some() {
        bail!("--ladder applies only to `sabacc export level:N`");
    }
    let (game, checkpoint) = match level {
        Some(_) => (a.game, a.checkpoint.clone()),
        None => {
            let c = agents::shipped::input(&a.checkpoint, "the checkpoint to export")?;
            (checkpoint_game(&c)?, c)
        }
    };
    let out = match (a.out.clone(), level) {
        (Some(o), _) => o,
        (None, Some(l)) => PathBuf::from("exports").join(format!("level-{}", l.number)),
        (None, None) => {
            let name = checkpoint.canonicalize().ok().and_then(|p| p.file_name().map(|n| n.to_owned()));
            match name {
                Some(n) => PathBuf::from("exports").join(n),
                None => {
                    bail!("--out: cannot derive a bundle name from {}; pass --out DIR", checkpoint.display())
                }
            }
        }
    };
    let started = std::time::Instant::now();
    let request =
        Request { checkpoint: &checkpoint, level, ladder: a.ladder.as_deref(), out: &out, formats, force: a.force };
    let summary = crate::verbs(game).export(&request)?.summary;
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
    if let Some(l) = &c.level {
        println!(
            "level {} ({}): rated {:.0} [{:.0}, {:.0}] on {} (sha256 {}…); play argmax with mistake_rate {} \
             (contract.json → level.rule)",
            l.number,
            l.name,
            l.rating.rating,
            l.rating.low,
            l.rating.high,
            l.rating.ladder_file,
            &l.rating.ladder_sha256[..12],
            l.mistake_rate
        );
    }
    Ok(())
}

/// Exports the checkpoint (or the level) of game `G` that `r` asks for.
pub(crate) fn run_game<G: env::Game>(r: &Request<'_>) -> Result<Exported> {
    let summary = match r.level {
        None => export_checkpoint::<G>(r.checkpoint, r.out, r.formats, r.force)?,
        Some(l) => {
            let shipped = eval::ladder::shipped(G::SPEC.game);
            let (path, name) = match r.ladder {
                Some(p) => (agents::shipped::input(p, "--ladder")?, p.display().to_string()),
                None => (
                    agents::shipped::require(
                        Path::new(&shipped),
                        "the shipped ladder (the level's rating)",
                        "name one with --ladder FILE",
                    )?,
                    shipped.clone(),
                ),
            };
            let checkpoint = agents::levels::level_checkpoint::<G>().map_err(|e| anyhow!("{e}"))?;
            let level = level_contract::<G>(l, &path, &name)?;
            export_level::<G>(&checkpoint, level, r.out, r.formats, r.force)?
        }
    };
    Ok(Exported { summary })
}
