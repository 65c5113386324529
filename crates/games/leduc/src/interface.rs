//! Leduc hold'em through the game interface: [`Leduc`], the marker type the generic stack is
//! monomorphised over. Its payoff is chips won or lost, so its tables reward
//! [`RewardMode::Payoff`] by default; win/loss and placement rank the seat with positive chips
//! first (a split is a draw).

use crate::{Action, ActionMask, Event, NUM_ACTIONS, OBS_LEN, OBS_VERSION, PlayerView, RuleConfig, State};
use game::{
    BotEntry, EnvSpec, Game, GameError, MAX_PLAYERS, ObservationLayout, RewardMode, Seat, SeatEnd, SeatSet,
    zero_sum_rewards,
};

/// Leduc hold'em (`docs/rules-leduc.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Leduc;

impl Game for Leduc {
    type Rules = RuleConfig;
    type State = State;
    type View = PlayerView;
    type Action = Action;
    type Mask = ActionMask;
    type Event = Event;
    /// A position is its record: rules, deal and actions (the format states serialise to).
    type Scenario = State;

    const SPEC: EnvSpec = EnvSpec {
        game: "leduc",
        id: "leduc_holdem_v1",
        obs_version: OBS_VERSION,
        obs_len: OBS_LEN,
        num_actions: NUM_ACTIONS,
        max_players: MAX_PLAYERS,
    };
    const NAME: &'static str = "Leduc hold'em";
    const SEATS: (u8, u8) = (2, 2);
    const DEFAULT_REWARD: RewardMode = RewardMode::Payoff;
    const DEFAULT_OPPONENT: &'static str = "cfr";

    fn rules_with_players(players: u8) -> RuleConfig {
        RuleConfig { players, ..RuleConfig::default() }
    }
    fn players(rules: &RuleConfig) -> u8 {
        rules.players
    }
    fn set_players(rules: &mut RuleConfig, players: u8) {
        rules.players = players;
    }
    fn new_state(rules: &RuleConfig, seed: u64) -> Result<State, GameError> {
        State::new(*rules, seed).map_err(GameError::rules)
    }
    fn rules(state: &State) -> &RuleConfig {
        state.rules()
    }
    fn seed(state: &State) -> u64 {
        state.seed()
    }
    /// The log is short (a dozen entries a hand) and always kept.
    fn set_event_logging(_state: &mut State, _on: bool) {}
    #[inline]
    fn current_player(state: &State) -> Option<Seat> {
        state.current_player()
    }
    #[inline]
    fn legal_mask(state: &State) -> ActionMask {
        state.legal_mask()
    }
    fn apply(state: &mut State, action: Action) -> Result<(), GameError> {
        state.apply(action).map_err(GameError::action)
    }
    fn is_terminal(state: &State) -> bool {
        state.is_terminal()
    }
    /// A hand always ends.
    fn is_truncated(_state: &State) -> bool {
        false
    }
    fn winners(state: &State) -> SeatSet {
        state.winners().into_iter().collect()
    }
    fn progress(state: &State) -> u16 {
        u16::from(state.round())
    }
    fn view(state: &State, seat: Seat) -> PlayerView {
        state.view(seat)
    }
    fn viewer(view: &PlayerView) -> Seat {
        view.seat
    }
    fn view_rules(view: &PlayerView) -> &RuleConfig {
        &view.rules
    }
    fn encode(view: &PlayerView, out: &mut [f32]) {
        crate::obs::encode(view, out);
    }
    fn observation_layout() -> ObservationLayout {
        ObservationLayout {
            segments: crate::obs::SEGMENTS.iter().map(|s| (s.name, s.offset, s.len, s.doc.to_string())).collect(),
            seat_fields: Vec::new(),
            decision_names: Vec::new(),
            history_slots: Vec::new(),
            seat_order: "absolute: the viewer's seat is one-hot in segment `seat`",
        }
    }
    /// Every value lies in [0, 1].
    fn observation_bounds(_players: u8) -> (Vec<f32>, Vec<f32>) {
        (vec![0.0; OBS_LEN], vec![1.0; OBS_LEN])
    }
    fn action_name(index: usize) -> &'static str {
        Action::from_index(index).map_or("invalid", Action::name)
    }
    /// Each seat's chips in the pot over the pot: the money each has committed (public).
    fn shares(state: &State) -> [f32; MAX_PLAYERS] {
        let c = state.contributions();
        let pot = state.pot().max(1) as f32;
        let mut out = [0.0; MAX_PLAYERS];
        for (o, &x) in out.iter_mut().zip(&c) {
            *o = x as f32 / pot;
        }
        out
    }
    fn seat_end(state: &State, seat: Seat) -> SeatEnd {
        let won = state.returns()[seat.index()];
        SeatEnd { knocked_out_in: None, holdings: won.max(0.0) as u32 }
    }
    /// Payoff: chips won or lost. Win/loss and placement: the seat that won chips wins.
    fn terminal_rewards(state: &State, mode: RewardMode) -> [f32; MAX_PLAYERS] {
        if !state.is_terminal() {
            return [0.0; MAX_PLAYERS];
        }
        match mode {
            RewardMode::Payoff => {
                let r = state.returns();
                let mut out = [0.0; MAX_PLAYERS];
                out[0] = r[0] as f32;
                out[1] = r[1] as f32;
                out
            }
            RewardMode::WinLoss | RewardMode::Placement => {
                zero_sum_rewards(2, Self::winners(state), mode, |s| u32::from(state.returns()[s.index()] > 0.0))
            }
        }
    }
    fn events_seen_by(state: &State, viewer: Option<Seat>, from: usize) -> Vec<Event> {
        state.events().get(from..).unwrap_or_default().iter().map(|e| e.seen_by(viewer)).collect()
    }
    fn event_count(state: &State) -> usize {
        state.events().len()
    }
    fn scenario(state: &State, _seed: u64) -> Option<State> {
        Some(state.clone())
    }
    fn load_scenario(text: &str) -> Result<State, GameError> {
        serde_json::from_str(text).map_err(GameError::scenario)
    }
    /// The opponent's card (if unseen) and the public card (if unrevealed) redrawn from `seed`,
    /// the actions replayed: a hand the viewer cannot tell from the real one.
    fn determinize(state: &State, viewer: Seat, seed: u64) -> Option<State> {
        crate::sample::determinize(state, viewer, seed)
    }
    /// The 120 ordered deals of three distinct cards, each 1/120.
    fn deals(rules: &RuleConfig) -> Option<Vec<(f64, State)>> {
        let all: Vec<State> = crate::Deal::all().filter_map(|d| State::from_deal(*rules, d).ok()).collect();
        let p = 1.0 / all.len().max(1) as f64;
        Some(all.into_iter().map(|s| (p, s)).collect())
    }
    fn check_invariants(state: &State) -> Result<(), GameError> {
        state.check_invariants().map_err(GameError::Invariant)
    }
    fn check_observation(obs: &[f32], _players: u8) -> Result<(), GameError> {
        crate::obs::check_ranges(obs).map_err(GameError::Observation)
    }
    fn render(state: &State, viewer: Option<Seat>) -> String {
        match viewer {
            None => crate::render::render_state(state),
            Some(seat) => crate::render::render_view(&state.view(seat)),
        }
    }
    fn bots() -> &'static [BotEntry<Self>] {
        &crate::bots::BOTS
    }
    /// The viewer's chips in the pot over the pot.
    fn view_share(view: &PlayerView) -> f32 {
        view.contributions[view.seat.index()] as f32 / view.pot.max(1) as f32
    }
}
