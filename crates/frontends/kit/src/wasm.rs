//! The JavaScript API (wasm-bindgen): the `Game` class over [`Table`] and the registry's
//! functions. Every refusal is a thrown `Error` whose message says what was wrong; JSON values
//! (rules, views, events, outcomes) cross as plain JavaScript objects, observations and masks as
//! `Float32Array`s.

use crate::table::{self, Table};
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A registered game as `gameInfo` describes it. */
export interface GameInfo {
  id: string;
  name: string;
  /** The environment id an exported bundle's contract names (`env_id`). */
  envId: string;
  obsVersion: number;
  obsLength: number;
  numActions: number;
  actionNames: string[];
  seats: { min: number; max: number };
  defaultRules: Record<string, unknown>;
  defaultReward: string;
  progressUnit: string;
  holdingsUnit: string;
  observation: {
    segments: { name: string; offset: number; length: number; meaning: string }[];
    seatFields: string[];
    decisionNames: string[];
    historySlots: string[];
    seatOrder: string;
  };
}

/** One legal action. */
export interface LegalAction { index: number; name: string }

/** How a game stands (`Game.outcome`). */
export interface Outcome {
  over: boolean;
  truncated: boolean;
  winners: number[];
  reward: string;
  rewards: number[];
  progress: number;
  progressUnit: string;
}
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    fn json_stringify(value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// A panic is a bug (every argument is checked first); its message goes to the console before
/// the module traps.
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| console_error(&format!("sabacc kit: {info}"))));
}

fn error(e: table::Error) -> JsError {
    JsError::new(&e.0)
}

/// A Rust JSON value as a JavaScript object.
fn to_js(value: &Value) -> Result<JsValue, JsError> {
    json_parse(&value.to_string()).map_err(|_| JsError::new("internal: a JSON value did not parse"))
}

/// A JavaScript value (an object, or JSON text) as JSON; `None` for `undefined` and `null`.
fn from_js(value: &JsValue, what: &str) -> Result<Option<Value>, JsError> {
    if value.is_null_or_undefined() {
        return Ok(None);
    }
    let text = match value.as_string() {
        Some(text) => text,
        None => json_stringify(value)
            .ok()
            .and_then(|s| s.as_string())
            .ok_or_else(|| JsError::new(&format!("{what} must be an object or JSON text")))?,
    };
    serde_json::from_str(&text).map(Some).map_err(|e| JsError::new(&format!("{what} is not valid JSON: {e}")))
}

/// A seat count: a number (checked against the game's table sizes later), or `None` for
/// `undefined` and `null`.
fn seats_of(value: &JsValue) -> Result<Option<f64>, JsError> {
    if value.is_null_or_undefined() {
        return Ok(None);
    }
    value.as_f64().map(Some).ok_or_else(|| JsError::new("seats must be a number"))
}

/// A seed: a whole number from 0 to 2^53 − 1, a bigint from 0 to 2^64 − 1, or its decimal text.
fn seed_of(value: &JsValue) -> Result<u64, JsError> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    if value.is_null_or_undefined() {
        return Ok(0);
    }
    if let Some(x) = value.as_f64() {
        if x.fract() == 0.0 && (0.0..=MAX_SAFE).contains(&x) {
            return Ok(x as u64);
        }
        return Err(JsError::new(&format!("seed must be a whole number from 0 to 2^53 - 1 (or a bigint), got {x}")));
    }
    if value.is_bigint() {
        return u64::try_from(value.clone()).map_err(|_| JsError::new("seed must be a bigint from 0 to 2^64 - 1"));
    }
    if let Some(text) = value.as_string() {
        return text
            .trim()
            .parse()
            .map_err(|_| JsError::new(&format!("seed must be a number from 0 to 2^64 - 1, got `{text}`")));
    }
    Err(JsError::new("seed must be a number, a bigint or decimal text"))
}

/// The short ids of every registered game (`kessel`, `classic`, `leduc`), in the registry's order.
#[wasm_bindgen(js_name = gameIds)]
pub fn game_ids() -> Vec<String> {
    table::game_ids().into_iter().map(String::from).collect()
}

/// A game's ids, sizes, seats, action names, default rules and observation layout.
#[wasm_bindgen(js_name = gameInfo, unchecked_return_type = "GameInfo")]
pub fn game_info(game: &str) -> Result<JsValue, JsError> {
    to_js(&table::game_info(game).map_err(error)?)
}

/// The rules `rules` (an object or JSON text) describe at `seats` seats, completed from the game's
/// defaults; unknown fields and bad values throw, naming the field.
#[wasm_bindgen(js_name = resolveRules, unchecked_return_type = "Record<string, unknown>")]
pub fn resolve_rules(
    game: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown> | string | null")] rules: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number | null")] seats: JsValue,
) -> Result<JsValue, JsError> {
    let rules = from_js(&rules, "rules")?;
    let seats = seats_of(&seats)?;
    to_js(&table::resolve_rules(game, rules.as_ref(), seats).map_err(error)?)
}

/// One game in progress, of any registered game. Seats are numbers `0..players`; actions are
/// indices `0..numActions` or their names (`gameInfo(id).actionNames`).
#[wasm_bindgen(js_name = Game)]
pub struct JsGame {
    table: Table,
}

#[wasm_bindgen(js_class = Game)]
impl JsGame {
    /// A new game of `game` (`kessel`, or its environment id `kessel_sabacc_v1`) under `rules`
    /// (fields given override the defaults), at `seats` seats (overriding `rules.players`), dealt
    /// from `seed` (0 when left out). Throws on an unknown game, a bad rules field or seat count.
    #[wasm_bindgen(constructor)]
    pub fn new(
        game: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown> | string | null")] rules: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] seats: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | bigint | string | null")] seed: JsValue,
    ) -> Result<JsGame, JsError> {
        let rules = from_js(&rules, "rules")?;
        let seats = seats_of(&seats)?;
        let seed = seed_of(&seed)?;
        Ok(JsGame { table: Table::new(game, rules.as_ref(), seats, seed).map_err(error)? })
    }

    /// The game's short id.
    #[wasm_bindgen(getter, js_name = gameId)]
    pub fn game_id(&self) -> String {
        self.table.game_id().to_string()
    }

    /// Seats at the table.
    #[wasm_bindgen(getter)]
    pub fn players(&self) -> u8 {
        self.table.players()
    }

    /// The seed of the deal.
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> u64 {
        self.table.seed()
    }

    /// The rules in force.
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
    pub fn rules(&self) -> Result<JsValue, JsError> {
        to_js(&self.table.rules())
    }

    /// The seat to act; `undefined` once the game is over.
    #[wasm_bindgen(js_name = currentPlayer)]
    pub fn current_player(&self) -> Option<u8> {
        self.table.current_player()
    }

    /// The game is over (won, or cut off by its length limit).
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.table.is_over()
    }

    /// The acting seat's legal action indices, increasing (empty once over).
    #[wasm_bindgen(js_name = legalActions)]
    pub fn legal_actions(&self) -> Vec<u32> {
        self.table.legal_actions()
    }

    /// The acting seat's legal actions with their names.
    #[wasm_bindgen(unchecked_return_type = "LegalAction[]")]
    pub fn legal(&self) -> Result<JsValue, JsError> {
        to_js(&self.table.legal())
    }

    /// The name of action `index`.
    #[wasm_bindgen(js_name = actionName)]
    pub fn action_name(&self, index: f64) -> Result<String, JsError> {
        self.table.action_name(index).map(String::from).map_err(error)
    }

    /// The index of the action named `name`.
    #[wasm_bindgen(js_name = actionIndex)]
    pub fn action_index(&self, name: &str) -> Result<u32, JsError> {
        self.table.action_index(name).map_err(error)
    }

    /// Applies the acting seat's action: its index or its name. Throws (and changes nothing)
    /// when it is illegal here, outside the action space, or the game is over.
    pub fn apply(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number | string")] action: JsValue,
    ) -> Result<(), JsError> {
        if let Some(name) = action.as_string() {
            return self.table.apply_named(&name).map_err(error);
        }
        match action.as_f64() {
            Some(index) => self.table.apply(index).map_err(error),
            None => Err(JsError::new("action must be an action index (a number) or an action name")),
        }
    }

    /// What `seat` may see, as the game's JSON (the encoder's only input).
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
    pub fn view(&self, seat: f64) -> Result<JsValue, JsError> {
        to_js(&self.table.view(seat).map_err(error)?)
    }

    /// `seat`'s observation: the policy's `obs` input (`gameInfo(id).obsLength` floats).
    pub fn observation(&self, seat: f64) -> Result<Vec<f32>, JsError> {
        self.table.observation(seat).map_err(error)
    }

    /// As `observation`, written into `out` (a `Float32Array` of exactly `obsLength` floats), so
    /// that a front-end encoding every move reuses one buffer rather than making a new array.
    #[wasm_bindgen(js_name = observeInto)]
    pub fn observe_into(&self, seat: f64, out: &mut [f32]) -> Result<(), JsError> {
        self.table.observe_into(seat, out).map_err(error)
    }

    /// The legal-action mask, 1 or 0 per action: the policy's `mask` input. Of the acting seat when
    /// `seat` is left out; all zeros for a seat not to act and once the game is over.
    pub fn mask(&self, seat: Option<f64>) -> Result<Vec<f32>, JsError> {
        self.table.mask(seat).map_err(error)
    }

    /// As `mask`, written into `out` (a `Float32Array` of exactly `numActions` floats).
    #[wasm_bindgen(js_name = maskInto)]
    pub fn mask_into(&self, out: &mut [f32], seat: Option<f64>) -> Result<(), JsError> {
        self.table.mask_into(seat, out).map_err(error)
    }

    /// The event log from entry `from` (default 0) on, as `seat` may see it; left out or `null`:
    /// a spectator, who sees only what is public.
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>[]")]
    pub fn events(&self, seat: Option<f64>, from: Option<f64>) -> Result<JsValue, JsError> {
        to_js(&self.table.events(seat, from).map_err(error)?)
    }

    /// Entries in the event log.
    #[wasm_bindgen(js_name = eventCount)]
    pub fn event_count(&self) -> usize {
        self.table.event_count()
    }

    /// Switches the event log on or off (a new game logs).
    #[wasm_bindgen(js_name = setEventLogging)]
    pub fn set_event_logging(&mut self, on: bool) {
        self.table.set_event_logging(on);
    }

    /// Over or not, truncated, the winners, every seat's reward under `reward` (`win-loss`,
    /// `placement`, `payoff`; the game's default when left out) and the rounds or hands played.
    #[wasm_bindgen(unchecked_return_type = "Outcome")]
    pub fn outcome(&self, reward: Option<String>) -> Result<JsValue, JsError> {
        to_js(&self.table.outcome(reward.as_deref()).map_err(error)?)
    }

    /// The position as text: `seat`'s picture, or the whole table (hidden cards shown) when left
    /// out.
    pub fn render(&self, seat: Option<f64>) -> Result<String, JsError> {
        self.table.render(seat).map_err(error)
    }

    /// The engine's whole state as JSON text, hidden cards included: the referee's, never a
    /// player's.
    #[wasm_bindgen(js_name = stateJson)]
    pub fn state_json(&self) -> String {
        self.table.state_json()
    }

    /// A copy of the game, to try moves on.
    #[wasm_bindgen(js_name = clone)]
    pub fn clone_game(&self) -> JsGame {
        JsGame { table: self.table.clone() }
    }
}
