//! `sabacc`: one program for the whole project. Each verb lives in its own module; this file only
//! parses arguments and dispatches.

mod args;
mod cmd_agents;
mod cmd_bench;
mod cmd_distil;
mod cmd_eval;
mod cmd_exploit;
mod cmd_exploitability;
mod cmd_export;
mod cmd_gate;
mod cmd_ladder;
mod cmd_play;
mod cmd_scenario;
mod cmd_serve;
mod cmd_simulate;
mod cmd_tokens;
mod cmd_train;

use anyhow::Result;
use clap::{Parser, Subcommand};
use env::Game;
use games::GameId;
use std::marker::PhantomData;
use std::path::Path;

/// mimalloc halves the time burn's CPU backend spends in page faults during PPO updates.
#[global_allocator]
static ALLOC: policy::MiMalloc = policy::MiMalloc;

/// The version and the commit the program was built from (`build.rs`): `0.2.0 (commit 1a2b3c4)`,
/// or `(unknown commit)` for a build outside a git checkout.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("SABACC_COMMIT"), ")");

/// Kessel Sabacc as a reinforcement-learning domain.
#[derive(Parser)]
#[command(name = "sabacc", version = VERSION, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Load a scenario (a JSON position), apply actions, print the result.
    Scenario(cmd_scenario::Args),
    /// Play random legal games and check the engine's invariants in every one.
    Simulate(cmd_simulate::Args),
    /// Measure throughput (engine, env, training).
    Bench(cmd_bench::Args),
    /// List the agents (bots and checkpoints) that `eval` and `train` accept.
    Agents(cmd_agents::Args),
    /// Play agents against each other and report win rates, ratings and token usage.
    Eval(cmd_eval::Args),
    /// Write a checkpoint (or a difficulty level, `level:N`) as an ONNX + safetensors bundle with
    /// its observation/action contract.
    Export(cmd_export::Args),
    /// Token research: what each Shift Token is worth, which loadouts win, what agents pick.
    #[command(subcommand)]
    Tokens(cmd_tokens::Study),
    /// Train a policy by self-play PPO, then evaluate it in the arena.
    Train(cmd_train::Args),
    /// Exploitability proxy: train a best response against a frozen agent for M minutes and
    /// report its win rate, heads-up or against three copies of the agent.
    Exploit(cmd_exploit::Args),
    /// Exact exploitability of an agent of a small game (Leduc hold'em): each seat's
    /// best-response value and NashConv, by walking the whole game tree.
    Exploitability(cmd_exploitability::Args),
    /// The ship gate: agents against a fixed panel of opponents at every table size, each
    /// compared with the one before it on the same deals (worse nowhere, better somewhere).
    Gate(cmd_gate::Args),
    /// Expert iteration: collect a search agent's choices, then fit a network to them.
    #[command(subcommand)]
    Distil(cmd_distil::Step),
    /// A persistent rating scale: build a ladder, rate an agent against it, show it.
    #[command(subcommand)]
    Ladder(cmd_ladder::Step),
    /// Serve the play page and its HTTP + JSON API (games against agents, advice, replays).
    Serve(cmd_serve::Args),
    /// Play Kessel or classic Sabacc in a browser: `serve`, printing the page's address (--open opens it).
    Play(cmd_play::Args),
}

/// The exit status a shell reports for a program stopped by a closed pipe (128 + SIGPIPE).
const CLOSED_PIPE_STATUS: i32 = 141;

/// A reader that stops early (`sabacc agents | head -3`) closes the pipe, and the next print to
/// standard output fails, which `println!` turns into a panic. That ends the program here quietly,
/// with the status other command-line tools end with, instead of a panic and a backtrace.
fn quiet_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info.payload().downcast_ref::<String>().map_or("", String::as_str);
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(CLOSED_PIPE_STATUS);
        }
        report(info);
    }));
}

fn main() {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    // Every command but the server is a batch job: keep freed memory for reuse (a tenth of a
    // training run's time went to zeroing pages handed back and asked for again).
    if !matches!(cli.command, Command::Serve(_) | Command::Play(_)) {
        policy::keep_freed_memory();
    }
    let result = match cli.command {
        Command::Scenario(a) => cmd_scenario::run(a),
        Command::Simulate(a) => cmd_simulate::run(a),
        Command::Bench(a) => cmd_bench::run(a),
        Command::Agents(a) => cmd_agents::run(a),
        Command::Eval(a) => cmd_eval::run(a),
        Command::Train(a) => cmd_train::run(a),
        Command::Exploit(a) => cmd_exploit::run(a),
        Command::Exploitability(a) => cmd_exploitability::run(a),
        Command::Gate(a) => cmd_gate::run(a),
        Command::Tokens(s) => cmd_tokens::run(s),
        Command::Distil(s) => cmd_distil::run(s),
        Command::Export(a) => cmd_export::run(a),
        Command::Ladder(s) => cmd_ladder::run(s),
        Command::Serve(a) => cmd_serve::run(a),
        Command::Play(a) => cmd_play::run(a),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

// The program's one dispatch from a game chosen at run time (`--game`, a config's `game`, a
// checkpoint's metadata) to the verbs' code, which is generic over the game and monomorphised:
// [`verbs`] gives the [`Verbs`] of a registered game, a table built from the registry's one list
// of games.

/// What the verbs run for one game (each method is the verb's generic code for that game).
pub trait Verbs: Sync {
    /// `sabacc train` from the config at `path`.
    fn train(&self, a: &crate::cmd_train::Args, path: &Path) -> Result<()>;
    /// `sabacc eval` with the lineup `agents` at a table of `players`.
    fn eval(&self, a: &crate::cmd_eval::Args, agents: Vec<String>, players: u8) -> Result<()>;
    /// `sabacc simulate`.
    fn simulate(&self, a: &crate::cmd_simulate::Args) -> Result<()>;
    /// `sabacc bench env`: the env's throughput report.
    fn bench_env(&self, seconds: f64) -> env::bench::EnvBenchReport;
    /// `sabacc bench engine`: the engine's figures heads-up and at four seats (or its only size).
    fn bench_engine(&self, seconds: f64) -> Result<Vec<game::bench::EngineFigure>>;
    /// `sabacc bench train` on the config at `path`.
    fn bench_train(&self, path: &Path, opts: &train::bench::BenchOptions) -> Result<train::bench::TrainBenchReport>;
    /// `sabacc exploit` with the best-response config at `config`.
    fn exploit(&self, a: &crate::cmd_exploit::Args, config: &Path) -> Result<()>;
    /// `sabacc exploitability`.
    fn exploitability(&self, a: &crate::cmd_exploitability::Args) -> Result<()>;
    /// `sabacc gate`: every agent against `panel`, each gated against the one before it.
    fn gate(
        &self,
        a: &crate::cmd_gate::Args,
        panel: &eval::gate::Panel,
        agents: &[String],
    ) -> Result<eval::gate::GateReport>;
    /// `sabacc distil collect`.
    fn distil_collect(&self, a: &crate::cmd_distil::CollectArgs) -> Result<()>;
    /// `sabacc ladder` (build, rate or show).
    fn ladder(&self, step: crate::cmd_ladder::Step) -> Result<()>;
    /// `sabacc export` of a checkpoint, or of a level when `level` is given.
    fn export(&self, a: &crate::cmd_export::Request<'_>) -> Result<crate::cmd_export::Exported>;
}

struct For<G>(PhantomData<fn() -> G>);

impl<G> For<G> {
    const NEW: For<G> = For(PhantomData);
}

impl<G: Game> Verbs for For<G> {
    fn train(&self, a: &crate::cmd_train::Args, path: &Path) -> Result<()> {
        crate::cmd_train::run_game::<G>(a, path)
    }
    fn eval(&self, a: &crate::cmd_eval::Args, agents: Vec<String>, players: u8) -> Result<()> {
        crate::cmd_eval::run_game::<G>(a, agents, players)
    }
    fn simulate(&self, a: &crate::cmd_simulate::Args) -> Result<()> {
        crate::cmd_simulate::run_game::<G>(a)
    }
    fn bench_env(&self, seconds: f64) -> env::bench::EnvBenchReport {
        let players = 4.clamp(G::SEATS.0, G::SEATS.1);
        env::bench::run_with(env::GameConfig::<G>::with_players(players), seconds)
    }
    fn bench_engine(&self, seconds: f64) -> Result<Vec<game::bench::EngineFigure>> {
        let mut sizes = vec![2u8.max(G::SEATS.0), 4u8.min(G::SEATS.1)];
        sizes.dedup();
        sizes.into_iter().map(|p| Ok(game::bench::run::<G>(G::rules_with_players(p), seconds)?)).collect()
    }
    fn bench_train(&self, path: &Path, opts: &train::bench::BenchOptions) -> Result<train::bench::TrainBenchReport> {
        let cfg = train::TrainConfig::<G>::load(path)?;
        let bots: train::BotFactory<G> = std::sync::Arc::new(agents::Agents::new());
        train::bench::run(&cfg, bots, opts)
    }
    fn export(&self, a: &crate::cmd_export::Request<'_>) -> Result<crate::cmd_export::Exported> {
        crate::cmd_export::run_game::<G>(a)
    }
    fn exploit(&self, a: &crate::cmd_exploit::Args, config: &Path) -> Result<()> {
        crate::cmd_exploit::run_game::<G>(a, config)
    }
    fn exploitability(&self, a: &crate::cmd_exploitability::Args) -> Result<()> {
        crate::cmd_exploitability::run_game::<G>(a)
    }
    fn gate(
        &self,
        a: &crate::cmd_gate::Args,
        panel: &eval::gate::Panel,
        agents: &[String],
    ) -> Result<eval::gate::GateReport> {
        crate::cmd_gate::run_game::<G>(a, panel, agents)
    }
    fn distil_collect(&self, a: &crate::cmd_distil::CollectArgs) -> Result<()> {
        crate::cmd_distil::collect_game::<G>(a)
    }
    fn ladder(&self, step: crate::cmd_ladder::Step) -> Result<()> {
        crate::cmd_ladder::run_game::<G>(step)
    }
}

macro_rules! tables {
    ($($g:ty),* $(,)?) => {
        [$(&For::<$g>::NEW as &'static dyn Verbs),*]
    };
}

static TABLES: &[&'static dyn Verbs] = &games::registered!(tables);

/// The verbs of `game`.
pub fn verbs(game: GameId) -> &'static dyn Verbs {
    // Made from the registry's list in its order; a `GameId` names an entry of that list.
    TABLES[GameId::all().position(|g| g == game).expect("every GameId is registered")]
}
