//! `tight`: stands early on any reasonable hand, rarely draws, plays tokens only to protect
//! its own chips.
//!
//! Strategy:
//! - **Cards**: [`Appetite::TIGHT`] — it stands once its hand beats one opponent 60 % of the
//!   time (45 % in the last turn), and draws only when the best source (a face-up card exactly,
//!   a draw pile averaged over the cards it cannot place) raises its chance to win by 5 points.
//!   **Keep**: the better hand.
//! - **Tokens**, defensive: Free Draw when it draws; Refund / Extra Refund when its hand pot
//!   holds two chips (one in the last turn) and the hand is not a favourite; Immunity when it
//!   has chips at risk (a hand pot, or three chips or fewer) and opponents still hold tokens;
//!   Prime Sabacc when it raises its own chance to win by a clear margin. It never taxes first:
//!   Tariffs and Audits only answer an opponent who has played one, and go to that opponent.
//! - **Dice**: the Impostor value that makes the best hand; the Prime value that wins most.
//! - Token choice at setup (K2.1 `choose`): the defensive kinds first.
//!
//! Good at: not losing chips to bad draws, against bots that bluff nothing. Bad at: catching up,
//! and against opponents who draw to strong hands while it stands on a middling one.

use super::odds::{Odds, prime_gain};
use super::risk::Appetite;
use super::style::{Style, StyleBot, aim, first_token};
use super::targets::{in_stand, target_action};
use crate::{Action, ActionMask, Card, PlayerView, Source, Token};

/// The tight bot (see the module documentation).
pub type TightAgent = StyleBot<Tight>;

/// The tight style (see the module documentation).
pub struct Tight {
    odds: Odds,
    appetite: Appetite,
}

impl Default for Tight {
    fn default() -> Self {
        Tight { odds: Odds::new(), appetite: Appetite::TIGHT }
    }
}

impl TightAgent {
    /// The same style with other card-play knobs (for experiments with the population).
    pub fn with_appetite(appetite: Appetite) -> Self {
        StyleBot::with_style(Tight { odds: Odds::new(), appetite })
    }
}

impl Style for Tight {
    const SETUP: &'static [Token] = &DEFENSIVE;

    fn name(&self) -> &str {
        "tight"
    }

    fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action {
        self.odds.prime_die(view, dice)
    }

    fn target(&mut self, view: &PlayerView, _token: Token, legal: ActionMask) -> Action {
        aim(view, legal, attacker(view).and_then(|s| target_action(view, s, legal)))
    }

    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action {
        self.odds.keep(view, drawn, source, false)
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        let (mv, p) = self.appetite.choose(&mut self.odds, view, legal);
        if view.token_played {
            return mv;
        }
        let me = &view.seats[view.viewer.index()];
        let last_turn = view.turn >= 3;
        let threats = super::hand::opponents(view).any(|o| view.seats[o.index()].unplayed > 0);
        let odds = &mut self.odds;
        first_token(view, legal, view.own_tokens.iter(), |tok| match tok {
            Token::FreeDraw => matches!(mv, Action::Draw(_)),
            Token::Refund | Token::ExtraRefund => p < 0.5 && (me.pot.0 >= 2 || (last_turn && me.pot.0 >= 1)),
            Token::Immunity => threats && (me.pot.0 > 0 || me.stock.0 <= 3),
            // Tax tokens only in answer to an opponent who has taxed.
            Token::GeneralTariff | Token::TargetTariff => attacker(view).is_some(),
            Token::GeneralAudit | Token::TargetAudit => {
                attacker(view).is_some() && super::hand::opponents(view).any(|o| in_stand(view, o))
            }
            Token::PrimeSabacc => {
                let (p0, with) = prime_gain(odds, view);
                with >= p0 + 0.2
            }
            _ => false,
        })
        .unwrap_or(mv)
    }
}

/// The richest active opponent that has played a Tax token this game (Tariffs and Audits):
/// the one it answers.
fn attacker(view: &PlayerView) -> Option<game::Seat> {
    let taxes = [Token::GeneralTariff, Token::TargetTariff, Token::GeneralAudit, Token::TargetAudit];
    super::hand::opponents(view)
        .filter(|o| taxes.iter().any(|&t| view.seats[o.index()].spent.contains(t)))
        .max_by_key(|o| view.seats[o.index()].stock.0)
}

/// Setup preference: protection first.
const DEFENSIVE: [Token; 6] =
    [Token::ExtraRefund, Token::Refund, Token::Immunity, Token::FreeDraw, Token::PrimeSabacc, Token::Embargo];
