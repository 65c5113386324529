//! What one player may see (K7), and determinisation for search.
//!
//! Bots and observation encoders take a [`PlayerView`], never the full state, so they cannot
//! cheat by construction.

use crate::action::Source;
use crate::card::{Card, CardSet, Family};
use crate::chips::Chips;
use crate::config::{RuleConfig, TokenAssignment};
use crate::pile::Pile;
use crate::rng::GameRng;
use crate::state::{Effects, LastAction, Pending, Settlement, State, TurnAction};
use crate::token::{Token, TokenSet};
use game::seat::{MAX_PLAYERS, Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// The pending decision as the viewer may see it: a card drawn face down by someone else stays
/// hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "decision")]
pub enum ViewDecision {
    /// Token choice at setup.
    ChooseToken,
    /// Start of an action.
    Act,
    /// Target of a token.
    Target { token: Token },
    /// Prime Sabacc die.
    PrimeDie { dice: [u8; 2] },
    /// Keep drawn or held; `drawn` is shown to the drawer, or to all if it came from a discard pile.
    Keep { drawn: Option<Card>, source: Source },
    /// Impostor die at the reveal.
    ImpostorDie { family: Family, dice: [u8; 2] },
    /// The game is over.
    GameOver,
    /// The game was truncated.
    Truncated,
}

/// What the viewer knows of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatView {
    /// Chips in stock (public).
    pub stock: Chips,
    /// Chips in the hand pot (public).
    pub pot: Chips,
    /// Chips lost so far in the game (public: every loss happens face up).
    pub lost: Chips,
    /// Out of the game.
    pub eliminated: bool,
    /// Most recent Stand/Draw this round.
    pub last_action: LastAction,
    /// Turn in which the seat last stood this round (0 if not).
    pub stood_turn: u8,
    /// Tokens this seat has played (public).
    pub spent: TokenSet,
    /// How many tokens it still holds (their kinds are hidden from opponents).
    pub unplayed: u8,
    /// Protected by Immunity this round.
    pub immune: bool,
    /// The seat's cards as far as the viewer knows them: always for the viewer, after the reveal
    /// for everyone, after a Direct Transaction for its two parties, after a draw from a discard.
    pub known_hand: [Option<Card>; 2],
    /// Its Stand/Draw in turns 1–3 of this round (public history for observation encoders).
    #[serde(default)]
    pub turn_actions: [TurnAction; 3],
    /// Tokens it played this round (public).
    #[serde(default)]
    pub round_tokens: TokenSet,
}

/// Everything one player may see (K7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Whose view this is.
    pub viewer: Seat,
    /// The rules (public).
    pub config: RuleConfig,
    /// Round number.
    pub round: u16,
    /// Turn in the round (1–3).
    pub turn: u8,
    /// This round's starter.
    pub starter: Seat,
    /// Whose decision it is.
    pub actor: Option<Seat>,
    /// The pending decision.
    pub decision: ViewDecision,
    /// A token was already played in the current action.
    pub token_played: bool,
    /// The viewer's own cards (Sand, Blood).
    pub hand: [Card; 2],
    /// The viewer's unplayed tokens.
    pub own_tokens: TokenSet,
    /// Per seat.
    pub seats: [SeatView; MAX_PLAYERS],
    /// Discard piles in full, bottom first.
    pub discard: [Pile; 2],
    /// Sizes of the draw piles.
    pub draw_sizes: [u8; 2],
    /// Token effects in force.
    pub effects: Effects,
    /// Cards turned face up this round.
    pub seen_face_up: CardSet,
    /// Hands have been revealed this round.
    pub revealed: bool,
    /// Chips out of the game.
    pub chips_removed: u32,
    /// The last settled round.
    pub last_settlement: Option<Settlement>,
    /// The game's winners once it is over.
    pub winners: SeatSet,
}

impl SeatView {
    /// A seat beyond the table (views pad their seat array to [`MAX_PLAYERS`] with it).
    const ABSENT: SeatView = SeatView {
        stock: Chips::ZERO,
        pot: Chips::ZERO,
        lost: Chips::ZERO,
        eliminated: true,
        last_action: LastAction::None,
        stood_turn: 0,
        spent: TokenSet::EMPTY,
        unplayed: 0,
        immune: false,
        known_hand: [None; 2],
        turn_actions: [TurnAction::None; 3],
        round_tokens: TokenSet::EMPTY,
    };
}

impl PlayerView {
    /// Seats in play, clockwise from the viewer (the viewer first).
    pub fn relative_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        let n = self.config.players;
        (0..n).map(move |o| self.viewer.offset(o, n))
    }

    /// Whether it is the viewer's decision.
    pub fn is_my_turn(&self) -> bool {
        self.actor == Some(self.viewer)
    }
}

impl State {
    /// The view of one seat (K7). Inlined: it runs before every observation, and built in the
    /// caller's frame the view is not copied again on return.
    ///
    /// # Panics
    /// If `viewer` is not at the table (its number is `players` or more): such a view would
    /// describe nobody.
    #[inline]
    pub fn view(&self, viewer: Seat) -> PlayerView {
        let n = self.config.players as usize;
        assert!(viewer.index() < n, "{viewer} is not at this {n}-player table");
        let known = &self.known[viewer.index()];
        let mut seats = [SeatView::ABSENT; MAX_PLAYERS];
        for (i, sv) in seats.iter_mut().enumerate().take(n) {
            let p = &self.players[i];
            let mut known_hand = [None; 2];
            if !p.eliminated && self.round > 0 {
                for (f, k) in known_hand.iter_mut().enumerate() {
                    *k =
                        if i == viewer.index() || self.revealed { Some(p.hand[f]) } else { Card::from_id(known[i][f]) };
                }
            }
            *sv = SeatView {
                stock: p.stock,
                pot: p.pot,
                lost: p.lost,
                eliminated: p.eliminated,
                last_action: p.last_action,
                stood_turn: p.stood_turn,
                spent: p.spent,
                unplayed: p.tokens.len() as u8,
                immune: self.effects.immune.contains(Seat(i as u8)),
                known_hand,
                turn_actions: self.turn_actions[i],
                round_tokens: self.round_tokens[i],
            };
        }
        let decision = match self.pending {
            Pending::ChooseToken => ViewDecision::ChooseToken,
            Pending::Act => ViewDecision::Act,
            Pending::Target { token } => ViewDecision::Target { token },
            Pending::PrimeDie { dice } => ViewDecision::PrimeDie { dice },
            Pending::Keep { drawn, source } => {
                ViewDecision::Keep { drawn: (self.actor == viewer || !source.is_deck()).then_some(drawn), source }
            }
            Pending::ImpostorDie { family, dice } => ViewDecision::ImpostorDie { family, dice },
            Pending::GameOver => ViewDecision::GameOver,
            Pending::Truncated => ViewDecision::Truncated,
        };
        PlayerView {
            viewer,
            config: self.config,
            round: self.round,
            turn: self.turn,
            starter: self.starter,
            actor: self.current_player(),
            decision,
            token_played: self.token_played,
            hand: self.players[viewer.index()].hand,
            own_tokens: self.players[viewer.index()].tokens,
            seats,
            discard: self.discard,
            draw_sizes: [self.draw[0].len() as u8, self.draw[1].len() as u8],
            effects: self.effects,
            seen_face_up: self.seen,
            revealed: self.revealed,
            chips_removed: self.removed,
            last_settlement: self.settlement,
            winners: self.winners,
        }
    }

    /// A copy of the state in which everything hidden from `viewer` is resampled consistently
    /// with what the viewer sees: unknown opponent cards and the draw piles are reshuffled among
    /// themselves (family by family), opponents' unplayed tokens are redrawn from the kinds they
    /// could hold, and the future random stream is reseeded. Used by search bots.
    pub fn determinize(&self, viewer: Seat, seed: u64) -> State {
        let mut s = self.clone();
        s.set_event_logging(false);
        let mut rng = GameRng::from_seed(seed);
        if self.round > 0 && !self.revealed {
            for f in 0..2 {
                // Hidden slots of this family: draw pile positions and unknown opponent cards.
                let mut hidden = [Card::from_id(0).expect("card 0"); 22];
                let mut len = 0;
                for &c in s.draw[f].as_slice() {
                    hidden[len] = c;
                    len += 1;
                }
                let mut slots = [usize::MAX; MAX_PLAYERS];
                let mut nslots = 0;
                for i in 0..self.config.players as usize {
                    if i == viewer.index() || self.players[i].eliminated {
                        continue;
                    }
                    if self.known[viewer.index()][i][f] == u8::MAX {
                        hidden[len] = s.players[i].hand[f];
                        len += 1;
                        slots[nslots] = i;
                        nslots += 1;
                    }
                }
                if let Pending::Keep { drawn, source } = s.pending
                    && s.actor != viewer
                    && source.is_deck()
                    && drawn.family().index() == f
                {
                    hidden[len] = drawn;
                    len += 1;
                }
                rng.shuffle(&mut hidden[..len]);
                let mut k = 0;
                let dl = s.draw[f].len();
                s.draw[f].as_mut_slice().copy_from_slice(&hidden[..dl]);
                k += dl;
                for &i in &slots[..nslots] {
                    s.players[i].hand[f] = hidden[k];
                    k += 1;
                }
                if let Pending::Keep { drawn, source } = s.pending
                    && s.actor != viewer
                    && source.is_deck()
                    && drawn.family().index() == f
                {
                    s.pending = Pending::Keep { drawn: hidden[k], source };
                }
            }
        }
        if self.config.token_assignment != TokenAssignment::Fixed {
            for i in 0..self.config.players as usize {
                if i == viewer.index() {
                    continue;
                }
                let k = s.players[i].tokens.len();
                if k == 0 {
                    continue;
                }
                let mut pool = [Token::FreeDraw; Token::COUNT];
                let mut len = 0;
                for t in TokenSet(self.config.enabled_tokens.0 & !s.players[i].spent.0).iter() {
                    pool[len] = t;
                    len += 1;
                }
                let mut set = TokenSet::EMPTY;
                for j in 0..k.min(len) {
                    let r = j + rng.below((len - j) as u32) as usize;
                    pool.swap(j, r);
                    set.insert(pool[j]);
                }
                s.players[i].tokens = set;
            }
        }
        s.rng = GameRng::at_round(seed ^ 0x9E37_79B9_7F4A_7C15, s.round);
        s.refresh_mask();
        s
    }
}
