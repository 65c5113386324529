//! `duel`: the advised loadout against its strongest alternative, head to head, at a table of
//! more than two.
//!
//! The symmetric drafting game ([`crate::field`]) plays every profile on a few hundred deals, so
//! a loadout's gain against the equilibrium carries an interval of a few points: enough to find
//! the equilibrium, not to tell two loadouts a point apart. The duel asks only that: one seat
//! drafts the advised loadout (arm A) or the rival (arm B) on the same deal, the other seats draft
//! from the equilibrium mix (the same draws in both arms), one agent in every seat, the seat
//! rotating over the table from deal to deal. The paired difference of that seat's win share,
//! B minus A, with a Student-t interval over the deals, is how much better (or worse) the rival
//! does in the advised loadout's place.

use crate::error::ResearchError;
use crate::estimate::Estimate;
use crate::metagame::fixed_game;
use crate::study::{self, Outcome};
use crate::value::Performance;
use env::AgentBuilder;
use game::{MAX_PLAYERS, derive_seed};
use kessel::{Kessel, RuleConfig, TokenSet};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// Stream tag of the other seats' draws from the mix.
const MIX_STREAM: u64 = 0xD0E1_5EA7_0000_0009;

/// What to play.
#[derive(Clone, Debug)]
pub struct DuelConfig {
    /// The agent in every seat.
    pub agent: String,
    /// Seats (3 to 6).
    pub players: u8,
    /// Arm A: the advised loadout.
    pub advised: TokenSet,
    /// Arm B: the alternative.
    pub rival: TokenSet,
    /// The other seats' mix: loadouts with their weights (they need not sum to 1).
    pub field: Vec<(TokenSet, f64)>,
    /// Paired deals (each played twice, once per arm).
    pub deals: u64,
    /// Seed of the deals and the draws.
    pub seed: u64,
    /// Rules (players and loadouts are set per game).
    pub rules: RuleConfig,
}

/// The duel's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DuelReport {
    /// `"duel"`.
    pub study: String,
    /// The agent in every seat.
    pub agent: String,
    /// Seats.
    pub players: u8,
    /// Arm A's kinds.
    pub advised: String,
    /// Arm B's kinds.
    pub rival: String,
    /// The other seats' mix, as kinds and weights.
    pub field: Vec<(String, f64)>,
    /// Paired deals.
    pub deals: u64,
    /// The seed.
    pub seed: u64,
    /// Win share of the seat in arm A.
    pub advised_win: f64,
    /// Win share of the seat in arm B.
    pub rival_win: f64,
    /// B minus A per deal: mean and 95% interval.
    pub gain: Estimate,
    /// Games played.
    pub games: u64,
    /// How it was measured.
    pub notes: Vec<String>,
    /// Wall time and throughput.
    #[serde(default)]
    pub performance: Option<Performance>,
}

/// Checks the settings.
pub fn check(cfg: &DuelConfig) -> Result<RuleConfig, ResearchError> {
    if !(3..=6).contains(&cfg.players) {
        return Err(ResearchError::Settings(format!(
            "duel: {} seats; give 3 to 6 (heads-up, the meta-game's matrix pairs loadouts directly)",
            cfg.players
        )));
    }
    let rules = study::table_rules(cfg.players, &cfg.rules, std::slice::from_ref(&cfg.agent))?;
    study::check_candidates("duel", &[cfg.advised, cfg.rival], &rules)?;
    if cfg.field.is_empty() || cfg.field.iter().any(|&(_, w)| !(w.is_finite() && w >= 0.0)) || total(cfg) <= 0.0 {
        return Err(ResearchError::Settings(
            "duel: the field needs at least one loadout and non-negative weights with a positive sum".into(),
        ));
    }
    for &(l, _) in &cfg.field {
        // Each of the field's loadouts beside an arm it differs from: checks its kinds.
        let other = if l == cfg.advised { cfg.rival } else { cfg.advised };
        study::check_candidates("duel's field", &[l, other], &rules)?;
    }
    if cfg.deals < 2 {
        return Err(ResearchError::Settings("duel: give at least 2 deals".into()));
    }
    Ok(rules)
}

fn total(cfg: &DuelConfig) -> f64 {
    cfg.field.iter().map(|&(_, w)| w).sum()
}

/// Games the study plays.
pub fn games(cfg: &DuelConfig) -> u64 {
    2 * cfg.deals
}

/// The seat that duels on deal `d`, and the other seats' loadouts (drawn from the mix).
fn table(cfg: &DuelConfig, d: u64) -> (usize, [TokenSet; MAX_PLAYERS]) {
    let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(cfg.seed ^ MIX_STREAM, d));
    let sum = total(cfg);
    let mut l = [TokenSet::EMPTY; MAX_PLAYERS];
    for slot in l.iter_mut().take(cfg.players as usize) {
        let mut u = rng.random::<f64>() * sum;
        *slot = cfg.field.last().map_or(TokenSet::EMPTY, |&(x, _)| x);
        for &(x, w) in &cfg.field {
            if u < w {
                *slot = x;
                break;
            }
            u -= w;
        }
    }
    ((d % u64::from(cfg.players)) as usize, l)
}

/// Runs the duel on the current rayon pool; `progress` is called after every game.
pub fn run(
    cfg: &DuelConfig,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
) -> Result<DuelReport, ResearchError> {
    let rules = check(cfg)?;
    let names = vec![cfg.agent.clone()];
    study::check_agents(&names, factory)?;
    let spec = |g: u64| {
        let (d, arm) = (g / 2, g % 2);
        let (seat, mut l) = table(cfg, d);
        l[seat] = if arm == 0 { cfg.advised } else { cfg.rival };
        fixed_game(&rules, cfg.seed, d, l)
    };
    let mut win = vec![[0.0f64; 2]; cfg.deals as usize];
    study::play_folded(&names, games(cfg), &spec, factory, progress, &mut |start, out: &[Outcome]| {
        for (i, o) in out.iter().enumerate() {
            let g = start + i as u64;
            let (d, arm) = (g / 2, (g % 2) as usize);
            win[d as usize][arm] = o.win[(d % u64::from(cfg.players)) as usize];
        }
    })?;
    let n = win.len() as f64;
    let diffs: Vec<f64> = win.iter().map(|w| w[1] - w[0]).collect();
    Ok(DuelReport {
        study: "duel".into(),
        agent: cfg.agent.clone(),
        players: cfg.players,
        advised: study::loadout_name(cfg.advised),
        rival: study::loadout_name(cfg.rival),
        field: cfg.field.iter().map(|&(l, w)| (study::loadout_name(l), w / total(cfg))).collect(),
        deals: cfg.deals,
        seed: cfg.seed,
        advised_win: win.iter().map(|w| w[0]).sum::<f64>() / n,
        rival_win: win.iter().map(|w| w[1]).sum::<f64>() / n,
        gain: Estimate::of(&diffs),
        games: games(cfg),
        notes: vec![
            format!("every seat is played by {}; only the loadouts differ", cfg.agent),
            format!(
                "on each of {} deals one seat (rotating over the table) drafts the advised loadout, then, on the same deal with the same other seats and agents' seeds, the rival; the other seats draft independently from the equilibrium mix, the same draws in both arms",
                cfg.deals
            ),
            "gain: the rival's win share in that seat minus the advised loadout's, per deal, with a 95% Student-t interval over the deals".into(),
        ],
        performance: None,
    })
}

/// The study's Markdown.
pub fn markdown(r: &DuelReport) -> String {
    let mix: Vec<String> = r.field.iter().map(|(l, w)| format!("{l} {:.0}%", 100.0 * w)).collect();
    let mut md = format!(
        "# {}-seat duel: {} against {}\n\n- agent in every seat: {}\n- the other seats draft from: {}\n- {} paired deals, seed {}\n\n| seat drafts | win share |\n| --- | ---: |\n| {} (advised) | {:.2}% |\n| {} (rival) | {:.2}% |\n\nRival minus advised: {} pp.\n\n## How\n\n",
        r.players,
        r.advised,
        r.rival,
        r.agent,
        mix.join(", "),
        r.deals,
        r.seed,
        r.advised,
        100.0 * r.advised_win,
        r.rival,
        100.0 * r.rival_win,
        r.gain.display(100.0, 2)
    );
    for n in &r.notes {
        md.push_str(&format!("- {n}\n"));
    }
    md
}
