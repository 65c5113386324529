//! `sabacc scenario`: load a position from a JSON scenario, apply actions by name, print the
//! resulting state, the events those actions produced and, if a round or the game ended, the
//! settlement.

use anyhow::{Result, anyhow};
use engine::{Action, Family, Pending, Scenario, Seat, Settlement, State};
use serde::Serialize;

/// Arguments of `sabacc scenario`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario file (format: docs/scenarios.md).
    file: std::path::PathBuf,
    /// Actions to apply, comma separated, by name (`stand`, `draw:sand-deck`, `keep:drawn`,
    /// `token:embargo`, `target:+1`, `die:2`, …) or index.
    #[arg(long, value_delimiter = ',')]
    actions: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Output<'a> {
    state: &'a State,
    events: &'a [engine::Event],
    legal_actions: Vec<String>,
    settlement: Option<&'a Settlement>,
    outcome: Vec<engine::Outcome>,
}

/// Runs `sabacc scenario`.
pub fn run(a: Args) -> Result<()> {
    let text = std::fs::read_to_string(&a.file).map_err(|e| anyhow!("cannot read {}: {e}", a.file.display()))?;
    let mut state = Scenario::from_json(&text).map_err(|e| anyhow!("{}: {e}", a.file.display()))?;
    let settled_before = state.last_settlement().map(|s| s.round);
    for (i, name) in a.actions.iter().enumerate() {
        let action = Action::parse(name)
            .ok_or_else(|| anyhow!("--actions[{i}]: `{name}` is not an action name (see docs/scenarios.md)"))?;
        state.apply(action).map_err(|e| {
            let legal: Vec<String> = state.legal_actions().iter().map(|a| a.name()).collect();
            anyhow!("--actions[{i}]: {e}; legal now: {}", legal.join(", "))
        })?;
    }
    let settlement = state.last_settlement().filter(|s| Some(s.round) != settled_before);
    let n = state.num_players();
    if a.json {
        let out = Output {
            state: &state,
            events: state.events(),
            legal_actions: state.legal_actions().iter().map(|a| a.name()).collect(),
            settlement,
            outcome: (0..n).map(|s| state.outcome(Seat(s))).collect(),
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    print_state(&state);
    println!("\nevents:");
    for e in state.events() {
        println!("  {}", serde_json::to_string(e)?);
    }
    if let Some(s) = settlement {
        print_settlement(s);
    }
    if state.is_terminal() {
        println!(
            "\ngame over: {}",
            (0..n).map(|s| format!("seat {s}: {:?}", state.outcome(Seat(s)))).collect::<Vec<_>>().join(", ")
        );
    } else {
        println!("\nlegal actions: {}", state.legal_actions().iter().map(|a| a.name()).collect::<Vec<_>>().join(", "));
    }
    Ok(())
}

fn print_state(s: &State) {
    println!("round {} turn {} starter seat {}", s.round(), s.turn(), s.starter().0);
    match s.current_player() {
        Some(p) => println!("decision: seat {} — {:?}", p.0, s.pending()),
        None => println!("decision: none ({:?})", s.pending()),
    }
    let e = s.effects();
    println!(
        "effects: cook-the-books={} markdown={} major-fraud={} prime={:?} immune={:?} embargoed={:?} free-draw={}",
        e.mods.cook_the_books,
        e.mods.markdown,
        e.mods.major_fraud,
        e.mods.prime,
        e.immune.iter().map(|s| s.0).collect::<Vec<_>>(),
        e.embargoed.iter().map(|s| s.0).collect::<Vec<_>>(),
        e.free_draw
    );
    for i in 0..s.num_players() {
        let p = s.player(Seat(i));
        if p.eliminated {
            println!("seat {i}: eliminated in round {}", p.eliminated_in_round);
            continue;
        }
        println!(
            "seat {i}: hand {} {}  stock {}  pot {}  tokens [{}]  spent [{}]  last {:?}",
            p.hand[0],
            p.hand[1],
            p.stock,
            p.pot,
            p.tokens.iter().map(|t| t.name()).collect::<Vec<_>>().join(","),
            p.spent.iter().map(|t| t.name()).collect::<Vec<_>>().join(","),
            p.last_action
        );
    }
    for f in Family::ALL {
        let name = if f == Family::Sand { "sand " } else { "blood" };
        let top_first = |cards: &[engine::Card]| cards.iter().rev().map(|c| c.name()).collect::<Vec<_>>().join(" ");
        println!("{name} draw (top first):    {}", top_first(s.draw_pile(f).as_slice()));
        println!("{name} discard (top first): {}", top_first(s.discard_pile(f).as_slice()));
    }
    if let Pending::Keep { drawn, source } = s.pending() {
        println!("drawn card: {drawn} from {}", source.name());
    }
    println!("chips out of the game: {}", s.chips_removed());
}

fn print_settlement(s: &Settlement) {
    println!("\nsettlement of round {}:", s.round);
    for (i, r) in s.seats.iter().enumerate() {
        let Some(r) = r else { continue };
        println!(
            "  seat {i}: {} {} → {:?}{}  pot {}  tax {}  stock {}{}",
            r.hand[0],
            r.hand[1],
            r.class,
            if r.winner { " WINNER" } else { "" },
            if r.winner { format!("+{} back", r.pot_returned) } else { format!("-{} lost", r.pot_lost) },
            r.tax,
            r.stock_after,
            if r.eliminated { "  ELIMINATED" } else { "" }
        );
    }
}
