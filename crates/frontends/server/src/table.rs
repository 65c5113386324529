//! One game on the server: the game (any registered game, behind the object-safe
//! [`game::DynGame`]), who plays each seat (a person or an agent built by the agents layer,
//! [`agents::dynamic`]), and the actions taken so far, from which any earlier step is rebuilt
//! for replays.
//!
//! A person's action and an agent's go through [`Match::apply`], so legality is checked in one
//! place (the game's own `apply`) and an agent that fails or answers an illegal action leaves
//! the game as it was.
//!
//! Everything sent about a live game is built from the asking seat's view
//! ([`game::DynGame::view`]) and the event log as that seat sees it ([`game::DynGame::events`]),
//! never from the full state, so no response can carry a card that seat may not see.

use crate::budget::Budget;
use crate::error::ApiError;
use crate::wire::{CreateGame, HUMAN};
use agents::dynamic::{DynAdvice, DynAgent};
use agents::{AdviceError, Agents};
use game::{AgentRng, DynGame, MAX_PLAYERS, Seat, derive_seed};
use games::GameId;
use rand::SeedableRng;
use serde_json::{Value, json};

/// Stream ids for [`derive_seed`], so the deal and each agent's randomness never share a seed.
const AGENT_STREAM: u64 = 0x5EA7;

/// Who plays a seat.
enum Player {
    /// A person, acting through the API.
    Human,
    /// An agent, acting on its own turns with its own random stream.
    Agent {
        /// The spec it was built from, as the agents layer writes it.
        spec: String,
        /// The agent.
        agent: Box<dyn DynAgent>,
        /// Its random stream.
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
struct Step {
    seat: Seat,
    action: usize,
}

/// A seat's result, the same words for every game: `in-progress`, `won`,
/// `{"shared-win": {"of": k}}`, `lost`, `truncated`.
fn outcome_json(game: &dyn DynGame, seat: Seat) -> Value {
    if !game.is_terminal() {
        return json!("in-progress");
    }
    if game.is_truncated() {
        return json!("truncated");
    }
    let winners = game.winners();
    match (winners.contains(seat), winners.len()) {
        (false, _) => json!("lost"),
        (true, 1) => json!("won"),
        (true, k) => json!({ "shared-win": { "of": k } }),
    }
}

/// An agent's failure that stopped a game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
struct Failure {
    seat: u8,
    agent: String,
    message: String,
}

/// A game held by the server (see the module documentation).
pub struct Match {
    id: String,
    kind: GameId,
    seed: u64,
    /// The game as dealt, for rebuilding replay steps.
    dealt: Box<dyn DynGame>,
    /// The game now.
    game: Box<dyn DynGame>,
    players: Vec<Player>,
    history: Vec<Step>,
    /// Set when an agent failed on its turn: the game stays at that decision for good, and
    /// every response says why (`status: "agent-failed"`, `failure`).
    failure: Option<Failure>,
}

impl Match {
    /// Deals a game of `kind` for `request` (see [`Game::create`]).
    fn create(
        id: String,
        kind: GameId,
        request: &CreateGame,
        default_seed: u64,
        agents: &Agents,
        budget: &Budget,
    ) -> Result<(Match, Vec<String>), ApiError> {
        let n = request.seats.len();
        let (min, max) = kind.game_type().seats();
        let (min, max) = (usize::from(min), usize::from(max).min(MAX_PLAYERS));
        if !(min..=max).contains(&n) {
            return Err(ApiError::BadRequest(format!(
                "seats: a {} table has {min} to {max} seats, got {n}; list one entry per seat, `human` or an agent spec",
                kind.game_type().name()
            )));
        }
        if let Some(given) = request.rules.as_ref().and_then(|r| r.get("players")).and_then(Value::as_u64)
            && given as usize != n
        {
            return Err(ApiError::BadRequest(format!(
                "rules.players = {given} but {n} seats were listed; give the table size once"
            )));
        }
        let seed = request.seed.unwrap_or(default_seed);
        // The rules are validated here, before any agent is built (the message names the field).
        let rules = kind
            .game_type()
            .resolve_rules(request.rules.as_ref(), Some(n as u8))
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let table = agents::dynamic::for_game(kind);
        let mut seated = Vec::with_capacity(n);
        let mut warnings = Vec::new();
        for (i, spec) in request.seats.iter().enumerate() {
            if spec.trim() == HUMAN {
                seated.push(None);
                continue;
            }
            let s = table.seat(agents, spec, &rules).map_err(|e| ApiError::BadRequest(format!("seats[{i}]: {e}")))?;
            warnings.extend(s.warnings);
            seated.push(Some((s.spec, s.agent)));
        }
        Ok((Match::deal(id, kind, &rules, seed, seated, budget)?, warnings))
    }

    /// Deals a game of `kind` under `rules` from `seed`, each seat a person (`None`) or an agent
    /// with the spec to show for it; agents whose turn comes first play at once, within
    /// `budget`.
    fn deal(
        id: String,
        kind: GameId,
        rules: &Value,
        seed: u64,
        seated: Vec<Option<(String, Box<dyn DynAgent>)>>,
        budget: &Budget,
    ) -> Result<Match, ApiError> {
        let mut dealt = kind
            .game_type()
            .new_game(Some(rules), Some(seated.len() as u8), seed)
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        dealt.set_event_logging(true);
        let players = seated
            .into_iter()
            .enumerate()
            .map(|(i, s)| match s {
                None => Player::Human,
                Some((spec, agent)) => Player::Agent {
                    spec,
                    agent,
                    rng: AgentRng::seed_from_u64(derive_seed(seed ^ AGENT_STREAM, i as u64)),
                },
            })
            .collect();
        let game = dealt.clone_game();
        let mut m = Match { id, kind, seed, dealt, game, players, history: Vec::new(), failure: None };
        match m.run_agents(budget) {
            // Out of time: the game is there and the agents go on at its next request.
            Ok(()) | Err(ApiError::TimeLimit(_)) => Ok(m),
            Err(e) => Err(e),
        }
    }

    /// Applies `action` for `seat` and records it; nothing changes when the game refuses it.
    fn apply(&mut self, seat: Seat, action: usize) -> Result<(), game::GameError> {
        self.game.apply(action)?;
        self.history.push(Step { seat, action });
        Ok(())
    }

    /// Plays agents' turns until a person must act or the game ends. An agent that fails or
    /// answers an illegal action stops the game there for good: the state stays valid, the
    /// failure is recorded (every later response reports it) and returned. When `budget` runs
    /// out between two decisions the agents stop where they are, and the next request about
    /// the game goes on from there ([`Match::resume`]).
    fn run_agents(&mut self, budget: &Budget) -> Result<(), ApiError> {
        if self.failure.is_some() {
            return Ok(());
        }
        while let Some(actor) = self.game.current_player() {
            let Player::Agent { spec, agent, rng } = &mut self.players[actor.index()] else { return Ok(()) };
            budget
                .check()
                .map_err(|stop| ApiError::stopped(stop, &format!("the agents' turns in game `{}`", self.id)))?;
            let spec = spec.clone();
            let chosen = agent.act(&*self.game, actor, rng).map_err(|e| e.to_string());
            let applied = chosen.and_then(|a| {
                let name = self.kind.game_type().action_names().get(a).copied().unwrap_or("invalid");
                self.apply(actor, a).map_err(|e| format!("chose `{name}`: {e}"))
            });
            if let Err(message) = applied {
                let e = ApiError::Agent(format!("seat {}: agent `{spec}`: {message}", actor.0));
                self.failure = Some(Failure { seat: actor.0, agent: spec, message: e.to_string() });
                return Err(e);
            }
        }
        Ok(())
    }

    /// Who plays each seat: `human` or the agent's canonical spec, and its name for people.
    fn seats_json(&self) -> Value {
        Value::Array(
            self.players
                .iter()
                .enumerate()
                .map(|(i, p)| json!({ "seat": i, "player": p.spec(), "name": crate::label::of(p.spec()) }))
                .collect(),
        )
    }

    fn status(&self) -> &'static str {
        if self.failure.is_some() {
            "agent-failed"
        } else if self.game.is_truncated() {
            "truncated"
        } else if self.game.is_terminal() {
            "over"
        } else {
            "playing"
        }
    }

    fn finished(&self) -> Result<(), ApiError> {
        if self.game.is_terminal() {
            Ok(())
        } else {
            Err(ApiError::Conflict(format!(
                "game `{}` is still being played; its replay (with every hand) is available once it is over",
                self.id
            )))
        }
    }

    /// The name of action `index`.
    fn action_name(&self, index: usize) -> &'static str {
        self.kind.game_type().action_names().get(index).copied().unwrap_or("invalid")
    }

    /// The names of the legal actions now.
    fn legal_names(&self) -> Vec<&'static str> {
        self.game.legal_actions().into_iter().map(|i| self.action_name(i)).collect()
    }

    /// Which game this is.
    fn kind(&self) -> GameId {
        self.kind
    }

    fn players(&self) -> usize {
        self.players.len()
    }

    fn is_over(&self) -> bool {
        self.game.is_terminal()
    }

    fn has_failed(&self) -> bool {
        self.failure.is_some()
    }

    fn current_player(&self) -> Option<Seat> {
        self.game.current_player()
    }

    fn event_count(&self) -> usize {
        self.game.event_count()
    }

    fn is_human(&self, seat: Seat) -> bool {
        matches!(self.players.get(seat.index()), Some(Player::Human))
    }

    fn player(&self, seat: Seat) -> &str {
        self.players.get(seat.index()).map_or("?", Player::spec)
    }

    fn human_turn(&self) -> bool {
        self.game.current_player().is_some_and(|a| self.is_human(a))
    }

    /// Applies a person's action for `seat` (a name or an index), then lets the agents play.
    fn act(&mut self, seat: Seat, action: &str, budget: &Budget) -> Result<(), ApiError> {
        self.run_agents(budget)?;
        if let Player::Agent { spec, .. } = &self.players[seat.index()] {
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
        if self.game.is_terminal() {
            return Err(ApiError::Conflict(format!("game `{}` is over; no more actions are taken", self.id)));
        }
        match self.game.current_player() {
            Some(actor) if actor == seat => {}
            Some(actor) => {
                return Err(ApiError::Conflict(format!("it is seat {}'s decision, not seat {}'s", actor.0, seat.0)));
            }
            None => return Err(ApiError::Conflict(format!("game `{}` has no pending decision", self.id))),
        }
        let t = action.trim();
        let names = self.kind.game_type().action_names();
        let Some(index) =
            t.parse::<usize>().ok().filter(|&i| i < names.len()).or_else(|| names.iter().position(|n| *n == t))
        else {
            return Err(ApiError::BadRequest(format!(
                "action: unknown action `{action}`; legal now: {}",
                self.legal_names().join(", ")
            )));
        };
        if !self.game.legal_actions().contains(&index) {
            return Err(ApiError::Conflict(format!(
                "action `{}` is not legal now; legal now: {}",
                self.action_name(index),
                self.legal_names().join(", ")
            )));
        }
        self.apply(seat, index).map_err(|e| ApiError::Conflict(e.to_string()))?;
        match self.run_agents(budget) {
            // The person's action is taken; the agents go on at the game's next request.
            Err(ApiError::TimeLimit(_) | ApiError::ClientGone(_)) => Ok(()),
            other => other,
        }
    }

    fn view_json(&self, seat: Seat, since: usize) -> Value {
        let actor = self.game.current_player();
        let legal: Vec<Value> = if actor == Some(seat) {
            self.game.legal_actions().into_iter().map(|i| json!({ "index": i, "name": self.action_name(i) })).collect()
        } else {
            Vec::new()
        };
        let since = since.min(self.game.event_count());
        json!({
            "game": self.id,
            "kind": self.kind.name(),
            "seat": seat.0,
            "seats": self.seats_json(),
            "status": self.status(),
            "step": self.history.len(),
            "actor": actor.map(|a| a.0),
            "human_turn": self.human_turn(),
            "view": self.game.view(seat),
            "text": self.game.render(Some(seat)),
            "legal": legal,
            "events_from": since,
            "events": self.game.events(Some(seat), since),
            "outcome": outcome_json(&*self.game, seat),
            "failure": self.failure,
        })
    }

    fn spectator_json(&self, since: usize) -> Value {
        let actor = self.game.current_player();
        let since = since.min(self.game.event_count());
        let n = self.players.len();
        json!({
            "game": self.id,
            "kind": self.kind.name(),
            "seat": null,
            "spectator": true,
            "seats": self.seats_json(),
            "status": self.status(),
            "step": self.history.len(),
            "actor": actor.map(|a| a.0),
            "human_turn": self.human_turn(),
            "events_from": since,
            "events": self.game.events(None, since),
            "outcomes": (0..n).map(|i| outcome_json(&*self.game, Seat(i as u8))).collect::<Vec<_>>(),
            "failure": self.failure,
        })
    }

    fn decision(&self, seat: Seat) -> Result<Decision, ApiError> {
        if self.game.current_player() != Some(seat) {
            return Err(ApiError::Conflict(format!("seat {} has no decision to advise on now", seat.0)));
        }
        let seed = derive_seed(self.seed, self.history.len() as u64);
        Ok(Decision { kind: self.kind, game: self.game.clone_game(), seat, seed })
    }

    fn replay_json(&self) -> Result<Value, ApiError> {
        self.finished()?;
        let n = self.players.len();
        let outcomes: Vec<Value> = (0..n).map(|i| outcome_json(&*self.game, Seat(i as u8))).collect();
        let hands: Vec<Value> = (0..n).map(|i| self.game.view(Seat(i as u8))["hand"].clone()).collect();
        Ok(json!({
            "game": self.id,
            "kind": self.kind.name(),
            "seed": self.seed,
            "rules": self.game.rules(),
            "seats": self.seats_json(),
            "status": self.status(),
            "steps": self.history.len(),
            "actions": self.history.iter().map(|s| json!({ "seat": s.seat.0, "action": self.action_name(s.action) })).collect::<Vec<_>>(),
            "events": self.game.events(None, 0),
            "final_hands": hands,
            "outcomes": outcomes,
            "winners": self.game.winners(),
        }))
    }

    fn replay_step_json(&self, step: usize) -> Result<Value, ApiError> {
        self.finished()?;
        if step > self.history.len() {
            return Err(ApiError::BadRequest(format!(
                "step {step} is outside this game's steps 0 to {}",
                self.history.len()
            )));
        }
        // Rebuilt from the deal and the recorded actions.
        let mut game = self.dealt.clone_game();
        for s in &self.history[..step] {
            game.apply(s.action)
                .map_err(|e| ApiError::Agent(format!("replay of `{}` cannot be rebuilt: {e}", self.id)))?;
        }
        let n = self.players.len();
        let views: Vec<Value> = (0..n).map(|i| game.view(Seat(i as u8))).collect();
        // Each seat's text rendering: what a page without a drawing of the game shows.
        let texts: Vec<String> = (0..n).map(|i| game.render(Some(Seat(i as u8)))).collect();
        let next = self.history.get(step).map(|s| json!({ "seat": s.seat.0, "action": self.action_name(s.action) }));
        Ok(json!({
            "game": self.id,
            "kind": self.kind.name(),
            "step": step,
            "steps": self.history.len(),
            "seats": self.seats_json(),
            "next": next,
            "views": views,
            "texts": texts,
            "events": game.events(None, 0),
            "scenario": game.scenario(derive_seed(self.seed, step as u64)),
        }))
    }
}

/// Advice as JSON (`agent`, `seat`, `kind`: policy, search or bot, and the actions).
fn advice_json(advice: DynAdvice, agent: String, seat: u8) -> Value {
    match advice {
        DynAdvice::Policy { probabilities, value } => {
            let actions: Vec<Value> = probabilities
                .into_iter()
                .map(|(index, name, p)| json!({ "index": index, "name": name, "probability": p }))
                .collect();
            json!({ "agent": agent, "seat": seat, "kind": "policy", "actions": actions, "value": value })
        }
        DynAdvice::Search { values } => {
            let actions: Vec<Value> = values
                .into_iter()
                .map(|(index, name, v)| json!({ "index": index, "name": name, "value": v }))
                .collect();
            json!({ "agent": agent, "seat": seat, "kind": "search", "actions": actions })
        }
        DynAdvice::Bot { choice: (index, name) } => {
            json!({ "agent": agent, "seat": seat, "kind": "bot", "choice": { "index": index, "name": name } })
        }
    }
}

/// Asks agent `spec` about `seat`'s decision at `game` of `kind`, as JSON.
fn ask(
    agents: &Agents,
    kind: GameId,
    game: &dyn DynGame,
    seat: Seat,
    spec: &str,
    seed: u64,
) -> Result<Value, ApiError> {
    let table = agents::dynamic::for_game(kind);
    let advice = table.advise(agents, spec, game, seat, seed).map_err(|e| match e {
        AdviceError::Spec(e) => ApiError::BadRequest(format!("agent: {e}")),
        AdviceError::Agent(e) => ApiError::Agent(e.to_string()),
    })?;
    Ok(advice_json(advice, table.spec_name(spec), seat.0))
}

/// One seat's decision, with a copy of the game: [`Decision::ask`] puts it to an agent once the
/// game's lock is released (search can take a while); the agent sees only the seat's view.
pub struct Decision {
    kind: GameId,
    game: Box<dyn DynGame>,
    seat: Seat,
    seed: u64,
}

impl Decision {
    /// The advice of agent `spec`, as JSON.
    pub fn ask(self, agents: &Agents, spec: &str) -> Result<Value, ApiError> {
        ask(agents, self.kind, &*self.game, self.seat, spec, self.seed)
    }
}

/// A game held by the server: a match of whichever game its request named, and the secret of
/// each seat a person plays (`None` for agents' seats).
pub struct Game {
    table: Match,
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
        budget: &Budget,
    ) -> Result<(Game, Vec<String>), ApiError> {
        let kind = game_named(request.game.as_deref())?;
        let (m, warnings) = Match::create(id, kind, request, default_seed, agents, budget)?;
        let secrets = (0..request.seats.len())
            .map(|i| m.is_human(Seat(i as u8)).then(crate::secret::fresh).transpose())
            .collect::<Result<_, _>>()?;
        Ok((Game { table: m, secrets }, warnings))
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.table.id
    }

    /// Which game it is.
    pub fn kind(&self) -> GameId {
        self.table.kind()
    }

    /// The game's state when it is a game of `G` (tests compare responses with it).
    pub fn state_of<G: game::Game>(&self) -> Option<&G::State> {
        self.table.game.as_any().downcast_ref::<game::Played<G>>().map(|p| &p.state)
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
    pub fn act(&mut self, seat: Seat, action: &str, budget: &Budget) -> Result<(), ApiError> {
        self.table.act(seat, action, budget)
    }

    /// Lets the agents go on where a request's budget stopped them (see [`Budget`]); nothing to
    /// do when a person must act, the game is over or an agent failed. Only a client that has
    /// gone is an error: running out of time again or an agent's failure (recorded, and shown
    /// by every view) still leave a game to show.
    pub fn resume(&mut self, budget: &Budget) -> Result<(), ApiError> {
        match self.table.run_agents(budget) {
            Err(e @ ApiError::ClientGone(_)) => Err(e),
            _ => Ok(()),
        }
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

/// The game a request names (`kessel`, `classic`, or an environment id), the first registered
/// game when it names none.
pub fn game_named(name: Option<&str>) -> Result<GameId, ApiError> {
    name.map_or(Ok(GameId::default()), |n| {
        GameId::parse(n.trim()).map_err(|e| ApiError::BadRequest(format!("game: {e}")))
    })
}

/// Advice on a scenario of game `kind` (`POST /api/ask`): the position is loaded and validated
/// by the game's own scenario format.
pub fn ask_scenario(agents: &Agents, kind: GameId, scenario: &str, spec: &str, seed: u64) -> Result<Value, ApiError> {
    let game = kind.game_type().load_scenario(scenario).map_err(|e| ApiError::BadRequest(format!("scenario: {e}")))?;
    let seat = game
        .current_player()
        .ok_or_else(|| ApiError::BadRequest("scenario: the position has no pending decision".into()))?;
    ask(agents, kind, &*game, seat, spec, seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agents::dynamic::DynAgent;
    use game::AgentError;

    /// An agent that plays legally `after` times, then fails.
    struct Failing {
        after: usize,
    }

    impl DynAgent for Failing {
        fn name(&self) -> &str {
            "failing"
        }
        fn act(&mut self, game: &dyn DynGame, _seat: Seat, _rng: &mut AgentRng) -> Result<usize, AgentError> {
            if self.after == 0 {
                return Err(AgentError::new("failing", "the network gave NaN probabilities"));
            }
            self.after -= 1;
            game.legal_actions().first().copied().ok_or_else(|| AgentError::new("failing", "no legal action"))
        }
    }

    #[test]
    fn an_agent_failing_on_its_turn_stops_the_game_in_a_state_every_response_reports() {
        let kessel = GameId::parse("kessel").unwrap();
        let rules = kessel.game_type().default_rules(2);
        let seated: Vec<Option<(String, Box<dyn DynAgent>)>> =
            vec![None, Some(("failing".into(), Box::new(Failing { after: 2 })))];
        let mut m = Match::deal("g1".into(), kessel, &rules, 7, seated, &Budget::unlimited()).expect("dealt");
        let mut failed = None;
        for _ in 0..50 {
            let Some(actor) = m.current_player() else { break };
            assert_eq!(actor, Seat(0), "agents play their own turns");
            let first = m.action_name(m.game.legal_actions()[0]);
            if let Err(e) = m.act(Seat(0), first, &Budget::unlimited()) {
                failed = Some(e);
                break;
            }
        }
        let e = failed.expect("the agent failed");
        assert_eq!(e.kind(), "agent-failed");
        assert!(e.to_string().contains("NaN"), "{e}");
        // The state is the one before the failed decision: consistent, the agent to act.
        assert_eq!(m.current_player(), Some(Seat(1)));
        // Every response says so, and no action is taken any more.
        let v = m.view_json(Seat(0), 0);
        assert_eq!(v["status"], "agent-failed");
        assert_eq!(v["failure"]["seat"], 1);
        assert_eq!(v["failure"]["agent"], "failing");
        assert_eq!(m.spectator_json(0)["status"], "agent-failed");
        let again = m.act(Seat(0), "stand", &Budget::unlimited()).unwrap_err();
        assert_eq!(again.kind(), "conflict");
        assert!(again.to_string().contains("failing") && again.to_string().contains("new game"), "{again}");
        assert!(m.has_failed());
    }

    #[test]
    fn agents_stopped_by_a_budget_go_on_at_the_next_request() {
        let kessel = GameId::parse("kessel").unwrap();
        let rules = kessel.game_type().default_rules(2);
        let agents = Agents::new();
        let table = agents::dynamic::for_game(kessel);
        let seated: Vec<Option<(String, Box<dyn DynAgent>)>> = (0..2)
            .map(|_| {
                let s = table.seat(&agents, "expert", &rules).expect("expert");
                Some((s.spec, s.agent))
            })
            .collect();
        let (out_of_time, _guard) = Budget::start(std::time::Duration::ZERO);
        let mut m = Match::deal("g1".into(), kessel, &rules, 7, seated, &out_of_time).expect("dealt all the same");
        assert!(m.current_player().is_some() && m.history.is_empty(), "no agent moved without time");
        // A client gone is reported; running out of time again is not an error.
        let (gone, guard) = Budget::start(std::time::Duration::from_secs(60));
        drop(guard);
        assert_eq!(m.run_agents(&gone).unwrap_err().kind(), "client-gone");
        let mut g = Game { table: m, secrets: vec![None, None] };
        g.resume(&out_of_time).expect("out of time is no error");
        g.resume(&Budget::unlimited()).expect("resumed");
        assert!(g.is_over(), "with time the agents played the game to its end");
    }
}
