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

use super::hand::{Evaluator, FULL_COUNTS, Hist};
use engine::{
    Action, ActionMask, CardKind, PlayerView, RankingMods, Resolved, RuleConfig, Source, Token, ViewDecision,
};
use env::{Agent, AgentError, AgentRng};

/// The greedy bot (see the module documentation).
pub struct GreedyAgent {
    eval: Evaluator,
    hists: Vec<(RuleConfig, RankingMods, Hist)>,
    name: String,
}

impl Default for GreedyAgent {
    fn default() -> Self {
        GreedyAgent { eval: Evaluator::new(Default::default()), hists: Vec::new(), name: "greedy".into() }
    }
}

impl GreedyAgent {
    /// A greedy bot.
    pub fn new() -> Self {
        Self::default()
    }
}

/// Whether a hand of these kinds is a Sabacc regardless of dice (Impostors aside).
fn is_sabacc(a: CardKind, b: CardKind, markdown: bool) -> bool {
    match (a, b) {
        (CardKind::Sylop, CardKind::Sylop) => true,
        (CardKind::Sylop, CardKind::Number(_)) | (CardKind::Number(_), CardKind::Sylop) => !markdown,
        (CardKind::Number(x), CardKind::Number(y)) => x == y,
        _ => false,
    }
}

/// How little a card is worth to a hand: the card to replace first.
fn badness(k: CardKind) -> u8 {
    match k {
        CardKind::Number(v) => v,
        CardKind::Impostor => 7,
        CardKind::Sylop => 0,
    }
}

/// The best die for an Impostor or Prime decision, shared by every bot.
pub(crate) fn best_die(view: &PlayerView, legal: ActionMask) -> Option<Action> {
    match view.decision {
        ViewDecision::ImpostorDie { family, dice } => {
            let cfg = &view.config;
            let mods = view.effects.mods;
            let f = family.index();
            let other = view.hand[1 - f];
            let other_opts: Vec<Resolved> = match other.kind() {
                CardKind::Number(v) => vec![Resolved::Number(v)],
                CardKind::Sylop => vec![Resolved::Sylop],
                CardKind::Impostor if mods.major_fraud => vec![Resolved::Number(6)],
                // The other Impostor is still to be rolled (Sand first) or already chosen; either
                // way the best pair for it is unknown, so assume any value.
                CardKind::Impostor => (1..=6).map(Resolved::Number).collect(),
            };
            let mut best = (u16::MAX, Action::DieFirst);
            for (i, &d) in dice.iter().enumerate() {
                let mine = [Resolved::Number(d)];
                let opts = if f == 0 { [&mine[..], &other_opts[..]] } else { [&other_opts[..], &mine[..]] };
                let (_, _, k) = engine::ranking::best_choice(opts, mods, cfg);
                if k < best.0 {
                    best = (k, if i == 0 { Action::DieFirst } else { Action::DieSecond });
                }
            }
            legal.contains(best.1).then_some(best.1)
        }
        _ => None,
    }
}

/// The opponent (as a seat offset) with the most chips in stock among legal targets.
pub(crate) fn richest_target(view: &PlayerView, legal: ActionMask) -> Option<Action> {
    let n = view.config.players;
    (1..n)
        .filter(|&o| legal.contains(Action::Target(o)))
        .max_by_key(|&o| (view.seats[view.viewer.offset(o, n).index()].stock.0, std::cmp::Reverse(o)))
        .map(Action::Target)
}

impl GreedyAgent {
    fn hand_score(&mut self, view: &PlayerView, s: CardKind, b: CardKind) -> f32 {
        let cfg = super::hand::ranking_rules(&view.config);
        let mods = view.effects.mods;
        let i = match self.hists.iter().position(|(c, m, _)| *m == mods && *c == cfg) {
            Some(i) => i,
            None => {
                if self.hists.len() > 32 {
                    self.hists.clear();
                }
                let h = self.eval.pool_hist(&cfg, mods, &FULL_COUNTS);
                self.hists.push((cfg, mods, h));
                self.hists.len() - 1
            }
        };
        let d = self.eval.dist(&cfg, mods, s, b);
        self.hists[i].2.beat(d)
    }

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

impl Agent for GreedyAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask, _rng: &mut AgentRng) -> Result<Action, AgentError> {
        Ok(self.choose(view, legal))
    }
}

impl GreedyAgent {
    /// The greedy choice (always legal when `legal` is the state's mask).
    pub fn choose(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        if legal.count() == 1 {
            return legal.actions().next().expect("one legal action");
        }
        match view.decision {
            ViewDecision::ChooseToken => legal.actions().next().expect("non-empty"),
            ViewDecision::ImpostorDie { .. } => best_die(view, legal).unwrap_or(Action::DieFirst),
            ViewDecision::PrimeDie { dice } => {
                let [s, b] = [view.hand[0].kind(), view.hand[1].kind()];
                let pair = match (s, b) {
                    (CardKind::Number(x), CardKind::Number(y)) if x == y => Some(x),
                    (CardKind::Number(x), CardKind::Sylop) | (CardKind::Sylop, CardKind::Number(x)) => Some(x),
                    _ => None,
                };
                if pair == Some(dice[1]) { Action::DieSecond } else { Action::DieFirst }
            }
            ViewDecision::Target { .. } => {
                richest_target(view, legal).unwrap_or_else(|| legal.actions().next().expect("non-empty"))
            }
            ViewDecision::Keep { drawn, source } => {
                let Some(drawn) = drawn else { return Action::KeepHeld };
                let f = source.family().index();
                let mut with = [view.hand[0].kind(), view.hand[1].kind()];
                let held = self.hand_score(view, with[0], with[1]);
                with[f] = drawn.kind();
                let new = self.hand_score(view, with[0], with[1]);
                if new > held { Action::KeepDrawn } else { Action::KeepHeld }
            }
            ViewDecision::Act => {
                let mv = self.move_choice(view, legal);
                let me = &view.seats[view.viewer.index()];
                let opp_in_stand = super::hand::opponents(view)
                    .any(|o| view.seats[o.index()].last_action == engine::LastAction::Stand);
                let opp_pots = super::hand::opponents(view).filter(|o| view.seats[o.index()].pot.0 > 0).count();
                let [s, b] = [view.hand[0].kind(), view.hand[1].kind()];
                let sabacc = is_sabacc(s, b, view.effects.mods.markdown);
                for t in view.own_tokens.iter() {
                    let a = Action::PlayToken(t);
                    if !legal.contains(a) {
                        continue;
                    }
                    let play = match t {
                        Token::FreeDraw => matches!(mv, Action::Draw(_)),
                        Token::Refund | Token::ExtraRefund => me.pot.0 >= 2,
                        Token::GeneralTariff | Token::TargetTariff => true,
                        Token::GeneralAudit | Token::TargetAudit => opp_in_stand,
                        Token::Embezzlement => opp_pots >= 2,
                        Token::PrimeSabacc => sabacc,
                        _ => false,
                    };
                    if play {
                        return a;
                    }
                }
                mv
            }
            ViewDecision::GameOver | ViewDecision::Truncated => legal.actions().next().expect("non-empty"),
        }
    }
}
