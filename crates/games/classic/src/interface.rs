//! Classic Sabacc through the game interface: [`Classic`], the marker type the generic stack is
//! monomorphised over, and its [`Game`] implementation over this crate's engine, encoder and
//! bots.

use game::{
    BotEntry, EnvSpec, Game, GameError, MAX_PLAYERS, ObservationLayout, RewardMode, Seat, SeatEnd, SeatSet,
    zero_sum_rewards,
};
use std::sync::OnceLock;

/// Classic Sabacc (`docs/rules-classic.md`, rule ids C1–C9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Classic;

/// How the encoder orders per-seat blocks (as Kessel's does).
const SEAT_ORDER: &str =
    "relative: block 0 is the acting (viewing) seat, block o the seat o places clockwise; padded to 8 seats";

impl Game for Classic {
    type Rules = crate::RuleConfig;
    type State = crate::State;
    type View = crate::PlayerView;
    type Action = crate::Action;
    type Mask = crate::ActionMask;
    type Event = crate::Event;
    type Scenario = crate::Scenario;

    const SPEC: EnvSpec = EnvSpec {
        game: "classic",
        id: "classic_sabacc_v1",
        obs_version: crate::OBS_VERSION,
        obs_len: crate::OBS_LEN,
        num_actions: crate::NUM_ACTIONS,
        max_players: MAX_PLAYERS,
    };
    const SEATS: (u8, u8) = (2, MAX_PLAYERS as u8);
    const PROGRESS: &'static str = "hands";
    const NAME: &'static str = "classic Sabacc";
    const HOLDINGS: &'static str = "credits";
    const LEVELS_CHECKPOINT: Option<&'static str> = Some("checkpoints/classic-champion");

    fn rules_with_players(players: u8) -> Self::Rules {
        crate::RuleConfig::with_players(players)
    }
    #[inline]
    fn players(rules: &Self::Rules) -> u8 {
        rules.players
    }
    fn set_players(rules: &mut Self::Rules, players: u8) {
        rules.players = players;
    }
    #[inline]
    fn new_state(rules: &Self::Rules, seed: u64) -> Result<Self::State, GameError> {
        crate::State::new(*rules, seed).map_err(GameError::rules)
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
    fn apply(state: &mut Self::State, action: Self::Action) -> Result<(), GameError> {
        state.apply(action).map_err(GameError::action)
    }
    #[inline]
    fn apply_legal(state: &mut Self::State, action: Self::Action) {
        state.apply_legal(action);
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
    fn view_rules(view: &Self::View) -> &Self::Rules {
        &view.config
    }
    #[inline]
    fn progress(state: &Self::State) -> u16 {
        u16::try_from(state.hand_number()).unwrap_or(u16::MAX)
    }
    #[inline]
    fn encode(view: &Self::View, out: &mut [f32]) {
        crate::obs::encode(view, out);
    }
    #[inline]
    fn observe(state: &Self::State, seat: Seat, out: &mut [f32]) {
        state.observe(seat, out);
    }
    /// Each segment's meaning lists its fields with their ranges (`docs/observation-classic.md`).
    fn observation_layout() -> ObservationLayout {
        use crate::obs::{DECISION_NAMES, SEAT_FIELDS, SEGMENTS};
        let meaning = |s: &crate::obs::Segment| {
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
    /// The documented range of each field (`obs::SEGMENTS`, checked by `obs::check_ranges`),
    /// credit ratios capped at the table size: with `n` seats the table holds `n` starting stacks
    /// (C1.3), so none exceeds `n`.
    fn observation_bounds(players: u8) -> (Vec<f32>, Vec<f32>) {
        const CREDIT_FIELDS: [&str; 4] = ["credits", "paid_this_hand", "hand_pot", "sabacc_pot"];
        let mut low = vec![0.0f32; crate::OBS_LEN];
        let mut high = vec![0.0f32; crate::OBS_LEN];
        let table = f32::from(players.max(1));
        for seg in &crate::obs::SEGMENTS {
            for i in 0..seg.len {
                let f = seg.field(i);
                low[seg.offset + i] = f.lo;
                high[seg.offset + i] = if CREDIT_FIELDS.contains(&f.name) { f.hi.min(table) } else { f.hi };
            }
        }
        (low, high)
    }
    fn action_name(index: usize) -> &'static str {
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        game::names::cached_action_name(&NAMES, crate::NUM_ACTIONS, action_text, index)
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
        crate::Scenario::from_state(state)
    }
    fn load_scenario(text: &str) -> Result<Self::State, GameError> {
        crate::Scenario::from_json(text).map_err(GameError::scenario)
    }
    fn determinize(state: &Self::State, viewer: Seat, seed: u64) -> Option<Self::State> {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        crate::sample::determinize(&state.view(viewer), &mut rng).ok()
    }
    fn check_invariants(state: &Self::State) -> Result<(), GameError> {
        state.check_invariants().map_err(GameError::Invariant)
    }
    fn check_observation(obs: &[f32], _players: u8) -> Result<(), GameError> {
        crate::obs::check_ranges(obs).map_err(GameError::Observation)
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
    fn render(state: &Self::State, viewer: Option<Seat>) -> String {
        match viewer {
            None => crate::render::position(state),
            Some(seat) => crate::render::view(&state.view(seat)),
        }
    }
    fn bots() -> &'static [BotEntry<Self>] {
        &crate::bots::BOTS
    }
    /// Credits in front of the viewer over all credits in front of the seats, from its view.
    fn view_share(view: &Self::View) -> f32 {
        let n = usize::from(view.config.players);
        let total: u32 = view.seats[..n].iter().map(|s| s.credits).sum();
        if total == 0 { 0.0 } else { view.seats[view.viewer.index()].credits as f32 / total as f32 }
    }
}

fn action_text(i: usize) -> String {
    crate::Action::from_index(i).map_or_else(String::new, |a| a.name())
}
