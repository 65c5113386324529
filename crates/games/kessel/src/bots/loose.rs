//! `loose`: draws aggressively to chase a strong hand (a Sabacc) and stands late.
//!
//! Strategy:
//! - **Cards**: [`Appetite::LOOSE`] — it keeps drawing until its hand beats one opponent 90 % of
//!   the time (80 % in the last turn), which in practice means a good Sabacc, down to its last
//!   chip; any source that promises any improvement is worth a draw. **Keep**: the better hand,
//!   the drawn card on a tie (it wants the cards moving).
//! - **Tokens**, for its chase: Free Draw whenever it draws; Refund / Extra Refund in the last
//!   turn with two chips in its hand pot and a hand that is not a favourite; Prime Sabacc,
//!   Cook the Books, Markdown and Major Fraud when they raise its own chance to win by a clear
//!   margin; Direct Transaction in the last turn with a poor hand against an opponent in stand
//!   (who has probably made a hand). It never taxes anyone.
//! - **Dice**: the Impostor value that makes the best hand; the Prime value that wins most.
//! - Token choice at setup (K2.1 `choose`): Free Draw and the Refunds first.
//!
//! Good at: reaching Sabaccs and winning big hand pots. Bad at: keeping chips — it pays for
//! many draws and loses them when the chase fails.

use super::odds::{Odds, prime_gain};
use super::risk::Appetite;
use super::style::{Style, StyleBot, aim, first_token};
use super::targets::{can_target, in_stand, target_action};
use crate::{Action, ActionMask, Card, PlayerView, Source, Token};

/// The loose bot (see the module documentation).
pub type LooseAgent = StyleBot<Loose>;

/// The loose style (see the module documentation).
pub struct Loose {
    odds: Odds,
    appetite: Appetite,
}

impl Default for Loose {
    fn default() -> Self {
        Loose { odds: Odds::new(), appetite: Appetite::LOOSE }
    }
}

impl LooseAgent {
    /// The same style with other card-play knobs (for experiments with the population).
    pub fn with_appetite(appetite: Appetite) -> Self {
        StyleBot::with_style(Loose { odds: Odds::new(), appetite })
    }
}

impl Style for Loose {
    const SETUP: &'static [Token] = &CHASE;

    fn name(&self) -> &str {
        "loose"
    }

    fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action {
        self.odds.prime_die(view, dice)
    }

    fn target(&mut self, view: &PlayerView, token: Token, legal: ActionMask) -> Action {
        let pick = match token {
            Token::DirectTransaction => stander(view, token).and_then(|s| target_action(view, s, legal)),
            _ => None,
        };
        aim(view, legal, pick)
    }

    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action {
        self.odds.keep(view, drawn, source, true)
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        let (mv, p) = self.appetite.choose(&mut self.odds, view, legal);
        if view.token_played {
            return mv;
        }
        let me = &view.seats[view.viewer.index()];
        let last_turn = view.turn >= 3;
        let odds = &mut self.odds;
        first_token(view, legal, view.own_tokens.iter(), |tok| match tok {
            Token::FreeDraw => matches!(mv, Action::Draw(_)),
            Token::Refund | Token::ExtraRefund => last_turn && me.pot.0 >= 2 && p < 0.5,
            Token::PrimeSabacc => {
                let (p0, with) = prime_gain(odds, view);
                with >= p0 + 0.15
            }
            Token::CookTheBooks | Token::Markdown | Token::MajorFraud => {
                let (p0, p1) = odds.fix_change(view, tok);
                p1 >= p0 + 0.15
            }
            Token::DirectTransaction => last_turn && p < 0.2 && stander(view, tok).is_some(),
            _ => false,
        })
        .unwrap_or(mv)
    }
}

/// An opponent in stand that `token` can reach (the nearest clockwise).
fn stander(view: &PlayerView, token: Token) -> Option<game::Seat> {
    super::hand::opponents(view).find(|&o| in_stand(view, o) && can_target(view, token, o))
}

/// Setup preference: what feeds the chase.
const CHASE: [Token; 6] = [
    Token::FreeDraw,
    Token::ExtraRefund,
    Token::Refund,
    Token::PrimeSabacc,
    Token::DirectTransaction,
    Token::MajorFraud,
];
