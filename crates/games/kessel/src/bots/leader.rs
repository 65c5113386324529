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

use super::expert::Expert;
use super::style::{Style, StyleBot, aim};
use super::targets::{can_target, chip_leader, target_action};
use crate::{Action, ActionMask, Card, PlayerView, Source, Token, TokenSet};

/// The leader-targeting bot (see the module documentation).
pub type LeaderAgent = StyleBot<Leader>;

/// The leader-targeting style (see the module documentation).
#[derive(Default)]
pub struct Leader {
    expert: Expert,
}

const TARGETED: [Token; 4] = [Token::TargetTariff, Token::TargetAudit, Token::Exhaustion, Token::DirectTransaction];

impl Style for Leader {
    const SETUP: &'static [Token] = Expert::SETUP;

    fn setup(&self, view: &PlayerView) -> &'static [Token] {
        self.expert.setup(view)
    }

    fn name(&self) -> &str {
        "leader"
    }

    fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action {
        self.expert.prime_die(view, dice)
    }

    fn target(&mut self, view: &PlayerView, _token: Token, legal: ActionMask) -> Action {
        aim(view, legal, chip_leader(view).and_then(|s| target_action(view, s, legal)))
    }

    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action {
        self.expert.keep(view, drawn, source)
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        if view.token_played {
            return self.expert.act(view, legal);
        }
        let leader = chip_leader(view);
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
        self.expert.act_withholding(view, legal, withheld)
    }
}
