//! The seam between a game's rules and everything that plays it: [`Game`].
//!
//! In the spirit of OpenSpiel's `Game`/`State`, a game brings its engine (a state that deals
//! from a seed, says whose turn it is, which actions are legal and applies one), its rule config,
//! what a seat may see (its view), the names of its actions, its observation encoder and its
//! [`EnvSpec`]. The env's one game loop ([`crate::Driver`]), the single-game env
//! ([`crate::Env`]), the vectorised env and the agents are generic over it, so a new game costs
//! an engine, an encoder, bots and one registration in [`crate::games`].
//!
//! A game is a zero-sized marker type; its functions take the state explicitly, so the engines
//! keep their own inherent APIs and the env adds no indirection on the hot path (everything is
//! monomorphised).

use crate::reward::RewardMode;
use crate::spec::EnvSpec;
use kessel::{MAX_PLAYERS, Seat, SeatSet, Token, TokenSet};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// One of a game's flat actions, numbered `0..num_actions`.
pub trait GameAction: Copy + Debug + PartialEq + Serialize + Send + Sync + 'static {
    /// The action's index in the flat action space.
    fn index(self) -> usize;
    /// The action with this index, `None` outside `0..num_actions`.
    fn from_index(index: usize) -> Option<Self>;
}

/// A set of legal action indices. Each game picks a width that holds its action space (a
/// `u64` for both games today); buffers outside the env hold masks as
/// [`EnvSpec::mask_words`] 64-bit words each, so no width is baked into the stack above.
pub trait LegalMask: Copy + Debug + Default + PartialEq + Send + Sync + 'static {
    /// Whether the action with this index is legal.
    fn contains_index(self, index: usize) -> bool;
    /// Number of legal actions.
    fn count(self) -> usize;
    /// True when no action is legal (only once a game is over).
    fn is_empty(self) -> bool;
    /// The `n`-th legal index in increasing order (uniform sampling without allocation).
    fn nth_index(self, n: usize) -> Option<usize>;
    /// The legal indices in increasing order.
    fn index_list(self) -> Vec<usize>;
    /// Writes the mask as 64-bit words, bit `i % 64` of word `i / 64` for index `i`.
    fn write_words(self, out: &mut [u64]);
    /// Writes one bool per action index into `out` (length `num_actions`).
    fn write_bools(self, out: &mut [bool]) {
        for (i, b) in out.iter_mut().enumerate() {
            *b = self.contains_index(i);
        }
    }
}

/// A game the stack can play (see the module documentation).
pub trait Game: Copy + Debug + Default + PartialEq + Eq + Send + Sync + 'static {
    /// The configurable rules, the number of players among them.
    type Rules: Copy + Debug + Default + PartialEq + Eq + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// The full game state, hidden cards included: the referee's, never an agent's.
    type State: Clone + Debug + PartialEq + Serialize + Send + Sync + 'static;
    /// What one seat may see.
    type View: Clone + Debug + PartialEq + Serialize + Send + Sync + 'static;
    /// One flat action.
    type Action: GameAction;
    /// A set of legal actions.
    type Mask: LegalMask;
    /// One entry of the game's event log, as a seat (or a spectator) may see it.
    type Event: Clone + Debug + Serialize + Send + Sync + 'static;
    /// A position in the game's scenario format (`docs/scenarios.md`,
    /// `docs/scenarios-classic.md`): what front-ends show and load to ask about a decision.
    type Scenario: Serialize + Send + 'static;

    /// Sizes, observation version and environment id.
    const SPEC: EnvSpec;
    /// The game's name for people (`Kessel Sabacc`, `classic Sabacc`).
    const NAME: &'static str;
    /// What [`Game::progress`] counts, for reports (`rounds`, `hands`).
    const PROGRESS: &'static str = "rounds";
    /// What [`SeatEnd::holdings`] counts, for reports (`chips`, `credits`).
    const HOLDINGS: &'static str = "chips";
    /// The game has Kessel's Shift Tokens (reports then carry token statistics).
    const SHIFT_TOKENS: bool = false;

    /// The rules' defaults at a table of `players`.
    fn rules_with_players(players: u8) -> Self::Rules;
    /// Seats at the table under these rules.
    fn players(rules: &Self::Rules) -> u8;
    /// Sets the number of seats (validated with the rest when a game is dealt).
    fn set_players(rules: &mut Self::Rules, players: u8);
    /// A new game dealt from `seed`, or why the rules are refused (the message names the field).
    fn new_state(rules: &Self::Rules, seed: u64) -> Result<Self::State, String>;
    /// The rules a state is played under.
    fn rules(state: &Self::State) -> &Self::Rules;
    /// The seed a state's randomness flows from.
    fn seed(state: &Self::State) -> u64;
    /// Switches the state's public event log on or off.
    fn set_event_logging(state: &mut Self::State, on: bool);
    /// The seat to act, `None` once the game is over.
    fn current_player(state: &Self::State) -> Option<Seat>;
    /// The acting seat's legal actions (empty once the game is over).
    fn legal_mask(state: &Self::State) -> Self::Mask;
    /// Applies the acting seat's action; on error the state is unchanged.
    fn apply(state: &mut Self::State, action: Self::Action) -> Result<(), String>;
    /// The game is over (won or truncated).
    fn is_terminal(state: &Self::State) -> bool;
    /// The game was cut off by its length limit, with no winner.
    fn is_truncated(state: &Self::State) -> bool;
    /// The game's winners (empty until it ends, and for truncated games).
    fn winners(state: &Self::State) -> SeatSet;
    /// How far the game got, for reports: Kessel's rounds, classic's hands.
    fn progress(state: &Self::State) -> u16;
    /// What `seat` may see.
    fn view(state: &Self::State, seat: Seat) -> Self::View;
    /// The seat a view belongs to.
    fn viewer(view: &Self::View) -> Seat;
    /// Writes a view's observation into `out` (length `SPEC.obs_len`).
    fn encode(view: &Self::View, out: &mut [f32]);
    /// The observation's layout as an export contract describes it to other front-ends.
    fn observation_layout() -> ObservationLayout;
    /// The documented name of action `index`, `invalid` outside the action space.
    fn action_name(index: usize) -> &'static str;
    /// Each seat's share of what the table holds (chips, credits), the potential of the
    /// trainer's reward shaping (`shaping` in a training config); padding seats 0.
    fn shares(state: &Self::State) -> [f32; MAX_PLAYERS];
    /// How a seat ended a game, for reports and rankings: when it was knocked out (Kessel's
    /// elimination round, classic's hand in which it left) and what it held at the end (chips
    /// in stock, credits).
    fn seat_end(state: &Self::State, seat: Seat) -> SeatEnd;
    /// Every seat's reward when the game has just ended (zero-sum, absolute seats, padding 0;
    /// see [`crate::reward`]).
    fn terminal_rewards(state: &Self::State, mode: RewardMode) -> [f32; MAX_PLAYERS];

    /// The event log from entry `from` on, as `viewer` may see it (`None`: a spectator, who
    /// sees only what is public): cards private to another seat are left out. Front-ends (the
    /// play server) show it; the state logs only when [`Game::set_event_logging`] is on.
    fn events_seen_by(state: &Self::State, viewer: Option<Seat>, from: usize) -> Vec<Self::Event>;
    /// Entries in the event log so far.
    fn event_count(state: &Self::State) -> usize;
    /// The position as a scenario, `None` where the format cannot describe it; `seed` seeds
    /// what the scenario leaves to chance (Kessel's dice and reshuffles).
    fn scenario(state: &Self::State, seed: u64) -> Option<Self::Scenario>;
    /// Builds the position a scenario's JSON text describes, validated (the message names the
    /// field at fault).
    fn load_scenario(text: &str) -> Result<Self::State, String>;

    // The referee's tools: what search agents, studies and the conformance harness need.

    /// A full state consistent with everything `viewer` may see, with the rest (opponents'
    /// hidden cards, the deck order, future dice) resampled from `seed`: the one way a
    /// decision's rollouts may be played without peeking. `None` where the game cannot (classic
    /// Sabacc samples only positions awaiting a decision).
    fn determinize(state: &Self::State, viewer: Seat, seed: u64) -> Option<Self::State>;
    /// The engine's own consistency checks (cards conserved, chips or credits conserved, …).
    fn check_invariants(state: &Self::State) -> Result<(), String>;
    /// Checks an observation against its documented layout: length, finite values, each field
    /// inside its documented range, one-hot blocks one-hot.
    fn check_observation(obs: &[f32], players: u8) -> Result<(), String>;

    // Kessel's Shift Tokens, which the arena's token statistics and the token research study;
    // a game without them keeps the defaults.

    /// The Shift Token an action plays, with the round and turn it was played in (read from the
    /// state after the action: playing a token leaves the turn with its player).
    fn token_play(_state_after: &Self::State, _action: Self::Action) -> Option<TokenPlay> {
        None
    }
    /// The tokens `seat` still holds, unplayed.
    fn unplayed_tokens(_state: &Self::State, _seat: Seat) -> TokenSet {
        TokenSet::EMPTY
    }
}

/// The observation's layout ([`Game::observation_layout`]): named segments, the fields of a seat's
/// block, the names of the decision one-hot, history slots, and how seats are ordered.
#[derive(Clone, Debug, PartialEq)]
pub struct ObservationLayout {
    /// `(name, offset, length, meaning)` of each segment, in order.
    pub segments: Vec<(&'static str, usize, usize, String)>,
    /// The fields of one seat's block, in order.
    pub seat_fields: Vec<&'static str>,
    /// The entries of the decision one-hot, in order.
    pub decision_names: Vec<&'static str>,
    /// Slots of the public history, in order (empty where there is none).
    pub history_slots: Vec<&'static str>,
    /// How per-seat blocks are ordered.
    pub seat_order: &'static str,
}

/// How one seat ended a game ([`Game::seat_end`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatEnd {
    /// The round (hand) in which the seat was knocked out; `None` if it lasted to the end.
    pub knocked_out_in: Option<u16>,
    /// What it held at the end: chips in stock (Kessel), credits (classic).
    pub holdings: u32,
}

/// One Shift Token play ([`Game::token_play`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TokenPlay {
    /// The seat that played it.
    pub seat: u8,
    /// The kind.
    pub token: Token,
    /// Round (1…).
    pub round: u16,
    /// Turn (1–3).
    pub turn: u8,
}
