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

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
    }

    fn args(checkpoint: &str, out: &Path) -> Args {
        Args {
            checkpoint: checkpoint.into(),
            out: Some(out.to_path_buf()),
            format: vec!["all".into()],
            force: false,
            ladder: None,
            game: games::GameId::default(),
        }
    }

    #[test]
    fn a_level_exports_as_a_bundle_whose_contract_carries_the_level_and_its_rating() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("level-3");
        run(args("level:3", &out)).unwrap();
        let c = policy::export::read_contract(&out).unwrap();
        assert_eq!(c.contract_version, policy::export::CONTRACT_VERSION);
        assert_eq!(c.source.checkpoint, "champion", "every level plays the champion's network");
        let l = c.level.expect("a level bundle carries its level");
        assert_eq!((l.number, l.spec.as_str(), l.name.as_str()), (3, "level:3", "intermediate"));
        assert_eq!(l.selection, "argmax");
        assert!((l.mistake_rate - 0.4).abs() < 1e-12, "{}", l.mistake_rate);
        assert!(l.rule.contains("0.4") && l.rule.contains("uniformly among the legal"), "{}", l.rule);
        assert!(!l.rule.contains("  "), "one line of words: {}", l.rule);
        let ladder_path = repo().join(eval::ladder::shipped("kessel"));
        let ladder = eval::ladder::Ladder::read(&ladder_path).unwrap();
        let entry = ladder.agents.iter().find(|e| e.spec == "level:3").unwrap();
        assert_eq!(
            (l.rating.rating, l.rating.low, l.rating.high),
            (entry.rated.rating, entry.rated.low, entry.rated.high)
        );
        assert_eq!(l.rating.games, entry.games);
        // The level's rating at each table size the ladder rates: heads-up and four seats.
        let by_size: Vec<(u8, f64, f64, f64, u64)> =
            l.rating.by_size.iter().map(|s| (s.players, s.rating, s.low, s.high, s.games)).collect();
        let want: Vec<(u8, f64, f64, f64, u64)> =
            entry.by_size.iter().map(|s| (s.players, s.rated.rating, s.rated.low, s.rated.high, s.games)).collect();
        assert_eq!(by_size, want);
        assert_eq!(by_size.iter().map(|s| s.0).collect::<Vec<_>>(), [2, 4]);
        assert_eq!(l.rating.anchors, vec!["expert=1500".to_string()]);
        assert_eq!(l.rating.ladder_file, eval::ladder::shipped("kessel"));
        assert_eq!(l.rating.ladder_sha256, sha256_hex(&std::fs::read(&ladder_path).unwrap()));
        let readme = std::fs::read_to_string(out.join(policy::export::README_FILE)).unwrap();
        assert!(readme.contains("mistake_rate") && readme.contains("level:3"), "{readme}");
        // The bundle is the champion's network: it loads and plays like any bundle.
        let bundle = policy::export::Bundle::load(&out, &policy::cpu_device()).unwrap();
        assert_eq!(bundle.contract().level.as_ref().map(|l| l.number), Some(3));
    }

    #[test]
    fn the_champion_level_has_no_mistakes_and_an_ordinary_export_has_no_level() {
        let d = tempfile::tempdir().unwrap();
        run(args("level:5", &d.path().join("l5"))).unwrap();
        let l = policy::export::read_contract(&d.path().join("l5")).unwrap().level.unwrap();
        assert_eq!((l.number, l.mistake_rate), (5, 0.0));
        run(args("quick-4p", &d.path().join("plain"))).unwrap();
        let text = std::fs::read_to_string(d.path().join("plain").join(policy::export::CONTRACT_FILE)).unwrap();
        assert!(!text.contains("\"level\""), "an ordinary bundle has no level section");
    }

    #[test]
    fn a_bad_level_or_a_ladder_without_it_is_an_error_saying_what_to_do() {
        let d = tempfile::tempdir().unwrap();
        for bad in ["level:0", "level:6", "level:x", "level:", "level:-1"] {
            let e = run(args(bad, &d.path().join("x"))).unwrap_err().to_string();
            assert!(e.contains("is not a difficulty level") && e.contains("level:1 (beginner)"), "{bad}: {e}");
            assert!(e.contains("level:5 (champion)"), "{bad}: {e}");
        }
        let other = d.path().join("other.json");
        let text = std::fs::read_to_string(repo().join(eval::ladder::shipped("kessel")))
            .unwrap()
            .replace("\"level:3\"", "\"level:33\"");
        std::fs::write(&other, text).unwrap();
        let mut a = args("level:3", &d.path().join("y"));
        a.ladder = Some(other);
        let e = run(a).unwrap_err().to_string();
        assert!(e.contains("rates no `level:3`") && e.contains("--ladder"), "{e}");
        let mut a = args("quick-4p", &d.path().join("z"));
        a.ladder = Some(repo().join(eval::ladder::shipped("kessel")));
        assert!(run(a).unwrap_err().to_string().contains("only to `sabacc export level:N`"));
        assert!(!d.path().join("x").exists() && !d.path().join("y").exists() && !d.path().join("z").exists());
    }

    /// A ladder that rated other weights than the champion's today is refused: the bundle would
    /// carry a rating its network never earned.
    #[test]
    fn a_ladder_that_rated_other_weights_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let mut ladder = eval::ladder::Ladder::read(&repo().join(eval::ladder::shipped("kessel"))).unwrap();
        let pin = ladder.networks.iter_mut().find(|n| n.folder == "checkpoints/champion").unwrap();
        pin.model_sha256 = "0".repeat(64);
        let stale = d.path().join("stale.json");
        std::fs::write(&stale, ladder.to_json()).unwrap();
        let mut a = args("level:2", &d.path().join("out"));
        a.ladder = Some(stale);
        let e = format!("{:#}", run(a).unwrap_err());
        for want in ["stale.json", "checkpoints/champion", "`level:2`", "do not hold", "Rebuild the ladder"] {
            assert!(e.contains(want), "wanted `{want}` in: {e}");
        }
        assert!(!d.path().join("out").exists(), "nothing is written");
    }
}
