//! `drafter`: `expert` with a draft preference taken from the token research instead of the
//! expert's hand-written list.
//!
//! Strategy:
//! - **Everything but the draft**: the expert's choices (cards, dice, tokens, targets).
//! - **Token choice at setup** (K2.1 `choose`), by table size, from the token research
//!   (docs/token-research.md):
//!   - **heads-up**, [`HEADS_UP_PREFERENCE`]: General Tariff, Target Tariff, General Audit first,
//!     the pure equilibrium of the heads-up meta-game among the loadout race's leaders (it beats
//!     every other candidate; against `expert`'s own draft it wins 72 % of heads-up games); then
//!     the kinds in the order of their heads-up main effects in the interaction regression;
//!   - **three or more seats**, [`DRAFT_PREFERENCE`]: General Tariff, General Audit, Target Audit
//!     first, the leader of the 4-seat loadout race and the loadout the 4-seat interaction
//!     regression predicts best (two of its pairs are significant synergies); then roughly in the
//!     order of `expert`'s token values at 4 seats.
//!
//! Every kind is on offer to every player (K2.1: two players may hold the same kind), so a
//! fixed preference list always drafts the same loadout: its first `tokens_per_player` enabled
//! kinds. The expert's own list ([`super::expert::Expert`]'s `SETUP`) is kept unchanged, so the
//! shipped figures that rest on `expert` do not move; `sabacc tokens report` measures `drafter`
//! against `expert` under `token_assignment = "choose"`.

use super::expert::Expert;
use super::style::{Style, StyleBot};
use engine::{Action, ActionMask, Card, PlayerView, Source, Token};

/// The drafting bot (see the module documentation).
pub type DrafterAgent = StyleBot<Drafter>;

/// The drafting style: the expert's play with [`DRAFT_PREFERENCE`] at setup.
#[derive(Default)]
pub struct Drafter {
    expert: Expert,
}

/// The heads-up draft preference from the token research, best first (module documentation).
pub const HEADS_UP_PREFERENCE: [Token; 16] = [
    Token::GeneralTariff,
    Token::TargetTariff,
    Token::GeneralAudit,
    Token::TargetAudit,
    Token::DirectTransaction,
    Token::Embezzlement,
    Token::CookTheBooks,
    Token::Exhaustion,
    Token::Embargo,
    Token::FreeDraw,
    Token::Markdown,
    Token::ExtraRefund,
    Token::Immunity,
    Token::Refund,
    Token::MajorFraud,
    Token::PrimeSabacc,
];

/// The draft preference at `players` seats: [`HEADS_UP_PREFERENCE`] heads-up, else
/// [`DRAFT_PREFERENCE`].
pub fn preference(players: u8) -> &'static [Token] {
    if players == 2 { &HEADS_UP_PREFERENCE } else { &DRAFT_PREFERENCE }
}

/// The draft preference at three or more seats from the token research, best first (module
/// documentation).
pub const DRAFT_PREFERENCE: [Token; 16] = [
    Token::GeneralTariff,
    Token::GeneralAudit,
    Token::TargetAudit,
    Token::Embezzlement,
    Token::TargetTariff,
    Token::DirectTransaction,
    Token::Refund,
    Token::ExtraRefund,
    Token::CookTheBooks,
    Token::FreeDraw,
    Token::Immunity,
    Token::MajorFraud,
    Token::Markdown,
    Token::PrimeSabacc,
    Token::Exhaustion,
    Token::Embargo,
];

impl Style for Drafter {
    const SETUP: &'static [Token] = &DRAFT_PREFERENCE;

    fn setup(&self, view: &PlayerView) -> &'static [Token] {
        preference(view.config.players)
    }

    fn name(&self) -> &str {
        "drafter"
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
        self.expert.act(view, legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::ExpertAgent;
    use engine::config::TokenAssignment;
    use engine::{RuleConfig, State, TokenSet, ViewDecision};

    /// Plays the setup of a `choose` game with `bot` in every seat; returns each seat's loadout.
    fn drafted(rules: RuleConfig, mut pick: impl FnMut(&PlayerView, ActionMask) -> Action) -> Vec<TokenSet> {
        let mut s = State::new(rules, 3).unwrap();
        while let Some(seat) = s.current_player() {
            let view = s.view(seat);
            if !matches!(view.decision, ViewDecision::ChooseToken) {
                break;
            }
            let a = pick(&view, s.legal_mask());
            s.apply(a).unwrap();
        }
        (0..rules.players).map(|p| s.player(engine::Seat(p)).tokens).collect()
    }

    #[test]
    fn drafts_the_first_kinds_of_its_list_and_differs_from_the_expert() {
        let rules = RuleConfig { token_assignment: TokenAssignment::Choose, ..RuleConfig::with_players(4) };
        let mut d = DrafterAgent::new();
        let got = drafted(rules, |v, m| d.choose(v, m));
        let want: TokenSet = DRAFT_PREFERENCE[..3].iter().copied().collect();
        assert!(got.iter().all(|&l| l == want), "{got:?}");
        let mut e = ExpertAgent::new();
        let expert = drafted(rules, |v, m| e.choose(v, m));
        assert!(expert.iter().all(|&l| l != want), "the expert drafts {expert:?} too");
    }

    #[test]
    fn drafts_the_heads_up_list_at_two_seats() {
        let rules = RuleConfig { token_assignment: TokenAssignment::Choose, ..RuleConfig::with_players(2) };
        let mut d = DrafterAgent::new();
        let got = drafted(rules, |v, m| d.choose(v, m));
        let want: TokenSet = HEADS_UP_PREFERENCE[..3].iter().copied().collect();
        assert!(got.iter().all(|&l| l == want), "{got:?}");
        assert_ne!(want, DRAFT_PREFERENCE[..3].iter().copied().collect::<TokenSet>());
    }

    #[test]
    fn skips_disabled_kinds_in_order() {
        let mut enabled = TokenSet::ALL;
        enabled.remove(HEADS_UP_PREFERENCE[0]);
        let rules = RuleConfig {
            token_assignment: TokenAssignment::Choose,
            enabled_tokens: enabled,
            ..RuleConfig::with_players(2)
        };
        let mut d = DrafterAgent::new();
        let got = drafted(rules, |v, m| d.choose(v, m));
        let want: TokenSet = HEADS_UP_PREFERENCE[1..4].iter().copied().collect();
        assert!(got.iter().all(|&l| l == want), "{got:?}");
    }

    #[test]
    fn the_preference_lists_every_kind_once() {
        for list in [&DRAFT_PREFERENCE, &HEADS_UP_PREFERENCE] {
            let set: TokenSet = list.iter().copied().collect();
            assert_eq!(set.len(), 16);
        }
    }
}
