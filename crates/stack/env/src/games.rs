//! The registration place: the games this build plays, each a [`Game`] over its engine crate.
//!
//! A new game adds its marker type and its `impl Game` here, and its variant of [`GameId`]; the
//! layers above reach it through the agents crate's `for_game` (and the Python bindings'
//! `for_py_game`), generic code throughout.

use crate::game::{Game, GameAction, LegalMask, ObservationLayout, SeatEnd, TokenPlay};
use crate::reward::{RewardMode, terminal_rewards, zero_sum_rewards};
use crate::spec::EnvSpec;
use kessel::{MAX_PLAYERS, Seat, SeatSet};
use std::sync::OnceLock;

/// Kessel Sabacc (`docs/rules.md`, rule ids K1–K9): the engine crate `engine`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Kessel;

/// Classic Sabacc (`docs/rules-classic.md`, rule ids C1–C9): the engine crate `classic`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Classic;

/// A game chosen at run time (a `--game` flag, a checkpoint's metadata, a Python argument).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameId {
    /// Kessel Sabacc.
    #[default]
    Kessel,
    /// Classic Sabacc.
    Classic,
}

impl GameId {
    /// Every registered game.
    pub const ALL: [GameId; 2] = [GameId::Kessel, GameId::Classic];

    /// The short name used on command lines (`kessel`, `classic`).
    pub fn name(self) -> &'static str {
        match self {
            GameId::Kessel => "kessel",
            GameId::Classic => "classic",
        }
    }

    /// The game's environment spec.
    pub fn spec(self) -> EnvSpec {
        match self {
            GameId::Kessel => Kessel::SPEC,
            GameId::Classic => Classic::SPEC,
        }
    }

    /// The game named `s`: its short name or its environment id (`kessel_sabacc_v1`).
    pub fn parse(s: &str) -> Result<GameId, String> {
        GameId::ALL.into_iter().find(|g| g.name() == s || g.spec().id == s).ok_or_else(|| {
            let names: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
            format!("unknown game `{s}`; games: {}", names.join(", "))
        })
    }

    /// The id of game `G`.
    pub fn of<G: Game>() -> GameId {
        GameId::from_env_id(G::SPEC.id).expect("every game is registered with its environment id")
    }

    /// The game whose environment id is `id`, if any.
    pub fn from_env_id(id: &str) -> Option<GameId> {
        GameId::ALL.into_iter().find(|g| g.spec().id == id)
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl EnvSpec {
    /// The spec of Kessel Sabacc's environment as this build encodes it.
    pub const KESSEL: EnvSpec = Kessel::SPEC;
    /// The spec of classic Sabacc's environment as this build encodes it.
    pub const CLASSIC: EnvSpec = Classic::SPEC;
}

/// Both games order per-seat blocks the same way.
const SEAT_ORDER: &str =
    "relative: block 0 is the acting (viewing) seat, block o the seat o places clockwise; padded to 8 seats";

/// Names of a game's actions, computed once: reports and errors look them up by index without
/// allocating.
fn cached_names(
    cell: &'static OnceLock<Vec<&'static str>>,
    n: usize,
    name: fn(usize) -> String,
) -> &'static [&'static str] {
    cell.get_or_init(|| (0..n).map(|i| &*Box::leak(name(i).into_boxed_str())).collect())
}

macro_rules! u64_mask {
    ($mask:ty) => {
        impl LegalMask for $mask {
            #[inline]
            fn contains_index(self, index: usize) -> bool {
                <$mask>::contains_index(self, index)
            }
            #[inline]
            fn count(self) -> usize {
                <$mask>::count(self)
            }
            #[inline]
            fn is_empty(self) -> bool {
                <$mask>::is_empty(self)
            }
            #[inline]
            fn nth_index(self, n: usize) -> Option<usize> {
                <$mask>::nth_index(self, n)
            }
            fn index_list(self) -> Vec<usize> {
                self.indices().collect()
            }
            #[inline]
            fn write_words(self, out: &mut [u64]) {
                out[0] = self.0;
            }
            #[inline]
            fn write_bools(self, out: &mut [bool]) {
                for (i, b) in out.iter_mut().enumerate() {
                    *b = self.0 >> i & 1 == 1;
                }
            }
        }
    };
}

macro_rules! indexed_action {
    ($action:ty) => {
        impl GameAction for $action {
            #[inline]
            fn index(self) -> usize {
                <$action>::index(self)
            }
            #[inline]
            fn from_index(index: usize) -> Option<Self> {
                <$action>::from_index(index)
            }
        }
    };
}

u64_mask!(kessel::ActionMask);
u64_mask!(classic::ActionMask);
indexed_action!(kessel::Action);
indexed_action!(classic::Action);

/// The [`Game`] functions both engines answer with methods of the same names (their states share
/// the OpenSpiel-like shape: `config`, `current_player`, `legal_mask`, `apply`, `view`, …); a
/// third engine with that shape registers with it too.
macro_rules! engine_state {
    ($krate:ident) => {
        fn rules_with_players(players: u8) -> Self::Rules {
            $krate::RuleConfig::with_players(players)
        }
        #[inline]
        fn players(rules: &Self::Rules) -> u8 {
            rules.players
        }
        fn set_players(rules: &mut Self::Rules, players: u8) {
            rules.players = players;
        }
        #[inline]
        fn new_state(rules: &Self::Rules, seed: u64) -> Result<Self::State, String> {
            $krate::State::new(*rules, seed).map_err(|e| e.to_string())
        }
        #[inline]
        fn rules(state: &Self::State) -> &Self::Rules {
            state.config()
        }
        #[inline]
        fn seed(state: &Self::State) -> u64 {
            state.rng().seed()
        }
        #[inline]
        fn set_event_logging(state: &mut Self::State, on: bool) {
            state.set_event_logging(on);
        }
        #[inline]
        fn current_player(state: &Self::State) -> Option<Seat> {
            state.current_player()
        }
        #[inline]
        fn legal_mask(state: &Self::State) -> Self::Mask {
            state.legal_mask()
        }
        #[inline]
        fn apply(state: &mut Self::State, action: Self::Action) -> Result<(), String> {
            state.apply(action).map_err(|e| e.to_string())
        }
        #[inline]
        fn is_terminal(state: &Self::State) -> bool {
            state.is_terminal()
        }
        #[inline]
        fn is_truncated(state: &Self::State) -> bool {
            state.is_truncated()
        }
        #[inline]
        fn winners(state: &Self::State) -> SeatSet {
            state.winners()
        }
        #[inline]
        fn view(state: &Self::State, seat: Seat) -> Self::View {
            state.view(seat)
        }
        #[inline]
        fn viewer(view: &Self::View) -> Seat {
            view.viewer
        }
    };
}

impl Game for Kessel {
    type Rules = kessel::RuleConfig;
    type State = kessel::State;
    type View = kessel::PlayerView;
    type Action = kessel::Action;
    type Mask = kessel::ActionMask;
    type Event = kessel::Event;
    type Scenario = kessel::Scenario;

    const SPEC: EnvSpec = EnvSpec {
        game: "kessel",
        id: "kessel_sabacc_v1",
        obs_version: crate::obs::OBS_VERSION,
        obs_len: crate::obs::OBS_LEN,
        num_actions: kessel::NUM_ACTIONS,
        max_players: MAX_PLAYERS,
    };
    const SHIFT_TOKENS: bool = true;
    const NAME: &'static str = "Kessel Sabacc";

    engine_state!(kessel);
    #[inline]
    fn progress(state: &Self::State) -> u16 {
        state.round()
    }
    #[inline]
    fn encode(view: &Self::View, out: &mut [f32]) {
        crate::obs::encode(view, out);
    }
    fn observation_layout() -> ObservationLayout {
        use crate::obs::{DECISION_NAMES, HISTORY_SLOT_NAMES, SEAT_FIELD_NAMES, SEGMENTS};
        ObservationLayout {
            segments: SEGMENTS.iter().map(|s| (s.name, s.offset, s.len, s.doc.to_string())).collect(),
            seat_fields: SEAT_FIELD_NAMES.to_vec(),
            decision_names: DECISION_NAMES.to_vec(),
            history_slots: HISTORY_SLOT_NAMES.to_vec(),
            seat_order: SEAT_ORDER,
        }
    }
    fn action_name(index: usize) -> &'static str {
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        let names = cached_names(&NAMES, kessel::NUM_ACTIONS, |i| {
            kessel::Action::from_index(i).map_or_else(String::new, |a| a.name())
        });
        names.get(index).copied().unwrap_or("invalid")
    }
    #[inline]
    fn terminal_rewards(state: &Self::State, mode: RewardMode) -> [f32; MAX_PLAYERS] {
        terminal_rewards(state, mode)
    }
    /// Kessel's log is public by construction (a card drawn from a deck is never in it).
    fn events_seen_by(state: &Self::State, _viewer: Option<Seat>, from: usize) -> Vec<Self::Event> {
        state.events().get(from..).unwrap_or_default().to_vec()
    }
    fn event_count(state: &Self::State) -> usize {
        state.events().len()
    }
    fn scenario(state: &Self::State, seed: u64) -> Option<Self::Scenario> {
        kessel::Scenario::from_state(state, seed)
    }
    fn load_scenario(text: &str) -> Result<Self::State, String> {
        kessel::Scenario::from_json(text).map_err(|e| e.to_string())
    }

    fn determinize(state: &Self::State, viewer: Seat, seed: u64) -> Option<Self::State> {
        Some(state.determinize(viewer, seed))
    }
    fn check_invariants(state: &Self::State) -> Result<(), String> {
        state.check_invariants()
    }
    fn check_observation(obs: &[f32], players: u8) -> Result<(), String> {
        crate::obs::check_ranges(obs, players)
    }
    fn shares(state: &Self::State) -> [f32; MAX_PLAYERS] {
        crate::reward::chip_shares(state)
    }
    fn seat_end(state: &Self::State, seat: Seat) -> SeatEnd {
        let p = state.player(seat);
        let knocked_out_in = (p.eliminated && p.eliminated_in_round > 0).then_some(p.eliminated_in_round);
        SeatEnd { knocked_out_in, holdings: u32::from(p.stock.0) }
    }
    fn token_play(state_after: &Self::State, action: Self::Action) -> Option<TokenPlay> {
        let kessel::Action::PlayToken(token) = action else { return None };
        let seat = state_after.current_player()?.0;
        Some(TokenPlay { seat, token, round: state_after.round(), turn: state_after.turn() })
    }
    fn unplayed_tokens(state: &Self::State, seat: Seat) -> kessel::TokenSet {
        state.player(seat).tokens
    }
}

impl Game for Classic {
    type Rules = classic::RuleConfig;
    type State = classic::State;
    type View = classic::PlayerView;
    type Action = classic::Action;
    type Mask = classic::ActionMask;
    type Event = classic::Event;
    type Scenario = classic::Scenario;

    const SPEC: EnvSpec = EnvSpec {
        game: "classic",
        id: "classic_sabacc_v1",
        obs_version: classic::OBS_VERSION,
        obs_len: classic::OBS_LEN,
        num_actions: classic::NUM_ACTIONS,
        max_players: MAX_PLAYERS,
    };
    const PROGRESS: &'static str = "hands";
    const NAME: &'static str = "classic Sabacc";
    const HOLDINGS: &'static str = "credits";

    engine_state!(classic);
    #[inline]
    fn progress(state: &Self::State) -> u16 {
        u16::try_from(state.hand_number()).unwrap_or(u16::MAX)
    }
    #[inline]
    fn encode(view: &Self::View, out: &mut [f32]) {
        classic::obs::encode(view, out);
    }
    /// Each segment's meaning lists its fields with their ranges (`docs/observation-classic.md`).
    fn observation_layout() -> ObservationLayout {
        use classic::obs::{DECISION_NAMES, SEAT_FIELDS, SEGMENTS};
        let meaning = |s: &classic::obs::Segment| {
            let fields: Vec<String> = s.fields.iter().map(|f| format!("{} [{}, {}]", f.name, f.lo, f.hi)).collect();
            let copies = s.len / s.fields.len();
            if copies > 1 { format!("{copies} × ({})", fields.join(", ")) } else { fields.join(", ") }
        };
        ObservationLayout {
            segments: SEGMENTS.iter().map(|s| (s.name, s.offset, s.len, meaning(s))).collect(),
            seat_fields: SEAT_FIELDS.iter().map(|f| f.name).collect(),
            decision_names: DECISION_NAMES.to_vec(),
            history_slots: Vec::new(),
            seat_order: SEAT_ORDER,
        }
    }
    fn action_name(index: usize) -> &'static str {
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        let names = cached_names(&NAMES, classic::NUM_ACTIONS, |i| {
            classic::Action::from_index(i).map_or_else(String::new, |a| a.name())
        });
        names.get(index).copied().unwrap_or("invalid")
    }
    /// Win/loss as Kessel's; placement ranks the seats still in the game by their credits, above
    /// every seat that left (C5.1: a seat leaves at 0 credits, so those tie).
    fn terminal_rewards(state: &Self::State, mode: RewardMode) -> [f32; MAX_PLAYERS] {
        if !state.is_terminal() || state.is_truncated() {
            return [0.0; MAX_PLAYERS];
        }
        let placement = |s: Seat| {
            let p = state.player(s);
            if p.in_game { p.credits.saturating_add(1) } else { 0 }
        };
        zero_sum_rewards(state.num_players() as usize, state.winners(), mode, placement)
    }
    fn events_seen_by(state: &Self::State, viewer: Option<Seat>, from: usize) -> Vec<Self::Event> {
        state.events().get(from..).unwrap_or_default().iter().map(|e| e.seen_by(viewer)).collect()
    }
    fn event_count(state: &Self::State) -> usize {
        state.events().len()
    }
    /// Classic scenarios carry no seed: the deck order they leave open is drawn when loaded.
    fn scenario(state: &Self::State, _seed: u64) -> Option<Self::Scenario> {
        classic::Scenario::from_state(state)
    }
    fn load_scenario(text: &str) -> Result<Self::State, String> {
        classic::Scenario::from_json(text).map_err(|e| e.to_string())
    }
    fn determinize(state: &Self::State, viewer: Seat, seed: u64) -> Option<Self::State> {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        classic::sample::determinize(&state.view(viewer), &mut rng).ok()
    }
    fn check_invariants(state: &Self::State) -> Result<(), String> {
        state.check_invariants()
    }
    fn check_observation(obs: &[f32], _players: u8) -> Result<(), String> {
        classic::obs::check_ranges(obs)
    }
    /// Credits in front of each seat over all credits in front of the seats (the pots, which
    /// nobody holds yet, left out).
    fn shares(state: &Self::State) -> [f32; MAX_PLAYERS] {
        let n = state.num_players() as usize;
        let total: u32 = (0..n).map(|s| state.player(Seat(s as u8)).credits).sum();
        let mut out = [0.0; MAX_PLAYERS];
        if total > 0 {
            for (s, x) in out.iter_mut().enumerate().take(n) {
                *x = state.player(Seat(s as u8)).credits as f32 / total as f32;
            }
        }
        out
    }
    fn seat_end(state: &Self::State, seat: Seat) -> SeatEnd {
        let p = state.player(seat);
        let knocked_out_in = (!p.in_game).then(|| u16::try_from(p.left_in_hand).unwrap_or(u16::MAX));
        SeatEnd { knocked_out_in, holdings: p.credits }
    }
}
