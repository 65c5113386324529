//! [`Table`]: one game of any registered game behind [`DynGame`], with every argument a front-end
//! passes checked before it reaches the engine, so that a bad seat, action, rules field or event
//! index is an [`Error`] with a message and never a panic (a panic in WebAssembly is a trap that
//! leaves the module unusable). The bindings (`wasm.rs`, built for wasm32 only) are a thin layer
//! over this.

use game::{DynGame, GameType, MAX_PLAYERS, RewardMode, Seat};
use games::{GAMES, GameId};
use serde_json::{Value, json};
use std::fmt;

/// Why the kit refused a call: the message says what was wrong and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<game::GameError> for Error {
    fn from(e: game::GameError) -> Error {
        Error(e.to_string())
    }
}

/// The kit's results.
pub type Result<T> = std::result::Result<T, Error>;

fn fail<T>(message: impl Into<String>) -> Result<T> {
    Err(Error(message.into()))
}

/// The registered game named `id`: its short id (`kessel`) or its environment id
/// (`kessel_sabacc_v1`).
pub fn game_type(id: &str) -> Result<&'static dyn GameType> {
    GameId::parse(id).map(GameId::game_type).map_err(|e| Error(e.to_string()))
}

/// The short ids of every registered game, in the registry's order.
pub fn game_ids() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.id()).collect()
}

/// What a front-end needs to know about a game before it starts one: ids, sizes, seats, action
/// names, default rules and the observation's layout (the same table an export's contract holds).
pub fn game_info(id: &str) -> Result<Value> {
    let g = game_type(id)?;
    let spec = g.spec();
    let (min, max) = g.seats();
    let layout = g.observation_layout();
    let segments: Vec<Value> = layout
        .segments
        .iter()
        .map(|(name, offset, length, meaning)| json!({"name": name, "offset": offset, "length": length, "meaning": meaning}))
        .collect();
    Ok(json!({
        "id": g.id(),
        "name": g.name(),
        "envId": spec.id,
        "obsVersion": spec.obs_version,
        "obsLength": spec.obs_len,
        "numActions": spec.num_actions,
        "actionNames": g.action_names(),
        "seats": {"min": min, "max": max},
        "defaultRules": g.resolve_rules(None, None).unwrap_or_else(|_| g.default_rules(min)),
        "defaultReward": g.default_reward().name(),
        "progressUnit": g.progress_unit(),
        "holdingsUnit": g.holdings_unit(),
        "observation": {
            "segments": segments,
            "seatFields": layout.seat_fields,
            "decisionNames": layout.decision_names,
            "historySlots": layout.history_slots,
            "seatOrder": layout.seat_order,
        },
    }))
}

/// `seats` checked against the game's table sizes.
fn seats_of(g: &dyn GameType, seats: Option<f64>) -> Result<Option<u8>> {
    let Some(n) = seats else { return Ok(None) };
    let (min, max) = g.seats();
    if n.fract() != 0.0 || n < f64::from(min) || n > f64::from(max) {
        return fail(format!("seats must be a whole number from {min} to {max} for {}, got {n}", g.id()));
    }
    Ok(Some(n as u8))
}

/// The rules of `game` that `rules` describes at `seats` seats, completed from the defaults, as
/// JSON; unknown fields and bad values are refused naming the field (`rules.FIELD`).
pub fn resolve_rules(game: &str, rules: Option<&Value>, seats: Option<f64>) -> Result<Value> {
    let g = game_type(game)?;
    let seats = seats_of(g, seats)?;
    check_rules_players(g, rules)?;
    Ok(g.resolve_rules(rules, seats)?)
}

/// `rules.players`, when given, checked against the table sizes before the engine sees it.
fn check_rules_players(g: &dyn GameType, rules: Option<&Value>) -> Result<()> {
    let Some(p) = rules.and_then(|r| r.get("players")) else { return Ok(()) };
    let (min, max) = g.seats();
    match p.as_u64() {
        Some(n) if (u64::from(min)..=u64::from(max)).contains(&n) => Ok(()),
        _ => fail(format!("rules.players must be a whole number from {min} to {max} for {}, got {p}", g.id())),
    }
}

/// A seat index checked against the table.
fn seat_index(value: f64, players: u8, what: &str) -> Result<Seat> {
    if value.fract() != 0.0 || value < 0.0 || value >= f64::from(players) {
        return fail(format!(
            "{what} must be a whole number from 0 to {} (the table has {players} seats), got {value}",
            players - 1
        ));
    }
    Ok(Seat(value as u8))
}

/// One game in progress.
pub struct Table {
    game: Box<dyn DynGame>,
}

impl Clone for Table {
    fn clone(&self) -> Table {
        Table { game: self.game.clone_game() }
    }
}

impl Table {
    /// A new game of `game` (short or environment id) under `rules` (JSON; fields given override
    /// the defaults), at `seats` seats (overriding `rules.players`), dealt from `seed`. The event
    /// log is on, so [`Table::events`] has something to show.
    pub fn new(game: &str, rules: Option<&Value>, seats: Option<f64>, seed: u64) -> Result<Table> {
        let g = game_type(game)?;
        let seats = seats_of(g, seats)?;
        if seats.is_none() {
            check_rules_players(g, rules)?;
        }
        let mut game = g.new_game(rules, seats, seed)?;
        game.set_event_logging(true);
        Ok(Table { game })
    }

    /// The game in progress.
    pub fn dyn_game(&self) -> &dyn DynGame {
        self.game.as_ref()
    }

    /// The game's short id.
    pub fn game_id(&self) -> &'static str {
        self.game.game_type().id()
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        self.game.players()
    }

    /// The seed of the deal.
    pub fn seed(&self) -> u64 {
        self.game.seed()
    }

    /// The rules in force.
    pub fn rules(&self) -> Value {
        self.game.rules()
    }

    /// The seat to act; `None` once the game is over.
    pub fn current_player(&self) -> Option<u8> {
        self.game.current_player().map(|s| s.0)
    }

    /// The game is over (won, or cut off by its length limit).
    pub fn is_over(&self) -> bool {
        self.game.is_terminal()
    }

    /// The acting seat's legal action indices, increasing (empty once over).
    pub fn legal_actions(&self) -> Vec<u32> {
        self.game.legal_actions().into_iter().map(|a| a as u32).collect()
    }

    /// The acting seat's legal actions with their names: `[{index, name}]`.
    pub fn legal(&self) -> Value {
        let names = self.game.game_type().action_names();
        let legal: Vec<Value> =
            self.game.legal_actions().into_iter().map(|a| json!({"index": a, "name": names[a]})).collect();
        Value::Array(legal)
    }

    /// The name of action `index`.
    pub fn action_name(&self, index: f64) -> Result<&'static str> {
        let names = self.game.game_type().action_names();
        if index.fract() != 0.0 || index < 0.0 || index >= names.len() as f64 {
            return fail(format!("action index must be a whole number from 0 to {}, got {index}", names.len() - 1));
        }
        Ok(names[index as usize])
    }

    /// The index of the action named `name`.
    pub fn action_index(&self, name: &str) -> Result<u32> {
        let names = self.game.game_type().action_names();
        match names.iter().position(|n| *n == name) {
            Some(i) => Ok(i as u32),
            None => fail(format!("no action is named `{name}` in {}; see actionNames", self.game_id())),
        }
    }

    /// Applies the acting seat's action `index`; refused (nothing changes) when it is not a whole
    /// number, outside the action space, illegal here, or the game is over.
    pub fn apply(&mut self, index: f64) -> Result<()> {
        if index.fract() != 0.0 || index < 0.0 || index > u32::MAX as f64 {
            return fail(format!("action index must be a whole number, got {index}"));
        }
        Ok(self.game.apply(index as usize)?)
    }

    /// Applies the acting seat's action named `name`.
    pub fn apply_named(&mut self, name: &str) -> Result<()> {
        let index = self.action_index(name)?;
        self.apply(f64::from(index))
    }

    /// What `seat` may see, as the game's JSON.
    pub fn view(&self, seat: f64) -> Result<Value> {
        let seat = seat_index(seat, self.players(), "seat")?;
        Ok(self.game.view(seat))
    }

    /// `seat`'s observation: the network's input, [`game::EnvSpec::obs_len`] floats.
    pub fn observation(&self, seat: f64) -> Result<Vec<f32>> {
        let mut out = vec![0.0; self.game.game_type().spec().obs_len];
        self.observe_into(seat, &mut out)?;
        Ok(out)
    }

    /// As [`Table::observation`], written into `out` (exactly `obs_len` floats): a front-end
    /// that encodes every move reuses one buffer instead of allocating one per call.
    pub fn observe_into(&self, seat: f64, out: &mut [f32]) -> Result<()> {
        let seat = seat_index(seat, self.players(), "seat")?;
        let want = self.game.game_type().spec().obs_len;
        if out.len() != want {
            return Err(Error(format!(
                "the observation buffer holds {} floats; {}'s observation is {want}",
                out.len(),
                self.game_id()
            )));
        }
        self.game.observe(seat, out);
        Ok(())
    }

    /// `seat`'s legal-action mask, 1 for legal and 0 for illegal, one float per action (the
    /// network's `mask` input): the acting seat's legal actions, all zeros for any other seat and
    /// once the game is over. `None`: the acting seat.
    pub fn mask(&self, seat: Option<f64>) -> Result<Vec<f32>> {
        let mut out = vec![0.0; self.game.game_type().spec().num_actions];
        self.mask_into(seat, &mut out)?;
        Ok(out)
    }

    /// As [`Table::mask`], written into `out` (exactly `num_actions` floats).
    pub fn mask_into(&self, seat: Option<f64>, out: &mut [f32]) -> Result<()> {
        let n = self.game.game_type().spec().num_actions;
        if out.len() != n {
            return Err(Error(format!(
                "the mask buffer holds {} floats; {} has {n} actions",
                out.len(),
                self.game_id()
            )));
        }
        let acting = self.game.current_player();
        let mut to_act = acting.is_some();
        if let Some(s) = seat {
            to_act &= acting == Some(seat_index(s, self.players(), "seat")?);
        }
        out.fill(0.0);
        if to_act {
            let mut bools = vec![false; n];
            self.game.mask_bools(&mut bools);
            for (o, b) in out.iter_mut().zip(bools.iter()) {
                *o = if *b { 1.0 } else { 0.0 };
            }
        }
        Ok(())
    }

    /// Switches the event log on or off (it is on in a new table).
    pub fn set_event_logging(&mut self, on: bool) {
        self.game.set_event_logging(on);
    }

    /// Entries in the event log.
    pub fn event_count(&self) -> usize {
        self.game.event_count()
    }

    /// The event log from entry `from` on, as `seat` may see it (`None`: a spectator, who sees
    /// only what is public).
    pub fn events(&self, seat: Option<f64>, from: Option<f64>) -> Result<Value> {
        let viewer = seat.map(|s| seat_index(s, self.players(), "seat")).transpose()?;
        let count = self.game.event_count();
        let from = from.unwrap_or(0.0);
        if from.fract() != 0.0 || from < 0.0 || from > count as f64 {
            return fail(format!("from must be a whole number from 0 to {count} (the events so far), got {from}"));
        }
        Ok(Value::Array(self.game.events(viewer, from as usize)))
    }

    /// How the game stands: over or not, truncated, the winners, every seat's reward under
    /// `reward` (`win-loss`, `placement`, `payoff`; the game's default when `None`; zeros until
    /// the end) and the rounds or hands played.
    pub fn outcome(&self, reward: Option<&str>) -> Result<Value> {
        let g = self.game.game_type();
        let mode = match reward {
            None => g.default_reward(),
            Some(name) => match [RewardMode::WinLoss, RewardMode::Placement, RewardMode::Payoff]
                .into_iter()
                .find(|m| m.name() == name)
            {
                Some(m) => m,
                None => return fail(format!("reward must be win-loss, placement or payoff, got `{name}`")),
            },
        };
        let players = usize::from(self.players()).min(MAX_PLAYERS);
        let winners = self.game.winners();
        let winners: Vec<u8> = (0..self.players()).filter(|&s| winners.0 & (1 << s) != 0).collect();
        let rewards = self.game.rewards(mode);
        Ok(json!({
            "over": self.game.is_terminal(),
            "truncated": self.game.is_truncated(),
            "winners": winners,
            "reward": mode.name(),
            "rewards": &rewards[..players],
            "progress": self.game.progress(),
            "progressUnit": g.progress_unit(),
        }))
    }

    /// The position as text: one seat's picture, or the whole table (`None`; hidden cards shown).
    pub fn render(&self, seat: Option<f64>) -> Result<String> {
        let viewer = seat.map(|s| seat_index(s, self.players(), "seat")).transpose()?;
        Ok(self.game.render(viewer))
    }

    /// The engine's whole state as JSON text, hidden cards included (the referee's): the text an
    /// export's `reference.json` records as `state_json`.
    pub fn state_json(&self) -> String {
        self.game.state_json()
    }
}
