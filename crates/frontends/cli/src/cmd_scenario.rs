//! `sabacc scenario`: load a position from a JSON scenario, apply actions by name or index,
//! print the resulting position, the events those actions produced and, if a round or the game
//! ended, the settlement. Text is written for people by [`games::kessel::render`]; `--json` writes the
//! position in the scenario format itself (card names, seat lists, piles top first), so it can be
//! loaded again.
//!
//! With `--game classic` the file is a classic Sabacc scenario (`docs/rules-classic.md`,
//! "Scenario files"), loaded by [`classic::Scenario`] and rendered by [`classic::render`]; see
//! `run_classic`.

use anyhow::{Result, anyhow, bail};
use env::Game;
use game::Seat;
use games::classic;
use games::kessel::{Action, Kessel, Scenario, Settlement, State, render};
use serde::Serialize;

/// Arguments of `sabacc scenario`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario file (format: docs/scenarios.md; with `--game classic`,
    /// docs/rules-classic.md, "Scenario files").
    file: std::path::PathBuf,
    /// The game of the scenario: Kessel Sabacc or classic Sabacc.
    #[arg(long, default_value_t, value_parser = crate::args::game())]
    game: games::GameId,
    /// Actions to apply, comma separated, by name (`stand`, `draw:sand-deck`, `keep:drawn`,
    /// `token:embargo`, `target:+1`, `die:2`, …) or by index 0–47 (README's action table).
    /// Classic Sabacc: `check`, `bet:2`, `match`, `raise:1`, `call`, `exchange`, `drop:0`, … or
    /// an index 0–43.
    #[arg(long, value_delimiter = ',')]
    actions: Vec<String>,
    /// After the actions, ask these agents (comma-separated agent specs, as for `eval`) about the
    /// pending decision: a policy's probabilities for the legal actions and its value estimate,
    /// search's mean score per action, or a bot's choice.
    #[arg(long, value_delimiter = ',')]
    ask: Vec<String>,
    /// After the actions, compare every way of playing the pending token decision: hold (no
    /// token now) or play each playable token (at each target), each finished many times by these
    /// agents (comma-separated specs, cycled to fill the seats) under common random numbers.
    /// Before each rollout, what the deciding seat cannot see (opponents' unknown cards, the draw
    /// piles' order, unplayed tokens it cannot know) is resampled from its view, so the verdict
    /// uses only what that seat knows. Kessel Sabacc only.
    #[arg(long, value_delimiter = ',')]
    branch: Vec<String>,
    /// Rollouts per branch for `--branch`.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    continuations: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The `--json` output: the position as a scenario, and what happened, in the same vocabulary.
#[derive(Serialize)]
struct Output {
    /// The position reached, in the scenario format (`null` at the reveal or after the game).
    position: Option<Scenario>,
    /// Whose decision it is and what it is.
    decision: String,
    /// One line per event, as in the text output.
    events: Vec<String>,
    legal_actions: Vec<String>,
    settlement: Option<SettlementOut>,
    /// Per seat: `in-progress`, `won`, `shared-win`, `lost` or `truncated`.
    outcome: Vec<String>,
    /// What each `--ask` agent thinks of the pending decision (empty without `--ask`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ask: Vec<AskOut>,
    /// The `--branch` study of the pending decision (empty without `--branch`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    branch: Vec<research::timing::BranchValue>,
}

/// The `--branch` study: every branch of the pending decision, finished `continuations` times.
fn branch_study(
    specs: &[String],
    state: &State,
    continuations: u32,
    seed: u64,
) -> Result<Vec<research::timing::BranchValue>> {
    if specs.is_empty() {
        return Ok(Vec::new());
    }
    let Some(seat) = state.current_player() else {
        bail!("--branch: the position has no pending decision (the game is over)");
    };
    if !state.legal_actions().iter().any(|a| matches!(a, Action::PlayToken(_))) {
        bail!(
            "--branch: seat {} has no playable token at this decision; --branch compares playing a token now \
             with holding it (legal now: {})",
            seat.0,
            state.legal_actions().iter().map(|a| a.name()).collect::<Vec<_>>().join(", ")
        );
    }
    let n = state.num_players();
    let lineup = eval::arena::lineup(specs, n).map_err(|e| anyhow!("--branch: {e}"))?;
    for (i, text) in lineup.iter().enumerate() {
        let spec = agents::AgentSpec::parse::<Kessel>(text).map_err(|e| anyhow!("--branch[{i}]: {e}"))?;
        for w in agents::fit_warnings::<Kessel>(&spec, state.config()) {
            eprintln!("warning: {w}");
        }
    }
    let position = research::timing::Position {
        game: 0,
        state: state.clone(),
        seat,
        seating: (0..n as usize).collect(),
        choice: None,
    };
    let registry = agents::Agents::new();
    let outcomes = research::timing::rollouts(&[position], &lineup, continuations, seed, &registry, &|_| {})
        .map_err(|e| anyhow!("--branch: {e}"))?;
    Ok(outcomes[0].values())
}

fn print_branch(values: &[research::timing::BranchValue], seat: Option<Seat>, continuations: u32) {
    if values.is_empty() {
        return;
    }
    println!(
        "\nbranches for seat {} ({continuations} rollouts each, hidden cards resampled from its view, common random \
         numbers; 95% intervals):",
        seat.map(|s| s.0).unwrap_or(0)
    );
    println!("  {:<26} {:>22} {:>24} {:>26}", "branch", "win share", "chips by round end", "win vs hold (pp)");
    for v in values {
        println!(
            "  {:<26} {:>22} {:>24} {:>26}",
            v.branch,
            format!("{:.3} [{:.3}, {:.3}]", v.win.mean, v.win.low, v.win.high),
            v.chips.display(1.0, 2),
            v.win_vs_hold.map(|d| d.display(100.0, 1)).unwrap_or_else(|| "—".into())
        );
    }
}

/// One agent's advice in the `--json` output.
#[derive(Serialize)]
struct AskOut {
    agent: String,
    seat: u8,
    /// `policy`, `search` or `bot`.
    kind: &'static str,
    /// Legal actions with a probability (policy) or a mean score (search).
    actions: Vec<(String, f64)>,
    /// The policy's value estimate.
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<f32>,
    /// The bot's choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    choice: Option<String>,
}

/// Asks every `--ask` agent about the pending decision of `state` (seeded from the scenario).
fn ask_all(specs: &[String], state: &State, seed: u64) -> Result<Vec<AskOut>> {
    if specs.is_empty() {
        return Ok(Vec::new());
    }
    let Some(seat) = state.current_player() else {
        bail!("--ask: the position has no pending decision to ask about (the game is over)");
    };
    let registry = agents::Agents::new();
    let view = state.view(seat);
    let legal = state.legal_mask();
    let mut out = Vec::new();
    for (i, text) in specs.iter().enumerate() {
        let spec = agents::AgentSpec::parse::<Kessel>(text).map_err(|e| anyhow!("--ask[{i}]: {e}"))?;
        for w in agents::fit_warnings::<Kessel>(&spec, state.config()) {
            eprintln!("warning: {w}");
        }
        let advice =
            agents::ask::<Kessel>(&registry, &spec, &view, legal, seed).map_err(|e| anyhow!("--ask[{i}]: {e}"))?;
        let mut a = AskOut {
            agent: spec.to_string(),
            seat: seat.0,
            kind: "bot",
            actions: Vec::new(),
            value: None,
            choice: None,
        };
        match advice {
            agents::Advice::Policy { probabilities, value } => {
                a.kind = "policy";
                a.actions = probabilities.into_iter().map(|(x, p)| (x.name(), p as f64)).collect();
                a.value = Some(value);
            }
            agents::Advice::Search { values } => {
                a.kind = "search";
                a.actions = values.into_iter().map(|(x, v)| (x.name(), v)).collect();
            }
            agents::Advice::Bot { choice } => a.choice = Some(choice.name()),
        }
        out.push(a);
    }
    Ok(out)
}

fn print_ask(asks: &[AskOut]) {
    for a in asks {
        match a.kind {
            "policy" => println!(
                "
{} (policy) for seat {}: value {:+.3}; probability of each legal action:",
                a.agent,
                a.seat,
                a.value.unwrap_or(f32::NAN)
            ),
            "search" => println!(
                "
{} (search) for seat {}: mean score of each legal action:",
                a.agent, a.seat
            ),
            _ => println!(
                "
{} (bot) for seat {} would play: {}",
                a.agent,
                a.seat,
                a.choice.as_deref().unwrap_or("?")
            ),
        }
        for (name, x) in &a.actions {
            println!("  {name:<22} {x:>8.3}");
        }
        if a.kind == "search" && a.actions.is_empty() {
            println!("  no sampled world matched the view");
        }
    }
}

#[derive(Serialize)]
struct SettlementOut {
    round: u16,
    winners: Vec<u8>,
    seats: Vec<SeatOut>,
}

#[derive(Serialize)]
struct SeatOut {
    seat: u8,
    hand: [String; 2],
    hand_class: String,
    winner: bool,
    pot_returned: u16,
    pot_lost: u16,
    tax: u16,
    stock_after: u16,
    eliminated: bool,
}

/// Parses one `--actions` entry: an action name or an index of the env's action space.
fn parse_action(i: usize, text: &str) -> Result<Action> {
    let t = text.trim();
    if let Ok(index) = t.parse::<i64>() {
        let num_actions = Kessel::SPEC.num_actions;
        if !(0..num_actions as i64).contains(&index) {
            bail!("--actions[{i}]: index {index} is outside the action space 0..={}", num_actions - 1);
        }
        return Action::from_index(index as usize)
            .ok_or_else(|| anyhow!("--actions[{i}]: index {index} names no action (see the README's action table)"));
    }
    Action::parse(t).ok_or_else(|| {
        anyhow!(
            "--actions[{i}]: `{t}` is neither an action name (stand, draw:sand-deck, keep:drawn, token:embargo, \
             target:+1, die:2, …) nor an index 0..={}",
            Kessel::SPEC.num_actions - 1
        )
    })
}

/// Runs `sabacc scenario`.
pub fn run(a: Args) -> Result<()> {
    if a.game.name() == classic::Classic::SPEC.game {
        return run_classic(a);
    }
    let file = agents::shipped::input(&a.file, "the scenario")?;
    let text = std::fs::read_to_string(&file).map_err(|e| anyhow!("cannot read {}: {e}", a.file.display()))?;
    let mut state = Scenario::from_json(&text).map_err(|e| anyhow!("{}: {e}", a.file.display()))?;
    let seed = serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| v["seed"].as_u64()).unwrap_or(0);
    let actions: Vec<Action> = a.actions.iter().enumerate().map(|(i, t)| parse_action(i, t)).collect::<Result<_>>()?;
    let settled_before = state.last_settlement().map(|s| s.round);
    for (i, &action) in actions.iter().enumerate() {
        state.apply(action).map_err(|e| {
            let legal: Vec<String> = state.legal_actions().iter().map(|a| a.name()).collect();
            anyhow!("--actions[{i}]: {e}; legal now: {}", legal.join(", "))
        })?;
    }
    let settlement = state.last_settlement().filter(|s| Some(s.round) != settled_before);
    let n = state.num_players();
    let legal: Vec<String> = state.legal_actions().iter().map(|a| a.name()).collect();
    let ask: Vec<String> = a.ask.iter().map(|s| agents::shipped::agent::<Kessel>(s)).collect::<Result<_, _>>()?;
    let branch: Vec<String> = a.branch.iter().map(|s| agents::shipped::agent::<Kessel>(s)).collect::<Result<_, _>>()?;
    let asks = ask_all(&ask, &state, seed)?;
    let branch = branch_study(&branch, &state, a.continuations, seed)?;
    if a.json {
        let out = Output {
            position: Scenario::from_state(&state, seed),
            decision: render::decision(&state),
            events: state.events().iter().map(render::event).collect(),
            legal_actions: legal,
            settlement: settlement.map(settlement_out),
            outcome: (0..n).map(|s| render::outcome(state.outcome(Seat(s)))).collect(),
            ask: asks,
            branch,
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    print!("{}", render::report(&state, Some(state.events()), settlement));
    print_ask(&asks);
    print_branch(&branch, state.current_player(), a.continuations);
    Ok(())
}

fn settlement_out(s: &Settlement) -> SettlementOut {
    SettlementOut {
        round: s.round,
        winners: s.winners.iter().map(|x| x.0).collect(),
        seats: s
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                r.map(|r| SeatOut {
                    seat: i as u8,
                    hand: [r.hand[0].name(), r.hand[1].name()],
                    hand_class: render::hand_class(r.class),
                    winner: r.winner,
                    pot_returned: r.pot_returned,
                    pot_lost: r.pot_lost,
                    tax: r.tax,
                    stock_after: r.stock_after,
                    eliminated: r.eliminated,
                })
            })
            .collect(),
    }
}

/// The `--json` output for a classic Sabacc scenario.
#[derive(Serialize)]
struct ClassicOutput {
    /// The position reached, in the classic scenario format (`null` once the game is over).
    position: Option<classic::Scenario>,
    /// Whose decision it is and what it is.
    decision: String,
    legal_actions: Vec<String>,
    /// One line per event the actions produced, as in the text output.
    events: Vec<String>,
    /// Per seat: `in-progress`, `won`, `shared-win (of k)`, `lost` or `truncated`.
    outcome: Vec<String>,
    /// Each `--ask` agent's choice at the pending decision (empty without `--ask`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ask: Vec<ClassicAskOut>,
}

/// One agent's choice in the classic `--json` output.
#[derive(Serialize)]
struct ClassicAskOut {
    agent: String,
    seat: u8,
    choice: String,
}

/// Parses one classic `--actions` entry: an action name or an index 0..=43.
fn parse_classic_action(i: usize, text: &str, state: &classic::State) -> Result<classic::Action> {
    let t = text.trim();
    classic::Action::parse(t).ok_or_else(|| {
        anyhow!(
            "--actions[{i}]: `{t}` is neither a classic action name (check, bet:2, fold, match, raise:1, stay, call, \
             decline-call, pass, draw, exchange, drop:0, …) nor an index 0..={}; legal now: {}",
            classic::NUM_ACTIONS - 1,
            classic_legal(state).join(", ")
        )
    })
}

/// The legal actions of a classic position by name, or `none` once the game is over.
fn classic_legal(state: &classic::State) -> Vec<String> {
    let legal: Vec<String> = state.legal_actions().iter().map(|a| a.name()).collect();
    if legal.is_empty() { vec!["none".to_string()] } else { legal }
}

/// Asks every `--ask` agent for its action at the pending decision of a classic `state`, each
/// with its own agent RNG seeded from `seed` (the scenario's), so a file gives the same answers
/// every time.
fn ask_classic(specs: &[String], state: &classic::State, seed: u64) -> Result<Vec<ClassicAskOut>> {
    use rand::SeedableRng as _;
    if specs.is_empty() {
        return Ok(Vec::new());
    }
    let Some(seat) = state.current_player() else {
        bail!("--ask: the position has no pending decision to ask about (the game is over)");
    };
    let registry = agents::Agents::new();
    let view = state.view(seat);
    let legal = state.legal_mask();
    let mut out = Vec::new();
    for (i, text) in specs.iter().enumerate() {
        let mut agent = registry.build::<classic::Classic>(text).map_err(|e| anyhow!("--ask[{i}]: {e}"))?;
        let mut rng = env::AgentRng::seed_from_u64(seed);
        let choice = agent.act(&view, legal, &mut rng).map_err(|e| anyhow!("--ask[{i}]: {e}"))?;
        if !legal.contains(choice) {
            bail!("--ask[{i}]: {} chose `{}`, which is not legal here", agent.name(), choice.name());
        }
        out.push(ClassicAskOut { agent: agent.name().to_string(), seat: seat.0, choice: choice.name() });
    }
    Ok(out)
}

/// `sabacc scenario --game classic`: loads a classic Sabacc scenario (validated by
/// [`classic::Scenario`]), applies `--actions`, and prints the position reached, the events the
/// actions produced and each seat's outcome ([`classic::render`]), or with `--json` the position
/// reached in the scenario format, so it loads again. `--ask` gives each agent's choice at the
/// pending decision; `--branch` compares Shift Token plays and is refused.
fn run_classic(a: Args) -> Result<()> {
    use classic::render;
    if !a.branch.is_empty() {
        bail!(
            "--branch compares ways of playing a Shift Token, which classic Sabacc does not have; \
             it works with --game kessel only"
        );
    }
    let file = agents::shipped::input(&a.file, "the scenario")?;
    let text = std::fs::read_to_string(&file).map_err(|e| anyhow!("cannot read {}: {e}", a.file.display()))?;
    let scenario = classic::Scenario::parse(&text).map_err(|e| anyhow!("{}: {e}", a.file.display()))?;
    let mut state = scenario.build().map_err(|e| anyhow!("{}: {e}", a.file.display()))?;
    state.set_event_logging(true);
    let logged_before = state.events().len();
    for (i, t) in a.actions.iter().enumerate() {
        let action = parse_classic_action(i, t, &state)?;
        state
            .apply(action)
            .map_err(|e| anyhow!("--actions[{i}]: {e}; legal now: {}", classic_legal(&state).join(", ")))?;
    }
    let events: Vec<String> = state.events()[logged_before..].iter().map(render::event).collect();
    let outcome: Vec<String> =
        (0..state.num_players()).map(|s| render::outcome(state.outcome(game::Seat(s)))).collect();
    let ask: Vec<String> =
        a.ask.iter().map(|s| agents::shipped::agent::<classic::Classic>(s)).collect::<Result<_, _>>()?;
    let asks = ask_classic(&ask, &state, scenario.seed)?;
    if a.json {
        let out = ClassicOutput {
            position: classic::Scenario::from_state(&state),
            decision: render::decision(&state),
            legal_actions: state.legal_actions().iter().map(|x| x.name()).collect(),
            events,
            outcome,
            ask: asks,
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    print!("{}", render::position(&state));
    println!("\nwhat happened:");
    if events.is_empty() {
        println!("  nothing yet");
    }
    for e in &events {
        println!("  {e}");
    }
    let per_seat: Vec<String> = outcome.iter().enumerate().map(|(i, o)| format!("seat {i} {o}")).collect();
    println!("\noutcome: {}", per_seat.join(", "));
    for x in &asks {
        println!("\n{} for seat {} would play: {}", x.agent, x.seat, x.choice);
    }
    Ok(())
}
