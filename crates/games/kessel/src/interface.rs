//! Kessel Sabacc through the game interface: [`Kessel`], the marker type the generic stack is
//! monomorphised over, and its [`Game`] implementation over this crate's engine, encoder,
//! rewards and bots.

use crate::reward::{chip_shares, terminal_rewards};
use game::{
    BotEntry, EnvSpec, Game, GameError, MAX_PLAYERS, ObservationLayout, RewardMode, Seat, SeatEnd, SeatSet, TrackedPlay,
};
use std::sync::OnceLock;

/// Kessel Sabacc (`docs/rules.md`, rule ids K1–K9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Kessel;

/// How the encoder orders per-seat blocks.
pub const SEAT_ORDER: &str =
    "relative: block 0 is the acting (viewing) seat, block o the seat o places clockwise; padded to 8 seats";

impl Game for Kessel {
    type Rules = crate::RuleConfig;
    type State = crate::State;
    type View = crate::PlayerView;
    type Action = crate::Action;
    type Mask = crate::ActionMask;
    type Event = crate::Event;
    type Scenario = crate::Scenario;

    const SPEC: EnvSpec = EnvSpec {
        game: "kessel",
        id: "kessel_sabacc_v1",
        obs_version: crate::obs::OBS_VERSION,
        obs_len: crate::obs::OBS_LEN,
        num_actions: crate::NUM_ACTIONS,
        max_players: MAX_PLAYERS,
    };
    const NAME: &'static str = "Kessel Sabacc";
    const SEATS: (u8, u8) = (2, MAX_PLAYERS as u8);
    const TRACKED_PLAYS: &'static [&'static str] = &crate::token::TOKEN_NAMES;
    const LEVELS_CHECKPOINT: Option<&'static str> = Some("checkpoints/champion");

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
    /// 0 to 1 everywhere except chip ratios, which are at most the table's chips over a seat's
    /// start.
    fn observation_bounds(players: u8) -> (Vec<f32>, Vec<f32>) {
        use crate::obs::{OBS_LEN, SEAT_FIELD_NAMES, SEGMENTS};
        let mut high = vec![1.0f32; OBS_LEN];
        let stride = SEAT_FIELD_NAMES.len();
        let chips: Vec<usize> =
            ["stock", "pot", "lost"].iter().filter_map(|f| SEAT_FIELD_NAMES.iter().position(|n| n == f)).collect();
        if let Some(seats) = SEGMENTS.iter().find(|s| s.name == "seats") {
            for rel in 0..MAX_PLAYERS {
                for &field in &chips {
                    high[seats.offset + rel * stride + field] = f32::from(players.max(1));
                }
            }
        }
        (vec![0.0; OBS_LEN], high)
    }
    fn action_name(index: usize) -> &'static str {
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        game::names::cached_action_name(&NAMES, crate::NUM_ACTIONS, action_text, index)
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
        crate::Scenario::from_state(state, seed)
    }
    fn load_scenario(text: &str) -> Result<Self::State, GameError> {
        crate::Scenario::from_json(text).map_err(GameError::scenario)
    }

    fn determinize(state: &Self::State, viewer: Seat, seed: u64) -> Option<Self::State> {
        Some(state.determinize(viewer, seed))
    }
    fn check_invariants(state: &Self::State) -> Result<(), GameError> {
        state.check_invariants().map_err(GameError::Invariant)
    }
    fn check_observation(obs: &[f32], players: u8) -> Result<(), GameError> {
        crate::obs::check_ranges(obs, players).map_err(GameError::Observation)
    }
    fn shares(state: &Self::State) -> [f32; MAX_PLAYERS] {
        chip_shares(state)
    }
    fn seat_end(state: &Self::State, seat: Seat) -> SeatEnd {
        let p = state.player(seat);
        let knocked_out_in = (p.eliminated && p.eliminated_in_round > 0).then_some(p.eliminated_in_round);
        SeatEnd { knocked_out_in, holdings: u32::from(p.stock.0) }
    }
    fn tracked_play(state_after: &Self::State, action: Self::Action) -> Option<TrackedPlay> {
        let crate::Action::PlayToken(token) = action else { return None };
        let seat = state_after.current_player()?.0;
        Some(TrackedPlay { seat, kind: token.index() as u8, round: state_after.round(), turn: state_after.turn() })
    }
    fn unplayed(state: &Self::State, seat: Seat) -> u32 {
        u32::from(state.player(seat).tokens.0)
    }
    fn render(state: &Self::State, viewer: Option<Seat>) -> String {
        match viewer {
            None => crate::render::report(state, None, state.last_settlement()),
            Some(seat) => crate::render::view(&state.view(seat)),
        }
    }
    fn bots() -> &'static [BotEntry<Self>] {
        &crate::bots::BOTS
    }
    fn view_share(view: &Self::View) -> f32 {
        crate::reward::view_chip_share(view)
    }
    fn guided_search(
        worlds: u32,
        guide: Box<dyn game::Guide<Self>>,
        name: String,
    ) -> Option<Box<dyn game::Agent<Self>>> {
        Some(Box::new(crate::bots::SearchAgent::guided(worlds as usize, guide, Default::default(), name)))
    }
}

/// The documented name of Kessel action `index` (`stand`, `draw:sand-deck`, `token:embargo`,
/// `target:+2`, …), or `invalid` outside 0..48. Allocation-free, for logs and reports.
pub fn action_name(index: usize) -> &'static str {
    <Kessel as Game>::action_name(index)
}

fn action_text(i: usize) -> String {
    crate::Action::from_index(i).map_or_else(String::new, |a| a.name())
}
