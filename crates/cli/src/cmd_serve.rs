//! `sabacc serve`: the HTTP + JSON play server (`docs/api.md`). The server itself is the
//! `server` crate; this only turns flags into its settings.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The checkpoint offered by default when it is present (a fresh clone has it): the strongest
/// shipped policy, which plays its most probable action (`@argmax`) as an opponent and gives its
/// full probabilities as hints.
const SHIPPED_CHECKPOINT: &str = "checkpoints/champion";
/// How the shipped checkpoint sits at the table: the mode its published figures are for.
const SHIPPED_OPPONENT: &str = "checkpoints/champion@argmax";

/// Arguments of `sabacc serve` (and of `sabacc play`, which adds `--open`).
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (loopback by default: the API has no authentication).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Opponents of the default table, taken in turn by seats 1, 2, … [default: expert, plus
    /// checkpoints/champion playing its most probable action, when that folder exists]
    #[arg(long, value_delimiter = ',')]
    agents: Vec<String>,
    /// Agent asked for hints (probabilities and value for a policy, action values for search)
    /// [default: checkpoints/champion when that folder exists, else none]
    #[arg(long)]
    hint: Option<String>,
    /// Table size of the default table.
    #[arg(long, default_value_t = 4, value_parser = crate::args::int_in::<usize>(2, 8), allow_negative_numbers = true)]
    players: usize,
    /// Most games held at once.
    #[arg(long, default_value_t = 1024, value_parser = crate::args::int_in::<usize>(1, 1_000_000), allow_negative_numbers = true)]
    max_games: usize,
    /// Seconds after which an unused game is dropped.
    #[arg(long, default_value_t = 1800.0, value_parser = crate::args::seconds, allow_negative_numbers = true)]
    idle_timeout: f64,
    /// Folder where finished games are saved as JSON replays (`ID.json`).
    #[arg(long)]
    save: Option<PathBuf>,
    /// Seed from which each game's deal is derived (a game may also name its own seed).
    #[arg(long, default_value_t = 0, value_parser = crate::args::int_in::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: u64,
}

impl Args {
    /// The server's settings.
    fn settings(&self) -> server::Settings {
        let shipped = Path::new(SHIPPED_CHECKPOINT).join(policy::METADATA_FILE).is_file();
        let opponents = if self.agents.is_empty() {
            let mut v = vec!["expert".to_string()];
            if shipped {
                v.push(SHIPPED_OPPONENT.to_string());
            }
            v
        } else {
            self.agents.clone()
        };
        let hint = self.hint.clone().or_else(|| shipped.then(|| SHIPPED_CHECKPOINT.to_string()));
        server::Settings {
            max_games: self.max_games,
            idle_timeout: Duration::from_secs_f64(self.idle_timeout),
            save_dir: self.save.clone(),
            opponents,
            players: self.players,
            hint,
            seed: self.seed,
            ..server::Settings::default()
        }
    }

    /// Checks the settings and starts serving in the background.
    pub fn start(&self) -> anyhow::Result<server::Running> {
        let settings = self.settings();
        println!(
            "opponents: {}; hints: {}",
            settings.opponents.join(", "),
            settings.hint.as_deref().unwrap_or("none (--hint SPEC)")
        );
        let app = server::AppState::new(settings)?;
        Ok(server::Running::start(&self.addr, app)?)
    }
}

/// Runs `sabacc serve` until Ctrl-C.
pub fn run(a: Args) -> anyhow::Result<()> {
    let running = a.start()?;
    println!("serving the API on http://{} (docs/api.md); Ctrl-C stops", running.addr());
    running.wait_for_ctrl_c()?;
    Ok(())
}
