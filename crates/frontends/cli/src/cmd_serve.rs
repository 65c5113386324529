//! `sabacc serve`: the HTTP + JSON play server (`docs/api.md`) with its web page at `/`. The
//! server itself is the `server` crate; this only turns flags into its settings.

use env::GameId;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The checkpoint of the default table: the strongest shipped policy, which plays its most
/// probable action (`@argmax`, the mode its published figures are for) as an opponent and gives
/// its full probabilities as hints. Found from any folder (`agents::shipped`); when it is nowhere,
/// the default table is refused rather than served without it.
const SHIPPED_CHECKPOINT: &str = "checkpoints/champion";
/// The same for classic Sabacc's default table.
const SHIPPED_CLASSIC: &str = "checkpoints/classic-champion";
/// `--hint none`: serve without a hint agent.
const NO_HINT: &str = "none";

/// Arguments of `sabacc serve` (and of `sabacc play`, which adds `--open`).
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on. Loopback by default; any other address needs --public.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Serve beyond this machine (an --addr that is not loopback): anyone who reaches the
    /// address can create games and watch them; each person's seat stays theirs (seat
    /// secrets), and the limits per client below apply.
    #[arg(long)]
    public: bool,
    /// Unfinished games one client (IP address) may hold at once.
    #[arg(long, default_value_t = 32, value_parser = crate::args::int_in::<usize>(1, 1_000_000), allow_negative_numbers = true)]
    max_games_per_client: usize,
    /// Requests per second one client may make on average (0: no limit).
    #[arg(long, default_value_t = 50.0, value_parser = crate::args::non_negative, allow_negative_numbers = true)]
    rate: f64,
    /// Requests one client may make at once before --rate applies.
    #[arg(long, default_value_t = 200, value_parser = crate::args::int_in::<usize>(1, 1_000_000), allow_negative_numbers = true)]
    burst: usize,
    /// Opponents of the default table, taken in turn by seats 1, 2, … [default: expert and the
    /// shipped checkpoints/champion, playing its most probable action (argmax)]
    #[arg(long, value_delimiter = ',')]
    agents: Vec<String>,
    /// Agent asked for hints (probabilities and value for a policy, action values for search),
    /// or `none` [default: checkpoints/champion]
    #[arg(long)]
    hint: Option<String>,
    /// Classic Sabacc's opponents of the default table [default: expert and the shipped
    /// checkpoints/classic-champion, argmax]
    #[arg(long, value_delimiter = ',')]
    classic_agents: Vec<String>,
    /// Agent asked for hints on classic Sabacc decisions, or `none` [default:
    /// checkpoints/classic-champion]
    #[arg(long)]
    classic_hint: Option<String>,
    /// The game the page offers first and the API plays when a request names none.
    #[arg(long, default_value_t, value_parser = crate::args::game())]
    game: GameId,
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
    /// Seed from which each game's deal is derived, for reproducible games (tests, research):
    /// anyone who knows it can recompute every deal, so leave it out when people play each
    /// other [default: a secret seed drawn at start]. A game may also name its own seed.
    #[arg(long, value_parser = crate::args::int_in::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: Option<u64>,
}

impl Args {
    /// The server's settings. Agent specs are looked up from any folder (`agents::shipped`); the
    /// defaults need the shipped champion and are refused, naming it, when it is nowhere.
    fn settings(&self) -> anyhow::Result<server::Settings> {
        let kessel = defaults(&self.agents, self.hint.as_deref(), SHIPPED_CHECKPOINT, GameId::Kessel)?;
        // Classic Sabacc's table is the page's second choice: without its shipped champion it is
        // served with `expert` and no hints, and says so, rather than refusing the whole server.
        let classic =
            match defaults(&self.classic_agents, self.classic_hint.as_deref(), SHIPPED_CLASSIC, GameId::Classic) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("note: classic Sabacc is served with `expert` opponents and no hints: {e}");
                    server::TableDefaults::default()
                }
            };
        Ok(server::Settings {
            max_games: self.max_games,
            idle_timeout: Duration::from_secs_f64(self.idle_timeout),
            save_dir: self.save.clone(),
            game: self.game,
            kessel,
            classic,
            players: self.players,
            seed: self.seed,
            max_games_per_client: self.max_games_per_client,
            requests_per_second: self.rate,
            burst: self.burst,
            ..server::Settings::default()
        })
    }

    /// Checks the settings and starts serving in the background.
    pub fn start(&self) -> anyhow::Result<server::Running> {
        let public = exposure(&self.addr, self.public)?;
        let settings = self.settings()?;
        println!(
            "opponents: {}; hints: {}",
            settings.kessel.opponents.join(", "),
            settings.kessel.hint.as_deref().unwrap_or("none (--hint SPEC gives them)")
        );
        println!(
            "classic Sabacc: opponents: {}; hints: {}",
            settings.classic.opponents.join(", "),
            settings.classic.hint.as_deref().unwrap_or("none (--classic-hint SPEC gives them)")
        );
        if public {
            println!(
                "public: anyone who reaches {} can open the page, create games (at most {} unfinished per \
                 address, {} requests/s, bursts of {}) and watch any game; a seat's cards, hints and actions \
                 need its secret, given only to the game's creator; replays of finished games show every hand. \
                 There is no TLS: put a TLS proxy in front to keep seat secrets off the wire.",
                self.addr, self.max_games_per_client, self.rate, self.burst
            );
        }
        let app = server::AppState::new(settings)?;
        Ok(server::Running::start(&self.addr, app)?)
    }
}

/// Whether `addr` reaches beyond this machine; refused unless `public` says so on purpose.
fn exposure(addr: &str, public: bool) -> anyhow::Result<bool> {
    use std::net::ToSocketAddrs;
    let resolved: Vec<std::net::SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|e| anyhow::anyhow!("--addr {addr}: not an address to listen on ({e}); e.g. 127.0.0.1:8080"))?
        .collect();
    let beyond = resolved.iter().any(|a| !a.ip().is_loopback());
    if beyond && !public {
        anyhow::bail!(
            "--addr {addr} is reachable from other machines: anyone there could create and watch games. \
             Add --public to serve it anyway (docs/api.md, \"Serving beyond this machine\"), or listen on \
             127.0.0.1"
        );
    }
    Ok(beyond)
}

/// One game's default opponents and hint agent: the flags' specs (looked up from any folder),
/// or `expert` and the shipped `checkpoint` (refused, naming it, when it is nowhere).
fn defaults(
    agents: &[String],
    hint: Option<&str>,
    checkpoint: &str,
    game: GameId,
) -> anyhow::Result<server::TableDefaults> {
    let flag_prefix = server::flag_prefix(game);
    let shipped = |needed_for: &str| {
        agents::shipped::find(&Path::new(checkpoint).join(policy::METADATA_FILE))
            .and_then(|meta| meta.parent().map(Path::to_path_buf))
            .ok_or_else(|| {
                agents::shipped::missing(
                    Path::new(checkpoint),
                    needed_for,
                    &format!("name the agents yourself (e.g. --{flag_prefix}agents expert --{flag_prefix}hint none)"),
                )
            })
    };
    let opponents = if agents.is_empty() {
        vec!["expert".to_string(), format!("{}@argmax", shipped("the default table's opponent and hints")?.display())]
    } else {
        agents.iter().map(|s| agents::shipped::spec(s)).collect()
    };
    let hint = match hint.map(str::trim) {
        Some(NO_HINT) => None,
        Some(spec) => Some(agents::shipped::spec(spec)),
        None => Some(shipped("the default hints")?.display().to_string()),
    };
    Ok(server::TableDefaults { opponents, hint })
}

/// Runs `sabacc serve` until Ctrl-C.
pub fn run(a: Args) -> anyhow::Result<()> {
    let running = a.start()?;
    println!(
        "serving the play page on http://{0}/ and the API under http://{0}/api (docs/api.md); Ctrl-C stops",
        running.addr()
    );
    running.wait_for_ctrl_c()?;
    Ok(())
}
