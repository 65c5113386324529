//! The one template of the rule-based bots: a [`Style`] holds only the decisions it makes its
//! own way, and [`StyleBot`] does the rest and is the [`game::Agent`].
//!
//! What every style shares, written here once: a decision with one legal action takes it; a
//! setup token choice (K2.1 `choose`) takes the first kind of the style's preference list still
//! on offer, else the first kind offered; an Impostor takes the die that makes the best hand
//! ([`best_die`]); a keep with no drawn card keeps the held one; a finished game takes the first
//! legal action. The style decides the Prime Sabacc die, targets, keeps and its actions. None of
//! them draws from the agent's RNG.

use super::targets::{first_target, richest_target};
use crate::{Action, ActionMask, Card, CardKind, PlayerView, Resolved, Source, Token, ViewDecision};
use game::{Agent, AgentError, AgentRng};

/// The decisions in which one style differs from another (see the module documentation).
pub trait Style: Send {
    /// Setup token preference, best first (empty: the first kind offered).
    const SETUP: &'static [Token];

    /// The setup preference at the viewer's table, best first: [`Style::SETUP`] unless the style
    /// drafts differently by table.
    fn setup(&self, _view: &PlayerView) -> &'static [Token] {
        Self::SETUP
    }

    /// The name shown for the bot (its agent spec).
    fn name(&self) -> &str;

    /// Which Prime Sabacc die to take.
    fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action;

    /// Whom to aim the token just played at.
    fn target(&mut self, view: &PlayerView, token: Token, legal: ActionMask) -> Action;

    /// Keep the drawn card or the held one.
    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action;

    /// Stand, draw or play a token, with more than one legal action.
    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action;
}

/// A bot that plays a [`Style`] (see the module documentation).
#[derive(Default)]
pub struct StyleBot<S> {
    pub(crate) style: S,
}

impl<S: Style + Default> StyleBot<S> {
    /// The style with its default settings.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<S: Style> StyleBot<S> {
    /// A bot playing `style`.
    pub fn with_style(style: S) -> Self {
        StyleBot { style }
    }

    /// The bot's choice (legal whenever `legal` is the state's mask).
    pub fn choose(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        if let Some(a) = only_action(legal) {
            return a;
        }
        match view.decision {
            ViewDecision::ChooseToken => choose_token(self.style.setup(view), legal),
            ViewDecision::ImpostorDie { .. } => best_die(view, legal).unwrap_or(Action::DieFirst),
            ViewDecision::PrimeDie { dice } => self.style.prime_die(view, dice),
            ViewDecision::Target { token } => self.style.target(view, token, legal),
            ViewDecision::Keep { drawn: Some(c), source } => self.style.keep(view, c, source),
            ViewDecision::Keep { drawn: None, .. } => Action::KeepHeld,
            ViewDecision::Act => self.style.act(view, legal),
            ViewDecision::GameOver | ViewDecision::Truncated => legal.actions().next().expect("non-empty"),
        }
    }
}

impl<S: Style> Agent<crate::Kessel> for StyleBot<S> {
    fn name(&self) -> &str {
        self.style.name()
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask, _rng: &mut AgentRng) -> Result<Action, AgentError> {
        Ok(self.choose(view, legal))
    }
}

/// The action, when only one is legal: nothing to decide.
pub fn only_action(legal: ActionMask) -> Option<Action> {
    if legal.count() == 1 { legal.actions().next() } else { None }
}

/// The first kind of `preference` still on offer, else the first kind offered.
pub fn choose_token(preference: &[Token], legal: ActionMask) -> Action {
    preference
        .iter()
        .map(|&t| Action::ChooseToken(t))
        .find(|&a| legal.contains(a))
        .unwrap_or_else(|| legal.actions().next().expect("a token choice has a legal kind"))
}

/// The first token of `order` that the viewer holds, may play now, and `play` says to play.
pub fn first_token(
    view: &PlayerView,
    legal: ActionMask,
    order: impl IntoIterator<Item = Token>,
    mut play: impl FnMut(Token) -> bool,
) -> Option<Action> {
    order
        .into_iter()
        .filter(|&t| view.own_tokens.contains(t) && legal.contains(Action::PlayToken(t)))
        .find(|&t| play(t))
        .map(Action::PlayToken)
}

/// The target a style picked, else the richest legal target, else the first.
pub fn aim(view: &PlayerView, legal: ActionMask, pick: Option<Action>) -> Action {
    pick.or_else(|| richest_target(view, legal)).unwrap_or_else(|| first_target(legal))
}

/// The Impostor die that makes the best hand under the ranking in force (`None` when the
/// decision is not an Impostor's, or that die is not legal).
pub fn best_die(view: &PlayerView, legal: ActionMask) -> Option<Action> {
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
                let (_, _, k) = crate::ranking::best_choice(opts, mods, cfg);
                if k < best.0 {
                    best = (k, if i == 0 { Action::DieFirst } else { Action::DieSecond });
                }
            }
            legal.contains(best.1).then_some(best.1)
        }
        _ => None,
    }
}
