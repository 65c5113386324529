//! Scenarios: a JSON description of any position, validated on load.
//!
//! Researchers use scenarios to study positions and tests use them to pin rules down. The format
//! is documented in `docs/scenarios.md`. Cards are named `S1`–`S6`, `SI` (Impostor), `SY`
//! (Sylop) and likewise with `B` for Blood; the copies of a kind are told apart automatically.
//! Piles are listed **top first**.

use crate::action::Source;
use crate::card::{Card, CardKind, CardSet, Family};
use crate::config::RuleConfig;
use crate::pile::Pile;
use crate::ranking::RankingMods;
use crate::rng::{DiceScript, GameRng};
use crate::seat::{Chips, MAX_PLAYERS, Seat, SeatSet};
use crate::state::{Effects, LastAction, Pending, RevealCursor, State};
use crate::token::{Token, TokenSet};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A scenario that cannot be loaded: the offending field and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{field}: {message}")]
pub struct ScenarioError {
    /// Path of the offending field, e.g. `players[2].stock`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

fn err(field: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError { field: one_line(field.into()), message: one_line(message.into()) }
}

/// Escapes control characters (an unknown key such as `"a\nb"` is echoed in the message), so
/// that an error always displays on one line.
fn one_line(s: String) -> String {
    if s.chars().any(char::is_control) {
        s.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect()
    } else {
        s
    }
}

/// The decision pending in a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "decision", deny_unknown_fields)]
pub enum ScenarioDecision {
    /// Start of the actor's action.
    Act,
    /// The actor drew `drawn` from `source` and must keep one card.
    Keep {
        /// Card name.
        drawn: String,
        /// Where it came from.
        source: Source,
    },
    /// The actor played `token` (list it under `spent`) and must choose a target.
    Target {
        /// The token.
        token: Token,
    },
    /// The actor played Prime Sabacc (list it under `spent`) and must choose a die.
    PrimeDie {
        /// The two dice, 1–6.
        dice: [u8; 2],
    },
}

/// One seat of a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioPlayer {
    /// Sand card then Blood card (omit for an eliminated seat).
    #[serde(default)]
    pub hand: Option<[String; 2]>,
    /// Chips in stock.
    pub stock: u16,
    /// Chips in the hand pot.
    #[serde(default)]
    pub pot: u16,
    /// Chips lost earlier in the game (for `refund_source = lost-chips`).
    #[serde(default)]
    pub lost: u16,
    /// Out of the game.
    #[serde(default)]
    pub eliminated: bool,
    /// Unplayed tokens.
    #[serde(default)]
    pub tokens: TokenSet,
    /// Tokens already played this game.
    #[serde(default)]
    pub spent: TokenSet,
    /// Most recent Stand/Draw this round.
    #[serde(default)]
    pub last_action: LastAction,
    /// Turn in which the seat last stood this round (0 if not).
    #[serde(default)]
    pub stood_turn: u8,
}

/// Token effects in force in a scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScenarioEffects {
    /// Cook the Books.
    pub cook_the_books: bool,
    /// Markdown.
    pub markdown: bool,
    /// Major Fraud.
    pub major_fraud: bool,
    /// Prime Sabacc value 1–6.
    pub prime: Option<u8>,
    /// Seats under Immunity.
    pub immune: Vec<u8>,
    /// Seats that must Stand on their next action (K5.13): a list, or one seat number.
    #[serde(deserialize_with = "seat_or_seats")]
    pub embargoed: Vec<u8>,
    /// Free Draw active for the current action.
    pub free_draw: bool,
}

/// A whole scenario file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The rules (missing fields take their defaults); `players` must match the seat list.
    #[serde(default)]
    pub config: RuleConfig,
    /// Seed of the random stream after the scenario's scripted dice run out.
    #[serde(default)]
    pub seed: u64,
    /// Round number, at least 1.
    #[serde(default = "one_u16")]
    pub round: u16,
    /// Turn 1–3.
    #[serde(default = "one_u8")]
    pub turn: u8,
    /// Seat that started the round.
    #[serde(default)]
    pub starter: u8,
    /// Seat whose decision it is.
    pub actor: u8,
    /// The pending decision (default: start of the actor's action).
    #[serde(default = "act")]
    pub decision: ScenarioDecision,
    /// A token was already played in the current action.
    #[serde(default)]
    pub token_played: bool,
    /// Whether every player who acted so far this turn stood (for the early reveal, K3.6).
    #[serde(default = "yes")]
    pub all_stood_this_turn: bool,
    /// The seats, in seat order.
    pub players: Vec<ScenarioPlayer>,
    /// Sand draw pile, top first. Omitted: the remaining Sand cards, shuffled by `seed`.
    #[serde(default)]
    pub sand_draw: Option<Vec<String>>,
    /// Blood draw pile, top first. Omitted: the remaining Blood cards, shuffled by `seed`.
    #[serde(default)]
    pub blood_draw: Option<Vec<String>>,
    /// Sand discard pile, top first.
    #[serde(default)]
    pub sand_discard: Vec<String>,
    /// Blood discard pile, top first.
    #[serde(default)]
    pub blood_discard: Vec<String>,
    /// Token effects in force.
    #[serde(default)]
    pub effects: ScenarioEffects,
    /// Upcoming dice, used before the seeded stream.
    #[serde(default)]
    pub dice: Vec<u8>,
}

/// Reads `null`, one seat number or a list of seats (older scenarios name a single embargoed seat).
fn seat_or_seats<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Vec<u8>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a seat number, a list of seat numbers or null")
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Vec<u8>, E> {
            u8::try_from(v).map(|s| vec![s]).map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Vec<u8>, E> {
            Ok(Vec::new())
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Vec<u8>, E> {
            Ok(Vec::new())
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
            let mut v = Vec::new();
            while let Some(s) = seq.next_element::<u8>()? {
                v.push(s);
            }
            Ok(v)
        }
    }
    d.deserialize_any(V)
}

fn one_u16() -> u16 {
    1
}
fn one_u8() -> u8 {
    1
}
fn yes() -> bool {
    true
}
fn act() -> ScenarioDecision {
    ScenarioDecision::Act
}

/// Hands out distinct physical cards for card names, in order of appearance.
struct CardAllocator {
    used: CardSet,
}

impl CardAllocator {
    fn take(&mut self, name: &str, field: &str, family: Option<Family>) -> Result<Card, ScenarioError> {
        let (f, kind) = Card::parse_kind(name)
            .ok_or_else(|| err(field, format!("`{name}` is not a card name (use S1–S6, SI, SY, B1–B6, BI, BY)")))?;
        if let Some(want) = family {
            if want != f {
                return Err(err(
                    field,
                    format!("`{name}` is not a {} card", if want == Family::Sand { "Sand" } else { "Blood" }),
                ));
            }
        }
        for copy in 0..kind.copies() {
            let c = Card::of(f, kind, copy).expect("copy in range");
            if self.used.insert(c) {
                return Ok(c);
            }
        }
        Err(err(
            field,
            format!(
                "`{name}` appears more often than the deck's {} {}",
                kind.copies(),
                if kind.copies() == 1 { "copy" } else { "copies" }
            ),
        ))
    }
}

impl Scenario {
    /// Parses and validates a scenario from JSON text.
    pub fn from_json(text: &str) -> Result<State, ScenarioError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let sc: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." || path.is_empty() { "scenario".to_string() } else { path };
            err(field, e.into_inner().to_string())
        })?;
        sc.build()
    }

    /// Validates the scenario and builds the game state it describes.
    pub fn build(&self) -> Result<State, ScenarioError> {
        let cfg = self.config;
        let n = cfg.players as usize;
        cfg.validate().map_err(|e| {
            // ConfigError messages start with the field name: report it as `config.<field>`.
            let text = e.to_string();
            match text.split_once(": ") {
                Some((field, message)) => err(format!("config.{field}"), message),
                None => err("config", text),
            }
        })?;
        if self.players.len() != n {
            return Err(err("players", format!("lists {} seats but config.players is {n}", self.players.len())));
        }
        if self.round == 0 || self.round > cfg.round_limit {
            return Err(err("round", format!("{} is outside 1..={}", self.round, cfg.round_limit)));
        }
        if !(1..=3).contains(&self.turn) {
            return Err(err("turn", format!("{} is outside 1..=3", self.turn)));
        }
        for (name, seat) in [("starter", self.starter), ("actor", self.actor)] {
            if seat as usize >= n {
                return Err(err(name, format!("seat {seat} is not at a table of {n}")));
            }
        }
        let mut state =
            State::new(RuleConfig { token_assignment: crate::config::TokenAssignment::None, ..cfg }, self.seed)
                .map_err(|e| err("config", e.to_string()))?;
        state.config = cfg;
        state.set_event_logging(true);
        state.events.clear();
        let mut alloc = CardAllocator { used: CardSet::default() };
        let mut total: u32 = 0;
        for (i, sp) in self.players.iter().enumerate() {
            let f = |x: &str| format!("players[{i}].{x}");
            let p = &mut state.players[i];
            p.stock = Chips(sp.stock);
            p.pot = Chips(sp.pot);
            p.lost = Chips(sp.lost);
            p.eliminated = sp.eliminated;
            p.eliminated_in_round = if sp.eliminated { self.round - 1 } else { 0 };
            total += sp.stock as u32 + sp.pot as u32;
            if sp.tokens.0 & sp.spent.0 != 0 {
                return Err(err(f("tokens"), "a token cannot be both unplayed and spent"));
            }
            if (sp.tokens.0 | sp.spent.0) & !cfg.enabled_tokens.0 != 0 {
                return Err(err(f("tokens"), "lists a token kind that is not in config.enabled_tokens"));
            }
            p.tokens = sp.tokens;
            p.spent = sp.spent;
            p.last_action = sp.last_action;
            p.stood_turn = sp.stood_turn;
            if sp.stood_turn > self.turn {
                return Err(err(
                    f("stood_turn"),
                    format!("{} is later than the current turn {}", sp.stood_turn, self.turn),
                ));
            }
            if sp.eliminated {
                if sp.stock != 0 || sp.pot != 0 {
                    return Err(err(f("stock"), "an eliminated seat holds no chips"));
                }
                if sp.hand.is_some() {
                    return Err(err(f("hand"), "an eliminated seat holds no cards"));
                }
            } else {
                if sp.stock == 0 && sp.pot == 0 && self.round == 1 {
                    // Allowed: a player may be at 0 during a round; elimination happens at settlement.
                }
                let hand =
                    sp.hand.as_ref().ok_or_else(|| err(f("hand"), "an active seat needs a Sand and a Blood card"))?;
                p.hand[0] = alloc.take(&hand[0], &format!("players[{i}].hand[0]"), Some(Family::Sand))?;
                p.hand[1] = alloc.take(&hand[1], &format!("players[{i}].hand[1]"), Some(Family::Blood))?;
            }
        }
        if state.players[..n].iter().filter(|p| !p.eliminated).count() < 2 {
            return Err(err("players", "at least two seats must still be in the game"));
        }
        for (name, seat) in [("starter", self.starter), ("actor", self.actor)] {
            if state.players[seat as usize].eliminated {
                return Err(err(name, format!("seat {seat} is eliminated")));
            }
        }
        if total > cfg.total_chips() {
            return Err(err(
                "players",
                format!(
                    "stocks and hand pots add up to {total}, more than the {} chips dealt (players × starting_chips)",
                    cfg.total_chips()
                ),
            ));
        }
        let removed = cfg.total_chips() - total;
        let lost_sum: u32 = self.players.iter().map(|p| p.lost as u32).sum();
        if lost_sum > removed {
            return Err(err(
                "players",
                format!("lost chips add up to {lost_sum}, more than the {removed} chips out of the game"),
            ));
        }
        state.removed = removed;

        let pending_drawn = match &self.decision {
            ScenarioDecision::Keep { drawn, source } => {
                let c = alloc.take(drawn, "decision.drawn", Some(source.family()))?;
                Some((c, *source))
            }
            _ => None,
        };
        for (fi, list, name) in
            [(0usize, &self.sand_discard, "sand_discard"), (1, &self.blood_discard, "blood_discard")]
        {
            let mut cards = Vec::with_capacity(list.len());
            for (k, c) in list.iter().enumerate() {
                cards.push(alloc.take(c, &format!("{name}[{k}]"), Some(Family::from_index(fi)))?);
            }
            cards.reverse();
            state.discard[fi] = Pile::from_bottom_first(&cards).expect("family-checked cards fit");
        }
        let mut rng = GameRng::from_seed(self.seed);
        for (fi, list, name) in [(0usize, &self.sand_draw, "sand_draw"), (1, &self.blood_draw, "blood_draw")] {
            let fam = Family::from_index(fi);
            let cards: Vec<Card> = match list {
                Some(list) => {
                    let mut cards = Vec::with_capacity(list.len());
                    for (k, c) in list.iter().enumerate() {
                        cards.push(alloc.take(c, &format!("{name}[{k}]"), Some(fam))?);
                    }
                    cards.reverse();
                    cards
                }
                None => {
                    let mut rest: Vec<Card> = Card::family_cards(fam).filter(|c| !alloc.used.contains(*c)).collect();
                    for &c in &rest {
                        alloc.used.insert(c);
                    }
                    rng.shuffle(&mut rest);
                    rest
                }
            };
            state.draw[fi] = Pile::from_bottom_first(&cards).expect("family-checked cards fit");
        }
        if alloc.used != CardSet::FULL {
            let missing: Vec<String> = CardSet(CardSet::FULL.0 & !alloc.used.0).iter().map(|c| c.name()).collect();
            return Err(err(
                "cards",
                format!("the scenario must place all 44 cards exactly once; missing: {}", missing.join(", ")),
            ));
        }
        for (fi, name) in [(0usize, "sand_discard"), (1, "blood_discard")] {
            // A discard pile is empty only while its single card is the one being kept or thrown
            // back after a draw from it.
            let drawing_from_it =
                matches!(pending_drawn, Some((_, src)) if !src.is_deck() && src.family().index() == fi);
            if state.discard[fi].is_empty() && !drawing_from_it {
                return Err(err(name, "a discard pile holds at least one card between actions"));
            }
        }

        let e = &self.effects;
        if let Some(v) = e.prime {
            if !(1..=6).contains(&v) {
                return Err(err("effects.prime", format!("{v} is not a die value 1–6")));
            }
        }
        let mut immune = SeatSet::EMPTY;
        for (k, &s) in e.immune.iter().enumerate() {
            if s as usize >= n {
                return Err(err(format!("effects.immune[{k}]"), format!("seat {s} is not at a table of {n}")));
            }
            immune.insert(Seat(s));
        }
        let mut embargoed = SeatSet::EMPTY;
        for (k, &s) in e.embargoed.iter().enumerate() {
            if s as usize >= n || state.players[s as usize].eliminated {
                return Err(err(format!("effects.embargoed[{k}]"), format!("seat {s} is not an active seat")));
            }
            embargoed.insert(Seat(s));
        }
        state.effects = Effects {
            mods: RankingMods {
                cook_the_books: e.cook_the_books,
                markdown: e.markdown,
                major_fraud: e.major_fraud,
                prime: e.prime,
            },
            immune,
            embargoed,
            free_draw: e.free_draw,
        };
        // K5.13: an Embargo binds the seat acting next. Between actions only the actor can be
        // under one; once the actor played its own Embargo in this action, also the seat after it.
        let actor = Seat(self.actor);
        for s in embargoed.iter() {
            let own_embargo_on_next = self.token_played
                && self.players[actor.index()].spent.contains(Token::Embargo)
                && s == state.next_active(actor);
            if s != actor && !own_embargo_on_next {
                return Err(err(
                    "effects.embargoed",
                    format!(
                        "seat {} cannot be under Embargo while seat {} acts: an Embargo binds the seat acting next \
                         (the actor, or the seat after it once the actor played its own Embargo this action)",
                        s.0, actor.0
                    ),
                ));
            }
        }
        if embargoed.contains(actor) && matches!(self.decision, ScenarioDecision::Keep { .. }) {
            return Err(err("effects.embargoed", format!("seat {} is under Embargo and cannot have drawn", actor.0)));
        }
        state.rng = GameRng::from_seed(self.seed);
        state.rng.set_script(
            DiceScript::new(&self.dice).ok_or_else(|| {
                err("dice", format!("dice must be 1–6 and at most {}", crate::rng::MAX_SCRIPTED_DICE))
            })?,
        );
        state.round = self.round;
        state.turn = self.turn;
        state.starter = Seat(self.starter);
        state.actor = Seat(self.actor);
        state.token_played = self.token_played;
        state.all_stood = self.all_stood_this_turn;
        state.revealed = false;
        state.reveal = RevealCursor::default();
        state.settlement = None;
        state.winners = SeatSet::EMPTY;
        state.seen = CardSet::default();
        for fi in 0..2 {
            for &c in state.discard[fi].as_slice() {
                state.seen.insert(c);
            }
        }
        state.pending = match &self.decision {
            ScenarioDecision::Act => Pending::Act,
            ScenarioDecision::Keep { .. } => {
                let (drawn, source) = pending_drawn.expect("set above");
                Pending::Keep { drawn, source }
            }
            ScenarioDecision::Target { token } => {
                if !token.needs_target() {
                    return Err(err("decision.token", format!("`{token}` takes no target")));
                }
                if !state.players[self.actor as usize].spent.contains(*token) {
                    return Err(err(
                        "decision.token",
                        format!("`{token}` must be listed in players[{}].spent", self.actor),
                    ));
                }
                Pending::Target { token: *token }
            }
            ScenarioDecision::PrimeDie { dice } => {
                if dice.iter().any(|d| !(1..=6).contains(d)) {
                    return Err(err("decision.dice", "dice must be 1–6"));
                }
                if !state.players[self.actor as usize].spent.contains(Token::PrimeSabacc) {
                    return Err(err(
                        "decision",
                        format!("prime-sabacc must be listed in players[{}].spent", self.actor),
                    ));
                }
                Pending::PrimeDie { dice: *dice }
            }
        };
        if !matches!(state.pending, Pending::Act)
            && !self.token_played
            && !matches!(state.pending, Pending::Keep { .. })
        {
            return Err(err("token_played", "must be true while a token's target or die is being chosen"));
        }
        state.refresh_mask();
        if state.legal_mask().is_empty() {
            return Err(err("decision", "no legal action at this decision (e.g. no valid target)"));
        }
        state.check_invariants().map_err(|m| err("scenario", m))?;
        Ok(state)
    }
}

/// Renders a card kind for messages.
pub fn kind_name(f: Family, k: CardKind) -> String {
    Card::of(f, k, 0).map(|c| c.name()).unwrap_or_default()
}

/// The maximum table size, re-exported for scenario authors.
pub const SCENARIO_MAX_SEATS: usize = MAX_PLAYERS;
