//! Deliberately flawed agents, `expert` with one known weakness each, kept as baselines for
//! measurements. They are not opponents worth training against.
//!
//! - `stander`: stands at once at every action (never draws, never plays a token); otherwise
//!   plays like `expert` (keeps, dice, token choice at setup). The exploitability proxy
//!   (`sabacc exploit`) must find a large margin against it quickly, which is how it is checked.
//! - `notokens`: `expert` that never plays a Shift Token (the same check).
//! - `handdraft`: `expert` that drafts (K2.1 `choose`) by its hand-written list from before the
//!   token research ([`super::draft::HAND_WRITTEN`]): the baseline of the research's draft gain.

use super::draft::HAND_WRITTEN;
use super::expert::Expert;
use super::style::{Style, StyleBot, only_action};
use crate::{Action, ActionMask, Card, PlayerView, Source, Token};

/// Which weakness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// Stands whenever standing is legal.
    AlwaysStands,
    /// Never plays a token.
    NoTokens,
    /// Drafts by the hand-written list from before the token research.
    HandDraft,
}

/// `expert` with one weakness (module docs).
pub type FlawedAgent = StyleBot<Flawed>;

/// The flawed style (module docs).
pub struct Flawed {
    flaw: Flaw,
    expert: Expert,
}

impl FlawedAgent {
    /// A flawed agent.
    pub fn new(flaw: Flaw) -> FlawedAgent {
        StyleBot::with_style(Flawed { flaw, expert: Expert::default() })
    }
}

impl Style for Flawed {
    const SETUP: &'static [Token] = Expert::SETUP;

    fn setup(&self, view: &PlayerView) -> &'static [Token] {
        match self.flaw {
            Flaw::HandDraft => &HAND_WRITTEN,
            Flaw::AlwaysStands | Flaw::NoTokens => self.expert.setup(view),
        }
    }

    fn name(&self) -> &str {
        match self.flaw {
            Flaw::AlwaysStands => "stander",
            Flaw::NoTokens => "notokens",
            Flaw::HandDraft => "handdraft",
        }
    }

    fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action {
        self.expert.prime_die(view, dice)
    }

    fn target(&mut self, view: &PlayerView, token: Token, legal: ActionMask) -> Action {
        self.expert.target(view, token, legal)
    }

    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action {
        self.expert.keep(view, drawn, source)
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        match self.flaw {
            Flaw::HandDraft => return self.expert.act(view, legal),
            Flaw::AlwaysStands if legal.contains(Action::Stand) => return Action::Stand,
            Flaw::AlwaysStands | Flaw::NoTokens => {}
        }
        let allowed = crate::without_tokens(legal);
        // A decision made only of token plays cannot occur (standing or drawing is always
        // legal beside them); keep the expert's choice if it ever did.
        let mask = if allowed.is_empty() { legal } else { allowed };
        only_action(mask).unwrap_or_else(|| self.expert.act(view, mask))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RuleConfig, State};
    use game::{Agent, AgentRng};
    use rand::SeedableRng;

    /// Every decision of 40 games between the two flawed agents, at 2–4 seats. A bare loop over
    /// the state, not `env::Driver`: the test checks each choice against its own mask.
    #[test]
    fn each_flaw_shows_at_every_decision() {
        let mut seen_stand_choice = 0;
        for seed in 0..40u64 {
            let players = 2 + (seed % 3) as u8;
            let mut s = State::new(RuleConfig { players, ..RuleConfig::default() }, seed).expect("default rules");
            let mut agents = [FlawedAgent::new(Flaw::AlwaysStands), FlawedAgent::new(Flaw::NoTokens)];
            let mut rng = AgentRng::seed_from_u64(seed);
            while let Some(seat) = s.current_player() {
                let legal = s.legal_mask();
                let who = seat.index() % 2;
                let a = agents[who].act(&s.view(seat), legal, &mut rng).expect("acts");
                assert!(legal.contains(a), "illegal {a}");
                if who == 0 && legal.contains(Action::Stand) {
                    assert_eq!(a, Action::Stand);
                    seen_stand_choice += 1;
                }
                if who == 1 {
                    assert!(!matches!(a, Action::PlayToken(_)), "notokens played {a}");
                }
                s.apply(a).expect("legal");
            }
        }
        assert!(seen_stand_choice > 40);
    }
}
