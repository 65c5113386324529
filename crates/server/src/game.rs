//! One game on the server: the game, stepped by the one game loop ([`env::Driver`]), who plays
//! each seat (a person or an agent built by the agents layer), and the actions taken so far,
//! from which any earlier step is rebuilt for replays.
//!
//! A person's action is queued and played by the driver like an agent's, so legality is checked
//! in one place and an agent that fails or answers an illegal action leaves the game as it was.
//!
//! Everything sent about a live game is built from the engine's [`engine::PlayerView`] of the
//! asking seat and the public event log, never from the full state, so no response can carry a
//! card that seat may not see.

use crate::error::ApiError;
use crate::wire::{self, CreateGame};
use agents::Agents;
use engine::{Action, ActionMask, MAX_PLAYERS, Outcome, RuleConfig, Scenario, Seat, State, derive_seed};
use env::{AgentTable, Controller, Driver, DriverError, EnvConfig, GameStart, Pending, StepEvent};
use serde_json::{Value, json};

/// The spec text of a seat played by a person.
pub const HUMAN: &str = "human";

/// Stream ids for [`derive_seed`], so the deal and each agent's randomness never share a seed.
const AGENT_STREAM: u64 = 0x5EA7;

/// Who plays a seat.
enum Player {
    /// A person, acting through the API.
    Human,
    /// An agent (held by the seats' [`AgentTable`]), acting on its own turns.
    Agent {
        /// The spec it was built from.
        spec: String,
    },
}

impl Player {
    fn spec(&self) -> &str {
        match self {
            Player::Human => HUMAN,
            Player::Agent { spec } => spec,
        }
    }
}

/// One action taken in the game, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Who took it.
    pub seat: Seat,
    /// What it was.
    pub action: Action,
}

/// The driver's controller for a game: the deal, a person's queued action, the agents, and the
/// record of every action.
struct Seats {
    start: Option<GameStart>,
    players: Vec<Player>,
    table: AgentTable,
    queued: Option<Action>,
    history: Vec<Step>,
}

impl Controller for Seats {
    type Error = ApiError;

    fn next_game(&mut self, _row: usize) -> Result<Option<GameStart>, ApiError> {
        Ok(self.start.take())
    }

    fn decide(&mut self, pending: &[Pending<'_>], actions: &mut [usize]) -> Result<(), ApiError> {
        let p = &pending[0];
        if let Player::Agent { spec } = &self.players[p.actor.index()] {
            return self
                .table
                .decide(pending, actions)
                .map_err(|e| ApiError::Agent(format!("seat {}: agent `{spec}`: {}", p.actor.0, e.error)));
        }
        let a = self.queued.take().ok_or_else(|| {
            ApiError::Conflict(format!("seat {} is a person's seat and no action was given for it", p.actor.0))
        })?;
        actions[0] = a.index();
        Ok(())
    }

    fn stepped(&mut self, e: &StepEvent<'_>) -> Result<(), ApiError> {
        self.history.push(Step { seat: e.seat, action: e.action });
        Ok(())
    }
}

/// Replays recorded actions through the driver (replay steps).
struct Replay<'a> {
    start: Option<GameStart>,
    actions: &'a [Step],
    next: usize,
}

impl Controller for Replay<'_> {
    type Error = ApiError;

    fn next_game(&mut self, _row: usize) -> Result<Option<GameStart>, ApiError> {
        Ok(self.start.take())
    }

    fn decide(&mut self, _pending: &[Pending<'_>], actions: &mut [usize]) -> Result<(), ApiError> {
        let step = self.actions.get(self.next).ok_or_else(|| ApiError::Agent("replay ran past its record".into()))?;
        actions[0] = step.action.index();
        self.next += 1;
        Ok(())
    }
}

/// The server's message for a driver error: an agent's failure or illegal action is the agent's
/// fault (500, named); nothing was applied.
fn driver_error(e: DriverError<ApiError>, players: &[Player]) -> ApiError {
    match e {
        DriverError::Controller(e) => e,
        DriverError::Illegal { seat, error, .. } => ApiError::Agent(format!(
            "seat {}: agent `{}` chose an illegal action: {error}",
            seat.0,
            players.get(seat.index()).map(Player::spec).unwrap_or("?")
        )),
        DriverError::Config { error, .. } => ApiError::BadRequest(format!("rules.{error}")),
    }
}

/// A game held by the server.
pub struct Game {
    id: String,
    seed: u64,
    driver: Driver,
    seats: Seats,
}

impl Game {
    /// Deals a game for `request`: seats are `human` or agent specs (parsed and built by the
    /// agents layer), the rules default to the standard ones at that table size. Returns the
    /// game and warnings about agents playing at a table they were not trained for. Agents whose
    /// turn comes first play at once.
    pub fn create(
        id: String,
        request: &CreateGame,
        default_seed: u64,
        agents: &Agents,
    ) -> Result<(Game, Vec<String>), ApiError> {
        let n = request.seats.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(ApiError::BadRequest(format!(
                "seats: a table has 2 to {MAX_PLAYERS} seats, got {n}; list one entry per seat, `human` or an agent spec"
            )));
        }
        let config = match &request.rules {
            None => RuleConfig::with_players(n as u8),
            Some(rules) => {
                let mut config: RuleConfig = wire::parse_value(rules.clone(), "rules")?;
                if rules.get("players").is_some() && config.players as usize != n {
                    return Err(ApiError::BadRequest(format!(
                        "rules.players = {} but {n} seats were listed; give the table size once",
                        config.players
                    )));
                }
                config.players = n as u8;
                config
            }
        };
        config.validate().map_err(|e| ApiError::BadRequest(format!("rules.{e}")))?;
        let seed = request.seed.unwrap_or(default_seed);
        let mut players = Vec::with_capacity(n);
        let mut built = Vec::new();
        let mut seating = vec![0; n];
        let mut warnings = Vec::new();
        for (i, spec) in request.seats.iter().enumerate() {
            if spec.trim() == HUMAN {
                players.push(Player::Human);
                continue;
            }
            let parsed =
                agents::AgentSpec::parse(spec).map_err(|e| ApiError::BadRequest(format!("seats[{i}]: {e}")))?;
            let agent = agents.build_parsed(&parsed).map_err(|e| ApiError::BadRequest(format!("seats[{i}]: {e}")))?;
            warnings.extend(agents::fit_warnings(&parsed, &config));
            seating[i] = built.len();
            built.push(agent);
            players.push(Player::Agent { spec: parsed.to_string() });
        }
        let rng_seeds: Vec<u64> = (0..n).map(|i| derive_seed(seed ^ AGENT_STREAM, i as u64)).collect();
        let mut table = AgentTable::new(built, 1);
        table.seat(0, &seating, &rng_seeds);
        let config = EnvConfig { rules: config, event_log: true, ..EnvConfig::default() };
        let mut game = Game {
            id,
            seed,
            driver: Driver::new(1),
            seats: Seats {
                start: Some(GameStart::deal(config, seed)),
                players,
                table,
                queued: None,
                history: Vec::new(),
            },
        };
        game.driver.start(&mut game.seats).map_err(|e| driver_error(e, &game.seats.players))?;
        game.run_agents()?;
        Ok((game, warnings))
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The engine state (for tests that compare responses with the engine's own views).
    pub fn state(&self) -> &State {
        self.driver.state(0).expect("a game is dealt when it is created")
    }

    /// Whether the game has ended (won or truncated).
    pub fn is_over(&self) -> bool {
        self.state().is_terminal()
    }

    /// The seat numbered `n`, if it is at the table.
    pub fn seat(&self, n: i64) -> Result<Seat, ApiError> {
        let players = self.seats.players.len() as i64;
        if (0..players).contains(&n) {
            Ok(Seat(n as u8))
        } else {
            Err(ApiError::WrongSeat(format!(
                "seat {n} is not at this {players}-player table (seats 0 to {})",
                players - 1
            )))
        }
    }

    /// Applies a person's action for `seat` (a name such as `draw:sand-deck`, or an index), then
    /// lets the agents play until a person must act or the game ends. Nothing changes on error.
    pub fn act(&mut self, seat: Seat, action: &str) -> Result<(), ApiError> {
        if let Player::Agent { spec } = &self.seats.players[seat.index()] {
            return Err(ApiError::WrongSeat(format!(
                "seat {} is played by agent `{spec}`; only seats created as `human` take actions",
                seat.0
            )));
        }
        let state = self.state();
        if state.is_terminal() {
            return Err(ApiError::Conflict(format!("game `{}` is over; no more actions are taken", self.id)));
        }
        let legal = state.legal_mask();
        match state.current_player() {
            Some(actor) if actor == seat => {}
            Some(actor) => {
                return Err(ApiError::Conflict(format!("it is seat {}'s decision, not seat {}'s", actor.0, seat.0)));
            }
            None => return Err(ApiError::Conflict(format!("game `{}` has no pending decision", self.id))),
        }
        let Some(parsed) = Action::parse(action) else {
            return Err(ApiError::BadRequest(format!(
                "action: unknown action `{action}`; legal now: {}",
                legal_names(legal).join(", ")
            )));
        };
        if !legal.contains(parsed) {
            return Err(ApiError::Conflict(format!(
                "action `{parsed}` is not legal now; legal now: {}",
                legal_names(legal).join(", ")
            )));
        }
        self.seats.queued = Some(parsed);
        let stepped = self.driver.step(&mut self.seats);
        self.seats.queued = None;
        stepped.map_err(|e| driver_error(e, &self.seats.players))?;
        self.run_agents()
    }

    /// Plays agents' turns until a person must act or the game ends. An agent that fails or
    /// answers an illegal action stops the game there with an error; the state stays valid.
    fn run_agents(&mut self) -> Result<(), ApiError> {
        while let Some(actor) = self.state().current_player() {
            if matches!(self.seats.players[actor.index()], Player::Human) {
                return Ok(());
            }
            self.driver.step(&mut self.seats).map_err(|e| driver_error(e, &self.seats.players))?;
        }
        Ok(())
    }

    /// Who plays each seat: `human` or the agent's canonical spec.
    fn seats_json(&self) -> Value {
        Value::Array(
            self.seats.players.iter().enumerate().map(|(i, p)| json!({ "seat": i, "player": p.spec() })).collect(),
        )
    }

    fn status(&self) -> &'static str {
        if self.state().is_truncated() {
            "truncated"
        } else if self.state().is_terminal() {
            "over"
        } else {
            "playing"
        }
    }

    /// What `seat` may know: its player view, its legal actions when it is its decision, the
    /// public event log from `since`, and its outcome.
    pub fn view_json(&self, seat: Seat, since: usize) -> Value {
        let state = self.state();
        let view = state.view(seat);
        let legal: Vec<Value> = if view.is_my_turn() {
            state.legal_mask().actions().map(|a| json!({ "index": a.index(), "name": a.name() })).collect()
        } else {
            Vec::new()
        };
        let events = state.events();
        let since = since.min(events.len());
        json!({
            "game": self.id,
            "seat": seat.0,
            "seats": self.seats_json(),
            "status": self.status(),
            "step": self.seats.history.len(),
            "human_turn": state.current_player().is_some_and(|a| matches!(self.seats.players[a.index()], Player::Human)),
            "view": view,
            "legal": legal,
            "events_from": since,
            "events": &events[since..],
            "outcome": outcome_json(state.outcome(seat)),
        })
    }

    /// The view and legal actions of `seat`, for advice; a conflict when it has no decision.
    pub fn decision_of(&self, seat: Seat) -> Result<(engine::PlayerView, ActionMask, u64), ApiError> {
        let state = self.state();
        if state.current_player() != Some(seat) {
            return Err(ApiError::Conflict(format!("seat {} has no decision to advise on now", seat.0)));
        }
        Ok((state.view(seat), state.legal_mask(), derive_seed(self.seed, self.seats.history.len() as u64)))
    }

    fn finished(&self) -> Result<(), ApiError> {
        if self.is_over() {
            Ok(())
        } else {
            Err(ApiError::Conflict(format!(
                "game `{}` is still being played; its replay (with every hand) is available once it is over",
                self.id
            )))
        }
    }

    /// The full record of a finished game: rules, seed, seats, every action, the public log and
    /// every seat's final cards. Loading rules + seed and applying the actions gives the game.
    pub fn replay_json(&self) -> Result<Value, ApiError> {
        self.finished()?;
        let state = self.state();
        let history = &self.seats.history;
        let n = self.seats.players.len();
        let hands: Vec<Value> = (0..n).map(|i| json!(state.player(Seat(i as u8)).hand)).collect();
        let outcomes: Vec<Value> = (0..n).map(|i| outcome_json(state.outcome(Seat(i as u8)))).collect();
        Ok(json!({
            "game": self.id,
            "seed": self.seed,
            "rules": state.config(),
            "seats": self.seats_json(),
            "status": self.status(),
            "steps": history.len(),
            "actions": history.iter().map(|s| json!({ "seat": s.seat.0, "action": s.action.name() })).collect::<Vec<_>>(),
            "events": state.events(),
            "final_hands": hands,
            "outcomes": outcomes,
            "winners": state.winners(),
        }))
    }

    /// A finished game at `step` (0 = the deal, `steps` = the end): every seat's view, the next
    /// action, the public log so far, and the position as a scenario (`null` where a scenario
    /// cannot describe it: token choice, Impostor dice, the end).
    pub fn replay_step_json(&self, step: usize) -> Result<Value, ApiError> {
        self.finished()?;
        let history = &self.seats.history;
        if step > history.len() {
            return Err(ApiError::BadRequest(format!(
                "step {step} is outside this game's steps 0 to {}",
                history.len()
            )));
        }
        // Rebuilt by the driver from the deal and the recorded actions.
        let config = EnvConfig { rules: *self.state().config(), event_log: true, ..EnvConfig::default() };
        let mut replay = Replay { start: Some(GameStart::deal(config, self.seed)), actions: &history[..step], next: 0 };
        let mut driver = Driver::new(1);
        let rebuilt = (|| {
            driver.start(&mut replay)?;
            while replay.next < step {
                driver.step(&mut replay)?;
            }
            Ok(())
        })();
        rebuilt.map_err(|e: DriverError<ApiError>| {
            ApiError::Agent(format!(
                "replay of `{}` cannot be rebuilt: {}",
                self.id,
                driver_error(e, &self.seats.players)
            ))
        })?;
        let state = driver.state(0).expect("started above");
        let n = self.seats.players.len();
        let views: Vec<Value> = (0..n).map(|i| json!(state.view(Seat(i as u8)))).collect();
        let next = history.get(step).map(|s| json!({ "seat": s.seat.0, "action": s.action.name() }));
        Ok(json!({
            "game": self.id,
            "step": step,
            "steps": history.len(),
            "seats": self.seats_json(),
            "next": next,
            "views": views,
            "events": state.events(),
            "scenario": Scenario::from_state(state, derive_seed(self.seed, step as u64)),
        }))
    }
}

/// The legal actions' names.
fn legal_names(legal: ActionMask) -> Vec<String> {
    legal.actions().map(|a| a.name()).collect()
}

fn outcome_json(o: Outcome) -> Value {
    json!(o)
}
