//! One game on the server: the engine's [`State`], who plays each seat (a person or an agent
//! built by the agents layer), and the actions taken so far, from which any earlier step is
//! rebuilt for replays.
//!
//! Everything sent about a live game is built from the engine's [`engine::PlayerView`] of the
//! asking seat and the public event log, never from the full state, so no response can carry a
//! card that seat may not see.

use crate::error::ApiError;
use crate::wire::{self, CreateGame};
use agents::Agents;
use engine::{Action, ActionMask, MAX_PLAYERS, Outcome, RuleConfig, Scenario, Seat, State, derive_seed};
use env::{Agent, AgentRng};
use rand::SeedableRng;
use serde_json::{Value, json};

/// The spec text of a seat played by a person.
pub const HUMAN: &str = "human";

/// Stream ids for [`derive_seed`], so the deal and each agent's randomness never share a seed.
const AGENT_STREAM: u64 = 0x5EA7;

/// Who plays a seat.
enum Player {
    /// A person, acting through the API.
    Human,
    /// An agent, acting on its own turns.
    Agent {
        /// The spec it was built from.
        spec: String,
        agent: Box<dyn Agent>,
        rng: AgentRng,
    },
}

impl Player {
    fn spec(&self) -> &str {
        match self {
            Player::Human => HUMAN,
            Player::Agent { spec, .. } => spec,
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

/// A game held by the server.
pub struct Game {
    id: String,
    seed: u64,
    state: State,
    players: Vec<Player>,
    history: Vec<Step>,
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
            let rng = AgentRng::seed_from_u64(derive_seed(seed ^ AGENT_STREAM, i as u64));
            players.push(Player::Agent { spec: parsed.to_string(), agent, rng });
        }
        let state = State::new(config, seed).map_err(|e| ApiError::BadRequest(format!("rules.{e}")))?;
        let mut game = Game { id, seed, state, players, history: Vec::new() };
        game.run_agents()?;
        Ok((game, warnings))
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The engine state (for tests that compare responses with the engine's own views).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Whether the game has ended (won or truncated).
    pub fn is_over(&self) -> bool {
        self.state.is_terminal()
    }

    /// The seat numbered `n`, if it is at the table.
    pub fn seat(&self, n: i64) -> Result<Seat, ApiError> {
        let players = self.players.len() as i64;
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
        if let Player::Agent { spec, .. } = &self.players[seat.index()] {
            return Err(ApiError::WrongSeat(format!(
                "seat {} is played by agent `{spec}`; only seats created as `human` take actions",
                seat.0
            )));
        }
        if self.state.is_terminal() {
            return Err(ApiError::Conflict(format!("game `{}` is over; no more actions are taken", self.id)));
        }
        let legal = self.state.legal_mask();
        match self.state.current_player() {
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
        self.state.apply(parsed).map_err(|e| ApiError::Conflict(format!("action `{parsed}`: {e}")))?;
        self.history.push(Step { seat, action: parsed });
        self.run_agents()
    }

    /// Plays agents' turns until a person must act or the game ends. An agent that fails or
    /// answers an illegal action stops the game there with an error; the state stays valid.
    fn run_agents(&mut self) -> Result<(), ApiError> {
        while let Some(actor) = self.state.current_player() {
            let Player::Agent { spec, agent, rng } = &mut self.players[actor.index()] else { return Ok(()) };
            let view = self.state.view(actor);
            let legal = self.state.legal_mask();
            let action = agent.act(&view, legal, rng).map_err(|e| ApiError::Agent(format!("seat {}: {e}", actor.0)))?;
            self.state
                .apply(action)
                .map_err(|e| ApiError::Agent(format!("seat {}: agent `{spec}` played `{action}`: {e}", actor.0)))?;
            self.history.push(Step { seat: actor, action });
        }
        Ok(())
    }

    /// Who plays each seat: `human` or the agent's canonical spec.
    fn seats_json(&self) -> Value {
        Value::Array(self.players.iter().enumerate().map(|(i, p)| json!({ "seat": i, "player": p.spec() })).collect())
    }

    fn status(&self) -> &'static str {
        if self.state.is_truncated() {
            "truncated"
        } else if self.state.is_terminal() {
            "over"
        } else {
            "playing"
        }
    }

    /// What `seat` may know: its player view, its legal actions when it is its decision, the
    /// public event log from `since`, and its outcome.
    pub fn view_json(&self, seat: Seat, since: usize) -> Value {
        let view = self.state.view(seat);
        let legal: Vec<Value> = if view.is_my_turn() {
            self.state.legal_mask().actions().map(|a| json!({ "index": a.index(), "name": a.name() })).collect()
        } else {
            Vec::new()
        };
        let events = self.state.events();
        let since = since.min(events.len());
        json!({
            "game": self.id,
            "seat": seat.0,
            "seats": self.seats_json(),
            "status": self.status(),
            "step": self.history.len(),
            "human_turn": self.state.current_player().is_some_and(|a| matches!(self.players[a.index()], Player::Human)),
            "view": view,
            "legal": legal,
            "events_from": since,
            "events": &events[since..],
            "outcome": outcome_json(self.state.outcome(seat)),
        })
    }

    /// The view and legal actions of `seat`, for advice; a conflict when it has no decision.
    pub fn decision_of(&self, seat: Seat) -> Result<(engine::PlayerView, ActionMask, u64), ApiError> {
        if self.state.current_player() != Some(seat) {
            return Err(ApiError::Conflict(format!("seat {} has no decision to advise on now", seat.0)));
        }
        Ok((self.state.view(seat), self.state.legal_mask(), derive_seed(self.seed, self.history.len() as u64)))
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
        let n = self.players.len();
        let hands: Vec<Value> = (0..n).map(|i| json!(self.state.player(Seat(i as u8)).hand)).collect();
        let outcomes: Vec<Value> = (0..n).map(|i| outcome_json(self.state.outcome(Seat(i as u8)))).collect();
        Ok(json!({
            "game": self.id,
            "seed": self.seed,
            "rules": self.state.config(),
            "seats": self.seats_json(),
            "status": self.status(),
            "steps": self.history.len(),
            "actions": self.history.iter().map(|s| json!({ "seat": s.seat.0, "action": s.action.name() })).collect::<Vec<_>>(),
            "events": self.state.events(),
            "final_hands": hands,
            "outcomes": outcomes,
            "winners": self.state.winners(),
        }))
    }

    /// A finished game at `step` (0 = the deal, `steps` = the end): every seat's view, the next
    /// action, the public log so far, and the position as a scenario (`null` where a scenario
    /// cannot describe it: token choice, Impostor dice, the end).
    pub fn replay_step_json(&self, step: usize) -> Result<Value, ApiError> {
        self.finished()?;
        if step > self.history.len() {
            return Err(ApiError::BadRequest(format!(
                "step {step} is outside this game's steps 0 to {}",
                self.history.len()
            )));
        }
        let mut state = State::new(*self.state.config(), self.seed)
            .map_err(|e| ApiError::Agent(format!("replay of `{}` cannot be rebuilt: {e}", self.id)))?;
        for s in &self.history[..step] {
            state
                .apply(s.action)
                .map_err(|e| ApiError::Agent(format!("replay of `{}` diverged at {}: {e}", self.id, s.action)))?;
        }
        let n = self.players.len();
        let views: Vec<Value> = (0..n).map(|i| json!(state.view(Seat(i as u8)))).collect();
        let next = self.history.get(step).map(|s| json!({ "seat": s.seat.0, "action": s.action.name() }));
        Ok(json!({
            "game": self.id,
            "step": step,
            "steps": self.history.len(),
            "seats": self.seats_json(),
            "next": next,
            "views": views,
            "events": state.events(),
            "scenario": Scenario::from_state(&state, derive_seed(self.seed, step as u64)),
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
