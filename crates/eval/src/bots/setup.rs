//! Token choice at setup (K2.1 `choose`) from a style's preference list.

use engine::{Action, ActionMask, Token};

/// The first kind of `preference` still on offer, else the first kind offered.
pub fn choose_token(preference: &[Token], legal: ActionMask) -> Action {
    preference
        .iter()
        .map(|&t| Action::ChooseToken(t))
        .find(|&a| legal.contains(a))
        .unwrap_or_else(|| legal.actions().next().expect("a token choice has a legal kind"))
}
