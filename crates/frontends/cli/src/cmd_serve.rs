//! `sabacc serve`: the HTTP + JSON play server (`docs/api.md`) with its web page at `/`. The
//! server itself is the `server` crate; this only turns flags into its settings.

use games::GameId;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
    /// Games one client (IP address) may hold at once, finished ones until they are dropped.
    #[arg(long, default_value_t = 32, value_parser = crate::args::int_in::<usize>(1, 1_000_000), allow_negative_numbers = true)]
    max_games_per_client: usize,
    /// Requests per second one client may make on average (0: no limit).
    #[arg(long, default_value_t = 50.0, value_parser = crate::args::non_negative, allow_negative_numbers = true)]
    rate: f64,
    /// Requests one client may make at once before --rate applies.
    #[arg(long, default_value_t = 200, value_parser = crate::args::int_in::<usize>(1, 1_000_000), allow_negative_numbers = true)]
    burst: usize,
    /// Opponents of the default tables, taken in turn by seats 1, 2, …: `SPEC` for the --game
    /// table, `GAME:SPEC` (`classic:expert`) for another game's [default, for each game: its
    /// default bot and its shipped champion playing its most probable action (argmax)]
    #[arg(long, value_delimiter = ',')]
    agents: Vec<String>,
    /// Agent asked for hints (probabilities and value for a policy, action values for search):
    /// `SPEC` or `GAME:SPEC` as for --agents (repeat for several games), or `none` / `GAME:none`
    /// [default, for each game: its shipped champion]
    #[arg(long)]
    hint: Vec<String>,
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
    /// Seconds after which a finished game nobody reads is dropped (finished games count
    /// against a client's games until then).
    #[arg(long, default_value_t = 120.0, value_parser = crate::args::seconds, allow_negative_numbers = true)]
    finished_timeout: f64,
    /// Folder where finished games are saved as JSON replays (`ID.json`).
    #[arg(long)]
    save: Option<PathBuf>,
    /// Seed from which each game's deal is derived, for reproducible games (tests, research):
    /// anyone who knows it can recompute every deal, so leave it out when people play each
    /// other [default: a secret seed drawn at start]. A game may also name its own seed.
    #[arg(long, value_parser = crate::args::int_in::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Let requests name any checkpoint or bundle folder the server can read, not only the
    /// shipped ones it lists: only for a server that only trusted people can reach.
    #[arg(long)]
    allow_paths: bool,
    /// Largest search budget (sampled worlds per decision) a request may name.
    #[arg(long, default_value_t = server::DEFAULT_MAX_SEARCH, value_parser = crate::args::int_in::<u32>(1, 100_000), allow_negative_numbers = true)]
    max_search: u32,
    /// Seconds one request may keep agents playing; past it they stop between two decisions
    /// and go on at the game's next request.
    #[arg(long, default_value_t = 20.0, value_parser = crate::args::seconds, allow_negative_numbers = true)]
    request_time: f64,
    /// Seconds a request's headers may take to arrive; past it the connection is closed.
    #[arg(long, default_value_t = 10.0, value_parser = crate::args::seconds, allow_negative_numbers = true)]
    header_timeout: f64,
    /// Seconds a request's body may take to arrive after its headers; past it, 408.
    #[arg(long, default_value_t = 10.0, value_parser = crate::args::seconds, allow_negative_numbers = true)]
    body_timeout: f64,
    /// Seconds a connection may stay silent both ways (keep-alive included) before it is closed.
    #[arg(long, default_value_t = 60.0, value_parser = crate::args::seconds, allow_negative_numbers = true)]
    connection_idle_timeout: f64,
    /// Most connections open at once; one more is answered 503.
    #[arg(long, default_value_t = 512, value_parser = crate::args::int_in::<usize>(1, 1_000_000), allow_negative_numbers = true)]
    max_connections: usize,
    /// Connections one client (IP address) may hold open at once; one more is answered 429.
    #[arg(long, default_value_t = 32, value_parser = crate::args::int_in::<usize>(1, 1_000_000), allow_negative_numbers = true)]
    max_connections_per_client: usize,
}

impl Args {
    /// The server's settings. Agent specs are looked up from any folder (`agents::shipped`); the
    /// defaults need the shipped champion and are refused, naming it, when it is nowhere.
    fn settings(&self) -> anyhow::Result<server::Settings> {
        let agents = by_game(&self.agents, self.game);
        let hints = by_game(&self.hint, self.game);
        let mut tables = HashMap::new();
        for game in GameId::all() {
            let opponents = agents.get(&game).map(Vec::as_slice).unwrap_or_default();
            let hint = match hints.get(&game).map(Vec::as_slice) {
                None | Some([]) => None,
                Some([one]) => Some(one.as_str()),
                Some(many) => anyhow::bail!("--hint: {} hint agents for {}; name one", many.len(), game.name()),
            };
            // The --game table must have its agents; another game without its shipped champion
            // is served with its default bot and no hints, and says so.
            match defaults(opponents, hint, game, game == self.game) {
                Ok(d) => {
                    tables.insert(game, d);
                }
                Err(e) if game == self.game => return Err(e),
                Err(e) => eprintln!(
                    "note: {} is served with `{}` opponents and no hints: {e}",
                    game.game_type().name(),
                    game.game_type().default_opponent()
                ),
            }
        }
        Ok(server::Settings {
            max_games: self.max_games,
            idle_timeout: Duration::from_secs_f64(self.idle_timeout),
            finished_timeout: Duration::from_secs_f64(self.finished_timeout),
            save_dir: self.save.clone(),
            game: self.game,
            tables,
            players: self.players,
            seed: self.seed,
            max_games_per_client: self.max_games_per_client,
            requests_per_second: self.rate,
            burst: self.burst,
            // The shipped checkpoints, found from any folder, are what requests may name.
            checkpoint_roots: vec![
                agents::shipped::find(Path::new("checkpoints")).unwrap_or_else(|| PathBuf::from("checkpoints")),
            ],
            allow_paths: self.allow_paths,
            max_search: self.max_search,
            request_time: Duration::from_secs_f64(self.request_time),
            header_timeout: Duration::from_secs_f64(self.header_timeout),
            body_timeout: Duration::from_secs_f64(self.body_timeout),
            connection_idle_timeout: Duration::from_secs_f64(self.connection_idle_timeout),
            max_connections: self.max_connections,
            max_connections_per_client: self.max_connections_per_client,
            ..server::Settings::default()
        })
    }

    /// Checks the settings and starts serving in the background.
    pub fn start(&self) -> anyhow::Result<server::Running> {
        let public = exposure(&self.addr, self.public)?;
        let settings = self.settings()?;
        for game in GameId::all() {
            let d = settings.defaults(game);
            println!(
                "{}: opponents: {}; hints: {}",
                game.game_type().name(),
                d.opponents.join(", "),
                d.hint.as_deref().unwrap_or(&format!("none (--hint {}:SPEC gives them)", game.name()))
            );
        }
        if public {
            println!(
                "public: anyone who reaches {} can open the page, create games (at most {} per \
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

/// The specs of a list of `SPEC` / `GAME:SPEC` entries, by game (`SPEC` alone is `default`'s).
fn by_game(specs: &[String], default: GameId) -> HashMap<GameId, Vec<String>> {
    let mut out: HashMap<GameId, Vec<String>> = HashMap::new();
    for s in specs.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let (game, spec) = match s.split_once(':').and_then(|(g, rest)| GameId::parse(g).ok().map(|g| (g, rest))) {
            Some((g, rest)) => (g, rest.to_string()),
            None => (default, s.to_string()),
        };
        out.entry(game).or_default().push(spec);
    }
    out
}

/// One game's default opponents and hint agent: the flags' specs (looked up from any folder),
/// or the game's default bot and its shipped champion (refused, naming it, when it is nowhere).
fn defaults(agents: &[String], hint: Option<&str>, game: GameId, main: bool) -> anyhow::Result<server::TableDefaults> {
    // The flags' own words: plain specs set the --game table, `GAME:SPEC` another game's.
    let prefix = if main { String::new() } else { format!("{}:", game.name()) };
    let champion = game.game_type().levels_checkpoint();
    let shipped = |needed_for: &str| {
        let Some(checkpoint) = champion else {
            anyhow::bail!(
                "{} ships no champion ({needed_for}); name the agents with --agents {}:SPEC",
                game.game_type().name(),
                game.name()
            );
        };
        agents::shipped::find(&Path::new(checkpoint).join(policy::METADATA_FILE))
            .and_then(|meta| meta.parent().map(Path::to_path_buf))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{}",
                    agents::shipped::missing(
                        Path::new(checkpoint),
                        needed_for,
                        &format!("name the agents yourself (e.g. --agents {prefix}expert --hint {prefix}none)"),
                    )
                )
            })
    };
    let table = agents::dynamic::for_game(game);
    let resolve = |s: &str| table.shipped_spec(s);
    let opponents = if agents.is_empty() {
        let mut o = vec![game.game_type().default_opponent().to_string()];
        if champion.is_some() {
            o.push(format!("{}@argmax", shipped("the default table's opponent and hints")?.display()));
        }
        o
    } else {
        agents.iter().map(|s| resolve(s)).collect()
    };
    let hint = match hint.map(str::trim) {
        Some(NO_HINT) => None,
        Some(spec) => Some(resolve(spec)),
        None if champion.is_some() => Some(shipped("the default hints")?.display().to_string()),
        None => None,
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
