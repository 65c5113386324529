//! `greedy`: a simple rule-based player, the first step above random play.
//!
//! Strategy (it counts no cards and reads no opponent):
//! - **Stand** on any Sabacc (equal values, a Sylop with a number, two Sylops).
//! - Otherwise **draw the face-up card** (top of a discard pile) that completes a pair with the
//!   card of the other family; failing that, draw from the **draw pile** of the family whose card
//!   is worth less to the hand (the higher number, or an Impostor), as long as it keeps one chip
//!   in reserve; with a single chip left it stands.
//! - **Keep** whichever card gives the better hand, judged by the chance to beat a random hand
//!   from the full deck (Impostors averaged over the dice).
//! - **Dice**: an Impostor takes the value that makes the best hand under the ranking in force;
//!   Prime Sabacc takes the value of its own pair if offered, else the first die.
//! - **Tokens**, on simple triggers: Free Draw whenever it draws; Refund / Extra Refund with at
//!   least 2 chips in its hand pot; Tariffs at once; Audits when an opponent stands; Embezzlement
//!   when two opponents have chips in their hand pots; Prime Sabacc when it holds a Sabacc. Every
//!   other token is kept. Targets: the opponent with the most chips in stock.
//! - Token choice at setup (K2.1 `choose`): the lowest-index kind offered.

use super::hand::{Scorer, is_sabacc};
use super::style::{Style, StyleBot, aim, first_token};
use crate::{Action, ActionMask, Card, CardKind, PlayerView, Source, Token};

/// The greedy bot (see the module documentation).
pub type GreedyAgent = StyleBot<Greedy>;

/// The greedy style (see the module documentation).
#[derive(Default)]
pub struct Greedy {
    scorer: Scorer,
}

/// How little a card is worth to a hand: the card to replace first.
pub(crate) fn badness(k: CardKind) -> u8 {
    match k {
        CardKind::Number(v) => v,
        CardKind::Impostor => 7,
        CardKind::Sylop => 0,
    }
}

impl Greedy {
    /// The Stand/Draw choice (ignoring tokens).
    fn move_choice(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        let [s, b] = [view.hand[0].kind(), view.hand[1].kind()];
        if is_sabacc(s, b, view.effects.mods.markdown) {
            return Action::Stand;
        }
        let me = &view.seats[view.viewer.index()];
        let free = view.effects.free_draw;
        // A face-up card that completes a pair.
        for (src, other) in [(Source::SandDiscard, b), (Source::BloodDiscard, s)] {
            if !legal.contains(Action::Draw(src)) {
                continue;
            }
            if let Some(top) = view.discard[src.family().index()].top() {
                let pairs = match (top.kind(), other) {
                    (CardKind::Number(x), CardKind::Number(y)) => x == y,
                    (CardKind::Sylop, _) | (_, CardKind::Sylop) => !view.effects.mods.markdown,
                    _ => false,
                };
                if pairs && (me.stock.0 >= 1 || free) {
                    return Action::Draw(src);
                }
            }
        }
        if me.stock.0 >= 2 || free {
            let src = if badness(s) >= badness(b) { Source::SandDeck } else { Source::BloodDeck };
            if legal.contains(Action::Draw(src)) {
                return Action::Draw(src);
            }
            let alt = if src == Source::SandDeck { Source::BloodDeck } else { Source::SandDeck };
            if legal.contains(Action::Draw(alt)) {
                return Action::Draw(alt);
            }
        }
        Action::Stand
    }
}

impl Style for Greedy {
    const SETUP: &'static [Token] = &[];

    fn name(&self) -> &str {
        "greedy"
    }

    fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action {
        let [s, b] = [view.hand[0].kind(), view.hand[1].kind()];
        let pair = match (s, b) {
            (CardKind::Number(x), CardKind::Number(y)) if x == y => Some(x),
            (CardKind::Number(x), CardKind::Sylop) | (CardKind::Sylop, CardKind::Number(x)) => Some(x),
            _ => None,
        };
        if pair == Some(dice[1]) { Action::DieSecond } else { Action::DieFirst }
    }

    fn target(&mut self, view: &PlayerView, _token: Token, legal: ActionMask) -> Action {
        aim(view, legal, None)
    }

    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action {
        let (held, new) = self.scorer.keep_scores(view, drawn, source.family().index());
        if new > held { Action::KeepDrawn } else { Action::KeepHeld }
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        let mv = self.move_choice(view, legal);
        let me = &view.seats[view.viewer.index()];
        let opp_in_stand =
            super::hand::opponents(view).any(|o| view.seats[o.index()].last_action == crate::LastAction::Stand);
        let opp_pots = super::hand::opponents(view).filter(|o| view.seats[o.index()].pot.0 > 0).count();
        let [s, b] = [view.hand[0].kind(), view.hand[1].kind()];
        let sabacc = is_sabacc(s, b, view.effects.mods.markdown);
        first_token(view, legal, view.own_tokens.iter(), |t| match t {
            Token::FreeDraw => matches!(mv, Action::Draw(_)),
            Token::Refund | Token::ExtraRefund => me.pot.0 >= 2,
            Token::GeneralTariff | Token::TargetTariff => true,
            Token::GeneralAudit | Token::TargetAudit => opp_in_stand,
            Token::Embezzlement => opp_pots >= 2,
            Token::PrimeSabacc => sabacc,
            _ => false,
        })
        .unwrap_or(mv)
    }
}
