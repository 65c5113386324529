//! The game state machine: setup, turns, Shift Tokens, the reveal and settlement.
//!
//! The API follows OpenSpiel: create from (config, seed), ask whose decision it is and which
//! actions are legal, apply one action at a time. All randomness comes from the RNG held in the
//! state, so a clone or a JSON round trip replays identically. Nothing here allocates per
//! decision except the optional event log, whose capacity is reused across rounds.

use crate::action::{Action, ActionMask, Source};
use crate::card::{Card, CardKind, CardSet, DECK_SIZE, Family};
use crate::config::{
    EmbezzlementSource, FirstStarter, ImpostorRule, InStand, RefundSource, RoundStarter, RuleConfig, TaxTokenChips,
    TokenAssignment,
};
use crate::error::{ActionError, ConfigError};
use crate::event::{ChipReason, DiceFor, Event};
use crate::pile::Pile;
use crate::ranking::{self, HandClass, RankKey, RankingMods, Resolved};
use crate::rng::GameRng;
use crate::seat::{Chips, MAX_PLAYERS, Seat, SeatSet};
use crate::token::{Token, TokenSet};
use serde::{Deserialize, Serialize};

/// Marker for "this card is not known" in knowledge tables.
const UNKNOWN: u8 = u8::MAX;

/// What the player to act is deciding (K8), or that the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "decision")]
pub enum Pending {
    /// Pick a token kind at setup (K2.1 `choose`).
    ChooseToken,
    /// Start of an action: play a token, Stand, or Draw (K3.2).
    Act,
    /// Choose the target of this token.
    Target { token: Token },
    /// Choose one of two dice as the Prime Sabacc value (K5.9).
    PrimeDie { dice: [u8; 2] },
    /// Keep the drawn card or the held one (K3.4).
    Keep { drawn: Card, source: Source },
    /// Choose one of two dice as the value of this Impostor (K4.2).
    ImpostorDie { family: Family, dice: [u8; 2] },
    /// The game ended (K6.4).
    GameOver,
    /// The round limit was reached (K6.5).
    Truncated,
}

/// The most recent Stand/Draw of a player this round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LastAction {
    /// Not acted yet this round.
    #[default]
    None,
    /// Stood (by choice or Embargo).
    Stand,
    /// Drew a card.
    Draw,
}

/// A seat's public Stand/Draw in one turn of the current round (K7: every part is public), kept
/// so observation encoders can show this round's history without reading the event log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TurnAction {
    /// Has not acted in that turn (yet).
    #[default]
    None,
    /// Stood; `forced` when by Embargo.
    Stand {
        /// Forced by Embargo (K5.13).
        forced: bool,
    },
    /// Drew from this source.
    Draw(Source),
}

/// Everything about one seat, hidden parts included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    /// Sand card then Blood card. Meaningless once eliminated.
    pub hand: [Card; 2],
    /// Tax chips in stock.
    pub stock: Chips,
    /// Chips invested this round.
    pub pot: Chips,
    /// Chips lost so far in the game (taxes, Tariffs, Audits, lost pots), for `refund_source = lost-chips`.
    pub lost: Chips,
    /// Out of the game (K6.3).
    pub eliminated: bool,
    /// The round in which the player was eliminated (0 while playing).
    pub eliminated_in_round: u16,
    /// Unplayed tokens (hidden from opponents).
    pub tokens: TokenSet,
    /// Tokens played this game (public).
    pub spent: TokenSet,
    /// Most recent Stand/Draw this round.
    pub last_action: LastAction,
    /// The turn (1–3) in which the player last stood this round, 0 if not.
    pub stood_turn: u8,
}

/// The active effects of tokens this round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Effects {
    /// Ranking-relevant Fix tokens.
    pub mods: RankingMods,
    /// Players protected by Immunity until the reveal.
    pub immune: SeatSet,
    /// Players who must Stand on their next action (K5.13). A set, because an embargoed player
    /// may embargo the next one: both Embargoes are pending until the first of them is served.
    pub embargoed: SeatSet,
    /// Free Draw is active for the current action.
    pub free_draw: bool,
}

/// One seat's result in a settled round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatResult {
    /// The revealed cards.
    pub hand: [Card; 2],
    /// Their resolved values.
    pub values: [Resolved; 2],
    /// What the hand is.
    pub class: HandClass,
    /// Its rank key (lower is better).
    pub key: RankKey,
    /// Whether it won the round.
    pub winner: bool,
    /// Chips taken back from the hand pot (winners).
    pub pot_returned: u16,
    /// Chips lost from the hand pot (losers).
    pub pot_lost: u16,
    /// Tax paid after the cap at stock.
    pub tax: u16,
    /// Stock after settlement.
    pub stock_after: u16,
    /// Eliminated by this settlement.
    pub eliminated: bool,
}

/// The settlement of one round (K6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Settlement {
    /// The round number.
    pub round: u16,
    /// The ranking mods that were in force.
    pub mods: RankingMods,
    /// The round's winners.
    pub winners: SeatSet,
    /// Per seat; `None` for seats that were already eliminated.
    pub seats: [Option<SeatResult>; MAX_PLAYERS],
}

/// A seat's result in a finished (or unfinished) game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Still being played.
    InProgress,
    /// Sole winner of the game.
    Won,
    /// Winner together with `of - 1` others (K6.4, nobody left with chips).
    SharedWin { of: u8 },
    /// Did not win.
    Lost,
    /// The round limit ended the game before anyone won.
    Truncated,
}

/// Progress through the reveal: which seat (counted from the starter) and family is next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RevealCursor {
    /// Seats already fully resolved, counted clockwise from the starter among active seats.
    pub seat_pos: u8,
    /// Family of the next card to resolve for the current seat.
    pub family: u8,
}

/// A game of Kessel Sabacc in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub(crate) config: RuleConfig,
    pub(crate) rng: GameRng,
    pub(crate) round: u16,
    pub(crate) turn: u8,
    pub(crate) starter: Seat,
    pub(crate) actor: Seat,
    pub(crate) pending: Pending,
    pub(crate) token_played: bool,
    pub(crate) all_stood: bool,
    pub(crate) players: [Player; MAX_PLAYERS],
    pub(crate) draw: [Pile; 2],
    pub(crate) discard: [Pile; 2],
    pub(crate) effects: Effects,
    pub(crate) removed: u32,
    pub(crate) seen: CardSet,
    pub(crate) known: [[[u8; 2]; MAX_PLAYERS]; MAX_PLAYERS],
    pub(crate) revealed: bool,
    pub(crate) resolved: [[Resolved; 2]; MAX_PLAYERS],
    pub(crate) reveal: RevealCursor,
    pub(crate) settlement: Option<Settlement>,
    pub(crate) winners: SeatSet,
    /// The legal actions at the pending decision, recomputed after every transition.
    pub(crate) mask: ActionMask,
    /// Per seat, its Stand/Draw in turns 1–3 of this round (public history).
    #[serde(default)]
    pub(crate) turn_actions: [[TurnAction; 3]; MAX_PLAYERS],
    /// Per seat, the tokens it played this round (public).
    #[serde(default)]
    pub(crate) round_tokens: [TokenSet; MAX_PLAYERS],
    #[serde(default)]
    pub(crate) log_events: bool,
    #[serde(default)]
    pub(crate) events: Vec<Event>,
}

impl State {
    /// A new game under `config`, all randomness drawn from `seed`.
    pub fn new(config: RuleConfig, seed: u64) -> Result<State, ConfigError> {
        config.validate()?;
        let blank = Player {
            hand: [Card::from_id(0).expect("card 0"), Card::from_id(22).expect("card 22")],
            stock: Chips(config.starting_chips),
            pot: Chips::ZERO,
            lost: Chips::ZERO,
            eliminated: false,
            eliminated_in_round: 0,
            tokens: TokenSet::EMPTY,
            spent: TokenSet::EMPTY,
            last_action: LastAction::None,
            stood_turn: 0,
        };
        let mut players = [blank; MAX_PLAYERS];
        for p in players.iter_mut().skip(config.players as usize) {
            p.stock = Chips::ZERO;
            p.eliminated = true;
        }
        let mut s = State {
            config,
            rng: GameRng::from_seed(seed),
            round: 0,
            turn: 0,
            starter: Seat(0),
            actor: Seat(0),
            pending: Pending::Act,
            token_played: false,
            all_stood: true,
            players,
            draw: [Pile::default(); 2],
            discard: [Pile::default(); 2],
            effects: Effects::default(),
            removed: 0,
            seen: CardSet::default(),
            known: [[[UNKNOWN; 2]; MAX_PLAYERS]; MAX_PLAYERS],
            revealed: false,
            resolved: [[Resolved::Sylop; 2]; MAX_PLAYERS],
            reveal: RevealCursor::default(),
            settlement: None,
            winners: SeatSet::EMPTY,
            mask: ActionMask::default(),
            turn_actions: [[TurnAction::None; 3]; MAX_PLAYERS],
            round_tokens: [TokenSet::EMPTY; MAX_PLAYERS],
            log_events: true,
            events: Vec::new(),
        };
        s.assign_tokens();
        if config.first_starter == FirstStarter::Random {
            s.starter = Seat(s.rng.below(config.players as u32) as u8);
        }
        if config.token_assignment == TokenAssignment::Choose && config.tokens_per_player > 0 {
            s.actor = Seat(0);
            s.pending = Pending::ChooseToken;
        } else {
            s.start_round();
        }
        s.refresh_mask();
        Ok(s)
    }

    /// Recomputes the cached legal-action mask; called after anything changes the position.
    pub(crate) fn refresh_mask(&mut self) {
        self.mask = self.compute_mask();
    }

    /// Turns the public event log on or off (on by default). Rollouts that never read the log
    /// switch it off to save time; the rules are unaffected.
    pub fn set_event_logging(&mut self, on: bool) {
        self.log_events = on;
        if !on {
            self.events.clear();
        }
    }

    /// The public event log since the game began (empty when logging is off).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The rules of this game.
    pub fn config(&self) -> &RuleConfig {
        &self.config
    }

    /// Number of seats.
    pub fn num_players(&self) -> u8 {
        self.config.players
    }

    /// The current round, from 1 (0 during token choice).
    pub fn round(&self) -> u16 {
        self.round
    }

    /// The current turn of the round, 1–3.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The player who started this round.
    pub fn starter(&self) -> Seat {
        self.starter
    }

    /// The pending decision, or the terminal status.
    pub fn pending(&self) -> Pending {
        self.pending
    }

    /// Everything about a seat, hidden cards included. Agents should use [`State::view`] instead.
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    /// The draw pile of a family (hidden order).
    pub fn draw_pile(&self, f: Family) -> &Pile {
        &self.draw[f.index()]
    }

    /// The discard pile of a family (public).
    pub fn discard_pile(&self, f: Family) -> &Pile {
        &self.discard[f.index()]
    }

    /// The token effects in force this round.
    pub fn effects(&self) -> &Effects {
        &self.effects
    }

    /// Chips that have left the game.
    pub fn chips_removed(&self) -> u32 {
        self.removed
    }

    /// Cards turned face up this round (discards and reveals), for card counting.
    pub fn seen_face_up(&self) -> CardSet {
        self.seen
    }

    /// The settlement of the most recent round, if one was settled.
    pub fn last_settlement(&self) -> Option<&Settlement> {
        self.settlement.as_ref()
    }

    /// A seat's public Stand/Draw in turns 1–3 of the current round (index `turn - 1`).
    pub fn turn_actions(&self, seat: Seat) -> [TurnAction; 3] {
        self.turn_actions[seat.index()]
    }

    /// The tokens a seat played in the current round (public).
    pub fn round_tokens(&self, seat: Seat) -> TokenSet {
        self.round_tokens[seat.index()]
    }

    /// Whether a token was already played in the current action.
    pub fn token_played_this_action(&self) -> bool {
        self.token_played
    }

    /// The random source (exposed for serialisation checks and scenarios).
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// Whose decision it is, or `None` when the game is over.
    #[inline]
    pub fn current_player(&self) -> Option<Seat> {
        match self.pending {
            Pending::GameOver | Pending::Truncated => None,
            _ => Some(self.actor),
        }
    }

    /// True when the game is over, won or truncated.
    #[inline]
    pub fn is_terminal(&self) -> bool {
        matches!(self.pending, Pending::GameOver | Pending::Truncated)
    }

    /// True when the round limit ended the game (K6.5).
    pub fn is_truncated(&self) -> bool {
        self.pending == Pending::Truncated
    }

    /// The game's winners (empty until it ends, and for truncated games).
    pub fn winners(&self) -> SeatSet {
        self.winners
    }

    /// A seat's result.
    pub fn outcome(&self, seat: Seat) -> Outcome {
        match self.pending {
            Pending::GameOver => {
                if !self.winners.contains(seat) {
                    Outcome::Lost
                } else if self.winners.len() == 1 {
                    Outcome::Won
                } else {
                    Outcome::SharedWin { of: self.winners.len() as u8 }
                }
            }
            Pending::Truncated => Outcome::Truncated,
            _ => Outcome::InProgress,
        }
    }

    /// Seats still in the game.
    pub fn active_seats(&self) -> SeatSet {
        let mut s = SeatSet::EMPTY;
        for i in 0..self.config.players {
            if !self.players[i as usize].eliminated {
                s.insert(Seat(i));
            }
        }
        s
    }

    /// The legal actions, sorted by index and unique; empty only at terminal states.
    pub fn legal_actions(&self) -> Vec<Action> {
        self.legal_mask().actions().collect()
    }

    /// The legal actions as a bitmask over the 48 action indices.
    #[inline]
    pub fn legal_mask(&self) -> ActionMask {
        self.mask
    }

    fn compute_mask(&self) -> ActionMask {
        let mut m = ActionMask::default();
        let actor = self.actor;
        match self.pending {
            Pending::ChooseToken => {
                let p = &self.players[actor.index()];
                for t in TokenSet(self.config.enabled_tokens.0 & !p.tokens.0).iter() {
                    m.set(Action::ChooseToken(t));
                }
            }
            Pending::Act => {
                m.set(Action::Stand);
                if !self.effects.embargoed.contains(actor) {
                    let p = &self.players[actor.index()];
                    if !p.stock.is_zero() || self.effects.free_draw {
                        for src in Source::ALL {
                            if self.source_available(src) {
                                m.set(Action::Draw(src));
                            }
                        }
                    }
                }
                if !self.token_played {
                    for t in self.players[actor.index()].tokens.iter() {
                        if self.token_playable(t) {
                            m.set(Action::PlayToken(t));
                        }
                    }
                }
            }
            Pending::Target { token } => {
                for off in 1..self.config.players {
                    let t = actor.offset(off, self.config.players);
                    if self.target_legal(token, t) {
                        m.set(Action::Target(off));
                    }
                }
            }
            Pending::PrimeDie { .. } | Pending::ImpostorDie { .. } => {
                m.set(Action::DieFirst);
                m.set(Action::DieSecond);
            }
            Pending::Keep { .. } => {
                m.set(Action::KeepDrawn);
                m.set(Action::KeepHeld);
            }
            Pending::GameOver | Pending::Truncated => {}
        }
        m
    }

    /// Applies an action by index; see [`State::apply`].
    pub fn apply_index(&mut self, index: usize) -> Result<(), ActionError> {
        let a = Action::from_index(index).ok_or(ActionError::OutOfRange(index))?;
        self.apply(a)
    }

    /// Applies the current player's action. An illegal action returns an error and leaves the
    /// state untouched.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        if self.is_terminal() {
            return Err(ActionError::GameOver);
        }
        // `Action::from_index(action.index()) == Some(action)` rules out values such as
        // `Target(0)` or `Target(8)` whose index aliases another action's bit in the mask.
        if !self.legal_mask().contains(action) || Action::from_index(action.index()) != Some(action) {
            return Err(ActionError::Illegal { action, pending: self.pending, seat: self.actor });
        }
        let actor = self.actor;
        match (self.pending, action) {
            (Pending::ChooseToken, Action::ChooseToken(t)) => self.choose_token(t),
            (Pending::Act, Action::Stand) => {
                let forced = self.effects.embargoed.contains(actor);
                let ti = (self.turn.max(1) - 1).min(2) as usize;
                self.turn_actions[actor.index()][ti] = TurnAction::Stand { forced };
                self.log(Event::Stood { seat: actor, forced });
                self.end_action(true);
            }
            (Pending::Act, Action::Draw(src)) => self.draw_card(src),
            (Pending::Act, Action::PlayToken(t)) => self.play_token(t),
            (Pending::Keep { drawn, source }, Action::KeepDrawn | Action::KeepHeld) => {
                self.keep(drawn, source, action == Action::KeepDrawn)
            }
            (Pending::Target { token }, Action::Target(off)) => {
                let target = actor.offset(off, self.config.players);
                self.apply_targeted(token, target);
            }
            (Pending::PrimeDie { dice }, Action::DieFirst | Action::DieSecond) => {
                let value = dice[(action == Action::DieSecond) as usize];
                self.effects.mods.prime = Some(value);
                self.log(Event::PrimeSet { seat: actor, value });
                self.pending = Pending::Act;
            }
            (Pending::ImpostorDie { family, dice }, Action::DieFirst | Action::DieSecond) => {
                let value = dice[(action == Action::DieSecond) as usize];
                self.resolved[actor.index()][family.index()] = Resolved::Number(value);
                self.log(Event::ImpostorValue { seat: actor, family, value });
                self.reveal.family = family.index() as u8 + 1;
                self.continue_reveal();
            }
            _ => unreachable!("legal_mask only admits actions of the pending decision"),
        }
        self.refresh_mask();
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // Setup and rounds

    fn assign_tokens(&mut self) {
        let n = self.config.players as usize;
        match self.config.token_assignment {
            TokenAssignment::None | TokenAssignment::Choose => {}
            TokenAssignment::Fixed => {
                for i in 0..n {
                    self.players[i].tokens = self.config.fixed_loadouts[i];
                }
            }
            TokenAssignment::Random => {
                let mut pool = [Token::FreeDraw; Token::COUNT];
                let mut len = 0;
                for t in self.config.enabled_tokens.iter() {
                    pool[len] = t;
                    len += 1;
                }
                let k = self.config.tokens_per_player as usize;
                for i in 0..n {
                    let mut set = TokenSet::EMPTY;
                    for j in 0..k {
                        let r = j + self.rng.below((len - j) as u32) as usize;
                        pool.swap(j, r);
                        set.insert(pool[j]);
                    }
                    self.players[i].tokens = set;
                }
            }
        }
    }

    fn choose_token(&mut self, t: Token) {
        let actor = self.actor;
        self.players[actor.index()].tokens.insert(t);
        self.log(Event::TokenPicked { seat: actor });
        if self.players[actor.index()].tokens.len() >= self.config.tokens_per_player as usize {
            if actor.0 + 1 < self.config.players {
                self.actor = Seat(actor.0 + 1);
            } else {
                self.start_round();
            }
        }
    }

    /// The next seat clockwise from `s` that is still in the game.
    #[inline]
    pub fn next_active(&self, s: Seat) -> Seat {
        let n = self.config.players;
        for i in 1..=n {
            let t = s.offset(i, n);
            if !self.players[t.index()].eliminated {
                return t;
            }
        }
        s
    }

    fn start_round(&mut self) {
        self.round += 1;
        self.turn = 1;
        self.all_stood = true;
        self.effects = Effects::default();
        self.token_played = false;
        self.revealed = false;
        self.seen = CardSet::default();
        self.known = [[[UNKNOWN; 2]; MAX_PLAYERS]; MAX_PLAYERS];
        self.reveal = RevealCursor::default();
        for p in self.players.iter_mut() {
            p.last_action = LastAction::None;
            p.stood_turn = 0;
        }
        self.turn_actions = [[TurnAction::None; 3]; MAX_PLAYERS];
        self.round_tokens = [TokenSet::EMPTY; MAX_PLAYERS];
        for f in Family::ALL {
            let pile = &mut self.draw[f.index()];
            pile.clear();
            for c in Card::family_cards(f) {
                pile.push(c);
            }
            self.rng.shuffle(pile.as_mut_slice());
            self.discard[f.index()].clear();
        }
        let starter = self.starter;
        self.log(Event::RoundStarted { round: self.round, starter });
        let mut seat = starter;
        loop {
            for f in Family::ALL {
                let c = self.draw[f.index()].pop().expect("a fresh draw pile holds 22 cards");
                self.players[seat.index()].hand[f.index()] = c;
            }
            self.log(Event::Dealt { seat });
            seat = self.next_active(seat);
            if seat == starter {
                break;
            }
        }
        for f in Family::ALL {
            let c = self.draw[f.index()].pop().expect("at most 16 cards of a family are dealt");
            self.discard[f.index()].push(c);
            self.seen.insert(c);
            self.log(Event::DiscardStarted { card: c });
        }
        self.actor = starter;
        self.pending = Pending::Act;
    }

    // ---------------------------------------------------------------------------------------
    // Turns

    fn source_available(&self, src: Source) -> bool {
        let f = src.family().index();
        if src.is_deck() { !self.draw[f].is_empty() || self.discard[f].len() >= 2 } else { !self.discard[f].is_empty() }
    }

    /// Takes the top card of a family's draw pile, rebuilding it from the discard pile (all but
    /// its top card) when empty (K3.5). Callers guarantee a card is available.
    fn take_from_deck(&mut self, f: Family) -> Card {
        let fi = f.index();
        if self.draw[fi].is_empty() {
            let top = self.discard[fi].pop().expect("rebuild needs a discard pile");
            let rest: Pile = self.discard[fi];
            self.draw[fi] = rest;
            self.discard[fi].clear();
            self.discard[fi].push(top);
            self.rng.shuffle(self.draw[fi].as_mut_slice());
            let cards = self.draw[fi].len() as u8;
            self.log(Event::DrawPileRebuilt { family: f, cards });
        }
        self.draw[fi].pop().expect("source_available checked a card is there")
    }

    fn draw_card(&mut self, src: Source) {
        let actor = self.actor;
        if !self.effects.free_draw {
            let p = &mut self.players[actor.index()];
            p.stock.0 -= 1;
            p.pot.0 += 1;
            self.log(Event::Chips { seat: actor, stock: -1, pot: 1, reason: ChipReason::Draw });
        }
        let ti = (self.turn.max(1) - 1).min(2) as usize;
        self.turn_actions[actor.index()][ti] = TurnAction::Draw(src);
        let (drawn, shown) = if src.is_deck() {
            (self.take_from_deck(src.family()), None)
        } else {
            let c = self.discard[src.family().index()].pop().expect("source_available checked");
            (c, Some(c))
        };
        self.log(Event::Drew { seat: actor, source: src, card: shown });
        self.pending = Pending::Keep { drawn, source: src };
    }

    fn keep(&mut self, drawn: Card, source: Source, keep_drawn: bool) {
        let actor = self.actor;
        let f = drawn.family().index();
        let discarded = if keep_drawn {
            let held = self.players[actor.index()].hand[f];
            self.players[actor.index()].hand[f] = drawn;
            let now_known = if source.is_deck() { UNKNOWN } else { drawn.id() };
            for v in 0..MAX_PLAYERS {
                self.known[v][actor.index()][f] = now_known;
            }
            held
        } else {
            drawn
        };
        self.discard[f].push(discarded);
        self.seen.insert(discarded);
        self.log(Event::Discarded { seat: actor, card: discarded });
        self.end_action(false);
    }

    fn end_action(&mut self, stood: bool) {
        let actor = self.actor;
        {
            let turn = self.turn;
            let p = &mut self.players[actor.index()];
            if stood {
                p.last_action = LastAction::Stand;
                p.stood_turn = turn;
            } else {
                p.last_action = LastAction::Draw;
            }
        }
        if !stood {
            self.all_stood = false;
        }
        // The Embargo this player was under is served by this action, whatever token came with it.
        self.effects.embargoed.remove(actor);
        self.effects.free_draw = false;
        self.token_played = false;
        let next = self.next_active(actor);
        if next == self.starter {
            if (self.config.early_reveal && self.all_stood) || self.turn >= 3 {
                self.start_reveal();
                return;
            }
            self.turn += 1;
            self.all_stood = true;
        }
        self.actor = next;
        self.pending = Pending::Act;
    }

    /// Whether the actor could still Draw in this action (K3.4): not under Embargo, a chip in
    /// stock or Free Draw active, and a source to draw from.
    fn actor_can_draw(&self) -> bool {
        let p = &self.players[self.actor.index()];
        !self.effects.embargoed.contains(self.actor)
            && (!p.stock.is_zero() || self.effects.free_draw)
            && Source::ALL.iter().any(|&s| self.source_available(s))
    }

    /// Whether the round is certain to end with the current action, for a token that leaves the
    /// actor's means to draw as they are (Embargo, Immunity): the actor is the last of the turn
    /// and either it is turn 3 (K3.7) or everyone so far stood and the actor cannot draw, so its
    /// stand triggers the early reveal (K3.6).
    fn round_ends_with_this_action(&self) -> bool {
        self.next_active(self.actor) == self.starter
            && (self.turn >= 3 || (self.config.early_reveal && self.all_stood && !self.actor_can_draw()))
    }

    /// The seat whose action comes right after the current one this round, if any.
    fn next_action_seat(&self) -> Option<Seat> {
        if self.round_ends_with_this_action() { None } else { Some(self.next_active(self.actor)) }
    }

    // ---------------------------------------------------------------------------------------
    // Shift Tokens

    fn in_stand(&self, s: Seat) -> bool {
        let p = &self.players[s.index()];
        match self.config.in_stand {
            InStand::LastAction => p.last_action == LastAction::Stand,
            InStand::StoodThisTurn => p.stood_turn == self.turn && p.last_action == LastAction::Stand,
        }
    }

    /// Opponents of the actor that a token may affect: active and not Immune.
    fn exposed_opponents(&self) -> impl Iterator<Item = Seat> + '_ {
        let n = self.config.players;
        let actor = self.actor;
        (1..n)
            .map(move |o| actor.offset(o, n))
            .filter(move |&s| !self.players[s.index()].eliminated && !self.effects.immune.contains(s))
    }

    fn token_playable(&self, t: Token) -> bool {
        let me = &self.players[self.actor.index()];
        let cfg = &self.config;
        match t {
            Token::FreeDraw => {
                !self.effects.embargoed.contains(self.actor) && Source::ALL.iter().any(|&s| self.source_available(s))
            }
            Token::Refund | Token::ExtraRefund => match cfg.refund_source {
                RefundSource::HandPot => !me.pot.is_zero(),
                RefundSource::LostChips => !me.lost.is_zero(),
            },
            Token::Embezzlement => self.exposed_opponents().any(|s| {
                let p = &self.players[s.index()];
                match cfg.embezzlement {
                    EmbezzlementSource::HandPot => !p.pot.is_zero(),
                    EmbezzlementSource::Stock => !p.stock.is_zero(),
                }
            }),
            Token::GeneralTariff | Token::TargetTariff => {
                self.exposed_opponents().any(|s| !self.players[s.index()].stock.is_zero())
            }
            Token::GeneralAudit | Token::TargetAudit => {
                self.exposed_opponents().any(|s| self.in_stand(s) && !self.players[s.index()].stock.is_zero())
            }
            Token::PrimeSabacc => true,
            Token::Markdown => !self.effects.mods.markdown,
            Token::CookTheBooks => !self.effects.mods.cook_the_books,
            Token::MajorFraud => !self.effects.mods.major_fraud,
            // Without a later action this round an Embargo does nothing (K5).
            Token::Embargo => self.next_action_seat().is_some_and(|s| !self.effects.immune.contains(s)),
            // Immunity shields from opponents' later tokens only; with no later action this round
            // it does nothing (K5, K5.14).
            Token::Immunity => !self.effects.immune.contains(self.actor) && self.next_action_seat().is_some(),
            Token::Exhaustion | Token::DirectTransaction => self.exposed_opponents().next().is_some(),
        }
    }

    fn target_legal(&self, t: Token, target: Seat) -> bool {
        if target == self.actor || self.players[target.index()].eliminated || self.effects.immune.contains(target) {
            return false;
        }
        let p = &self.players[target.index()];
        match t {
            Token::TargetTariff => !p.stock.is_zero(),
            Token::TargetAudit => self.in_stand(target) && !p.stock.is_zero(),
            Token::Exhaustion | Token::DirectTransaction => true,
            _ => false,
        }
    }

    fn play_token(&mut self, t: Token) {
        let actor = self.actor;
        {
            let p = &mut self.players[actor.index()];
            p.tokens.remove(t);
            p.spent.insert(t);
        }
        self.round_tokens[actor.index()].insert(t);
        self.token_played = true;
        self.log(Event::TokenPlayed { seat: actor, token: t });
        match t {
            Token::FreeDraw => self.effects.free_draw = true,
            Token::Refund | Token::ExtraRefund => {
                let n = if t == Token::Refund { 2 } else { 3 };
                let p = &mut self.players[actor.index()];
                let moved = match self.config.refund_source {
                    RefundSource::HandPot => {
                        let m = p.pot.take_up_to(n);
                        p.stock.add(m);
                        self.log(Event::Chips {
                            seat: actor,
                            stock: m as i16,
                            pot: -(m as i16),
                            reason: ChipReason::Refund,
                        });
                        m
                    }
                    RefundSource::LostChips => {
                        let m = p.lost.take_up_to(n);
                        p.stock.add(m);
                        self.removed -= m as u32;
                        self.log(Event::Chips { seat: actor, stock: m as i16, pot: 0, reason: ChipReason::Refund });
                        m
                    }
                };
                debug_assert!(moved > 0);
            }
            Token::Embezzlement => {
                let n = self.config.players;
                for o in 1..n {
                    let s = actor.offset(o, n);
                    if self.players[s.index()].eliminated || self.effects.immune.contains(s) {
                        continue;
                    }
                    match self.config.embezzlement {
                        EmbezzlementSource::HandPot => {
                            if self.players[s.index()].pot.take_up_to(1) == 1 {
                                self.players[actor.index()].pot.add(1);
                                self.log(Event::Chips { seat: s, stock: 0, pot: -1, reason: ChipReason::Embezzlement });
                                self.log(Event::Chips {
                                    seat: actor,
                                    stock: 0,
                                    pot: 1,
                                    reason: ChipReason::Embezzlement,
                                });
                            }
                        }
                        EmbezzlementSource::Stock => {
                            if self.players[s.index()].stock.take_up_to(1) == 1 {
                                self.players[actor.index()].stock.add(1);
                                self.log(Event::Chips { seat: s, stock: -1, pot: 0, reason: ChipReason::Embezzlement });
                                self.log(Event::Chips {
                                    seat: actor,
                                    stock: 1,
                                    pot: 0,
                                    reason: ChipReason::Embezzlement,
                                });
                            }
                        }
                    }
                }
            }
            Token::GeneralTariff | Token::GeneralAudit => {
                let n = self.config.players;
                let (amount, reason) =
                    if t == Token::GeneralTariff { (1, ChipReason::Tariff) } else { (2, ChipReason::Audit) };
                for o in 1..n {
                    let s = actor.offset(o, n);
                    if self.players[s.index()].eliminated || self.effects.immune.contains(s) {
                        continue;
                    }
                    if t == Token::GeneralAudit && !self.in_stand(s) {
                        continue;
                    }
                    self.tax_by_token(s, amount, reason);
                }
            }
            Token::TargetTariff | Token::TargetAudit | Token::Exhaustion | Token::DirectTransaction => {
                self.pending = Pending::Target { token: t };
                return;
            }
            Token::PrimeSabacc => {
                let dice = [self.rng.die(), self.rng.die()];
                self.log(Event::DiceRolled { seat: actor, dice, purpose: DiceFor::PrimeSabacc });
                self.pending = Pending::PrimeDie { dice };
                return;
            }
            Token::Markdown => self.effects.mods.markdown = true,
            Token::CookTheBooks => self.effects.mods.cook_the_books = true,
            Token::MajorFraud => self.effects.mods.major_fraud = true,
            Token::Embargo => {
                let target = self.next_action_seat().expect("token_playable checked");
                self.effects.embargoed.insert(target);
                self.log(Event::Embargoed { seat: actor, target });
            }
            Token::Immunity => self.effects.immune.insert(actor),
        }
        self.pending = Pending::Act;
    }

    fn tax_by_token(&mut self, victim: Seat, amount: u16, reason: ChipReason) {
        let p = &mut self.players[victim.index()];
        let m = p.stock.take_up_to(amount);
        if m == 0 {
            return;
        }
        match self.config.tax_token_chips {
            TaxTokenChips::LeaveGame => {
                p.lost.add(m);
                self.removed += m as u32;
                self.log(Event::Chips { seat: victim, stock: -(m as i16), pot: 0, reason });
            }
            TaxTokenChips::VictimHandPot => {
                p.pot.add(m);
                self.log(Event::Chips { seat: victim, stock: -(m as i16), pot: m as i16, reason });
            }
        }
    }

    fn apply_targeted(&mut self, token: Token, target: Seat) {
        let actor = self.actor;
        self.log(Event::TokenTargeted { seat: actor, token, target });
        match token {
            Token::TargetTariff => self.tax_by_token(target, 2, ChipReason::Tariff),
            Token::TargetAudit => self.tax_by_token(target, 3, ChipReason::Audit),
            Token::Exhaustion => {
                let ti = target.index();
                for f in Family::ALL {
                    let c = self.players[ti].hand[f.index()];
                    self.discard[f.index()].push(c);
                    self.seen.insert(c);
                    self.log(Event::Discarded { seat: target, card: c });
                }
                for f in Family::ALL {
                    let c = self.take_from_deck(f);
                    self.players[ti].hand[f.index()] = c;
                }
                for v in 0..MAX_PLAYERS {
                    self.known[v][ti] = [UNKNOWN; 2];
                }
                self.log(Event::Exhausted { seat: actor, target });
            }
            Token::DirectTransaction => {
                let (a, b) = (actor.index(), target.index());
                let ha = self.players[a].hand;
                let hb = self.players[b].hand;
                self.players[a].hand = hb;
                self.players[b].hand = ha;
                for row in self.known.iter_mut() {
                    row.swap(a, b);
                }
                // Each of the two now knows the hand the other holds (K7).
                self.known[a][b] = [ha[0].id(), ha[1].id()];
                self.known[b][a] = [hb[0].id(), hb[1].id()];
                self.log(Event::HandsSwapped { seat: actor, target });
            }
            _ => unreachable!("only targeted tokens reach apply_targeted"),
        }
        self.pending = Pending::Act;
    }

    // ---------------------------------------------------------------------------------------
    // Reveal and settlement

    fn start_reveal(&mut self) {
        self.revealed = true;
        self.effects.embargoed = SeatSet::EMPTY;
        self.effects.free_draw = false;
        self.token_played = false;
        let major_fraud = self.effects.mods.major_fraud;
        let mut seat = self.starter;
        loop {
            let hand = self.players[seat.index()].hand;
            for (f, &card) in hand.iter().enumerate() {
                self.seen.insert(card);
                self.resolved[seat.index()][f] = match card.kind() {
                    CardKind::Number(v) => Resolved::Number(v),
                    CardKind::Sylop => Resolved::Sylop,
                    CardKind::Impostor if major_fraud => Resolved::Number(6),
                    CardKind::Impostor => Resolved::Number(0),
                };
            }
            self.log(Event::Revealed { seat, sand: hand[0], blood: hand[1] });
            seat = self.next_active(seat);
            if seat == self.starter {
                break;
            }
        }
        self.reveal = RevealCursor::default();
        self.continue_reveal();
    }

    /// The `pos`-th active seat clockwise from the starter.
    fn seat_from_starter(&self, pos: u8) -> Option<Seat> {
        let mut seat = self.starter;
        for _ in 0..pos {
            seat = self.next_active(seat);
            if seat == self.starter {
                return None;
            }
        }
        Some(seat)
    }

    fn continue_reveal(&mut self) {
        let cfg = self.config;
        while let Some(seat) = self.seat_from_starter(self.reveal.seat_pos) {
            let hand = self.players[seat.index()].hand;
            let is_unresolved_impostor = |f: usize, r: &[[Resolved; 2]; MAX_PLAYERS]| {
                hand[f].kind() == CardKind::Impostor && r[seat.index()][f] == Resolved::Number(0)
            };
            match cfg.impostor {
                ImpostorRule::OwnerChooses => {
                    while self.reveal.family < 2 {
                        let f = self.reveal.family as usize;
                        if is_unresolved_impostor(f, &self.resolved) {
                            let dice = [self.rng.die(), self.rng.die()];
                            let family = Family::from_index(f);
                            self.log(Event::DiceRolled { seat, dice, purpose: DiceFor::Impostor(family) });
                            self.actor = seat;
                            self.pending = Pending::ImpostorDie { family, dice };
                            return;
                        }
                        self.reveal.family += 1;
                    }
                }
                ImpostorRule::OneDie => {
                    for f in 0..2 {
                        if is_unresolved_impostor(f, &self.resolved) {
                            let d = self.rng.die();
                            let family = Family::from_index(f);
                            self.log(Event::DiceRolled { seat, dice: [d, 0], purpose: DiceFor::Impostor(family) });
                            self.resolved[seat.index()][f] = Resolved::Number(d);
                            self.log(Event::ImpostorValue { seat, family, value: d });
                        }
                    }
                }
                ImpostorRule::AutoBest => {
                    let mut opts = [[Resolved::Number(0); 2]; 2];
                    let mut lens = [1usize; 2];
                    for f in 0..2 {
                        if is_unresolved_impostor(f, &self.resolved) {
                            let dice = [self.rng.die(), self.rng.die()];
                            let family = Family::from_index(f);
                            self.log(Event::DiceRolled { seat, dice, purpose: DiceFor::Impostor(family) });
                            opts[f] = [Resolved::Number(dice[0]), Resolved::Number(dice[1])];
                            lens[f] = 2;
                        } else {
                            opts[f][0] = self.resolved[seat.index()][f];
                        }
                    }
                    let (s, b, _) =
                        ranking::best_choice([&opts[0][..lens[0]], &opts[1][..lens[1]]], self.effects.mods, &cfg);
                    for (f, v) in [(0usize, s), (1usize, b)] {
                        if lens[f] == 2 {
                            self.resolved[seat.index()][f] = v;
                            if let Resolved::Number(value) = v {
                                self.log(Event::ImpostorValue { seat, family: Family::from_index(f), value });
                            }
                        }
                    }
                }
            }
            self.reveal.seat_pos += 1;
            self.reveal.family = 0;
        }
        self.settle();
    }

    // The loops below index `players`, `resolved` and `results` by seat together.
    #[allow(clippy::needless_range_loop)]
    fn settle(&mut self) {
        let cfg = self.config;
        let mods = self.effects.mods;
        let mut results: [Option<SeatResult>; MAX_PLAYERS] = [None; MAX_PLAYERS];
        let mut best = RankKey::MAX;
        for i in 0..cfg.players as usize {
            let p = &self.players[i];
            if p.eliminated {
                continue;
            }
            let values = self.resolved[i];
            let class = ranking::classify(values[0], values[1], mods, &cfg);
            let key = ranking::rank_key(class, mods, &cfg);
            best = best.min(key);
            results[i] = Some(SeatResult {
                hand: p.hand,
                values,
                class,
                key,
                winner: false,
                pot_returned: 0,
                pot_lost: 0,
                tax: 0,
                stock_after: 0,
                eliminated: false,
            });
        }
        let mut round_winners = SeatSet::EMPTY;
        for i in 0..cfg.players as usize {
            let Some(r) = results[i].as_mut() else { continue };
            let seat = Seat(i as u8);
            let p = &mut self.players[i];
            if r.key == best {
                r.winner = true;
                round_winners.insert(seat);
                let back = p.pot.0;
                p.stock.add(back);
                p.pot = Chips::ZERO;
                r.pot_returned = back;
                if back > 0 && self.log_events {
                    self.events.push(Event::Chips {
                        seat,
                        stock: back as i16,
                        pot: -(back as i16),
                        reason: ChipReason::PotReturned,
                    });
                }
            } else {
                let lost_pot = p.pot.0;
                p.pot = Chips::ZERO;
                let tax = p.stock.take_up_to(r.class.tax());
                p.lost.add(lost_pot + tax);
                self.removed += (lost_pot + tax) as u32;
                r.pot_lost = lost_pot;
                r.tax = tax;
                if self.log_events {
                    if lost_pot > 0 {
                        self.events.push(Event::Chips {
                            seat,
                            stock: 0,
                            pot: -(lost_pot as i16),
                            reason: ChipReason::PotLost,
                        });
                    }
                    if tax > 0 {
                        self.events.push(Event::Chips { seat, stock: -(tax as i16), pot: 0, reason: ChipReason::Tax });
                    }
                }
            }
        }
        self.log(Event::RoundWon { round: self.round, winners: round_winners });
        let mut remaining = SeatSet::EMPTY;
        for i in 0..cfg.players as usize {
            let Some(r) = results[i].as_mut() else { continue };
            let p = &mut self.players[i];
            r.stock_after = p.stock.0;
            if p.stock.is_zero() {
                p.eliminated = true;
                p.eliminated_in_round = self.round;
                r.eliminated = true;
                self.log(Event::Eliminated { seat: Seat(i as u8) });
            } else {
                remaining.insert(Seat(i as u8));
            }
        }
        self.settlement = Some(Settlement { round: self.round, mods, winners: round_winners, seats: results });
        if remaining.len() <= 1 {
            self.winners = if remaining.len() == 1 { remaining } else { round_winners };
            self.pending = Pending::GameOver;
            self.log(Event::GameOver { winners: self.winners });
            return;
        }
        if self.round >= cfg.round_limit {
            self.pending = Pending::Truncated;
            self.log(Event::Truncated { round: self.round });
            return;
        }
        self.starter = match cfg.round_starter {
            RoundStarter::Rotates => self.next_active(self.starter),
            RoundStarter::AlwaysSeat0 => {
                if self.players[0].eliminated {
                    self.next_active(Seat(0))
                } else {
                    Seat(0)
                }
            }
        };
        self.start_round();
    }

    #[inline]
    fn log(&mut self, e: Event) {
        if self.log_events {
            self.events.push(e);
        }
    }

    // ---------------------------------------------------------------------------------------
    // Invariants

    /// Checks conservation of cards and chips (used by tests and `sabacc simulate`).
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut set = CardSet::default();
        let mut count = 0usize;
        let mut add = |c: Card, set: &mut CardSet| {
            count += 1;
            set.insert(c);
        };
        if self.round > 0 {
            for f in 0..2 {
                for &c in self.draw[f].as_slice() {
                    if c.family().index() != f {
                        return Err(format!("card {c} lies in the wrong family's draw pile"));
                    }
                    add(c, &mut set);
                }
                for &c in self.discard[f].as_slice() {
                    if c.family().index() != f {
                        return Err(format!("card {c} lies in the wrong family's discard pile"));
                    }
                    add(c, &mut set);
                }
            }
            let in_round = !matches!(self.pending, Pending::GameOver | Pending::Truncated);
            let settled_players = self.settlement.as_ref().filter(|s| s.round == self.round && !in_round);
            for i in 0..self.config.players as usize {
                let p = &self.players[i];
                let holds = if let Some(s) = settled_players { s.seats[i].is_some() } else { !p.eliminated };
                if holds {
                    for f in 0..2 {
                        if p.hand[f].family().index() != f {
                            return Err(format!(
                                "seat {i} holds {} in its {} slot",
                                p.hand[f],
                                Family::from_index(f).letter()
                            ));
                        }
                        add(p.hand[f], &mut set);
                    }
                }
            }
            if let Pending::Keep { drawn, .. } = self.pending {
                add(drawn, &mut set);
            }
            if count != DECK_SIZE || set != CardSet::FULL {
                return Err(format!("{count} card places hold {} distinct cards; expected all 44 once", set.len()));
            }
        }
        let mut chips: u32 = self.removed;
        for p in &self.players[..self.config.players as usize] {
            chips += p.stock.0 as u32 + p.pot.0 as u32;
            if p.eliminated && (p.stock.0 != 0 || p.pot.0 != 0) {
                return Err("an eliminated player holds chips".into());
            }
        }
        if chips != self.config.total_chips() {
            return Err(format!(
                "stock + hand pots + removed = {chips}, but {} chips were dealt",
                self.config.total_chips()
            ));
        }
        if self.round > 0 && !self.revealed && !self.is_terminal() {
            // An Embargo binds the seat acting next; only the actor's own Embargo, played in this
            // action, can add a second one (on the seat after it).
            let mut allowed = SeatSet::EMPTY;
            allowed.insert(self.actor);
            if self.token_played && self.players[self.actor.index()].spent.contains(Token::Embargo) {
                allowed.insert(self.next_active(self.actor));
            }
            if self.effects.embargoed.0 & !allowed.0 != 0 {
                return Err(format!(
                    "Embargo pending on seats {:?} while {} acts",
                    self.effects.embargoed.iter().map(|s| s.0).collect::<Vec<_>>(),
                    self.actor
                ));
            }
        } else if !self.effects.embargoed.is_empty() {
            return Err("an Embargo outlived its round".into());
        }
        if self.mask != self.compute_mask() {
            return Err("the cached legal-action mask is stale".into());
        }
        if !self.is_terminal() && self.legal_mask().is_empty() {
            return Err("no legal action at a pending decision".into());
        }
        Ok(())
    }
}
