//! The `timing` study's findings: advantages by token and by situation, the agents' agreement
//! with the better branch, and their Markdown form.

use crate::error::ResearchError;
use crate::estimate::Estimate;
use crate::timing::{
    Branch, Position, PositionOutcomes, TimingStudy, collect_positions, hand_class, rollouts, round_bucket,
    stock_bucket,
};
use env::AgentBuilder;
use kessel::{Action, Kessel, Token};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Instant;

/// Playing a token now against holding, over every position where it was playable.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TokenTiming {
    /// The token's name.
    pub token: String,
    /// Positions where it was playable.
    pub positions: u64,
    /// Win-share advantage of playing it now (at its best target) over holding.
    pub win_advantage: Estimate,
    /// Chip advantage by the end of the round (same branch).
    pub chip_advantage: Estimate,
    /// Share of those positions where playing now had the higher estimated win share.
    pub better_now: f64,
    /// Holm-adjusted p-value of the win advantage, over the table's tokens (the family).
    pub win_p_holm: f64,
}

impl TokenTiming {
    /// Playing now is better than holding, after Holm's correction over the table's tokens.
    pub fn now_is_better(&self) -> bool {
        self.win_p_holm <= crate::stats::ALPHA && self.win_advantage.mean > 0.0
    }

    /// Holding is better than playing now, after the same correction.
    pub fn hold_is_better(&self) -> bool {
        self.win_p_holm <= crate::stats::ALPHA && self.win_advantage.mean < 0.0
    }
}

/// The win-share advantage of one token within one bucket of one situation dimension.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Breakdown {
    /// `turn`, `round`, `chips` or `hand`.
    pub dimension: String,
    /// The token's name.
    pub token: String,
    /// The bucket (e.g. turn `2`, chips `3-4`, hand `diff-1`).
    pub bucket: String,
    /// The advantage within the bucket.
    pub win_advantage: Estimate,
}

/// How often an agent's actual choice was the branch the rollouts rate best.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Agreement {
    /// The agent spec.
    pub agent: String,
    /// Positions at which it was the acting seat.
    pub positions: u64,
    /// Positions where its choice (hold, or the token it played) was the best-rated one.
    pub agreed: u64,
    /// `agreed / positions`.
    pub rate: f64,
    /// Wilson 95% interval of the rate.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// The rate an agent choosing uniformly among holding and the playable tokens would reach
    /// on the same positions: the baseline the rate is read against.
    pub chance: f64,
    /// The rate of an agent that always holds.
    pub always_hold: f64,
}

/// Everything the study found, as written to JSON.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TimingReport {
    /// Table size.
    pub players: u8,
    /// The lineup (seat entries, cycled from the agents given).
    pub lineup: Vec<String>,
    /// Source games played.
    pub games: u64,
    /// Positions studied.
    pub positions: u64,
    /// Rollouts per branch.
    pub continuations: u32,
    /// Games played in the rollout phase.
    pub rollout_games: u64,
    /// Wall-clock seconds of the whole study.
    pub seconds: f64,
    /// Games (source and rollouts) per second.
    pub games_per_sec: f64,
    /// The study's seed.
    pub seed: u64,
    /// One line per token kind that was playable somewhere.
    pub tokens: Vec<TokenTiming>,
    /// Advantages by turn, round, chip stock and hand class.
    pub breakdowns: Vec<Breakdown>,
    /// Agreement of each agent with the better branch.
    pub agreement: Vec<Agreement>,
}

/// Runs the whole study: positions, rollouts, findings. `progress(games)` is called as games
/// finish (source games first, then rollouts); `total` gets the rollout count once it is known.
pub fn run(
    study: &TimingStudy,
    builder: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn(u64) + Sync),
    total: &dyn Fn(u64),
) -> Result<TimingReport, ResearchError> {
    let t0 = Instant::now();
    let (lineup, positions) = collect_positions(study, builder, progress)?;
    if positions.is_empty() {
        return Err(ResearchError::Settings(format!(
            "no decision with a playable token in {} games: are tokens enabled in the rules?",
            study.games
        )));
    }
    let branches: u64 = positions.iter().map(|p| crate::timing::branches(&p.state).len() as u64).sum();
    let rollout_games = branches * study.continuations as u64;
    total(rollout_games);
    let outcomes = rollouts(&positions, &lineup, study.continuations, study.seed, builder, progress)?;
    let (tokens, breakdowns, agreement) = summarise(&positions, &outcomes, &lineup);
    let seconds = t0.elapsed().as_secs_f64();
    Ok(TimingReport {
        players: study.players,
        lineup,
        games: study.games,
        positions: positions.len() as u64,
        continuations: study.continuations,
        rollout_games,
        seconds,
        games_per_sec: (study.games + rollout_games) as f64 / seconds.max(1e-9),
        seed: study.seed,
        tokens,
        breakdowns,
        agreement,
    })
}

/// Per position and token: the token's advantage over holding (at its cross-fitted best target).
struct Row {
    token: Token,
    win: f64,
    chips: f64,
    keys: [(&'static str, String); 4],
}

/// One agent's agreement counts while the positions are read.
#[derive(Default)]
struct Tally {
    positions: u64,
    agreed: u64,
    /// Sum over positions of the chance that a uniformly random option is the best-rated one.
    chance: f64,
    /// Positions where holding was the best-rated option.
    hold_best: u64,
}

/// The paired difference of branch `b` from holding (`h`) over the continuations in `ks`.
fn paired(o: &PositionOutcomes, b: usize, h: usize, ks: &[usize]) -> (f64, f64) {
    let n = ks.len().max(1) as f64;
    let win = ks.iter().map(|&k| o.win[b][k] - o.win[h][k]).sum::<f64>() / n;
    let chips = ks.iter().map(|&k| o.chips[b][k] - o.chips[h][k]).sum::<f64>() / n;
    (win, chips)
}

/// Each playable token's advantage over holding at one position (win share, chips), in token
/// order.
///
/// A token with several targets is rated at its best target. Choosing that target on the same
/// continuations that then measure it would favour whichever target was luckiest: the largest of
/// several noisy means is biased upwards, by more the fewer the continuations. So the choice is
/// cross-fitted: the target that leads on the even-numbered continuations is measured on the odd
/// ones, the leader on the odd ones is measured on the even ones, and the two halves are
/// averaged. A token with one branch is measured on every continuation.
pub fn token_advantages(o: &PositionOutcomes, hold: usize) -> Vec<(Token, f64, f64)> {
    let continuations = o.win[hold].len();
    let all: Vec<usize> = (0..continuations).collect();
    let even: Vec<usize> = all.iter().copied().filter(|k| k % 2 == 0).collect();
    let odd: Vec<usize> = all.iter().copied().filter(|k| k % 2 == 1).collect();
    let mut by_token: BTreeMap<usize, (Token, Vec<usize>)> = BTreeMap::new();
    for (b, br) in o.branches.iter().enumerate() {
        if let Branch::Play { token, .. } = *br {
            by_token.entry(token.index()).or_insert((token, Vec::new())).1.push(b);
        }
    }
    let leader = |bs: &[usize], ks: &[usize]| -> usize {
        let mut best = (bs[0], paired(o, bs[0], hold, ks));
        for &b in &bs[1..] {
            let v = paired(o, b, hold, ks);
            if v > best.1 {
                best = (b, v);
            }
        }
        best.0
    };
    by_token
        .into_values()
        .map(|(token, bs)| {
            if bs.len() == 1 || odd.is_empty() {
                let (w, c) = paired(o, bs[0], hold, &all);
                return (token, w, c);
            }
            let (w1, c1) = paired(o, leader(&bs, &even), hold, &odd);
            let (w2, c2) = paired(o, leader(&bs, &odd), hold, &even);
            (token, (w1 + w2) / 2.0, (c1 + c2) / 2.0)
        })
        .collect()
}

/// The per-token advantages, the breakdowns and the agreement table (module docs of
/// [`crate::timing`]).
pub fn summarise(
    positions: &[Position],
    outcomes: &[PositionOutcomes],
    lineup: &[String],
) -> (Vec<TokenTiming>, Vec<Breakdown>, Vec<Agreement>) {
    let mut rows: Vec<Row> = Vec::new();
    let mut agree: BTreeMap<String, Tally> = BTreeMap::new();
    for (p, o) in positions.iter().zip(outcomes) {
        let Some(h) = o.branches.iter().position(|b| *b == Branch::Hold) else { continue };
        let player = p.state.player(p.seat);
        let keys = [
            ("turn", p.state.turn().to_string()),
            ("round", round_bucket(p.state.round()).to_string()),
            ("chips", stock_bucket(player.stock.0 + player.pot.0).to_string()),
            ("hand", hand_class(&p.state, p.seat).to_string()),
        ];
        let advantages = token_advantages(o, h);
        for &(token, win, chips) in &advantages {
            rows.push(Row { token, win, chips, keys: keys.clone() });
        }
        if let Some(choice) = p.choice {
            let chosen = match choice {
                Action::PlayToken(t) => Some(t),
                _ => None,
            };
            // Holding is the zero of the advantages.
            let mut top: (Option<Token>, f64, f64) = (None, 0.0, 0.0);
            for &(token, w, c) in &advantages {
                if (w, c) > (top.1, top.2) {
                    top = (Some(token), w, c);
                }
            }
            let agent = lineup[p.seating[p.seat.index()]].clone();
            let e = agree.entry(agent).or_default();
            e.positions += 1;
            e.agreed += (chosen == top.0) as u64;
            e.chance += 1.0 / (1 + advantages.len()) as f64;
            e.hold_best += top.0.is_none() as u64;
        }
    }
    let mut tokens = Vec::new();
    let mut breakdowns = Vec::new();
    for t in Token::ALL {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.token == t).collect();
        if mine.is_empty() {
            continue;
        }
        let wins: Vec<f64> = mine.iter().map(|r| r.win).collect();
        let chips: Vec<f64> = mine.iter().map(|r| r.chips).collect();
        tokens.push(TokenTiming {
            token: t.name().to_string(),
            positions: mine.len() as u64,
            win_advantage: Estimate::of(&wins),
            chip_advantage: Estimate::of(&chips),
            better_now: wins.iter().filter(|&&w| w > 0.0).count() as f64 / wins.len() as f64,
            win_p_holm: 1.0,
        });
        for d in 0..4 {
            let mut groups: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
            for r in &mine {
                groups.entry(r.keys[d].1.as_str()).or_default().push(r.win);
            }
            for (bucket, xs) in groups {
                breakdowns.push(Breakdown {
                    dimension: mine[0].keys[d].0.to_string(),
                    token: t.name().to_string(),
                    bucket: bucket.to_string(),
                    win_advantage: Estimate::of(&xs),
                });
            }
        }
    }
    let p: Vec<f64> = tokens.iter().map(|t: &TokenTiming| t.win_advantage.p_value()).collect();
    for (t, p) in tokens.iter_mut().zip(crate::stats::holm(&p)) {
        t.win_p_holm = p;
    }
    let agreement = agree
        .into_iter()
        .map(|(agent, t)| {
            let n = t.positions;
            let (low, high) = eval::stats::wilson(t.agreed as f64, n as f64);
            Agreement {
                agent,
                positions: n,
                agreed: t.agreed,
                rate: t.agreed as f64 / n.max(1) as f64,
                low,
                high,
                chance: t.chance / n.max(1) as f64,
                always_hold: t.hold_best as f64 / n.max(1) as f64,
            }
        })
        .collect();
    (tokens, breakdowns, agreement)
}

/// The study as a Markdown section.
pub fn markdown(r: &TimingReport) -> String {
    let mut s = String::new();
    s.push_str(&format!("## Timing: when to play a token ({} seats)\n\n", r.players));
    s.push_str(&format!(
        "Lineup {}; {} positions (one random token decision from each of {} games); {} rollouts per branch; \
         {} rollout games; {:.1} s ({:.0} games/s); seed {}.\n\n",
        r.lineup.join(", "),
        r.positions,
        r.games,
        r.continuations,
        r.rollout_games,
        r.seconds,
        r.games_per_sec,
        r.seed
    ));
    s.push_str(
        "Advantage = the acting seat's game win share (percentage points) and chips by the end of the round \
         when it plays the token now (at its best target, chosen on half the continuations and measured on the other half) rather than holding, under common random numbers; before \
         each rollout, what the acting seat cannot see is resampled from its view. Intervals are 95% (Student's t), \
         over positions (the unit); Holm p is the p-value of the win advantage adjusted over this table's tokens \
         (family-wise error rate 5%), and only a Holm p of at most 0.05 counts as a finding.\n\n",
    );
    s.push_str("| token | positions | win advantage (pp) | Holm p | chips by round end | playing now better in |\n|---|---:|---|---:|---|---:|\n");
    let mut tokens = r.tokens.clone();
    tokens.sort_by(|a, b| b.win_advantage.mean.total_cmp(&a.win_advantage.mean));
    for t in &tokens {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {:.0}% |\n",
            t.token,
            t.positions,
            t.win_advantage.display(100.0, 1),
            crate::output::p_value(t.win_p_holm),
            t.chip_advantage.display(1.0, 2),
            t.better_now * 100.0
        ));
    }
    for (dim, title) in [("turn", "turn"), ("round", "round"), ("chips", "chips held"), ("hand", "hand class")] {
        let mut buckets: Vec<&str> =
            r.breakdowns.iter().filter(|b| b.dimension == dim).map(|b| b.bucket.as_str()).collect();
        buckets.sort();
        buckets.dedup();
        s.push_str(&format!(
            "\n### Win advantage (pp) by {title}\n\nDescriptive: mean ± half the 95% interval (positions), not \
             corrected for the many cells; the report draws no finding from these tables.\n\n| token |"
        ));
        for b in &buckets {
            s.push_str(&format!(" {b} |"));
        }
        s.push_str("\n|---|");
        s.push_str(&"---|".repeat(buckets.len()));
        s.push('\n');
        for t in &tokens {
            s.push_str(&format!("| {} |", t.token));
            for b in &buckets {
                match r.breakdowns.iter().find(|x| x.dimension == dim && x.token == t.token && x.bucket == *b) {
                    Some(x) if x.win_advantage.n >= 2 => s.push_str(&format!(
                        " {:+.1} ± {:.1} ({}) |",
                        x.win_advantage.mean * 100.0,
                        x.win_advantage.half_width() * 100.0,
                        x.win_advantage.n
                    )),
                    Some(x) => s.push_str(&format!(" ({}) |", x.win_advantage.n)),
                    None => s.push_str(" |"),
                }
            }
            s.push('\n');
        }
    }
    s.push_str(
        "\n### Did the agents choose the better branch?\n\nThe option (hold, or one token) the rollouts rate best, \
         beside two baselines on the same positions: choosing uniformly among holding and the playable tokens, and \
         always holding.\n\n| agent | positions | chose the best-rated option | 95% interval | uniform choice | always hold |\n\
         |---|---:|---:|---|---:|---:|\n",
    );
    for a in &r.agreement {
        s.push_str(&format!(
            "| {} | {} | {:.1}% | [{:.1}, {:.1}] | {:.1}% | {:.1}% |\n",
            a.agent,
            a.positions,
            a.rate * 100.0,
            a.low * 100.0,
            a.high * 100.0,
            a.chance * 100.0,
            a.always_hold * 100.0
        ));
    }
    s
}
