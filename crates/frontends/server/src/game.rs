//! One game on the server: the game (either registered game, [`env::Game`]), stepped by the one
//! game loop ([`env::Driver`]), who plays each seat (a person or an agent built by the agents
//! layer), and the actions taken so far, from which any earlier step is rebuilt for replays.
//!
//! A person's action is queued and played by the driver like an agent's, so legality is checked
//! in one place and an agent that fails or answers an illegal action leaves the game as it was.
//!
//! Everything sent about a live game is built from the asking seat's view ([`env::Game::view`])
//! and the event log as that seat sees it ([`env::Game::events_seen_by`]), never from the full
//! state, so no response can carry a card that seat may not see.
//!
//! [`Match`] is generic over the game; the store holds it behind the object-safe [`Table`], and
//! [`Game::create`] is the one place that picks the game from a request.

use crate::error::ApiError;
use crate::wire::{self, CreateGame};
use agents::{Advice, AdviceError, Agents, ForGame, GameAgents, for_game};
use kessel::{MAX_PLAYERS, Seat, derive_seed};
use env::{
    AgentTable, Controller, Driver, DriverError, GameAction, GameConfig, GameId, GameStart, LegalMask, Pending,
    StepEvent,
};
use serde_json::{Value, json};
use std::any::Any;

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
        /// The spec it was built from, as the agents layer writes it.
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
struct Step<A> {
    seat: Seat,
    action: A,
}

/// The driver's controller for a game: the deal, a person's queued action, the agents, and the
/// record of every action.
struct Seats<G: env::Game> {
    start: Option<GameStart<G>>,
    players: Vec<Player>,
    table: AgentTable<G>,
    queued: Option<G::Action>,
    history: Vec<Step<G::Action>>,
}

impl<G: env::Game> Controller<G> for Seats<G> {
    type Error = ApiError;

    fn next_game(&mut self, _row: usize) -> Result<Option<GameStart<G>>, ApiError> {
        Ok(self.start.take())
    }

    fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), ApiError> {
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

    fn stepped(&mut self, e: &StepEvent<'_, G>) -> Result<(), ApiError> {
        self.history.push(Step { seat: e.seat, action: e.action });
        Ok(())
    }
}

/// Replays recorded actions through the driver (replay steps).
struct Replay<'a, G: env::Game> {
    start: Option<GameStart<G>>,
    actions: &'a [Step<G::Action>],
    next: usize,
}

impl<G: env::Game> Controller<G> for Replay<'_, G> {
    type Error = ApiError;

    fn next_game(&mut self, _row: usize) -> Result<Option<GameStart<G>>, ApiError> {
        Ok(self.start.take())
    }

    fn decide(&mut self, _pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), ApiError> {
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

/// The action `text` names in game `G`: an action name (`draw:sand-deck`, `bet:3`) or an index.
fn parse_action<G: env::Game>(text: &str) -> Option<G::Action> {
    let t = text.trim();
    let index = t.parse::<usize>().ok().or_else(|| (0..G::SPEC.num_actions).find(|&i| G::action_name(i) == t))?;
    G::Action::from_index(index)
}

/// The legal actions' names.
fn legal_names<G: env::Game>(legal: G::Mask) -> Vec<&'static str> {
    legal.index_list().into_iter().map(G::action_name).collect()
}

/// A seat's result, the same words for every game: `in-progress`, `won`,
/// `{"shared-win": {"of": k}}`, `lost`, `truncated`.
fn outcome_json<G: env::Game>(state: &G::State, seat: Seat) -> Value {
    if !G::is_terminal(state) {
        return json!("in-progress");
    }
    if G::is_truncated(state) {
        return json!("truncated");
    }
    let winners = G::winners(state);
    match (winners.contains(seat), winners.len()) {
        (false, _) => json!("lost"),
        (true, 1) => json!("won"),
        (true, k) => json!({ "shared-win": { "of": k } }),
    }
}

/// A game of `G` held by the server (see the module documentation).
pub struct Match<G: env::Game> {
    id: String,
    seed: u64,
    driver: Driver<G>,
    seats: Seats<G>,
    /// Set when an agent failed on its turn: the game stays at that decision for good, and
    /// every response says why (`status: "agent-failed"`, `failure`).
    failure: Option<Failure>,
}

/// An agent's failure that stopped a game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
struct Failure {
    seat: u8,
    agent: String,
    message: String,
}

impl<G: env::Game> Match<G>
where
    Agents: GameAgents<G>,
{
    /// Deals a game for `request` (see [`Game::create`]).
    fn create(
        id: String,
        request: &CreateGame,
        default_seed: u64,
        agents: &Agents,
    ) -> Result<(Match<G>, Vec<String>), ApiError> {
        let n = request.seats.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(ApiError::BadRequest(format!(
                "seats: a table has 2 to {MAX_PLAYERS} seats, got {n}; list one entry per seat, `human` or an agent spec"
            )));
        }
        let rules = match &request.rules {
            None => G::rules_with_players(n as u8),
            Some(given) => {
                let mut rules: G::Rules = wire::parse_value(given.clone(), "rules")?;
                if given.get("players").is_some() && G::players(&rules) as usize != n {
                    return Err(ApiError::BadRequest(format!(
                        "rules.players = {} but {n} seats were listed; give the table size once",
                        G::players(&rules)
                    )));
                }
                G::set_players(&mut rules, n as u8);
                rules
            }
        };
        let seed = request.seed.unwrap_or(default_seed);
        // The rules are validated here, before any agent is built (the message names the field).
        G::new_state(&rules, seed).map_err(|e| ApiError::BadRequest(format!("rules.{e}")))?;
        let mut seated = Vec::with_capacity(n);
        let mut warnings = Vec::new();
        for (i, spec) in request.seats.iter().enumerate() {
            if spec.trim() == HUMAN {
                seated.push(None);
                continue;
            }
            let s = agents.seat(spec, &rules).map_err(|e| ApiError::BadRequest(format!("seats[{i}]: {e}")))?;
            warnings.extend(s.warnings);
            seated.push(Some((s.spec, s.agent)));
        }
        Ok((Match::deal(id, rules, seed, seated)?, warnings))
    }
}

/// An agent at a seat, with the spec shown for it.
type SeatedAgent<G> = (String, Box<dyn env::Agent<G>>);

impl<G: env::Game> Match<G> {
    /// Deals a game under `rules` from `seed`, each seat a person (`None`) or an agent with the
    /// spec to show for it; agents whose turn comes first play at once.
    fn deal(id: String, rules: G::Rules, seed: u64, seated: Vec<Option<SeatedAgent<G>>>) -> Result<Match<G>, ApiError> {
        let n = seated.len();
        let mut players = Vec::with_capacity(n);
        let mut built = Vec::new();
        let mut seating = vec![0; n];
        for (i, s) in seated.into_iter().enumerate() {
            match s {
                None => players.push(Player::Human),
                Some((spec, agent)) => {
                    seating[i] = built.len();
                    built.push(agent);
                    players.push(Player::Agent { spec });
                }
            }
        }
        let rng_seeds: Vec<u64> = (0..n).map(|i| derive_seed(seed ^ AGENT_STREAM, i as u64)).collect();
        let mut table = AgentTable::new(built, 1);
        table.seat(0, &seating, &rng_seeds);
        let config = GameConfig::<G> { rules, event_log: true, reward: Default::default() };
        let mut game = Match {
            id,
            seed,
            failure: None,
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
        Ok(game)
    }
}

impl<G: env::Game> Match<G> {
    /// The state of the game (dealt when the match is created).
    fn state(&self) -> &G::State {
        self.driver.state(0).expect("a game is dealt when it is created")
    }

    /// Plays agents' turns until a person must act or the game ends. An agent that fails or
    /// answers an illegal action stops the game there for good: the state stays valid, the
    /// failure is recorded (every later response reports it) and returned.
    fn run_agents(&mut self) -> Result<(), ApiError> {
        while let Some(actor) = G::current_player(self.state()) {
            let Player::Agent { spec } = &self.seats.players[actor.index()] else { return Ok(()) };
            let spec = spec.clone();
            if let Err(e) = self.driver.step(&mut self.seats) {
                let e = driver_error(e, &self.seats.players);
                self.failure = Some(Failure { seat: actor.0, agent: spec, message: e.to_string() });
                return Err(e);
            }
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
        if self.failure.is_some() {
            "agent-failed"
        } else if G::is_truncated(self.state()) {
            "truncated"
        } else if G::is_terminal(self.state()) {
            "over"
        } else {
            "playing"
        }
    }

    fn finished(&self) -> Result<(), ApiError> {
        if G::is_terminal(self.state()) {
            Ok(())
        } else {
            Err(ApiError::Conflict(format!(
                "game `{}` is still being played; its replay (with every hand) is available once it is over",
                self.id
            )))
        }
    }

    /// Every seat's cards, read from each seat's own view (the game is over, so a replay may
    /// show them all).
    fn hands(state: &G::State, n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| serde_json::to_value(G::view(state, Seat(i as u8))).map_or(Value::Null, |v| v["hand"].clone()))
            .collect()
    }
}

/// A held game whatever its rules: what the routes need, object-safe so that the store holds
/// either game. Implemented by [`Match`] for every registered game.
pub trait Table: Send {
    /// Which game this is.
    fn kind(&self) -> GameId;
    /// The game's id.
    fn id(&self) -> &str;
    /// Seats at the table.
    fn players(&self) -> usize;
    /// Whether the game has ended (won or truncated).
    fn is_over(&self) -> bool;
    /// Whether an agent's failure stopped the game.
    fn has_failed(&self) -> bool;
    /// The seat whose decision it is.
    fn current_player(&self) -> Option<Seat>;
    /// Entries in the event log so far.
    fn event_count(&self) -> usize;
    /// Applies a person's action for `seat`, then lets the agents play (see [`Game::act`]).
    fn act(&mut self, seat: Seat, action: &str) -> Result<(), ApiError>;
    /// What `seat` may know (see [`Game::view_json`]).
    fn view_json(&self, seat: Seat, since: usize) -> Value;
    /// What anyone may know (see [`Game::spectator_json`]).
    fn spectator_json(&self, since: usize) -> Value;
    /// Whether a person plays `seat`.
    fn is_human(&self, seat: Seat) -> bool;
    /// Who plays `seat`: `human` or the agent's spec.
    fn player(&self, seat: Seat) -> &str;
    /// `seat`'s decision, ready to be put to an agent once the game's lock is released (search
    /// can take a while); a conflict when the seat has none.
    fn decision(&self, seat: Seat) -> Result<Decision, ApiError>;
    /// The full record of a finished game.
    fn replay_json(&self) -> Result<Value, ApiError>;
    /// A finished game at `step`.
    fn replay_step_json(&self, step: usize) -> Result<Value, ApiError>;
    /// The match itself, for tests that compare responses with the engine's state.
    fn as_any(&self) -> &dyn Any;
}

impl<G: env::Game> Table for Match<G>
where
    Agents: GameAgents<G>,
{
    fn kind(&self) -> GameId {
        GameId::of::<G>()
    }

    fn id(&self) -> &str {
        &self.id
    }

    fn players(&self) -> usize {
        self.seats.players.len()
    }

    fn is_over(&self) -> bool {
        G::is_terminal(self.state())
    }

    fn has_failed(&self) -> bool {
        self.failure.is_some()
    }

    fn current_player(&self) -> Option<Seat> {
        G::current_player(self.state())
    }

    fn event_count(&self) -> usize {
        G::event_count(self.state())
    }

    fn act(&mut self, seat: Seat, action: &str) -> Result<(), ApiError> {
        if let Player::Agent { spec } = &self.seats.players[seat.index()] {
            return Err(ApiError::WrongSeat(format!(
                "seat {} is played by agent `{spec}`; only seats created as `human` take actions",
                seat.0
            )));
        }
        if let Some(f) = &self.failure {
            return Err(ApiError::Conflict(format!(
                "game `{}` stopped when agent `{}` at seat {} failed ({}); start a new game",
                self.id, f.agent, f.seat, f.message
            )));
        }
        let state = self.state();
        if G::is_terminal(state) {
            return Err(ApiError::Conflict(format!("game `{}` is over; no more actions are taken", self.id)));
        }
        let legal = G::legal_mask(state);
        match G::current_player(state) {
            Some(actor) if actor == seat => {}
            Some(actor) => {
                return Err(ApiError::Conflict(format!("it is seat {}'s decision, not seat {}'s", actor.0, seat.0)));
            }
            None => return Err(ApiError::Conflict(format!("game `{}` has no pending decision", self.id))),
        }
        let Some(parsed) = parse_action::<G>(action) else {
            return Err(ApiError::BadRequest(format!(
                "action: unknown action `{action}`; legal now: {}",
                legal_names::<G>(legal).join(", ")
            )));
        };
        if !legal.contains_index(parsed.index()) {
            return Err(ApiError::Conflict(format!(
                "action `{}` is not legal now; legal now: {}",
                G::action_name(parsed.index()),
                legal_names::<G>(legal).join(", ")
            )));
        }
        self.seats.queued = Some(parsed);
        let stepped = self.driver.step(&mut self.seats);
        self.seats.queued = None;
        stepped.map_err(|e| driver_error(e, &self.seats.players))?;
        self.run_agents()
    }

    fn view_json(&self, seat: Seat, since: usize) -> Value {
        let state = self.state();
        let view = G::view(state, seat);
        let actor = G::current_player(state);
        let legal: Vec<Value> = if actor == Some(seat) {
            G::legal_mask(state)
                .index_list()
                .into_iter()
                .map(|i| json!({ "index": i, "name": G::action_name(i) }))
                .collect()
        } else {
            Vec::new()
        };
        let since = since.min(G::event_count(state));
        json!({
            "game": self.id,
            "kind": G::SPEC.game,
            "seat": seat.0,
            "seats": self.seats_json(),
            "status": self.status(),
            "step": self.seats.history.len(),
            "human_turn": actor.is_some_and(|a| matches!(self.seats.players[a.index()], Player::Human)),
            "view": view,
            "legal": legal,
            "events_from": since,
            "events": G::events_seen_by(state, Some(seat), since),
            "outcome": outcome_json::<G>(state, seat),
            "failure": self.failure,
        })
    }

    fn spectator_json(&self, since: usize) -> Value {
        let state = self.state();
        let actor = G::current_player(state);
        let since = since.min(G::event_count(state));
        let n = self.seats.players.len();
        json!({
            "game": self.id,
            "kind": G::SPEC.game,
            "seat": null,
            "spectator": true,
            "seats": self.seats_json(),
            "status": self.status(),
            "step": self.seats.history.len(),
            "actor": actor.map(|a| a.0),
            "human_turn": actor.is_some_and(|a| matches!(self.seats.players[a.index()], Player::Human)),
            "events_from": since,
            "events": G::events_seen_by(state, None, since),
            "outcomes": (0..n).map(|i| outcome_json::<G>(state, Seat(i as u8))).collect::<Vec<_>>(),
            "failure": self.failure,
        })
    }

    fn is_human(&self, seat: Seat) -> bool {
        matches!(self.seats.players.get(seat.index()), Some(Player::Human))
    }

    fn player(&self, seat: Seat) -> &str {
        self.seats.players.get(seat.index()).map_or("?", Player::spec)
    }

    fn decision(&self, seat: Seat) -> Result<Decision, ApiError> {
        let state = self.state();
        if G::current_player(state) != Some(seat) {
            return Err(ApiError::Conflict(format!("seat {} has no decision to advise on now", seat.0)));
        }
        let seed = derive_seed(self.seed, self.seats.history.len() as u64);
        let (view, legal) = (G::view(state, seat), G::legal_mask(state));
        Ok(Decision(Box::new(move |agents: &Agents, spec: &str| advice_json::<G>(agents, spec, &view, legal, seed))))
    }

    fn replay_json(&self) -> Result<Value, ApiError> {
        self.finished()?;
        let state = self.state();
        let history = &self.seats.history;
        let n = self.seats.players.len();
        let outcomes: Vec<Value> = (0..n).map(|i| outcome_json::<G>(state, Seat(i as u8))).collect();
        Ok(json!({
            "game": self.id,
            "kind": G::SPEC.game,
            "seed": self.seed,
            "rules": G::rules(state),
            "seats": self.seats_json(),
            "status": self.status(),
            "steps": history.len(),
            "actions": history.iter().map(|s| json!({ "seat": s.seat.0, "action": G::action_name(s.action.index()) })).collect::<Vec<_>>(),
            "events": G::events_seen_by(state, None, 0),
            "final_hands": Self::hands(state, n),
            "outcomes": outcomes,
            "winners": G::winners(state),
        }))
    }

    fn replay_step_json(&self, step: usize) -> Result<Value, ApiError> {
        self.finished()?;
        let history = &self.seats.history;
        if step > history.len() {
            return Err(ApiError::BadRequest(format!(
                "step {step} is outside this game's steps 0 to {}",
                history.len()
            )));
        }
        // Rebuilt by the driver from the deal and the recorded actions.
        let config = GameConfig::<G> { rules: *G::rules(self.state()), event_log: true, reward: Default::default() };
        let mut replay = Replay { start: Some(GameStart::deal(config, self.seed)), actions: &history[..step], next: 0 };
        let mut driver = Driver::<G>::new(1);
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
        let views: Vec<Value> = (0..n).map(|i| json!(G::view(state, Seat(i as u8)))).collect();
        let next = history.get(step).map(|s| json!({ "seat": s.seat.0, "action": G::action_name(s.action.index()) }));
        Ok(json!({
            "game": self.id,
            "kind": G::SPEC.game,
            "step": step,
            "steps": history.len(),
            "seats": self.seats_json(),
            "next": next,
            "views": views,
            "events": G::events_seen_by(state, None, 0),
            "scenario": G::scenario(state, derive_seed(self.seed, step as u64)),
        }))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Asks `spec` about `view` with legal actions `legal`, as JSON; `seed` drives any randomness.
pub fn advice_json<G: env::Game>(
    agents: &Agents,
    spec: &str,
    view: &G::View,
    legal: G::Mask,
    seed: u64,
) -> Result<Value, ApiError>
where
    Agents: GameAgents<G>,
{
    let seat = G::viewer(view).0;
    let named = |a: G::Action| (a.index(), G::action_name(a.index()));
    let advice = agents.advise(spec, view, legal, seed).map_err(|e| match e {
        AdviceError::Spec(e) => ApiError::BadRequest(format!("agent: {e}")),
        AdviceError::Agent(e) => ApiError::Agent(e.to_string()),
    })?;
    let agent = agents.spec_name(spec);
    Ok(match advice {
        Advice::Policy { probabilities, value } => {
            let actions: Vec<Value> = probabilities
                .into_iter()
                .map(|(a, p)| {
                    let (index, name) = named(a);
                    json!({ "index": index, "name": name, "probability": p })
                })
                .collect();
            json!({ "agent": agent, "seat": seat, "kind": "policy", "actions": actions, "value": value })
        }
        Advice::Search { values } => {
            let actions: Vec<Value> = values
                .into_iter()
                .map(|(a, v)| {
                    let (index, name) = named(a);
                    json!({ "index": index, "name": name, "value": v })
                })
                .collect();
            json!({ "agent": agent, "seat": seat, "kind": "search", "actions": actions })
        }
        Advice::Bot { choice } => {
            let (index, name) = named(choice);
            json!({ "agent": agent, "seat": seat, "kind": "bot", "choice": { "index": index, "name": name } })
        }
    })
}

/// One seat's decision, with what that seat may see: [`Decision::ask`] puts it to an agent.
pub struct Decision(Box<Ask>);

/// Asks an agent (its spec) about one decision.
type Ask = dyn FnOnce(&Agents, &str) -> Result<Value, ApiError> + Send;

impl Decision {
    /// The advice of agent `spec`, as JSON.
    pub fn ask(self, agents: &Agents, spec: &str) -> Result<Value, ApiError> {
        (self.0)(agents, spec)
    }
}

/// A game held by the server: a match of whichever game its request named, and the secret of
/// each seat a person plays (`None` for agents' seats).
pub struct Game {
    table: Box<dyn Table>,
    secrets: Vec<Option<String>>,
}

impl Game {
    /// Deals a game for `request`: the game named by `request.game` (Kessel by default), seats
    /// `human` or agent specs (parsed and built by the agents layer), the rules defaulting to
    /// the standard ones at that table size. Returns the game and warnings about agents playing
    /// at a table they were not trained for. Agents whose turn comes first play at once.
    pub fn create(
        id: String,
        request: &CreateGame,
        default_seed: u64,
        agents: &Agents,
    ) -> Result<(Game, Vec<String>), ApiError> {
        struct Create<'a> {
            id: String,
            request: &'a CreateGame,
            default_seed: u64,
            agents: &'a Agents,
        }
        impl ForGame for Create<'_> {
            type Out = Result<(Game, Vec<String>), ApiError>;
            fn run<G: env::Game>(self) -> Self::Out
            where
                Agents: GameAgents<G>,
            {
                let (m, warnings) = Match::<G>::create(self.id, self.request, self.default_seed, self.agents)?;
                let secrets = (0..self.request.seats.len())
                    .map(|i| m.is_human(Seat(i as u8)).then(crate::secret::fresh).transpose())
                    .collect::<Result<_, _>>()?;
                Ok((Game { table: Box::new(m), secrets }, warnings))
            }
        }
        for_game(game_named(request.game.as_deref())?, Create { id, request, default_seed, agents })
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        self.table.id()
    }

    /// Which game it is.
    pub fn kind(&self) -> GameId {
        self.table.kind()
    }

    /// The game's state when it is a game of `G` (tests compare responses with it).
    pub fn state_of<G: env::Game>(&self) -> Option<&G::State> {
        self.table.as_any().downcast_ref::<Match<G>>().map(Match::state)
    }

    /// Whether the game has ended (won or truncated).
    pub fn is_over(&self) -> bool {
        self.table.is_over()
    }

    /// Whether an agent's failure stopped the game for good.
    pub fn has_failed(&self) -> bool {
        self.table.has_failed()
    }

    /// Each person's seat with its secret and the page address that joins it:
    /// `[{seat, token, join}]`. Only the game's creator receives these.
    pub fn secrets_json(&self) -> Value {
        let id = self.id();
        Value::Array(
            self.secrets
                .iter()
                .enumerate()
                .filter_map(|(i, s)| {
                    s.as_ref()
                        .map(|t| json!({ "seat": i, "token": t, "join": format!("/?game={id}&seat={i}#token={t}") }))
                })
                .collect(),
        )
    }

    /// Checks that `presented` is `seat`'s secret: its private view, advice and actions need it.
    pub fn authorize(&self, seat: Seat, presented: Option<&str>) -> Result<(), ApiError> {
        let Some(Some(real)) = self.secrets.get(seat.index()) else {
            return Err(ApiError::WrongSeat(format!(
                "seat {} is played by agent `{}`; only seats created as `human` have a view, advice and actions \
                 for a person (watch the game without a token)",
                seat.0,
                self.table.player(seat)
            )));
        };
        match presented {
            Some(p) if crate::secret::matches(p, real) => Ok(()),
            Some(_) => Err(ApiError::Forbidden(format!(
                "the token sent is not seat {}'s secret; each person's seat has its own (given when the game was created)",
                seat.0
            ))),
            None => Err(ApiError::Forbidden(format!(
                "seat {}'s view, advice and actions need its secret: send `Authorization: Bearer TOKEN` with the \
                 token given for that seat when the game was created",
                seat.0
            ))),
        }
    }

    /// The seat whose secret `presented` is, if any.
    pub fn seat_of(&self, presented: &str) -> Option<Seat> {
        self.secrets
            .iter()
            .position(|s| s.as_deref().is_some_and(|real| crate::secret::matches(presented, real)))
            .map(|i| Seat(i as u8))
    }

    /// What anyone may know of the game: who sits where, whose turn it is, the public event log
    /// from `since`, the status and outcomes; no seat's cards.
    pub fn spectator_json(&self, since: usize) -> Value {
        self.table.spectator_json(since)
    }

    /// The seat whose decision it is, `None` once the game is over.
    pub fn current_player(&self) -> Option<Seat> {
        self.table.current_player()
    }

    /// Entries in the event log so far.
    pub fn event_count(&self) -> usize {
        self.table.event_count()
    }

    /// The seat numbered `n`, if it is at the table.
    pub fn seat(&self, n: i64) -> Result<Seat, ApiError> {
        let players = self.table.players() as i64;
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
        self.table.act(seat, action)
    }

    /// What `seat` may know: its player view, its legal actions when it is its decision, the
    /// event log from `since` as it sees it, and its outcome.
    pub fn view_json(&self, seat: Seat, since: usize) -> Value {
        self.table.view_json(seat, since)
    }

    /// `seat`'s decision, to ask an agent about once the game is unlocked; a conflict when the
    /// seat has none.
    pub fn decision(&self, seat: Seat) -> Result<Decision, ApiError> {
        self.table.decision(seat)
    }

    /// The full record of a finished game: game, rules, seed, seats, every action, the public
    /// log and every seat's final cards. Loading rules + seed and applying the actions gives
    /// the game.
    pub fn replay_json(&self) -> Result<Value, ApiError> {
        self.table.replay_json()
    }

    /// A finished game at `step` (0 = the deal, `steps` = the end): every seat's view, the next
    /// action, the public log so far, and the position as a scenario (`null` where a scenario
    /// cannot describe it).
    pub fn replay_step_json(&self, step: usize) -> Result<Value, ApiError> {
        self.table.replay_step_json(step)
    }
}

/// The game a request names (`kessel`, `classic`, or an environment id), Kessel when it names
/// none.
pub fn game_named(name: Option<&str>) -> Result<GameId, ApiError> {
    name.map_or(Ok(GameId::default()), |n| {
        GameId::parse(n.trim()).map_err(|e| ApiError::BadRequest(format!("game: {e}")))
    })
}

/// The game's name for people (`Kessel Sabacc`, `classic Sabacc`).
pub fn title(kind: GameId) -> &'static str {
    struct Title;
    impl ForGame for Title {
        type Out = &'static str;
        fn run<G: env::Game>(self) -> &'static str
        where
            Agents: GameAgents<G>,
        {
            G::NAME
        }
    }
    for_game(kind, Title)
}

/// Advice on a scenario of game `kind` (`POST /api/ask`): the position is loaded and validated
/// by the game's own scenario format.
pub fn ask_scenario(agents: &Agents, kind: GameId, scenario: &str, spec: &str, seed: u64) -> Result<Value, ApiError> {
    struct Ask<'a> {
        agents: &'a Agents,
        scenario: &'a str,
        spec: &'a str,
        seed: u64,
    }
    impl ForGame for Ask<'_> {
        type Out = Result<Value, ApiError>;
        fn run<G: env::Game>(self) -> Self::Out
        where
            Agents: GameAgents<G>,
        {
            let state = G::load_scenario(self.scenario).map_err(|e| ApiError::BadRequest(format!("scenario: {e}")))?;
            let seat = G::current_player(&state)
                .ok_or_else(|| ApiError::BadRequest("scenario: the position has no pending decision".into()))?;
            advice_json::<G>(self.agents, self.spec, &G::view(&state, seat), G::legal_mask(&state), self.seed)
        }
    }
    for_game(kind, Ask { agents, scenario, spec, seed })
}

#[cfg(test)]
mod tests {
    use super::*;
    use env::{Agent, AgentError, AgentRng, Kessel};

    /// An agent that plays legally `after` times, then fails.
    struct Failing {
        after: usize,
    }

    impl Agent<Kessel> for Failing {
        fn name(&self) -> &str {
            "failing"
        }
        fn act(
            &mut self,
            _view: &kessel::PlayerView,
            legal: kessel::ActionMask,
            _rng: &mut AgentRng,
        ) -> Result<kessel::Action, AgentError> {
            if self.after == 0 {
                return Err(AgentError::new("failing", "the network gave NaN probabilities"));
            }
            self.after -= 1;
            legal.actions().next().ok_or_else(|| AgentError::new("failing", "no legal action"))
        }
    }

    #[test]
    fn an_agent_failing_on_its_turn_stops_the_game_in_a_state_every_response_reports() {
        let rules = kessel::RuleConfig::with_players(2);
        let seated: Vec<Option<SeatedAgent<Kessel>>> =
            vec![None, Some(("failing".into(), Box::new(Failing { after: 2 })))];
        let mut m = Match::<Kessel>::deal("g1".into(), rules, 7, seated).expect("dealt");
        let mut failed = None;
        for _ in 0..50 {
            let Some(actor) = m.current_player() else { break };
            assert_eq!(actor, Seat(0), "agents play their own turns");
            let first = m.state().legal_mask().actions().next().unwrap().name();
            if let Err(e) = m.act(Seat(0), &first) {
                failed = Some(e);
                break;
            }
        }
        let e = failed.expect("the agent failed");
        assert_eq!(e.kind(), "agent-failed");
        assert!(e.to_string().contains("NaN"), "{e}");
        // The state is the one before the failed decision: consistent, the agent to act.
        m.state().check_invariants().expect("consistent");
        assert_eq!(m.current_player(), Some(Seat(1)));
        // Every response says so, and no action is taken any more.
        let v = m.view_json(Seat(0), 0);
        assert_eq!(v["status"], "agent-failed");
        assert_eq!(v["failure"]["seat"], 1);
        assert_eq!(v["failure"]["agent"], "failing");
        assert_eq!(m.spectator_json(0)["status"], "agent-failed");
        let again = m.act(Seat(0), "stand").unwrap_err();
        assert_eq!(again.kind(), "conflict");
        assert!(again.to_string().contains("failing") && again.to_string().contains("new game"), "{again}");
        assert!(m.has_failed());
    }
}
