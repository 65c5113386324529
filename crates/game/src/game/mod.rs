//! The seam between a game's rules and everything that plays it: [`Game`].
//!
//! In the spirit of OpenSpiel's `Game`/`State`, a game brings its engine (a state that deals
//! from a seed, says whose turn it is, which actions are legal and applies one), its rule config,
//! what a seat may see (its view), the names of its actions, its observation encoder and its
//! [`EnvSpec`]. The env's one game loop, the single-game env, the vectorised env and the agents
//! are generic over it, so a new game costs a crate (its engine, encoder and bots) and one line in
//! the registry (`crates/games/registry`).
//!
//! A game is a zero-sized marker type; its functions take the state explicitly, so the engines
//! keep their own inherent APIs and the env adds no indirection on the hot path (everything is
//! monomorphised). Front-ends that choose a game at run time use the object-safe
//! [`crate::DynGame`] over the same trait.

pub mod action;
pub mod agent;
pub mod guide;

use crate::error::GameError;
use crate::reward::RewardMode;
use crate::seat::{MAX_PLAYERS, Seat, SeatSet};
use crate::spec::EnvSpec;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

pub use action::{GameAction, LegalMask};
use agent::Agent;
use guide::Guide;

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
    /// The smallest and largest table the rules allow.
    const SEATS: (u8, u8);
    /// The reward convention a table of this game uses unless told otherwise.
    const DEFAULT_REWARD: RewardMode = RewardMode::WinLoss;
    /// The bot a table seats by default (the strongest quick one): `expert`.
    const DEFAULT_OPPONENT: &'static str = "expert";
    /// The shipped checkpoint (relative to the repository) that the game's difficulty levels
    /// (`level:1` … `level:5`) play with deliberate mistakes; `None` where the game ships none.
    const LEVELS_CHECKPOINT: Option<&'static str> = None;
    /// The kinds of play the game wants counted in reports ([`Game::tracked_play`]), by index:
    /// Kessel's sixteen Shift Tokens; none by default.
    const TRACKED_PLAYS: &'static [&'static str] = &[];

    /// The rules' defaults at a table of `players`.
    fn rules_with_players(players: u8) -> Self::Rules;
    /// Seats at the table under these rules.
    fn players(rules: &Self::Rules) -> u8;
    /// Sets the number of seats (validated with the rest when a game is dealt).
    fn set_players(rules: &mut Self::Rules, players: u8);
    /// A new game dealt from `seed`, or why the rules are refused (the message names the field).
    fn new_state(rules: &Self::Rules, seed: u64) -> Result<Self::State, GameError>;
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
    fn apply(state: &mut Self::State, action: Self::Action) -> Result<(), GameError>;
    /// Applies an action the caller has already found in [`Game::legal_mask`] of this state (the
    /// env checks each decision once, then calls this), so an engine may skip its own check.
    /// Passing any other action is a bug in the caller: engines check it in debug builds only.
    /// The default checks anyway, through [`Game::apply`].
    ///
    /// # Panics
    /// Under the default, if the action is not legal.
    #[inline]
    fn apply_legal(state: &mut Self::State, action: Self::Action) {
        if let Err(e) = Self::apply(state, action) {
            panic!("apply_legal was given an action outside the legal mask: {e}");
        }
    }
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
    /// The rules of the table a view was taken at (public to every seat): what an agent that
    /// plays differently by table size reads the size from.
    fn view_rules(view: &Self::View) -> &Self::Rules;
    /// Writes a view's observation into `out` (length `SPEC.obs_len`).
    fn encode(view: &Self::View, out: &mut [f32]);
    /// Writes `seat`'s observation of `state` into `out`: `encode(&view(state, seat))`, which a
    /// game may write without building the whole view (the env's hot path calls this). The
    /// conformance harness checks the two agree at every decision of its games.
    #[inline]
    fn observe(state: &Self::State, seat: Seat, out: &mut [f32]) {
        Self::encode(&Self::view(state, seat), out);
    }
    /// The observation's layout as an export contract describes it to other front-ends.
    fn observation_layout() -> ObservationLayout;
    /// The lower and upper bound of every observation value at a table of `players` (the
    /// spaces Gymnasium and PettingZoo declare).
    fn observation_bounds(players: u8) -> (Vec<f32>, Vec<f32>);
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
    fn load_scenario(text: &str) -> Result<Self::State, GameError>;

    // The referee's tools: what search agents, studies and the conformance harness need.

    /// A full state consistent with everything `viewer` may see, with the rest (opponents'
    /// hidden cards, the deck order, future dice) resampled from `seed`: the one way a
    /// decision's rollouts may be played without peeking. `None` where the game cannot (classic
    /// Sabacc samples only positions awaiting a decision).
    fn determinize(state: &Self::State, viewer: Seat, seed: u64) -> Option<Self::State>;
    /// Every deal a game under `rules` can start from, with its probability: what an exact
    /// walk of the game tree (exploitability, `sabacc exploitability`) enumerates at the chance
    /// node, for games whose randomness is all in the deal and small enough to list (Leduc
    /// hold'em's 120); `None` for the others.
    fn deals(_rules: &Self::Rules) -> Option<Vec<(f64, Self::State)>> {
        None
    }
    /// The engine's own consistency checks (cards conserved, chips or credits conserved, …).
    fn check_invariants(state: &Self::State) -> Result<(), GameError>;
    /// Checks an observation against its documented layout: length, finite values, each field
    /// inside its documented range, one-hot blocks one-hot.
    fn check_observation(obs: &[f32], players: u8) -> Result<(), GameError>;

    /// The position as text for people: the whole table (`viewer` `None`, a referee's or a
    /// finished game's picture) or what one seat may see.
    fn render(state: &Self::State, viewer: Option<Seat>) -> String;

    /// The game's bots, by name: what agent specs such as `expert` or `search:64` build.
    fn bots() -> &'static [BotEntry<Self>];

    /// The viewer's entry of [`Game::shares`], from its own view (the potential a critic trained
    /// with reward shaping has learned, which a guide adds back); 0 where the game has none.
    fn view_share(_view: &Self::View) -> f32 {
        0.0
    }

    /// A search bot with `worlds` sampled worlds per decision steered by `guide` (a trained
    /// policy and critic), shown as `name`; `None` where the game has no guided search.
    fn guided_search(_worlds: u32, _guide: Box<dyn Guide<Self>>, _name: String) -> Option<Box<dyn Agent<Self>>> {
        None
    }

    /// A counted play ([`Game::TRACKED_PLAYS`]) that `action` just made, read from the state
    /// after it.
    fn tracked_play(_state_after: &Self::State, _action: Self::Action) -> Option<TrackedPlay> {
        None
    }
    /// The tracked kinds `seat` still holds unplayed, as bits by kind index.
    fn unplayed(_state: &Self::State, _seat: Seat) -> u32 {
        0
    }
}

/// One of a game's bots ([`Game::bots`]): its spec name, what it does, and how it is built.
pub struct BotEntry<G: Game> {
    /// The name in agent specs (`expert`).
    pub name: &'static str,
    /// What it does, for listings.
    pub description: &'static str,
    /// The bot takes a number after a colon (`search:64`): what it means and its default.
    pub parameter: Option<BotParameter>,
    /// A fresh bot; the number is the spec's parameter (the default when the spec names none).
    pub build: fn(u32) -> Box<dyn Agent<G>>,
}

/// The number a bot spec may carry ([`BotEntry::parameter`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotParameter {
    /// What it counts (`worlds`).
    pub meaning: &'static str,
    /// Used when the spec gives none.
    pub default: u32,
    /// The largest the bot accepts (bounded work per decision).
    pub max: u32,
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

/// One counted play ([`Game::tracked_play`]): Kessel's Shift Token plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TrackedPlay {
    /// The seat that made it.
    pub seat: u8,
    /// Its kind, an index into [`Game::TRACKED_PLAYS`].
    pub kind: u8,
    /// Round (hand) of the game, from 1.
    pub round: u16,
    /// Turn within the round, from 1.
    pub turn: u8,
}
