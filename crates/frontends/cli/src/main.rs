//! `sabacc`: one program for the whole project. Each verb lives in its own module; this file only
//! parses arguments and dispatches.

mod args;
mod cmd_agents;
mod cmd_bench;
mod cmd_distil;
mod cmd_eval;
mod cmd_exploit;
mod cmd_export;
mod cmd_ladder;
mod cmd_play;
mod cmd_scenario;
mod cmd_serve;
mod cmd_simulate;
mod cmd_tokens;
mod cmd_train;

use clap::{Parser, Subcommand};

/// mimalloc halves the time burn's CPU backend spends in page faults during PPO updates.
#[global_allocator]
static ALLOC: policy::MiMalloc = policy::MiMalloc;

/// Kessel Sabacc as a reinforcement-learning domain.
#[derive(Parser)]
#[command(name = "sabacc", version, about)]
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

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Scenario(a) => cmd_scenario::run(a),
        Command::Simulate(a) => cmd_simulate::run(a),
        Command::Bench(a) => cmd_bench::run(a),
        Command::Agents(a) => cmd_agents::run(a),
        Command::Eval(a) => cmd_eval::run(a),
        Command::Train(a) => cmd_train::run(a),
        Command::Exploit(a) => cmd_exploit::run(a),
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

#[cfg(test)]
mod tests {
    /// clap checks a command's definition only when it is parsed (in debug builds); this checks
    /// every verb's at once, so a clash such as two argument groups of one name fails here.
    #[test]
    fn every_verb_has_a_valid_definition() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
