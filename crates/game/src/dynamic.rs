//! The object-safe face of [`Game`], for front-ends that pick a game at run time: a
//! [`GameType`] (what the registry lists: a game's id, sizes, rules and how to start one) and a
//! [`DynGame`] (one game in progress: reset, step, legal actions and their names, a seat's view
//! as JSON, its observation and mask, events, outcome, text). The play server's tables, the
//! Python package's game class, the WebAssembly package and the C library all bind these two
//! traits, never a game's own types. Hot loops (the driver, the vectorised env, rollouts) stay
//! generic over [`Game`] and monomorphised.

use crate::error::GameError;
use crate::game::{Game, GameAction, LegalMask, ObservationLayout};
use crate::reward::RewardMode;
use crate::seat::{MAX_PLAYERS, Seat, SeatSet};
use crate::spec::EnvSpec;
use serde_json::Value;
use std::marker::PhantomData;

/// One registered game, as front-ends see it before a game starts.
pub trait GameType: Send + Sync + 'static {
    /// The short id (`kessel`, `classic`, `leduc`): what `--game`, configs and requests name.
    fn id(&self) -> &'static str;
    /// The name for people (`Kessel Sabacc`).
    fn name(&self) -> &'static str;
    /// Sizes, observation version and environment id.
    fn spec(&self) -> EnvSpec;
    /// The observation's layout, as an export contract describes it.
    fn observation_layout(&self) -> ObservationLayout;
    /// The bounds of every observation value at a table of `players`.
    fn observation_bounds(&self, players: u8) -> (Vec<f32>, Vec<f32>);
    /// The documented name of every action, by index.
    fn action_names(&self) -> Vec<&'static str>;
    /// What the game's reports count: `rounds`, `hands`.
    fn progress_unit(&self) -> &'static str;
    /// What a seat holds: `chips`, `credits`.
    fn holdings_unit(&self) -> &'static str;
    /// The reward convention a table uses unless told otherwise.
    fn default_reward(&self) -> RewardMode;
    /// The smallest and largest table the rules allow.
    fn seats(&self) -> (u8, u8);
    /// The default rules at a table of `players`, as JSON.
    fn default_rules(&self, players: u8) -> Value;
    /// The rules `rules` describes, completed from the defaults at `players` seats (fields given
    /// override the defaults; unknown fields and bad values are refused naming the field), as
    /// JSON. Errors name the field as `rules.FIELD`.
    fn resolve_rules(&self, rules: Option<&Value>, players: Option<u8>) -> Result<Value, GameError>;
    /// A new game under `rules` (as [`GameType::resolve_rules`] takes them) dealt from `seed`.
    fn new_game(&self, rules: Option<&Value>, players: Option<u8>, seed: u64) -> Result<Box<dyn DynGame>, GameError>;
    /// The position a scenario's JSON text describes.
    fn load_scenario(&self, text: &str) -> Result<Box<dyn DynGame>, GameError>;
    /// The shipped checkpoint the game's levels play (its champion), if it ships one.
    fn levels_checkpoint(&self) -> Option<&'static str>;
    /// The bot a table of this game seats by default (`expert`).
    fn default_opponent(&self) -> &'static str;
    /// The game's bots: `(name, description, parameter)`.
    fn bot_list(&self) -> Vec<(&'static str, &'static str, Option<crate::BotParameter>)>;
}

/// One game in progress, of any registered game (see the module documentation).
pub trait DynGame: Send + Sync {
    /// The game's type.
    fn game_type(&self) -> &'static dyn GameType;
    /// Seats at the table.
    fn players(&self) -> u8;
    /// The seed the deal came from.
    fn seed(&self) -> u64;
    /// The rules in force, as JSON.
    fn rules(&self) -> Value;
    /// The seat to act; `None` once the game is over.
    fn current_player(&self) -> Option<Seat>;
    /// The acting seat's legal action indices, increasing (empty once over).
    fn legal_actions(&self) -> Vec<usize>;
    /// The acting seat's mask as 64-bit words into `out` ([`EnvSpec::mask_words`] long).
    fn mask_words(&self, out: &mut [u64]);
    /// The acting seat's mask as one bool per action into `out` ([`EnvSpec::num_actions`] long).
    fn mask_bools(&self, out: &mut [bool]);
    /// Applies the acting seat's action `index`; refused (and nothing changed) when illegal.
    fn apply(&mut self, index: usize) -> Result<(), GameError>;
    /// What `seat` may see, as JSON.
    fn view(&self, seat: Seat) -> Value;
    /// `seat`'s observation into `out` ([`EnvSpec::obs_len`] long).
    fn observe(&self, seat: Seat, out: &mut [f32]);
    /// Switches the event log on (front-ends that show events) or off.
    fn set_event_logging(&mut self, on: bool);
    /// The event log from entry `from` on, as `viewer` may see it (`None`: a spectator).
    fn events(&self, viewer: Option<Seat>, from: usize) -> Vec<Value>;
    /// Entries in the event log.
    fn event_count(&self) -> usize;
    /// The game is over (won or truncated).
    fn is_terminal(&self) -> bool;
    /// It was cut off by its length limit, with no winner.
    fn is_truncated(&self) -> bool;
    /// The winners (empty until the end and for truncated games).
    fn winners(&self) -> SeatSet;
    /// Every seat's reward at the end under `mode` (zeros before).
    fn rewards(&self, mode: RewardMode) -> [f32; MAX_PLAYERS];
    /// Rounds (hands) played so far.
    fn progress(&self) -> u16;
    /// The position as text: the whole table (`None`) or one seat's picture.
    fn render(&self, viewer: Option<Seat>) -> String;
    /// The whole state as JSON text, hidden cards included (the referee's; never send it to a
    /// player). Text rather than a [`Value`]: a random generator's 128-bit state does not fit a
    /// `Value`'s numbers, and the text keeps it exactly.
    fn state_json(&self) -> String;
    /// The position as a scenario (`None` where the format cannot say it).
    fn scenario(&self, seed: u64) -> Option<Value>;
    /// A copy.
    fn clone_game(&self) -> Box<dyn DynGame>;
    /// The concrete game, for code that knows the game's type (its own page, its own tools).
    fn as_any(&self) -> &dyn std::any::Any;
}

/// [`GameType`] for `G`: the registry's entry for a game is `&Registered::<G>::NEW`.
pub struct Registered<G>(PhantomData<fn() -> G>);

impl<G> Registered<G> {
    /// The entry.
    pub const NEW: Registered<G> = Registered(PhantomData);
}

/// A game in progress of type `G` behind [`DynGame`].
#[derive(Clone, Debug)]
pub struct Played<G: Game> {
    /// The state.
    pub state: G::State,
}

impl<G: Game> Played<G> {
    /// The game whose state is `state`.
    pub fn new(state: G::State) -> Played<G> {
        Played { state }
    }
}

fn to_json<T: serde::Serialize>(x: &T) -> Value {
    // Every state, view and event type of a game derives `Serialize` into plain JSON (no maps
    // with non-string keys), so this cannot fail; `Null` would show a bug rather than hide it.
    serde_json::to_value(x).unwrap_or(Value::Null)
}

impl<G: Game> Registered<G> {
    fn rules_of(rules: Option<&Value>, players: Option<u8>) -> Result<G::Rules, GameError> {
        let players = match (players, rules.and_then(|r| r.get("players")).and_then(Value::as_u64)) {
            (Some(p), _) => p,
            (None, Some(p)) => {
                u8::try_from(p).map_err(|_| GameError::Rules(format!("rules.players: {p} is too many")))?
            }
            (None, None) => G::players(&G::Rules::default()),
        };
        let mut base = to_json(&G::rules_with_players(players));
        match rules {
            None | Some(Value::Null) => {}
            Some(Value::Object(fields)) => {
                let Value::Object(b) = &mut base else {
                    return Err(GameError::Rules(format!("{} rules are not a JSON object", G::NAME)));
                };
                for (k, v) in fields {
                    b.insert(k.clone(), v.clone());
                }
            }
            Some(other) => return Err(GameError::Rules(format!("rules must be a JSON object, got {other}"))),
        }
        if let Value::Object(b) = &mut base {
            b.insert("players".into(), Value::from(players));
        }
        let rules: G::Rules = serde_path_to_error::deserialize(base).map_err(|e| {
            let field = e.path().to_string();
            GameError::Rules(format!("rules.{field}: {}", e.inner()))
        })?;
        // Dealing validates the rules as a whole (the message names the field).
        G::new_state(&rules, 0).map_err(|e| GameError::Rules(format!("rules.{e}")))?;
        Ok(rules)
    }
}

impl<G: Game> GameType for Registered<G> {
    // The game's short id is the spec's `game` field; the spec's `id` is the environment id.
    #[allow(clippy::misnamed_getters)]
    fn id(&self) -> &'static str {
        G::SPEC.game
    }
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn spec(&self) -> EnvSpec {
        G::SPEC
    }
    fn observation_layout(&self) -> ObservationLayout {
        G::observation_layout()
    }
    fn observation_bounds(&self, players: u8) -> (Vec<f32>, Vec<f32>) {
        G::observation_bounds(players)
    }
    fn action_names(&self) -> Vec<&'static str> {
        (0..G::SPEC.num_actions).map(G::action_name).collect()
    }
    fn progress_unit(&self) -> &'static str {
        G::PROGRESS
    }
    fn holdings_unit(&self) -> &'static str {
        G::HOLDINGS
    }
    fn default_reward(&self) -> RewardMode {
        G::DEFAULT_REWARD
    }
    fn seats(&self) -> (u8, u8) {
        G::SEATS
    }
    fn default_rules(&self, players: u8) -> Value {
        to_json(&G::rules_with_players(players))
    }
    fn resolve_rules(&self, rules: Option<&Value>, players: Option<u8>) -> Result<Value, GameError> {
        Ok(to_json(&Self::rules_of(rules, players)?))
    }
    fn new_game(&self, rules: Option<&Value>, players: Option<u8>, seed: u64) -> Result<Box<dyn DynGame>, GameError> {
        let rules = Self::rules_of(rules, players)?;
        Ok(Box::new(Played::<G>::new(G::new_state(&rules, seed)?)))
    }
    fn load_scenario(&self, text: &str) -> Result<Box<dyn DynGame>, GameError> {
        Ok(Box::new(Played::<G>::new(G::load_scenario(text)?)))
    }
    fn default_opponent(&self) -> &'static str {
        G::DEFAULT_OPPONENT
    }
    fn levels_checkpoint(&self) -> Option<&'static str> {
        G::LEVELS_CHECKPOINT
    }
    fn bot_list(&self) -> Vec<(&'static str, &'static str, Option<crate::BotParameter>)> {
        G::bots().iter().map(|b| (b.name, b.description, b.parameter)).collect()
    }
}

impl<G: Game> DynGame for Played<G> {
    fn game_type(&self) -> &'static dyn GameType {
        &Registered::<G>::NEW
    }
    fn players(&self) -> u8 {
        G::players(G::rules(&self.state))
    }
    fn seed(&self) -> u64 {
        G::seed(&self.state)
    }
    fn rules(&self) -> Value {
        to_json(G::rules(&self.state))
    }
    fn current_player(&self) -> Option<Seat> {
        G::current_player(&self.state)
    }
    fn legal_actions(&self) -> Vec<usize> {
        G::legal_mask(&self.state).index_list()
    }
    fn mask_words(&self, out: &mut [u64]) {
        G::legal_mask(&self.state).write_words(out);
    }
    fn mask_bools(&self, out: &mut [bool]) {
        G::legal_mask(&self.state).write_bools(out);
    }
    fn apply(&mut self, index: usize) -> Result<(), GameError> {
        if G::is_terminal(&self.state) {
            return Err(GameError::Action("the game is over; no action can be applied".into()));
        }
        let action = G::Action::from_index(index).ok_or_else(|| {
            GameError::Action(format!("action index {index} is outside the action space 0..{}", G::SPEC.num_actions))
        })?;
        if !G::legal_mask(&self.state).contains_index(index) {
            let legal: Vec<&str> = G::legal_mask(&self.state).index_list().into_iter().map(G::action_name).collect();
            return Err(GameError::Action(format!(
                "`{}` is not legal here; legal: {}",
                G::action_name(index),
                legal.join(", ")
            )));
        }
        G::apply(&mut self.state, action)
    }
    fn view(&self, seat: Seat) -> Value {
        to_json(&G::view(&self.state, seat))
    }
    fn observe(&self, seat: Seat, out: &mut [f32]) {
        G::observe(&self.state, seat, out);
    }
    fn set_event_logging(&mut self, on: bool) {
        G::set_event_logging(&mut self.state, on);
    }
    fn events(&self, viewer: Option<Seat>, from: usize) -> Vec<Value> {
        G::events_seen_by(&self.state, viewer, from).iter().map(to_json).collect()
    }
    fn event_count(&self) -> usize {
        G::event_count(&self.state)
    }
    fn is_terminal(&self) -> bool {
        G::is_terminal(&self.state)
    }
    fn is_truncated(&self) -> bool {
        G::is_truncated(&self.state)
    }
    fn winners(&self) -> SeatSet {
        G::winners(&self.state)
    }
    fn rewards(&self, mode: RewardMode) -> [f32; MAX_PLAYERS] {
        G::terminal_rewards(&self.state, mode)
    }
    fn progress(&self) -> u16 {
        G::progress(&self.state)
    }
    fn render(&self, viewer: Option<Seat>) -> String {
        G::render(&self.state, viewer)
    }
    fn state_json(&self) -> String {
        serde_json::to_string(&self.state).unwrap_or_else(|_| "null".to_owned())
    }
    fn scenario(&self, seed: u64) -> Option<Value> {
        G::scenario(&self.state, seed).map(|s| to_json(&s))
    }
    fn clone_game(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
