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

use super::greedy::{best_die, richest_target};
use super::odds::{Odds, prime_gain};
use super::risk::Appetite;
use super::targets::{can_target, first_target, in_stand, target_action};
use engine::{Action, ActionMask, PlayerView, RankingMods, Token, ViewDecision};
use env::{Agent, AgentError, AgentRng};

/// The loose bot (see the module documentation).
pub struct LooseAgent {
    odds: Odds,
    appetite: Appetite,
}

impl Default for LooseAgent {
    fn default() -> Self {
        LooseAgent { odds: Odds::new(), appetite: Appetite::LOOSE }
    }
}

impl LooseAgent {
    /// A loose bot.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same style with other card-play knobs (for experiments with the population).
    pub fn with_appetite(appetite: Appetite) -> Self {
        LooseAgent { odds: Odds::new(), appetite }
    }

    /// The loose choice (legal whenever `legal` is the state's mask).
    pub fn choose(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        if legal.count() == 1 {
            return legal.actions().next().expect("one legal action");
        }
        match view.decision {
            ViewDecision::ChooseToken => super::setup::choose_token(&CHASE, legal),
            ViewDecision::ImpostorDie { .. } => best_die(view, legal).unwrap_or(Action::DieFirst),
            ViewDecision::PrimeDie { dice } => self.odds.prime_die(view, dice),
            ViewDecision::Target { token: Token::DirectTransaction } => stander(view, Token::DirectTransaction)
                .and_then(|s| target_action(view, s, legal))
                .unwrap_or_else(|| richest_target(view, legal).unwrap_or_else(|| first_target(legal))),
            ViewDecision::Target { .. } => richest_target(view, legal).unwrap_or_else(|| first_target(legal)),
            ViewDecision::Keep { drawn: Some(c), source } => self.odds.keep(view, c, source, true),
            ViewDecision::Keep { drawn: None, .. } => Action::KeepHeld,
            ViewDecision::Act => self.act(view, legal),
            ViewDecision::GameOver | ViewDecision::Truncated => legal.actions().next().expect("non-empty"),
        }
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        let (mv, p) = self.appetite.choose(&mut self.odds, view, legal);
        if view.token_played {
            return mv;
        }
        let me = &view.seats[view.viewer.index()];
        let last_turn = view.turn >= 3;
        let mods = view.effects.mods;
        for tok in view.own_tokens.iter() {
            let a = Action::PlayToken(tok);
            if !legal.contains(a) {
                continue;
            }
            let play = match tok {
                Token::FreeDraw => matches!(mv, Action::Draw(_)),
                Token::Refund | Token::ExtraRefund => last_turn && me.pot.0 >= 2 && p < 0.5,
                Token::PrimeSabacc => {
                    let (p0, with) = prime_gain(&mut self.odds, view);
                    with >= p0 + 0.15
                }
                Token::CookTheBooks | Token::Markdown | Token::MajorFraud => {
                    let new = match tok {
                        Token::CookTheBooks => RankingMods { cook_the_books: true, ..mods },
                        Token::Markdown => RankingMods { markdown: true, ..mods },
                        _ => RankingMods { major_fraud: true, ..mods },
                    };
                    let (p0, p1) = self.odds.fix_change(view, new);
                    p1 >= p0 + 0.15
                }
                Token::DirectTransaction => last_turn && p < 0.2 && stander(view, tok).is_some(),
                _ => false,
            };
            if play {
                return a;
            }
        }
        mv
    }
}

/// An opponent in stand that `token` can reach (the nearest clockwise).
fn stander(view: &PlayerView, token: Token) -> Option<engine::Seat> {
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

impl Agent for LooseAgent {
    fn name(&self) -> &str {
        "loose"
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask, _rng: &mut AgentRng) -> Result<Action, AgentError> {
        Ok(self.choose(view, legal))
    }
}
