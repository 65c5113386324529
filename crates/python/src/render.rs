//! The `"ansi"` rendering of a game: every seat's own view (hand, chips, tokens) and the table.

use engine::{Family, PlayerView, Seat, TokenSet, ViewDecision};
use env::SabaccEnv;
use std::fmt::Write as _;

fn tokens(set: TokenSet) -> String {
    let names: Vec<&str> = set.iter().map(|t| t.name()).collect();
    if names.is_empty() { "-".into() } else { names.join(", ") }
}

fn decision(v: &PlayerView) -> String {
    match v.decision {
        ViewDecision::ChooseToken => "choose a token".into(),
        ViewDecision::Act => "act".into(),
        ViewDecision::Target { token } => format!("target for {}", token.name()),
        ViewDecision::PrimeDie { dice } => format!("prime die {} or {}", dice[0], dice[1]),
        ViewDecision::Keep { drawn, source } => match drawn {
            Some(c) => format!("keep {c} from {} or the held card", source.name()),
            None => format!("keep the card drawn from {} or the held card", source.name()),
        },
        ViewDecision::ImpostorDie { family, dice } => {
            format!("{} Impostor die {} or {}", if family == Family::Sand { "Sand" } else { "Blood" }, dice[0], dice[1])
        }
        ViewDecision::GameOver => "game over".into(),
        ViewDecision::Truncated => "truncated by the round limit".into(),
    }
}

/// Text of the whole table, one line per seat, each seat shown as it sees itself.
pub fn table(env: &SabaccEnv) -> String {
    let n = env.num_players();
    let v0 = env.view(Seat(0));
    let mut s = String::new();
    let actor = v0.actor.map_or("nobody".to_string(), |a| format!("player_{}", a.0));
    let _ = writeln!(s, "Kessel Sabacc · round {} · turn {} · {actor} to {}", v0.round, v0.turn, decision(&v0));
    let top = |f: usize| v0.discard[f].top().map_or("-".to_string(), |c| c.to_string());
    let _ = writeln!(
        s,
        "discard tops: Sand {} ({} cards) · Blood {} ({} cards) · draw piles: Sand {} · Blood {}",
        top(0),
        v0.discard[0].len(),
        top(1),
        v0.discard[1].len(),
        v0.draw_sizes[0],
        v0.draw_sizes[1]
    );
    for i in 0..n {
        let v = env.view(Seat(i));
        let me = &v.seats[i as usize];
        let marker = if v0.actor == Some(Seat(i)) { '>' } else { ' ' };
        if me.eliminated {
            let _ = writeln!(s, "{marker} player_{i}: eliminated · lost {} · spent {}", me.lost, tokens(me.spent));
            continue;
        }
        let _ = writeln!(
            s,
            "{marker} player_{i}: hand {} {} · stock {} · pot {} · lost {} · tokens {} · spent {}",
            v.hand[0],
            v.hand[1],
            me.stock,
            me.pot,
            me.lost,
            tokens(v.own_tokens),
            tokens(me.spent)
        );
    }
    if env.is_done() {
        let w: Vec<String> = env.winners().iter().map(|s| format!("player_{}", s.0)).collect();
        let _ = writeln!(s, "winners: {}", if w.is_empty() { "none (truncated)".into() } else { w.join(", ") });
    }
    s
}
