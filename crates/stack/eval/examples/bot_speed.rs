//! Decisions per second of the bots, one thread:
//! `cargo run --release -p eval --example bot_speed -- [seconds] [players] [bot …]`.
//!
//! Seat 0 is the measured bot; the other seats are `expert`. Only the measured bot's time is
//! counted, over all its decisions (forced ones, with one legal action, included — they are
//! part of what a game costs). Bots: greedy, expert, tight, loose, aggressive, hoarder,
//! chipaware, leader, search:N. Defaults: 3 s, 2 players, the style bots and search:4/16/64.

use env::{Agent, AgentRng};
use game::Seat;
use games::kessel::Kessel;
use games::kessel::bots::*;
use games::kessel::{RuleConfig, State};
use rand::SeedableRng;
use std::time::{Duration, Instant};

fn bot(name: &str) -> Box<dyn Agent<Kessel>> {
    match name {
        "greedy" => Box::new(GreedyAgent::new()),
        "expert" => Box::new(ExpertAgent::new()),
        "tight" => Box::new(TightAgent::new()),
        "loose" => Box::new(LooseAgent::new()),
        "aggressive" => Box::new(AggressiveAgent::new()),
        "hoarder" => Box::new(HoarderAgent::new()),
        "chipaware" => Box::new(ChipAwareAgent::new()),
        "leader" => Box::new(LeaderAgent::new()),
        s => match s.strip_prefix("search:").and_then(|n| n.parse().ok()) {
            Some(n) => Box::new(SearchAgent::new(n)),
            None => panic!("unknown bot `{s}`"),
        },
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let mut names: Vec<String> = args.collect();
    if names.is_empty() {
        names = [
            "expert",
            "tight",
            "loose",
            "aggressive",
            "hoarder",
            "chipaware",
            "leader",
            "search:4",
            "search:16",
            "search:64",
        ]
        .map(String::from)
        .to_vec();
    }
    for name in &names {
        let mut me = bot(name);
        let mut others: Vec<Box<dyn Agent<Kessel>>> = (1..players).map(|_| bot("expert")).collect();
        let (mut spent, mut decisions, mut games) = (Duration::ZERO, 0u64, 0u64);
        let wall = Instant::now();
        while wall.elapsed().as_secs_f64() < seconds {
            let mut st = State::new(RuleConfig::with_players(players), game::derive_seed(9, games)).unwrap();
            st.set_event_logging(false);
            let mut rng = AgentRng::seed_from_u64(games);
            while let Some(seat) = st.current_player() {
                let view = st.view(seat);
                let mask = st.legal_mask();
                let a = if seat == Seat(0) {
                    let t = Instant::now();
                    let a = me.act(&view, mask, &mut rng).unwrap();
                    spent += t.elapsed();
                    decisions += 1;
                    a
                } else {
                    others[seat.index() - 1].act(&view, mask, &mut rng).unwrap()
                };
                st.apply(a).unwrap();
            }
            games += 1;
        }
        let rate = decisions as f64 / spent.as_secs_f64().max(1e-9);
        println!("{name:<12} {rate:>12.0} decisions/s  ({decisions} decisions in {games} games, {players} players)");
    }
}
