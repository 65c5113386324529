//! The expert's draft: which Shift Tokens `expert` (and the bots built on it) takes at setup
//! under K2.1 `choose`, by table size, from the token research (docs/token-research.md, "The
//! answer"). Each list's first three were decided by the report at seed 2 (the races on seed 2,
//! the drafting games on its confirmation seed) and are confirmed by the report on other seeds.
//!
//! - **Heads-up**, [`HEADS_UP_PREFERENCE`]: General Tariff, Target Tariff, Target Audit first,
//!   the pure equilibrium of the heads-up game among the heads-up race's leaders in `expert`'s
//!   hands (it beat the previous draft, Target Tariff, General Audit, Target Audit, by 3.0 pp
//!   ± 0.4 head to head); then the kinds roughly in the order of their mean payoff there.
//! - **Three or more seats**, [`DRAFT_PREFERENCE`]: General Tariff, General Audit, Direct
//!   Transaction first, the equilibrium of the 4-seat game among the 4-seat race's leaders, which
//!   no candidate invades significantly (the previous draft, General Tariff, General Audit,
//!   Target Audit, did 2.6 pp worse against it, not significantly); then roughly in the order of
//!   `expert`'s token values at 4 seats.
//! - [`HAND_WRITTEN`]: the expert's list before the research, kept as the baseline the research
//!   measures this draft against (`handdraft`, [`super::flawed`]).
//!
//! Every kind is on offer to every player (K2.1: two players may hold the same kind), so a fixed
//! preference list always drafts the same loadout: its first `tokens_per_player` enabled kinds.
//!
//! The shipped champion drafts from its own answer in the same report, by the opening book in its
//! checkpoint folder (`checkpoints/champion/book.json`, `policy::book`).

use crate::Token;

/// The heads-up draft preference from the token research, best first (module documentation).
pub const HEADS_UP_PREFERENCE: [Token; 16] = [
    Token::GeneralTariff,
    Token::TargetTariff,
    Token::TargetAudit,
    Token::CookTheBooks,
    Token::Embezzlement,
    Token::DirectTransaction,
    Token::GeneralAudit,
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
    Token::DirectTransaction,
    Token::TargetAudit,
    Token::Embezzlement,
    Token::TargetTariff,
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

/// The expert's hand-written list from before the token research, best first: its picks
/// (Refund, Extra Refund, Target Audit) rank in the bottom fifth of the research's 4-seat
/// loadout race. Played by `handdraft`, the baseline of the research's draft gain.
pub const HAND_WRITTEN: [Token; 16] = [
    Token::ExtraRefund,
    Token::TargetAudit,
    Token::Refund,
    Token::GeneralAudit,
    Token::TargetTariff,
    Token::FreeDraw,
    Token::GeneralTariff,
    Token::Immunity,
    Token::DirectTransaction,
    Token::PrimeSabacc,
    Token::Embezzlement,
    Token::Exhaustion,
    Token::CookTheBooks,
    Token::MajorFraud,
    Token::Markdown,
    Token::Embargo,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{ExpertAgent, Flaw, FlawedAgent, HoarderAgent, LeaderAgent};
    use crate::config::TokenAssignment;
    use crate::{Action, ActionMask, PlayerView, RuleConfig, State, TokenSet, ViewDecision};

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
        (0..rules.players).map(|p| s.player(game::Seat(p)).tokens).collect()
    }

    fn choose(players: u8) -> RuleConfig {
        RuleConfig { token_assignment: TokenAssignment::Choose, ..RuleConfig::with_players(players) }
    }

    fn first_three(list: &[Token]) -> TokenSet {
        list[..3].iter().copied().collect()
    }

    #[test]
    fn the_expert_drafts_by_table_size() {
        for (players, list) in [(2, &HEADS_UP_PREFERENCE), (3, &DRAFT_PREFERENCE), (4, &DRAFT_PREFERENCE)] {
            let mut e = ExpertAgent::new();
            let got = drafted(choose(players), |v, m| e.choose(v, m));
            assert!(got.iter().all(|&l| l == first_three(list)), "{players} seats: {got:?}");
        }
        assert_ne!(first_three(&HEADS_UP_PREFERENCE), first_three(&DRAFT_PREFERENCE));
    }

    #[test]
    fn bots_built_on_the_expert_draft_as_it_does_and_handdraft_by_the_old_list() {
        for players in [2, 4] {
            let want = first_three(preference(players));
            let mut h = HoarderAgent::new();
            assert!(drafted(choose(players), |v, m| h.choose(v, m)).iter().all(|&l| l == want));
            let mut l = LeaderAgent::new();
            assert!(drafted(choose(players), |v, m| l.choose(v, m)).iter().all(|&l| l == want));
            let mut n = FlawedAgent::new(Flaw::NoTokens);
            assert!(drafted(choose(players), |v, m| n.choose(v, m)).iter().all(|&l| l == want));
            let mut old = FlawedAgent::new(Flaw::HandDraft);
            let got = drafted(choose(players), |v, m| old.choose(v, m));
            assert!(got.iter().all(|&l| l == first_three(&HAND_WRITTEN)), "{got:?}");
            assert_ne!(first_three(&HAND_WRITTEN), want);
        }
    }

    #[test]
    fn skips_disabled_kinds_in_order() {
        let mut enabled = TokenSet::ALL;
        enabled.remove(HEADS_UP_PREFERENCE[0]);
        let rules = RuleConfig { enabled_tokens: enabled, ..choose(2) };
        let mut e = ExpertAgent::new();
        let got = drafted(rules, |v, m| e.choose(v, m));
        let want: TokenSet = HEADS_UP_PREFERENCE[1..4].iter().copied().collect();
        assert!(got.iter().all(|&l| l == want), "{got:?}");
    }

    #[test]
    fn each_list_names_every_kind_once() {
        for list in [&DRAFT_PREFERENCE, &HEADS_UP_PREFERENCE, &HAND_WRITTEN] {
            let set: TokenSet = list.iter().copied().collect();
            assert_eq!(set.len(), 16);
        }
    }
}
