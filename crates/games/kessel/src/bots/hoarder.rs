//! `hoarder`: keeps its tokens until the late game or until it is short of chips.
//!
//! Strategy:
//! - **Cards**: the expert's stand/draw, keep and dice choices.
//! - **Tokens**: none at all until the game turns late, then the expert's token play (each token
//!   when it pays, see [`Expert`]). The game is late when any of these holds:
//!   its stock is at most half the starting chips (it is short and must defend);
//!   an opponent has two chips or fewer (a Tariff or Audit can finish them);
//!   the round is [`HoarderAgent::LATE_ROUND`] or later.
//! - Token choice at setup (K2.1 `choose`): the expert's.
//!
//! Good at: having answers left (Refunds, Immunity, Audits) when a game is decided. Bad at:
//! early rounds, where the chips its tokens could have won or saved are lost for good, and
//! against opponents who knock it out before it starts.

use super::expert::Expert;
use super::hand::opponents;
use super::style::{Style, StyleBot};
use crate::{Action, ActionMask, Card, PlayerView, Source, Token, TokenSet};

/// The hoarding bot (see the module documentation).
pub type HoarderAgent = StyleBot<Hoarder>;

/// The hoarding style (see the module documentation).
#[derive(Default)]
pub struct Hoarder {
    expert: Expert,
}

impl HoarderAgent {
    /// From this round on the game counts as late.
    pub const LATE_ROUND: u16 = 6;

    /// Whether the game is late enough to spend tokens (see the module documentation).
    pub fn is_late(view: &PlayerView) -> bool {
        let me = &view.seats[view.viewer.index()];
        let short = 2 * u32::from(me.stock.0) <= u32::from(view.config.starting_chips);
        let kill = opponents(view).any(|o| view.seats[o.index()].stock.0 <= 2);
        short || kill || view.round >= Self::LATE_ROUND
    }
}

impl Style for Hoarder {
    const SETUP: &'static [Token] = Expert::SETUP;

    fn setup(&self, view: &PlayerView) -> &'static [Token] {
        self.expert.setup(view)
    }

    fn name(&self) -> &str {
        "hoarder"
    }

    fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action {
        self.expert.prime_die(view, dice)
    }

    fn target(&mut self, view: &PlayerView, token: Token, legal: ActionMask) -> Action {
        self.expert.target(view, token, legal)
    }

    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action {
        self.expert.keep(view, drawn, source)
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        let withheld = if HoarderAgent::is_late(view) { TokenSet::EMPTY } else { TokenSet::ALL };
        self.expert.act_withholding(view, legal, withheld)
    }
}
