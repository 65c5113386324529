//! `aggressive`: plays its tokens as early as it can, against the most dangerous seat.
//!
//! Strategy:
//! - **Cards**: the expert's stand/draw, keep and dice choices, made as if it held no tokens
//!   ([`ExpertAgent::choose_withholding`]): tokens are this style's own business.
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

use super::expert::ExpertAgent;
use super::greedy::richest_target;
use super::hand::opponents;
use super::odds::{Odds, prime_gain};
use super::targets::{can_target, first_target, in_stand, target_action};
use engine::{Action, ActionMask, PlayerView, RankingMods, Seat, Token, TokenSet, ViewDecision};
use env::{Agent, AgentError, AgentRng};

/// The aggressive bot (see the module documentation).
#[derive(Default)]
pub struct AggressiveAgent {
    cards: ExpertAgent,
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

impl AggressiveAgent {
    /// An aggressive bot.
    pub fn new() -> Self {
        Self::default()
    }

    /// The aggressive choice (legal whenever `legal` is the state's mask).
    pub fn choose(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        if legal.count() == 1 {
            return legal.actions().next().expect("one legal action");
        }
        match view.decision {
            ViewDecision::ChooseToken => super::setup::choose_token(&ATTACK, legal),
            ViewDecision::Target { token } => self.target(view, token, legal),
            ViewDecision::Act if !view.token_played => {
                let mv = self.cards.choose_withholding(view, legal, TokenSet::ALL);
                self.token(view, legal, mv).unwrap_or(mv)
            }
            _ => self.cards.choose_withholding(view, legal, TokenSet::ALL),
        }
    }

    /// The first token of [`ATTACK`] worth playing now, if any.
    fn token(&mut self, view: &PlayerView, legal: ActionMask, mv: Action) -> Option<Action> {
        let me = &view.seats[view.viewer.index()];
        let mods = view.effects.mods;
        let threats = opponents(view).any(|o| view.seats[o.index()].unplayed > 0);
        for tok in ATTACK {
            let a = Action::PlayToken(tok);
            if !view.own_tokens.contains(tok) || !legal.contains(a) {
                continue;
            }
            let play = match tok {
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
                    let (p0, with) = prime_gain(&mut self.odds, view);
                    with > p0 + 0.05
                }
                Token::CookTheBooks | Token::Markdown | Token::MajorFraud => {
                    let new = match tok {
                        Token::CookTheBooks => RankingMods { cook_the_books: true, ..mods },
                        Token::Markdown => RankingMods { markdown: true, ..mods },
                        _ => RankingMods { major_fraud: true, ..mods },
                    };
                    let (p0, p1) = self.odds.fix_change(view, new);
                    p1 > p0 + 0.05
                }
                Token::DirectTransaction => {
                    let t = self.odds.table(view, None);
                    self.odds.win(view, &t, Odds::hand(view)) < 0.3
                        && opponents(view).any(|o| in_stand(view, o) && can_target(view, tok, o))
                }
            };
            if play {
                return Some(a);
            }
        }
        None
    }

    fn target(&mut self, view: &PlayerView, token: Token, legal: ActionMask) -> Action {
        let pick = match token {
            Token::TargetTariff | Token::TargetAudit => {
                let amount = if token == Token::TargetTariff { 2 } else { 3 };
                opponents(view)
                    .filter(|o| {
                        let s = &view.seats[o.index()];
                        s.stock.0 <= amount && s.pot.0 == 0
                    })
                    .filter_map(|o| target_action(view, o, legal).map(|a| (view.seats[o.index()].stock.0, a)))
                    .max_by_key(|x| x.0)
                    .map(|x| x.1)
            }
            _ => dangerous(view, token).and_then(|o| target_action(view, o, legal)),
        };
        pick.or_else(|| richest_target(view, legal)).unwrap_or_else(|| first_target(legal))
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

impl Agent for AggressiveAgent {
    fn name(&self) -> &str {
        "aggressive"
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask, _rng: &mut AgentRng) -> Result<Action, AgentError> {
        Ok(self.choose(view, legal))
    }
}
