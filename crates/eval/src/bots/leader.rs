//! `leader`: every targeted token goes to the opponent with the most chips.
//!
//! Strategy:
//! - **Cards** and untargeted tokens: the expert's choices.
//! - **Targeted tokens** (Target Tariff, Target Audit, Exhaustion, Direct Transaction) are played
//!   only at the chip leader — the active opponent with the most chips in stock, the nearest
//!   clockwise on a tie — and only when the leader is a legal target for that token (not Immune;
//!   for Target Audit, in stand). A targeted token the expert would aim elsewhere is kept. On top
//!   of the expert's play, it opens with a Target Tariff or Target Audit whenever the leader has
//!   more chips in stock than itself.
//! - Token choice at setup (K2.1 `choose`): the expert's.
//!
//! Good at: pulling a runaway leader back, which at four seats helps the whole table — itself
//! included only in part. Bad at: finishing off short-stacked opponents, which the expert does.

use super::expert::ExpertAgent;
use super::targets::{can_target, chip_leader, first_target, target_action};
use engine::{Action, ActionMask, PlayerView, Token, TokenSet, ViewDecision};
use env::{Agent, AgentError, AgentRng};

/// The leader-targeting bot (see the module documentation).
#[derive(Default)]
pub struct LeaderAgent {
    expert: ExpertAgent,
}

const TARGETED: [Token; 4] = [Token::TargetTariff, Token::TargetAudit, Token::Exhaustion, Token::DirectTransaction];

impl LeaderAgent {
    /// A leader-targeting bot.
    pub fn new() -> Self {
        Self::default()
    }

    /// The leader bot's choice (legal whenever `legal` is the state's mask).
    pub fn choose(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        if legal.count() == 1 {
            return legal.actions().next().expect("one legal action");
        }
        let leader = chip_leader(view);
        match view.decision {
            ViewDecision::Target { .. } => leader
                .and_then(|s| target_action(view, s, legal))
                .or_else(|| super::greedy::richest_target(view, legal))
                .unwrap_or_else(|| first_target(legal)),
            ViewDecision::Act if !view.token_played => {
                // Targeted tokens that cannot reach the leader now are withheld.
                let mut withheld = TokenSet::EMPTY;
                for t in TARGETED {
                    if leader.is_none_or(|s| !can_target(view, t, s)) {
                        withheld.insert(t);
                    }
                }
                if let Some(s) = leader {
                    let mine = view.seats[view.viewer.index()].stock.0;
                    if view.seats[s.index()].stock.0 > mine {
                        for t in [Token::TargetAudit, Token::TargetTariff] {
                            let a = Action::PlayToken(t);
                            if !withheld.contains(t) && view.own_tokens.contains(t) && legal.contains(a) {
                                return a;
                            }
                        }
                    }
                }
                self.expert.choose_withholding(view, legal, withheld)
            }
            _ => self.expert.choose(view, legal),
        }
    }
}

impl Agent for LeaderAgent {
    fn name(&self) -> &str {
        "leader"
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask, _rng: &mut AgentRng) -> Result<Action, AgentError> {
        Ok(self.choose(view, legal))
    }
}
