//! `interactions`: which tokens work together. Games in which **every seat holds a uniformly
//! random legal loadout** (`tokens_per_player` distinct enabled kinds, drawn independently per
//! seat), all seats played by one agent; per seat the loadout and its win share are kept, and a
//! logistic regression of win on each kind's indicator (main effects) and each pair's indicator
//! (pair interactions) says what a kind is worth on average and which pairs are worth more, or
//! less, together than apart.
//!
//! - **Model.** `logit P(win) = b₀ + Σᵢ βᵢ xᵢ + Σ_{i<j} γᵢⱼ xᵢ xⱼ` over the seat-games, with the
//!   win share (1, 1/k for a shared win, 0) as the response (a quasi-binomial fit). The
//!   likelihood depends on the data only through each loadout's seat-game count and win sum, so
//!   the fit runs on one row per loadout.
//! - **Fit.** Newton's method (iteratively reweighted least squares) on the log-likelihood with
//!   a ridge penalty `λ/2 · (‖β‖² + ‖γ‖²)` (the intercept unpenalised), λ = [`RIDGE`]; solved by
//!   Cholesky factorisation.
//! - **Identification.** Every loadout holds exactly `t` kinds, so the coefficients are defined
//!   only up to shifts that leave every loadout's prediction unchanged (adding `c` to every `βᵢ`
//!   and `−t·c` to `b₀`; adding `dᵢ + dⱼ` to every `γᵢⱼ` and `−(t−1)·dᵢ` to `βᵢ`). The report
//!   gives the one **canonical** form of the fitted predictor: each kind's interactions sum to 0
//!   over its partners, and the main effects sum to 0. So `βᵢ` is kind `i`'s effect on the
//!   log-odds against the average kind, and `γᵢⱼ` what the pair adds beyond the two main effects
//!   — a **synergy** when positive, an **anti-synergy** when negative.
//! - **Intervals.** Percentile bootstrap over **games** (the seats of one game share a deal and
//!   their outcomes are dependent, so the game is the resampling unit): [`InteractionsConfig::resamples`]
//!   resamples, each refitted and put in canonical form. A coefficient's p-value is the Wald test
//!   with the bootstrap standard error; main effects are Holm-corrected over the kinds, pair
//!   interactions over every pair tested (family-wise error rate 5% each).

use crate::error::ResearchError;
use crate::loadouts::all_loadouts;
use crate::stats::{ALPHA, holm};
use crate::study::{self, GameSpec, LOADOUT_STREAM, Outcome};
use crate::value::Performance;
use env::AgentBuilder;
use eval::student_t::t_two_sided;
use game::{MAX_PLAYERS, Seat, derive_seed};
use kessel::config::TokenAssignment;
use kessel::{Kessel, RuleConfig, Token, TokenSet};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The ridge penalty λ on main effects and interactions.
pub const RIDGE: f64 = 1.0;
/// A coefficient is tested only when at least this many seat-games hold its kind or pair: the
/// bootstrap's standard error is unreliable on sparser cells (untested coefficients get p = 1
/// and stay out of the Holm family).
pub const MIN_TESTED: u64 = 400;
/// Stream tag of the bootstrap resamples.
const BOOT_STREAM: u64 = 0x7E5E_A4C4_B007_0005;

/// What to play and fit.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct InteractionsConfig {
    /// Seats at the table.
    pub players: u8,
    /// The agent in every seat.
    pub agent: String,
    /// Games to play.
    pub games: u64,
    /// Bootstrap resamples of the games.
    pub resamples: usize,
    /// Base seed: game `g` is dealt from `derive_seed(seed, g)`, its loadouts drawn from
    /// `derive_seed(seed ^ LOADOUT_STREAM, g)`.
    pub seed: u64,
    /// The rules (`players` and the token assignment are set by the study).
    pub rules: RuleConfig,
}

/// One fitted coefficient (a kind's main effect, or a pair's interaction).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    /// The kind, or the pair joined by `+`.
    pub label: String,
    /// The kinds (one or two).
    pub tokens: Vec<Token>,
    /// Seat-games holding it.
    pub seat_games: u64,
    /// Canonical coefficient (log-odds).
    pub coef: f64,
    /// Bootstrap 95% percentile interval, lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Bootstrap standard error.
    pub se: f64,
    /// Two-sided Wald p-value with the bootstrap standard error (uncorrected).
    pub p: f64,
    /// Holm-adjusted p-value over the coefficient's family (the kinds, or every pair).
    pub p_holm: f64,
    /// The coefficient as a win-rate change at the table's mean win rate (percentage points).
    pub pp: f64,
}

impl Effect {
    /// Different from 0 after Holm's correction over its family.
    pub fn significant(&self) -> bool {
        self.p_holm <= ALPHA
    }
}

/// A loadout's predicted win rate under the fitted model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Predicted {
    /// The kinds joined by `+`.
    pub loadout: String,
    /// Predicted win rate.
    pub win: f64,
    /// Bootstrap 95% interval, lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Observed win share of the seats that held it.
    pub observed: f64,
    /// Seat-games that held it.
    pub seat_games: u64,
}

/// Everything the study found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InteractionsReport {
    /// `interactions`.
    pub study: String,
    /// Seats.
    pub players: u8,
    /// The agent in every seat.
    pub agent: String,
    /// Games played.
    pub games: u64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Ridge penalty λ.
    pub ridge: f64,
    /// Base seed.
    pub seed: u64,
    /// Mean win share per seat-game.
    pub base_rate: f64,
    /// Newton iterations of the fit on the data.
    pub iterations: usize,
    /// Main effects, most valuable first.
    pub mains: Vec<Effect>,
    /// Pair interactions, strongest synergy first.
    pub pairs: Vec<Effect>,
    /// The loadouts the model predicts best, best first (five).
    pub best: Vec<Predicted>,
    /// How to read the figures.
    pub notes: Vec<String>,
    /// Time and speed, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance: Option<Performance>,
}

impl InteractionsReport {
    /// Pairs whose interaction is positive after Holm's correction over the pairs.
    pub fn synergies(&self) -> Vec<&Effect> {
        self.pairs.iter().filter(|e| e.significant() && e.coef > 0.0).collect()
    }

    /// Pairs whose interaction is negative after Holm's correction over the pairs.
    pub fn anti_synergies(&self) -> Vec<&Effect> {
        self.pairs.iter().filter(|e| e.significant() && e.coef < 0.0).collect()
    }
}

/// The regression's design: which feature each kind and pair is.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    /// Kinds (the enabled ones, in index order).
    pub kinds: Vec<Token>,
    /// Kinds per loadout (`t`).
    pub per_loadout: usize,
    /// Pairs `(i, j)`, `i < j`, positions in `kinds`.
    pub pairs: Vec<(usize, usize)>,
}

impl Design {
    /// The design for loadouts of `per_loadout` kinds from `kinds`.
    pub fn new(kinds: Vec<Token>, per_loadout: usize) -> Design {
        let k = kinds.len();
        let pairs = (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).collect();
        Design { kinds, per_loadout, pairs }
    }

    /// Features: intercept, main effects, pairs.
    pub fn dim(&self) -> usize {
        1 + self.kinds.len() + self.pairs.len()
    }

    /// The active features of a loadout (intercept first).
    pub fn features(&self, l: TokenSet) -> Vec<usize> {
        let k = self.kinds.len();
        let held: Vec<usize> = (0..k).filter(|&i| l.contains(self.kinds[i])).collect();
        let mut f = vec![0];
        f.extend(held.iter().map(|&i| 1 + i));
        for (a, &i) in held.iter().enumerate() {
            for &j in &held[a + 1..] {
                f.push(1 + k + self.pair_index(i, j));
            }
        }
        f
    }

    /// The position of pair `(i, j)`, `i < j`, in [`Design::pairs`].
    fn pair_index(&self, i: usize, j: usize) -> usize {
        let k = self.kinds.len();
        // Pairs (0,1) … (0,k−1), (1,2) …: the pairs before row i, then the offset in row i.
        i * (2 * k - i - 1) / 2 + (j - i - 1)
    }

    /// The canonical form of a coefficient vector (module documentation): the same predictor
    /// for every loadout of `per_loadout` kinds, with each kind's interactions summing to 0 over
    /// its partners and the main effects summing to 0.
    pub fn canonical(&self, beta: &[f64]) -> Vec<f64> {
        let k = self.kinds.len();
        let t = self.per_loadout as f64;
        let mut b = beta.to_vec();
        if k >= 3 && !self.pairs.is_empty() {
            // Shift γᵢⱼ by dᵢ + dⱼ so that every kind's interactions sum to 0.
            let mut g = vec![0.0; k];
            for (p, &(i, j)) in self.pairs.iter().enumerate() {
                g[i] += b[1 + k + p];
                g[j] += b[1 + k + p];
            }
            let total: f64 = g.iter().sum();
            let d_sum = -total / (2.0 * k as f64 - 2.0);
            let d: Vec<f64> = g.iter().map(|&gi| (-gi - d_sum) / (k as f64 - 2.0)).collect();
            for (p, &(i, j)) in self.pairs.iter().enumerate() {
                b[1 + k + p] += d[i] + d[j];
            }
            for i in 0..k {
                b[1 + i] -= (t - 1.0) * d[i];
            }
        }
        let mean = b[1..=k].iter().sum::<f64>() / k.max(1) as f64;
        for x in &mut b[1..=k] {
            *x -= mean;
        }
        b[0] += t * mean;
        b
    }
}

/// Why a fit failed.
fn fit_error(message: String) -> ResearchError {
    ResearchError::Settings(format!("interaction regression: {message}"))
}

/// Solves `a · x = b` for a symmetric positive definite `a` (row-major, `n × n`) by Cholesky
/// factorisation; `None` when `a` is not positive definite.
pub fn cholesky_solve(a: &[f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = a[i * n + j];
            for m in 0..j {
                s -= l[i * n + m] * l[j * n + m];
            }
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut s = b[i];
        for m in 0..i {
            s -= l[i * n + m] * y[m];
        }
        y[i] = s / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut s = y[i];
        for m in i + 1..n {
            s -= l[m * n + i] * x[m];
        }
        x[i] = s / l[i * n + i];
    }
    Some(x)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Ridge-penalised logistic regression on grouped rows: row `r` has binary features `rows[r]`
/// (indices into `0..dim`; feature 0 is the intercept, left unpenalised), `n[r]` trials and
/// `y[r]` successes (`0 ≤ y ≤ n`, fractional allowed). Newton's method from `start` (zeros
/// when `None`) until no coefficient moves by more than 1e-9, at most 100 steps. Returns the
/// coefficients and the number of steps.
pub fn fit_logistic(
    rows: &[Vec<usize>],
    n: &[f64],
    y: &[f64],
    dim: usize,
    lambda: f64,
    start: Option<&[f64]>,
) -> Result<(Vec<f64>, usize), ResearchError> {
    if rows.len() != n.len() || rows.len() != y.len() {
        return Err(fit_error("rows, trials and successes differ in length".into()));
    }
    if rows.iter().flatten().any(|&f| f >= dim) {
        return Err(fit_error(format!("a feature index is not below the dimension {dim}")));
    }
    if n.iter().zip(y).any(|(&n, &y)| !(n >= 0.0 && y >= 0.0 && y <= n + 1e-9)) {
        return Err(fit_error("every row needs 0 <= successes <= trials".into()));
    }
    if !(lambda > 0.0 && lambda.is_finite()) {
        return Err(fit_error(format!("ridge penalty {lambda} is not positive")));
    }
    let mut beta = start.map(<[f64]>::to_vec).unwrap_or_else(|| vec![0.0; dim]);
    for step in 1..=100 {
        let mut h = vec![0.0; dim * dim];
        let mut g = vec![0.0; dim];
        for (r, f) in rows.iter().enumerate() {
            if n[r] == 0.0 {
                continue;
            }
            let eta: f64 = f.iter().map(|&i| beta[i]).sum();
            let p = sigmoid(eta).clamp(1e-12, 1.0 - 1e-12);
            let w = n[r] * p * (1.0 - p);
            let resid = y[r] - n[r] * p;
            for &i in f {
                g[i] += resid;
                for &j in f {
                    h[i * dim + j] += w;
                }
            }
        }
        for i in 1..dim {
            g[i] -= lambda * beta[i];
            h[i * dim + i] += lambda;
        }
        if h[0] <= 0.0 {
            return Err(fit_error("no observations".into()));
        }
        let delta =
            cholesky_solve(&h, &g, dim).ok_or_else(|| fit_error("the Hessian is not positive definite".into()))?;
        let mut moved: f64 = 0.0;
        for i in 0..dim {
            beta[i] += delta[i];
            moved = moved.max(delta[i].abs());
        }
        if beta.iter().any(|b| !b.is_finite()) {
            return Err(fit_error("the fit diverged".into()));
        }
        if moved < 1e-9 {
            return Ok((beta, step));
        }
    }
    Err(fit_error("Newton's method did not converge in 100 steps".into()))
}

/// Checks the settings; returns the rules of the games (fixed loadouts filled per game).
pub fn check(cfg: &InteractionsConfig) -> Result<RuleConfig, ResearchError> {
    let rules = study::table_rules(cfg.players, &cfg.rules, std::slice::from_ref(&cfg.agent))?;
    if rules.tokens_per_player < 2 {
        return Err(ResearchError::Settings(
            "rules: tokens_per_player must be at least 2 for pairs of tokens to interact".into(),
        ));
    }
    if rules.enabled_tokens.len() < 3 {
        return Err(ResearchError::Settings("rules: enable at least 3 kinds for the interaction study".into()));
    }
    if cfg.games < 2 {
        return Err(ResearchError::Settings(format!("interactions: {} games; give at least 2", cfg.games)));
    }
    Ok(rules)
}

/// The game `g` of the study: every seat a uniformly random loadout, `agent` 0 in every seat.
fn game(cfg: &InteractionsConfig, rules: &RuleConfig, g: u64) -> GameSpec {
    let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(cfg.seed ^ LOADOUT_STREAM, g));
    let mut loadouts = [TokenSet::EMPTY; MAX_PLAYERS];
    for l in loadouts.iter_mut().take(rules.players as usize) {
        *l = study::draw_kinds(rules.enabled_tokens, rules.tokens_per_player as usize, &mut rng);
    }
    let rules = RuleConfig { token_assignment: TokenAssignment::Fixed, fixed_loadouts: loadouts, ..*rules };
    GameSpec {
        rules,
        seed: derive_seed(cfg.seed, g),
        agent_seed: derive_seed(cfg.seed ^ study::AGENT_STREAM, g),
        seating: [0; MAX_PLAYERS],
        focal: Seat(0),
        forbidden: TokenSet::EMPTY,
    }
}

/// Runs the study on the current rayon pool; `progress` is called after every game.
pub fn run(
    cfg: &InteractionsConfig,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
) -> Result<InteractionsReport, ResearchError> {
    let rules = check(cfg)?;
    let names = vec![cfg.agent.clone()];
    study::check_agents(&names, factory)?;
    let cells = all_loadouts(&rules);
    let index: std::collections::HashMap<TokenSet, usize> = cells.iter().enumerate().map(|(i, &l)| (l, i)).collect();
    let players = rules.players as usize;
    let mut seat_cell: Vec<u32> = Vec::with_capacity(cfg.games as usize * players);
    let mut seat_win: Vec<f32> = Vec::with_capacity(cfg.games as usize * players);
    let spec = |g: u64| game(cfg, &rules, g);
    study::play_folded(&names, cfg.games, &spec, factory, progress, &mut |start, out: &[Outcome]| {
        for (i, o) in out.iter().enumerate() {
            let g = spec(start + i as u64);
            for s in 0..players {
                seat_cell.push(index[&g.rules.fixed_loadouts[s]] as u32);
                seat_win.push(o.win[s] as f32);
            }
        }
    })?;
    let design = Design::new(rules.enabled_tokens.iter().collect(), rules.tokens_per_player as usize);
    analyse(cfg, &design, &cells, players, &seat_cell, &seat_win)
}

/// Fits the model to recorded games: `seat_cell[g·players + s]` is the loadout (an index into
/// `cells`) of seat `s` in game `g`, `seat_win` its win share.
pub fn analyse(
    cfg: &InteractionsConfig,
    design: &Design,
    cells: &[TokenSet],
    players: usize,
    seat_cell: &[u32],
    seat_win: &[f32],
) -> Result<InteractionsReport, ResearchError> {
    let games = seat_cell.len() / players.max(1);
    let rows: Vec<Vec<usize>> = cells.iter().map(|&l| design.features(l)).collect();
    let dim = design.dim();
    let aggregate = |pick: &mut dyn FnMut() -> Option<usize>| {
        let mut n = vec![0.0; cells.len()];
        let mut y = vec![0.0; cells.len()];
        while let Some(g) = pick() {
            for s in 0..players {
                let c = seat_cell[g * players + s] as usize;
                n[c] += 1.0;
                y[c] += seat_win[g * players + s] as f64;
            }
        }
        (n, y)
    };
    let mut next = 0usize;
    let (n, y) = aggregate(&mut || {
        next += 1;
        (next <= games).then_some(next - 1)
    });
    let (raw, iterations) = fit_logistic(&rows, &n, &y, dim, RIDGE, None)?;
    let point = design.canonical(&raw);
    let eta = |b: &[f64], c: usize| rows[c].iter().map(|&i| b[i]).sum::<f64>();
    let boots: Vec<(Vec<f64>, Vec<f64>)> = (0..cfg.resamples)
        .into_par_iter()
        .map(|r| {
            let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(cfg.seed ^ BOOT_STREAM, r as u64));
            let mut left = games;
            let (n, y) = aggregate(&mut || {
                if left == 0 {
                    return None;
                }
                left -= 1;
                Some(rng.random_range(0..games))
            });
            let (b, _) = fit_logistic(&rows, &n, &y, dim, RIDGE, Some(&raw))?;
            let b = design.canonical(&b);
            let etas = (0..cells.len()).map(|c| eta(&b, c)).collect();
            Ok((b, etas))
        })
        .collect::<Result<_, ResearchError>>()?;
    let total_n: f64 = n.iter().sum();
    let base_rate = y.iter().sum::<f64>() / total_n.max(1.0);
    let base_logit = (base_rate.clamp(1e-9, 1.0 - 1e-9) / (1.0 - base_rate.clamp(1e-9, 1.0 - 1e-9))).ln();
    let percentile = |mut v: Vec<f64>| -> (f64, f64) {
        if v.is_empty() {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((q * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)];
        (at(0.025), at(0.975))
    };
    let k = design.kinds.len();
    let count = |f: usize| rows.iter().zip(&n).filter(|(r, _)| r.contains(&f)).map(|(_, &c)| c).sum::<f64>() as u64;
    let effect = |f: usize, label: String, tokens: Vec<Token>| {
        let coef = point[f];
        let draws: Vec<f64> = boots.iter().map(|(b, _)| b[f]).collect();
        let m = draws.iter().sum::<f64>() / draws.len().max(1) as f64;
        let se = if draws.len() > 1 {
            (draws.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (draws.len() - 1) as f64).sqrt()
        } else {
            f64::INFINITY
        };
        let seat_games = count(f);
        // Student's t with the bootstrap's degrees of freedom: its standard error is itself
        // estimated from `resamples` draws.
        let df = (games as u64).min(boots.len() as u64).saturating_sub(1);
        let p = if seat_games >= MIN_TESTED && se > 0.0 && se.is_finite() { t_two_sided(coef / se, df) } else { 1.0 };
        let (low, high) = percentile(draws);
        Effect {
            label,
            tokens,
            seat_games,
            coef,
            low,
            high,
            se,
            p,
            p_holm: 1.0,
            pp: 100.0 * (sigmoid(base_logit + coef) - base_rate),
        }
    };
    let mut mains: Vec<Effect> =
        (0..k).map(|i| effect(1 + i, design.kinds[i].name().to_string(), vec![design.kinds[i]])).collect();
    let mut pairs: Vec<Effect> = design
        .pairs
        .iter()
        .enumerate()
        .map(|(p, &(i, j))| {
            let (a, b) = (design.kinds[i], design.kinds[j]);
            effect(1 + k + p, format!("{a}+{b}"), vec![a, b])
        })
        .collect();
    for family in [&mut mains, &mut pairs] {
        // Holm over the coefficients tested (enough seat-games); the others keep p = 1.
        let tested: Vec<usize> = (0..family.len()).filter(|&i| family[i].seat_games >= MIN_TESTED).collect();
        let adjusted = holm(&tested.iter().map(|&i| family[i].p).collect::<Vec<_>>());
        for (&i, p) in tested.iter().zip(adjusted) {
            family[i].p_holm = p;
        }
        family.sort_by(|a, b| b.coef.total_cmp(&a.coef).then(a.label.cmp(&b.label)));
    }
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by(|&a, &b| eta(&point, b).total_cmp(&eta(&point, a)).then(a.cmp(&b)));
    let best = order
        .iter()
        .take(5)
        .map(|&c| {
            let (lo, hi) = percentile(boots.iter().map(|(_, e)| e[c]).collect());
            Predicted {
                loadout: study::loadout_name(cells[c]),
                win: sigmoid(eta(&point, c)),
                low: sigmoid(lo),
                high: sigmoid(hi),
                observed: if n[c] > 0.0 { y[c] / n[c] } else { 0.0 },
                seat_games: n[c] as u64,
            }
        })
        .collect();
    let tested_mains = mains.iter().filter(|e| e.seat_games >= MIN_TESTED).count();
    let tested_pairs = pairs.iter().filter(|e| e.seat_games >= MIN_TESTED).count();
    Ok(InteractionsReport {
        study: "interactions".into(),
        players: players as u8,
        agent: cfg.agent.clone(),
        games: games as u64,
        resamples: cfg.resamples,
        ridge: RIDGE,
        seed: cfg.seed,
        base_rate,
        iterations,
        mains,
        pairs,
        best,
        notes: vec![
            format!(
                "every seat holds a uniformly random loadout of {} distinct kinds, drawn independently per seat; every seat is played by {}",
                design.per_loadout, cfg.agent
            ),
            format!(
                "logistic regression of the win share on main effects and pair interactions, ridge-penalised (lambda = {RIDGE}, intercept unpenalised), fitted by Newton's method on one row per loadout"
            ),
            "coefficients are log-odds in canonical form: main effects sum to 0 (a kind against the average kind); each kind's interactions sum to 0 over its partners (a pair against what its two main effects predict)".into(),
            format!(
                "intervals: percentile bootstrap over games ({} resamples; the game is the unit, its seats' outcomes being dependent); p-values: Wald with the bootstrap standard error (Student's t with resamples - 1 degrees of freedom), Holm-corrected over the kinds tested ({} of {}) and over the pairs tested ({} of {}) separately; a coefficient is tested when at least {MIN_TESTED} seat-games hold it",
                cfg.resamples,
                tested_mains,
                k,
                tested_pairs,
                design.pairs.len()
            ),
            "pp: the coefficient as a change of win rate at the table's mean win rate".into(),
        ],
        performance: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design() -> Design {
        Design::new(Token::ALL.to_vec(), 3)
    }

    /// Synthetic seat-games whose win probability follows known canonical coefficients.
    fn synthetic(truth: &[f64], games: usize, seed: u64) -> (Vec<TokenSet>, Vec<u32>, Vec<f32>) {
        let d = design();
        let cells = all_loadouts(&RuleConfig::default());
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let (mut cell, mut win) = (Vec::new(), Vec::new());
        for _ in 0..games * 4 {
            let c = rng.random_range(0..cells.len());
            let eta: f64 = d.features(cells[c]).iter().map(|&i| truth[i]).sum();
            cell.push(c as u32);
            win.push(if rng.random::<f64>() < sigmoid(eta) { 1.0 } else { 0.0 });
        }
        (cells, cell, win)
    }

    fn cfg(resamples: usize) -> InteractionsConfig {
        InteractionsConfig {
            players: 4,
            agent: "expert".into(),
            games: 0,
            resamples,
            seed: 9,
            rules: RuleConfig::default(),
        }
    }

    #[test]
    fn pair_indices_enumerate_every_pair_once() {
        let d = design();
        for (p, &(i, j)) in d.pairs.iter().enumerate() {
            assert_eq!(d.pair_index(i, j), p);
        }
        assert_eq!(d.dim(), 1 + 16 + 120);
        let l: TokenSet = [Token::FreeDraw, Token::Refund, Token::Embargo].into_iter().collect();
        assert_eq!(d.features(l).len(), 7);
    }

    #[test]
    fn canonical_form_keeps_every_prediction_and_its_constraints() {
        let d = design();
        let mut rng = Pcg64Mcg::seed_from_u64(4);
        let beta: Vec<f64> = (0..d.dim()).map(|_| rng.random::<f64>() - 0.5).collect();
        let c = d.canonical(&beta);
        for l in all_loadouts(&RuleConfig::default()) {
            let f = d.features(l);
            let a: f64 = f.iter().map(|&i| beta[i]).sum();
            let b: f64 = f.iter().map(|&i| c[i]).sum();
            assert!((a - b).abs() < 1e-9, "{a} vs {b}");
        }
        assert!(c[1..=16].iter().sum::<f64>().abs() < 1e-9);
        for kind in 0..16 {
            let s: f64 =
                d.pairs.iter().enumerate().filter(|&(_, &(i, j))| i == kind || j == kind).map(|(p, _)| c[17 + p]).sum();
            assert!(s.abs() < 1e-9, "kind {kind}: {s}");
        }
        // Canonical is a projection: applying it twice changes nothing.
        let cc = d.canonical(&c);
        assert!(c.iter().zip(&cc).all(|(a, b)| (a - b).abs() < 1e-12));
    }

    #[test]
    fn recovers_known_coefficients_on_synthetic_data() {
        let d = design();
        let mut truth = vec![0.0; d.dim()];
        truth[0] = -1.1;
        truth[1 + Token::TargetAudit.index()] = 0.6;
        truth[1 + Token::Embargo.index()] = -0.5;
        let p = d.pair_index(Token::Refund.index(), Token::ExtraRefund.index());
        truth[17 + p] = 0.8;
        let truth = d.canonical(&truth);
        let (cells, cell, win) = synthetic(&truth, 60_000, 11);
        let r = analyse(&cfg(40), &d, &cells, 4, &cell, &win).unwrap();
        let main = |t: Token| r.mains.iter().find(|e| e.tokens == [t]).unwrap();
        for t in Token::ALL {
            let e = main(t);
            assert!((e.coef - truth[1 + t.index()]).abs() < 0.06, "{t}: {} vs {}", e.coef, truth[1 + t.index()]);
        }
        assert!(main(Token::TargetAudit).significant() && main(Token::Embargo).significant());
        let pair = r.pairs.iter().find(|e| e.label == "refund+extra-refund").unwrap();
        assert!((pair.coef - truth[17 + p]).abs() < 0.15, "{} vs {}", pair.coef, truth[17 + p]);
        assert!(pair.low < truth[17 + p] && truth[17 + p] < pair.high);
        assert_eq!(r.synergies().first().map(|e| e.label.as_str()), Some("refund+extra-refund"));
        // The planted pair is the one synergy; pairs with no planted effect stay non-significant
        // beyond those the canonical form ties to it (partners of refund and extra-refund).
        let false_hits = r
            .pairs
            .iter()
            .filter(|e| e.significant())
            .filter(|e| !e.tokens.iter().any(|&t| t == Token::Refund || t == Token::ExtraRefund))
            .count();
        assert_eq!(false_hits, 0);
    }

    #[test]
    fn finds_nothing_when_there_is_nothing() {
        let d = design();
        let mut truth = vec![0.0; d.dim()];
        truth[0] = -1.1;
        let (cells, cell, win) = synthetic(&truth, 20_000, 12);
        let r = analyse(&cfg(40), &d, &cells, 4, &cell, &win).unwrap();
        assert!(r.synergies().is_empty() && r.anti_synergies().is_empty());
        // Holm keeps the chance of any false rejection near 5% per family (a little more with
        // bootstrap standard errors from few resamples): allow one, never several.
        assert!(r.mains.iter().filter(|e| e.significant()).count() <= 1);
        assert!(r.mains.iter().all(|e| e.coef.abs() < 0.1), "no main effect was planted");
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let rows = vec![vec![0, 1]];
        assert!(fit_logistic(&rows, &[1.0], &[2.0], 2, 1.0, None).is_err());
        assert!(fit_logistic(&rows, &[1.0], &[0.5], 1, 1.0, None).is_err());
        assert!(fit_logistic(&rows, &[1.0], &[0.5], 2, 0.0, None).is_err());
        assert!(fit_logistic(&rows, &[1.0, 2.0], &[0.5], 2, 1.0, None).is_err());
        let c = InteractionsConfig {
            rules: RuleConfig { tokens_per_player: 1, ..RuleConfig::default() },
            games: 10,
            ..cfg(1)
        };
        assert!(check(&c).is_err());
    }

    #[test]
    fn cholesky_solves_a_small_system() {
        let a = [4.0, 2.0, 2.0, 3.0];
        let x = cholesky_solve(&a, &[2.0, 1.0], 2).unwrap();
        assert!((4.0 * x[0] + 2.0 * x[1] - 2.0).abs() < 1e-12 && (2.0 * x[0] + 3.0 * x[1] - 1.0).abs() < 1e-12);
        assert!(cholesky_solve(&[1.0, 2.0, 2.0, 1.0], &[1.0, 1.0], 2).is_none());
    }
}
