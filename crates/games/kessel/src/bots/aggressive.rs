//! `aggressive`: plays its tokens as early as it can, against the most dangerous seat.
//!
//! Strategy:
//! - **Cards**: the expert's stand/draw, keep and dice choices, made as if it held no tokens
//!   ([`Expert::act_withholding`]): tokens are this style's own business.
//! - **Tokens**: at every action it plays the first token of its list that is legal and does
//!   not hurt itself — Target Audit, Target Tariff, General Audit, General Tariff, Embezzlement,
//!   Exhaustion (when some opponent stands or shows a hand), Embargo, Immunity (while opponents
//!   hold tokens), Free Draw (when the expert would draw), Refund / Extra Refund (any chip in its
//!   hand pot), Prime Sabacc, Cook the Books, Markdown and Major Fraud (when they raise its own
//!   chance to win), Direct Transaction (with a poor hand, against an opponent in stand). It
//!   saves nothing for later.
//! - **Targets**, the most dangerous seat: Tariffs and Audits knock out an opponent who has no
//!   hand pot to fall back on, else hit the chip leader; Exhaustion and Direct Transaction go to
//!   the richest opponent in stand (the one most likely to have made a hand), else the richest.
//! - Token choice at setup (K2.1 `choose`): the attacking kinds first.
//!
//! Good at: draining opponents early, before they use their own tokens. Bad at: the late game,
//! with nothing left to answer an opponent's Audit or to save a hand pot.

use super::expert::Expert;
use super::hand::opponents;
use super::odds::{Odds, prime_gain};
use super::style::{Style, StyleBot, aim, first_token};
use super::targets::{can_target, in_stand, knocks_out, target_action};
use crate::{Action, ActionMask, Card, PlayerView, Source, Token, TokenSet};
use game::Seat;

/// The aggressive bot (see the module documentation).
pub type AggressiveAgent = StyleBot<Aggressive>;

/// The aggressive style (see the module documentation).
#[derive(Default)]
pub struct Aggressive {
    cards: Expert,
    odds: Odds,
}

/// The order in which it plays its tokens; also its setup preference.
const ATTACK: [Token; 16] = [
    Token::TargetAudit,
    Token::TargetTariff,
    Token::GeneralAudit,
    Token::GeneralTariff,
    Token::Embezzlement,
    Token::Exhaustion,
    Token::Embargo,
    Token::Immunity,
    Token::FreeDraw,
    Token::ExtraRefund,
    Token::Refund,
    Token::PrimeSabacc,
    Token::CookTheBooks,
    Token::Markdown,
    Token::MajorFraud,
    Token::DirectTransaction,
];

impl Style for Aggressive {
    const SETUP: &'static [Token] = &ATTACK;

    fn name(&self) -> &str {
        "aggressive"
    }

    fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action {
        self.cards.prime_die(view, dice)
    }

    fn target(&mut self, view: &PlayerView, token: Token, legal: ActionMask) -> Action {
        let pick = match token {
            Token::TargetTariff | Token::TargetAudit => opponents(view)
                .filter(|&o| knocks_out(view, token, o))
                .filter_map(|o| target_action(view, o, legal).map(|a| (view.seats[o.index()].stock.0, a)))
                .max_by_key(|x| x.0)
                .map(|x| x.1),
            _ => dangerous(view, token).and_then(|o| target_action(view, o, legal)),
        };
        aim(view, legal, pick)
    }

    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action {
        self.cards.keep(view, drawn, source)
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        let mv = self.cards.act_withholding(view, legal, TokenSet::ALL);
        if view.token_played {
            return mv;
        }
        self.token(view, legal, mv).unwrap_or(mv)
    }
}

impl Aggressive {
    /// The first token of [`ATTACK`] worth playing now, if any.
    fn token(&mut self, view: &PlayerView, legal: ActionMask, mv: Action) -> Option<Action> {
        let me = &view.seats[view.viewer.index()];
        let threats = opponents(view).any(|o| view.seats[o.index()].unplayed > 0);
        let odds = &mut self.odds;
        first_token(view, legal, ATTACK, |tok| match tok {
            Token::TargetAudit
            | Token::TargetTariff
            | Token::GeneralAudit
            | Token::GeneralTariff
            | Token::Embezzlement
            | Token::Embargo => true,
            Token::Exhaustion => dangerous(view, tok).is_some(),
            Token::Immunity => threats,
            Token::FreeDraw => matches!(mv, Action::Draw(_)),
            Token::Refund | Token::ExtraRefund => me.pot.0 >= 1,
            Token::PrimeSabacc => {
                let (p0, with) = prime_gain(odds, view);
                with > p0 + 0.05
            }
            Token::CookTheBooks | Token::Markdown | Token::MajorFraud => {
                let (p0, p1) = odds.fix_change(view, tok);
                p1 > p0 + 0.05
            }
            Token::DirectTransaction => {
                let t = odds.table(view, None);
                odds.win(view, &t, Odds::hand(view)) < 0.3
                    && opponents(view).any(|o| in_stand(view, o) && can_target(view, tok, o))
            }
        })
    }
}

/// The richest opponent that stands or shows both cards (most likely to hold a made hand) and
/// that `token` can reach.
fn dangerous(view: &PlayerView, token: Token) -> Option<Seat> {
    opponents(view)
        .filter(|&o| {
            let s = &view.seats[o.index()];
            (in_stand(view, o) || s.known_hand.iter().all(Option::is_some)) && can_target(view, token, o)
        })
        .max_by_key(|o| view.seats[o.index()].stock.0)
}
