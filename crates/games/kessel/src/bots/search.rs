//! `search` / `search:N`: determinised Monte-Carlo search, the strongest non-learned baseline.
//!
//! At every decision with more than one legal action (Impostor dice and setup token choices are
//! settled directly, as the expert does), it:
//! 1. samples `N` complete states consistent with its own view
//!    ([`crate::sample::sample_state`]: unknown cards, draw-pile order, opponents' unplayed
//!    tokens and future dice are resampled; it never reads the real hidden state);
//! 2. in each sampled world, applies every legal action and plays the rest of the **round** out
//!    with the [`ExpertAgent`](super::ExpertAgent) policy for every seat (the same rollout
//!    randomness for every action of a world: common random numbers);
//! 3. scores the end of the round: a finished game counts 1 for a (shared: 1/k) win and 0 for a
//!    loss; otherwise its share of all chips still in stock, `stock / Σ stocks` (0 if
//!    eliminated) — a cheap proxy of the chance to win the game;
//! 4. takes the action with the best average score (ties: the lower action index).
//!
//! The cost is `N × (legal actions)` round rollouts per decision; the default `search` is
//! [`SearchAgent::DEFAULT_WORLDS`] worlds.
//!
//! **Restricted play.** A caller may offer fewer actions than the rules allow (the token studies
//! let a seat hold a token it may never play). A sampled world matches the view when it allows
//! every action offered; the actions it allows beyond them are withheld from the searcher in its
//! rollouts as well, so its own later turns of the round keep the restriction. (Only what is
//! withheld at the decision searched is known: a decision with no token plays among its legal
//! actions shows no restriction.)
//!
//! **Guided search** ([`SearchAgent::guided`], the `search+CHECKPOINT` spec): a [`SearchGuide`]
//! — a trained policy, wrapped above this crate — replaces the three weakest parts. Its policy
//! plays the rollouts for every seat (so the simulated opponents play like a strong table, not
//! like `expert`), its value estimate scores the round-end positions (the chance of winning the
//! *game*, where the chip share is only a proxy that cannot see tokens kept for later rounds),
//! and its action probabilities prune the actions it rates as blunders before any rollout. The
//! rollouts of one decision advance in lockstep, so each step is one batched forward pass.

use super::style::{best_die, only_action};
use crate::sample::{SampleError, sample_state};
use crate::{Action, ActionMask, PlayerView, State, ViewDecision};
use game::{Agent, AgentError, AgentRng, Guide, Seat, derive_seed};
use rand::RngExt;
use rayon::prelude::*;

/// A trained policy and critic steering the search (`game::Guide`, built by the agents layer
/// from a checkpoint).
pub type SearchGuide = dyn Guide<crate::Kessel>;

/// The chance of winning implied by an expected win/loss return `g` at a table of `n` seats: a
/// win pays +1 and a loss −1/(n−1) (`game::RewardMode::WinLoss`).
fn win_chance(g: f32, n: u8) -> f64 {
    let n = f64::from(n.max(2));
    ((f64::from(g) * (n - 1.0) + 1.0) / n).clamp(0.0, 1.0)
}

/// How a [`SearchGuide`] steers the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuideSettings {
    /// Actions whose prior is below this fraction of the most likely action's are not searched
    /// (0: search every legal action).
    pub prune: f32,
    /// Weight of the prior added to an action's mean round-end score (both lie in [0, 1]).
    pub prior_weight: f64,
    /// Score round-end positions by the guide's win chance (else by the chip share).
    pub value_leaves: bool,
    /// Play the rollouts with the guide's policy for every seat (else with `expert`). A policy
    /// stronger than `expert` makes the rollouts' opponents, and the searcher's own later
    /// choices, play as the real table will.
    pub policy_rollouts: bool,
}

impl Default for GuideSettings {
    fn default() -> Self {
        GuideSettings { prune: 0.02, prior_weight: 0.0, value_leaves: true, policy_rollouts: true }
    }
}

/// The search bot (see the module documentation).
pub struct SearchAgent {
    worlds: usize,
    rollout: super::expert::ExpertAgent,
    fallback: super::expert::ExpertAgent,
    guide: Option<(Box<SearchGuide>, GuideSettings)>,
    name: String,
}

impl SearchAgent {
    /// Sampled worlds per decision for a bare `search` spec.
    pub const DEFAULT_WORLDS: usize = 32;
    /// The largest budget a spec may ask for (a decision at this budget already takes seconds).
    pub const MAX_WORLDS: usize = 100_000;

    /// A search bot sampling `worlds` worlds per decision.
    pub fn new(worlds: usize) -> SearchAgent {
        SearchAgent {
            worlds: worlds.max(1),
            rollout: super::expert::ExpertAgent::new(),
            fallback: super::expert::ExpertAgent::new(),
            guide: None,
            name: format!("search:{}", worlds.max(1)),
        }
    }

    /// A search bot steered by `guide` (see the module documentation), shown as `name`.
    pub fn guided(
        worlds: usize,
        guide: Box<SearchGuide>,
        settings: GuideSettings,
        name: impl Into<String>,
    ) -> SearchAgent {
        SearchAgent { guide: Some((guide, settings)), name: name.into(), ..SearchAgent::new(worlds) }
    }

    /// Plays every line to the end of its current round, all lines in lockstep: each step asks
    /// the rollout policy — the guide's, in one batched pass of the network, when
    /// [`GuideSettings::policy_rollouts`] is on, else `expert` — for every line that waits on a
    /// real choice. Forced moves are applied without asking. An illegal rollout action is a bug
    /// of the rollout policy and is reported, not replaced.
    /// A bare loop, not `env::Driver`: hundreds of short in-place rollouts per decision must stay cheap.
    /// `withheld` (action bits) are never played by `me`, when it has anything else to play.
    fn rollouts(&mut self, lines: &mut [(usize, State)], me: Seat, withheld: u64) -> Result<(), AgentError> {
        let mut guide = self.guide.as_mut().filter(|(_, s)| s.policy_rollouts).map(|(g, _)| g);
        let rounds: Vec<u16> = lines.iter().map(|(_, s)| s.round()).collect();
        let (mut asked, mut views, mut masks) = (Vec::new(), Vec::new(), Vec::new());
        loop {
            asked.clear();
            views.clear();
            masks.clear();
            for (k, ((_, s), &r0)) in lines.iter_mut().zip(&rounds).enumerate() {
                // Forced moves first, so every line left waits on a real choice.
                while let Some(seat) = s.current_player().filter(|_| s.round() == r0) {
                    let m = restricted(s.legal_mask(), if seat == me { withheld } else { 0 });
                    let Some(a) = only_action(m) else {
                        asked.push(k);
                        views.push(s.view(seat));
                        masks.push(m);
                        break;
                    };
                    s.apply(a).map_err(|e| AgentError::new(&self.name, format!("forced move {a}: {e}")))?;
                }
            }
            if asked.is_empty() {
                return Ok(());
            }
            let chosen = match guide.as_mut() {
                Some(guide) => guide.rollout_actions(&views, &masks)?,
                None => views.iter().zip(&masks).map(|(v, &m)| self.rollout.choose(v, m)).collect(),
            };
            if chosen.len() != asked.len() {
                return Err(AgentError::new(
                    &self.name,
                    format!("the guide chose {} actions for {} positions", chosen.len(), asked.len()),
                ));
            }
            for ((&k, a), m) in asked.iter().zip(chosen).zip(&masks) {
                if !m.contains(a) {
                    return Err(AgentError::new(&self.name, format!("the rollout policy played illegal {a}")));
                }
                lines[k].1.apply(a).map_err(|e| AgentError::new(&self.name, format!("rollout played {a}: {e}")))?;
            }
        }
    }
}

/// Why search has no scores for a decision: not one of its sampled worlds matched the view.
/// [`Agent::act`] then plays as `expert` does; [`SearchAgent::action_values`] reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoWorld {
    /// Worlds sampled.
    pub worlds: usize,
    /// Worlds the view could not be completed into.
    pub unsampled: usize,
    /// The engine's reason for the first of them.
    pub sample_error: Option<SampleError>,
    /// The legal actions given, when completed worlds did not allow all of them.
    pub given: Option<ActionMask>,
    /// The legal actions the first such world allowed.
    pub offered: Option<ActionMask>,
}

impl std::fmt::Display for NoWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = |m: ActionMask| m.actions().map(|a| a.name()).collect::<Vec<_>>().join(", ");
        write!(f, "none of the {} sampled worlds matched the view", self.worlds)?;
        if let Some(e) = &self.sample_error {
            write!(f, "; {} could not be completed from it ({e})", self.unsampled)?;
        }
        if let (Some(given), Some(offered)) = (self.given, self.offered) {
            write!(
                f,
                "; {} offered [{}], not the legal actions given [{}]",
                self.worlds - self.unsampled,
                names(offered),
                names(given)
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for NoWorld {}

/// The legal actions searched, their summed scores and the number of worlds that matched.
type Totals = (Vec<Action>, Vec<f64>, usize);

impl SearchAgent {
    /// The mean round-end score (see the module documentation) of each legal action over the
    /// sampled worlds, in action order. This is what [`Agent::act`] maximises, exposed so
    /// front-ends can show it; when no sampled world matched the view, [`NoWorld`] says why.
    pub fn action_values(
        &mut self,
        view: &PlayerView,
        legal: ActionMask,
        rng: &mut AgentRng,
    ) -> Result<Result<Vec<(Action, f64)>, NoWorld>, AgentError> {
        Ok(self.totals(view, legal, rng)?.map(|(actions, totals, worlds)| {
            actions.into_iter().zip(totals.into_iter().map(|t| t / worlds as f64)).collect()
        }))
    }

    /// The legal actions, their summed scores and the number of worlds that matched the view.
    fn totals(
        &mut self,
        view: &PlayerView,
        legal: ActionMask,
        rng: &mut AgentRng,
    ) -> Result<Result<Totals, NoWorld>, AgentError> {
        let seed: u64 = rng.random();
        let mut actions: Vec<Action> = legal.actions().collect();
        let mut bonus = vec![0.0f64; actions.len()];
        if let Some((guide, settings)) = self.guide.as_mut() {
            let prior = guide.prior(view, legal)?;
            let top = actions.iter().map(|a| prior[a.index()]).fold(0.0f32, f32::max);
            let keep: Vec<(Action, f64)> = actions
                .iter()
                .map(|&a| (a, prior[a.index()]))
                .filter(|&(_, p)| p >= settings.prune * top)
                .map(|(a, p)| (a, settings.prior_weight * f64::from(p)))
                .collect();
            (actions, bonus) = keep.into_iter().unzip();
        }
        let mut totals = vec![0.0f64; actions.len()];
        let me = view.viewer;
        let value_leaves = self.guide.as_ref().is_some_and(|(_, s)| s.value_leaves);
        // Round-end positions the guide scores in one batch: the action that led there, and the
        // viewer's view of it.
        let (mut leaf_action, mut leaves): (Vec<usize>, Vec<PlayerView>) = (Vec::new(), Vec::new());
        let mut worlds = 0usize;
        let mut missed = NoWorld { worlds: self.worlds, unsampled: 0, sample_error: None, given: None, offered: None };
        // Each (world, action) line after its action, to be played to the end of the round.
        let mut lines: Vec<(usize, State)> = Vec::new();
        // Actions the worlds allow that the caller did not offer (restricted play).
        let mut withheld = 0u64;
        for w in 0..self.worlds as u64 {
            let base = match sample_state(view, derive_seed(seed, 2 * w)) {
                Ok(base) => base,
                Err(e) => {
                    missed.unsampled += 1;
                    missed.sample_error.get_or_insert(e);
                    continue;
                }
            };
            let offered = base.legal_mask().bits();
            if offered & legal.bits() != legal.bits() {
                missed.given = Some(legal);
                missed.offered.get_or_insert(base.legal_mask());
                continue;
            }
            withheld |= offered & !legal.bits();
            worlds += 1;
            for (i, &a) in actions.iter().enumerate() {
                let mut s = base.clone();
                if s.apply(a).is_ok() {
                    lines.push((i, s));
                }
            }
        }
        self.rollouts(&mut lines, me, withheld)?;
        for (i, s) in lines {
            if value_leaves && !s.is_terminal() && !s.player(me).eliminated {
                leaf_action.push(i);
                leaves.push(s.view(me));
            } else {
                totals[i] += score(&s, me);
            }
        }
        if let Some((guide, _)) = self.guide.as_mut().filter(|_| !leaves.is_empty()) {
            let values = guide.values(&leaves)?;
            if values.len() != leaves.len() {
                return Err(AgentError::new(
                    &self.name,
                    format!("the guide scored {} of {} positions", values.len(), leaves.len()),
                ));
            }
            for ((&i, g), v) in leaf_action.iter().zip(values).zip(&leaves) {
                totals[i] += win_chance(g, v.config.players);
            }
        }
        for (t, b) in totals.iter_mut().zip(&bonus) {
            *t += b * worlds as f64;
        }
        Ok(if worlds > 0 { Ok((actions, totals, worlds)) } else { Err(missed) })
    }
}

/// `mask` without the `withheld` actions, unless that leaves nothing to play.
fn restricted(mask: ActionMask, withheld: u64) -> ActionMask {
    let kept = mask.bits() & !withheld;
    if kept == 0 { mask } else { ActionMask::from_bits(kept) }
}

/// The value of a position at the end of a round for `me` (see the module documentation).
pub fn score(s: &State, me: Seat) -> f64 {
    if s.is_terminal() && !s.is_truncated() {
        let w = s.winners();
        return if w.contains(me) { 1.0 / w.len() as f64 } else { 0.0 };
    }
    let n = s.num_players();
    let total: u32 = (0..n).map(|i| s.player(Seat(i)).stock.0 as u32).sum();
    if total == 0 {
        return 0.0;
    }
    s.player(me).stock.0 as f64 / total as f64
}

/// One searched decision: the action taken and the mean round-end score of every action the
/// search tried, in action order. Decisions settled without search (one legal action, Impostor
/// dice, setup tokens, a view no sampled world matched) carry no scores.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchDecision {
    /// The action played.
    pub action: Action,
    /// `(action, mean score)` of each searched action; empty when nothing was searched.
    pub values: Vec<(Action, f64)>,
}

impl SearchAgent {
    /// Decides at `view` as [`Agent::act`] does, and returns the scores the decision rests on.
    /// This is what a student network is distilled from (`sabacc distil`).
    pub fn decide(
        &mut self,
        view: &PlayerView,
        legal: ActionMask,
        rng: &mut AgentRng,
    ) -> Result<SearchDecision, AgentError> {
        let settled = |action| SearchDecision { action, values: Vec::new() };
        if let Some(a) = only_action(legal) {
            return Ok(settled(a));
        }
        match view.decision {
            ViewDecision::ImpostorDie { .. } => {
                if let Some(a) = best_die(view, legal) {
                    return Ok(settled(a));
                }
            }
            ViewDecision::ChooseToken => return Ok(settled(self.fallback.act(view, legal, rng)?)),
            _ => {}
        }
        let Ok((actions, totals, worlds)) = self.totals(view, legal, rng)? else {
            return Ok(settled(self.fallback.act(view, legal, rng)?));
        };
        let mut best = 0;
        for i in 1..actions.len() {
            if totals[i] > totals[best] + 1e-9 {
                best = i;
            }
        }
        let values = actions.iter().zip(&totals).map(|(&a, &t)| (a, t / worlds as f64)).collect();
        Ok(SearchDecision { action: actions[best], values })
    }
}

impl Agent<crate::Kessel> for SearchAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn decide(
        &mut self,
        view: &PlayerView,
        legal: ActionMask,
        rng: &mut AgentRng,
    ) -> Result<(Action, Vec<(Action, f64)>), AgentError> {
        let d = SearchAgent::decide(self, view, legal, rng)?;
        Ok((d.action, d.values))
    }

    fn action_scores(
        &mut self,
        view: &PlayerView,
        legal: ActionMask,
        rng: &mut AgentRng,
    ) -> Option<Result<Vec<(Action, f64)>, AgentError>> {
        Some(match self.action_values(view, legal, rng) {
            Ok(Ok(values)) => Ok(values),
            Ok(Err(no_world)) => Err(AgentError::new(&self.name, no_world.to_string())),
            Err(e) => Err(e),
        })
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask, rng: &mut AgentRng) -> Result<Action, AgentError> {
        Ok(self.decide(view, legal, rng)?.action)
    }

    /// Unguided search decides a batch on the current rayon pool, one searcher per worker: a
    /// trainer that seats `search` as an opponent asks for dozens of decisions per step, each
    /// hundreds of rollouts, and would otherwise keep one core busy. Each decision draws only
    /// from its own RNG, so the actions are those of the one-by-one loop. Guided search keeps
    /// that loop: its guide is one network, already batched across a decision's rollouts.
    fn act_batch(
        &mut self,
        views: &[PlayerView],
        legal: &[ActionMask],
        rngs: &mut [AgentRng],
        out: &mut Vec<Action>,
    ) -> Result<(), AgentError> {
        if self.guide.is_some() || views.len() < 2 {
            return game::act_each(self, views, legal, rngs, out);
        }
        out.clear();
        let (worlds, name) = (self.worlds, self.name.as_str());
        let chosen: Vec<Result<Action, AgentError>> = views
            .par_iter()
            .zip(legal.par_iter())
            .zip(rngs.par_iter_mut())
            .map_init(
                || SearchAgent { name: name.to_string(), ..SearchAgent::new(worlds) },
                |searcher, ((v, &m), r)| searcher.act(v, m, r),
            )
            .collect();
        for a in chosen {
            out.push(a?);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleConfig;
    use crate::event::Event;
    use game::AgentRng;
    use rand::SeedableRng;

    /// Round starts from `expert` games where `me`, the seat to act, holds tokens it may play.
    fn lines_with_tokens(games: u64) -> Vec<(Seat, State)> {
        let mut expert = super::super::ExpertAgent::new();
        let mut out = Vec::new();
        for g in 0..games {
            let mut st = State::new(RuleConfig::with_players(4), derive_seed(61, g)).unwrap();
            let mut rng = AgentRng::seed_from_u64(g);
            while let Some(seat) = st.current_player() {
                let legal = st.legal_mask();
                if crate::without_tokens(legal) != legal {
                    out.push((seat, st.clone()));
                }
                st.apply(expert.act(&st.view(seat), legal, &mut rng).unwrap()).unwrap();
            }
        }
        out
    }

    fn tokens_played_by(me: Seat, s: &State, from: usize) -> usize {
        s.events()[from..].iter().filter(|e| matches!(e, Event::TokenPlayed { seat, .. } if *seat == me)).count()
    }

    #[test]
    fn rollouts_keep_the_searchers_withheld_actions_and_only_its_own() {
        let all_tokens = !crate::without_tokens(ActionMask::from_bits(u64::MAX)).bits();
        let (mut free, mut kept, mut others) = (0, 0, 0);
        for (me, start) in lines_with_tokens(6) {
            let from = start.events().len();
            let mut search = SearchAgent::new(1);
            let mut lines = vec![(0, start.clone())];
            search.rollouts(&mut lines, me, 0).unwrap();
            free += tokens_played_by(me, &lines[0].1, from);
            let mut lines = vec![(0, start.clone())];
            search.rollouts(&mut lines, me, all_tokens).unwrap();
            kept += tokens_played_by(me, &lines[0].1, from);
            others += (0..start.num_players())
                .map(Seat)
                .filter(|&s| s != me)
                .map(|s| tokens_played_by(s, &lines[0].1, from))
                .sum::<usize>();
        }
        assert!(free > 0, "unrestricted rollouts play the searcher's tokens");
        assert_eq!(kept, 0, "withheld token plays are never played by the searcher");
        assert!(others > 0, "the other seats still play theirs");
    }
}
