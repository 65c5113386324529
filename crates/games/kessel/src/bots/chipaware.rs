//! `chipaware`: plays for the chance to win the game, not the round — cautious when ahead,
//! gambling when behind or when a lost round would knock it out anyway.
//!
//! Strategy: before each action it reads its place in the game from public chip counts — its
//! stock against the mean stock of the players still in — and picks a [`Mood`]:
//! - **Ahead** (at least 1.3 × the mean): a lead is won by not losing chips, so it plays
//!   [`Appetite::TIGHT`] cards; tokens: Immunity and the Refunds to protect chips, and Tariffs or
//!   Audits only where they knock an opponent out (fewer rivals, a sooner end).
//! - **Behind** (at most 0.75 × the mean), or **doomed** (a loss this round would cost its whole
//!   stock, so the chip it pays for a draw no longer matters): it needs big swings, so it plays
//!   [`Appetite::LOOSE`] cards; tokens: Free Draw, Prime Sabacc and the other Fix tokens when they
//!   raise its chance to win, Direct Transaction with a poor hand against an opponent in stand,
//!   Tariffs, Audits and Embezzlement against the leader to close the gap.
//! - **Even**: [`Appetite::BALANCED`] cards and the greedy bot's simple token triggers.
//! - **Targets**: an opponent it can knock out when it is ahead, else the chip leader.
//! - **Keep**, **dice**: the better hand; the Impostor value that makes the best hand.
//! - Token choice at setup (K2.1 `choose`): a balanced list.
//!
//! Good at: converting a lead into a won game, and at long games. Bad at: single rounds — it
//! will pass up a good draw when ahead and chase a long shot when behind.

use super::hand::opponents;
use super::odds::{Odds, prime_gain};
use super::risk::Appetite;
use super::style::{Style, StyleBot, aim, first_token};
use super::targets::{can_target, in_stand, knocks_out, target_action};
use crate::{Action, ActionMask, Card, LastAction, PlayerView, Source, Token};

/// The chip-aware bot (see the module documentation).
pub type ChipAwareAgent = StyleBot<ChipAware>;

/// The chip-aware style (see the module documentation).
#[derive(Default)]
pub struct ChipAware {
    odds: Odds,
}

/// Its reading of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mood {
    /// Well ahead on chips: protect the lead.
    Ahead,
    /// Neither.
    Even,
    /// Well behind, or one lost round from elimination: gamble.
    Behind,
}

impl Mood {
    /// The mood for the viewer (see the module documentation). `loss_tax` is what the hand
    /// would pay in tax if it lost.
    pub fn read(view: &PlayerView, loss_tax: f32) -> Mood {
        let me = &view.seats[view.viewer.index()];
        let mut total = u32::from(me.stock.0);
        let mut n = 1u32;
        for o in opponents(view) {
            total += u32::from(view.seats[o.index()].stock.0);
            n += 1;
        }
        let mean = total as f32 / n as f32;
        let mine = me.stock.0 as f32;
        let doomed = view.turn < 3 && mine > 0.0 && loss_tax >= mine;
        if mine <= 0.75 * mean || doomed {
            Mood::Behind
        } else if mine >= 1.3 * mean {
            Mood::Ahead
        } else {
            Mood::Even
        }
    }

    /// The card play of the mood.
    pub fn appetite(self) -> Appetite {
        match self {
            Mood::Ahead => Appetite::TIGHT,
            Mood::Even => Appetite::BALANCED,
            Mood::Behind => Appetite::LOOSE,
        }
    }
}

const BALANCED: [Token; 8] = [
    Token::ExtraRefund,
    Token::TargetAudit,
    Token::Refund,
    Token::Immunity,
    Token::TargetTariff,
    Token::FreeDraw,
    Token::PrimeSabacc,
    Token::DirectTransaction,
];

impl ChipAwareAgent {
    /// The mood it would act in at this view.
    pub fn mood(&mut self, view: &PlayerView) -> Mood {
        self.style.mood(view)
    }
}

impl ChipAware {
    fn mood(&mut self, view: &PlayerView) -> Mood {
        let tax = self.odds.loss_tax(view);
        Mood::read(view, tax)
    }
}

impl Style for ChipAware {
    const SETUP: &'static [Token] = &BALANCED;

    fn name(&self) -> &str {
        "chipaware"
    }

    fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action {
        self.odds.prime_die(view, dice)
    }

    fn target(&mut self, view: &PlayerView, token: Token, legal: ActionMask) -> Action {
        let pick = match (self.mood(view), token) {
            (Mood::Ahead, Token::TargetTariff | Token::TargetAudit) => {
                opponents(view).filter(|&o| knocks_out(view, token, o)).find_map(|o| target_action(view, o, legal))
            }
            (_, Token::DirectTransaction) => {
                opponents(view).filter(|&o| in_stand(view, o)).find_map(|o| target_action(view, o, legal))
            }
            _ => None,
        };
        aim(view, legal, pick)
    }

    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action {
        self.odds.keep(view, drawn, source, false)
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        let mood = self.mood(view);
        let (mv, p) = mood.appetite().choose(&mut self.odds, view, legal);
        if view.token_played {
            return mv;
        }
        let me = &view.seats[view.viewer.index()];
        let last_turn = view.turn >= 3;
        let threats = opponents(view).any(|o| view.seats[o.index()].unplayed > 0);
        let knockout = |t: Token| opponents(view).any(|o| knocks_out(view, t, o) && can_target(view, t, o));
        let leader_hit = |t: Token| super::targets::chip_leader(view).is_some_and(|s| can_target(view, t, s));
        let odds = &mut self.odds;
        first_token(view, legal, view.own_tokens.iter(), |tok| match (mood, tok) {
            (_, Token::FreeDraw) => matches!(mv, Action::Draw(_)),
            (Mood::Ahead, Token::Immunity) => threats,
            (Mood::Ahead, Token::Refund | Token::ExtraRefund) => me.pot.0 >= 1 && p < 0.7,
            (Mood::Ahead, Token::TargetTariff | Token::TargetAudit) => knockout(tok),
            (Mood::Ahead, _) => false,
            (Mood::Behind, Token::PrimeSabacc) => {
                let (p0, with) = prime_gain(odds, view);
                with >= p0 + 0.1
            }
            (Mood::Behind, Token::CookTheBooks | Token::Markdown | Token::MajorFraud) => {
                let (p0, p1) = odds.fix_change(view, tok);
                p1 >= p0 + 0.1
            }
            (Mood::Behind, Token::DirectTransaction) => {
                p < 0.25 && opponents(view).any(|o| in_stand(view, o) && can_target(view, tok, o))
            }
            (Mood::Behind, Token::TargetTariff | Token::TargetAudit) => leader_hit(tok),
            (Mood::Behind, Token::GeneralTariff | Token::GeneralAudit | Token::Embezzlement) => true,
            (Mood::Behind, Token::Refund | Token::ExtraRefund) => last_turn && me.pot.0 >= 2 && p < 0.5,
            (Mood::Behind, _) => false,
            (Mood::Even, Token::Refund | Token::ExtraRefund) => me.pot.0 >= 2 && p < 0.6,
            (Mood::Even, Token::GeneralTariff | Token::TargetTariff) => true,
            (Mood::Even, Token::GeneralAudit | Token::TargetAudit) => {
                opponents(view).any(|o| view.seats[o.index()].last_action == LastAction::Stand)
            }
            (Mood::Even, Token::PrimeSabacc) => {
                let (p0, with) = prime_gain(odds, view);
                with >= p0 + 0.2
            }
            (Mood::Even, _) => false,
        })
        .unwrap_or(mv)
    }
}
