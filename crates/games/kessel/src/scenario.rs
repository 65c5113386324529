//! Scenarios: a JSON description of any position, validated on load.
//!
//! Researchers use scenarios to study positions and tests use them to pin rules down. The format
//! is documented in `docs/scenarios.md`. Cards are named `S1`–`S6`, `SI` (Impostor), `SY`
//! (Sylop) and likewise with `B` for Blood; the copies of a kind are told apart automatically.
//! Piles are listed **top first**.

use crate::action::Source;
use crate::card::{Card, CardKind, CardSet, Family};
use crate::chips::Chips;
use crate::config::RuleConfig;
use crate::pile::Pile;
use crate::ranking::RankingMods;
use crate::rng::GameRng;
use crate::state::builder::Position;
use crate::state::{Effects, LastAction, Pending, State, StateBuilder, TurnAction};
use crate::token::{Token, TokenSet};
use game::seat::{MAX_PLAYERS, Seat, SeatSet};
use game::stream::DiceScript;
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
    /// Its Stand/Draw in each turn of this round it has acted in: `stand`, `forced-stand`,
    /// `draw:<source>` (public history; omitted: unknown, shown as empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<Vec<String>>,
    /// Tokens it played this round (public; each must be under `spent`).
    #[serde(default)]
    pub round_tokens: TokenSet,
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
        if let Some(want) = family
            && want != f
        {
            return Err(err(
                field,
                format!("`{name}` is not a {} card", if want == Family::Sand { "Sand" } else { "Blood" }),
            ));
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

    /// Validates the scenario and builds the game state it describes. The steps run in a fixed
    /// order, so a scenario with several faults always reports the same (first) one.
    pub fn build(&self) -> Result<State, ScenarioError> {
        let cfg = self.checked_table()?;
        let mut builder = StateBuilder::new(cfg, self.seed).map_err(|e| err("config", e.to_string()))?;
        let mut alloc = CardAllocator { used: CardSet::default() };
        let eliminated = self.eliminated_seats();
        let acted = self.acted_this_turn(eliminated);
        let mut last_actions = [LastAction::None; MAX_PLAYERS];
        for (i, last) in last_actions.iter_mut().enumerate().take(self.players.len()) {
            *last = self.place_seat(i, &mut builder, &mut alloc, acted)?;
        }
        self.check_seats_in_play(eliminated)?;
        self.check_all_stood(acted, &last_actions)?;
        builder.chips_removed(self.chips_removed()?);
        let drawn = self.drawn_card(&mut alloc)?;
        let discard = self.discard_piles(&mut alloc)?;
        let draw = self.draw_piles(&mut alloc)?;
        debug_assert_eq!(alloc.used, CardSet::FULL, "every card is placed once");
        self.check_discards_hold_a_card(&discard, drawn)?;
        builder.piles(draw, discard);
        let effects = self.effects_in_force(builder.peek(), eliminated)?;
        builder.effects(effects);
        builder.rng(self.scripted_rng()?);
        builder.position(Position {
            round: self.round,
            turn: self.turn,
            starter: Seat(self.starter),
            actor: Seat(self.actor),
            pending: self.pending_decision(drawn)?,
            token_played: self.token_played,
            all_stood: self.all_stood_this_turn,
        });
        builder.event_logging(true);
        if builder.peek().compute_mask().is_empty() {
            return Err(err("decision", "no legal action at this decision (e.g. no valid target)"));
        }
        builder.build().map_err(|e| err("scenario", e.0))
    }

    /// The rules, checked along with everything else that sizes the table: the seat count, the
    /// round, the turn, and the starter's and actor's seats.
    fn checked_table(&self) -> Result<RuleConfig, ScenarioError> {
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
        Ok(cfg)
    }

    fn eliminated_seats(&self) -> SeatSet {
        let mut eliminated = SeatSet::EMPTY;
        for (i, sp) in self.players.iter().enumerate() {
            if sp.eliminated {
                eliminated.insert(Seat(i as u8));
            }
        }
        eliminated
    }

    /// Seats that already acted in the current turn: clockwise from the starter, before the actor.
    fn acted_this_turn(&self, eliminated: SeatSet) -> SeatSet {
        let mut acted = SeatSet::EMPTY;
        let mut seat = Seat(self.starter);
        while seat != Seat(self.actor) {
            if !eliminated.contains(seat) {
                acted.insert(seat);
            }
            seat = Seat((seat.0 + 1) % self.config.players);
        }
        acted
    }

    /// Checks seat `i` and gives it to the builder: chips, tokens, hand (its cards taken from
    /// `alloc`), this round's history. Returns its most recent Stand/Draw.
    fn place_seat(
        &self,
        i: usize,
        builder: &mut StateBuilder,
        alloc: &mut CardAllocator,
        acted: SeatSet,
    ) -> Result<LastAction, ScenarioError> {
        let f = |x: &str| format!("players[{i}].{x}");
        let sp = &self.players[i];
        let s = Seat(i as u8);
        let actor = Seat(self.actor);
        self.check_seat_tokens(i, sp)?;
        let mut player = *builder.peek().player(s);
        player.stock = Chips(sp.stock);
        player.pot = Chips(sp.pot);
        player.lost = Chips(sp.lost);
        player.eliminated = sp.eliminated;
        player.eliminated_in_round = if sp.eliminated { self.round - 1 } else { 0 };
        player.tokens = sp.tokens;
        player.spent = sp.spent;
        let drawing = match self.decision {
            ScenarioDecision::Keep { source, .. } if s == actor => Some(source),
            _ => None,
        };
        let (turns, last_action, stood_turn) = self.seat_history(i, sp, acted.contains(s), drawing)?;
        player.last_action = last_action;
        player.stood_turn = stood_turn;
        if sp.eliminated {
            if sp.stock != 0 || sp.pot != 0 {
                return Err(err(f("stock"), "an eliminated seat holds no chips"));
            }
            if sp.hand.is_some() {
                return Err(err(f("hand"), "an eliminated seat holds no cards"));
            }
        } else {
            let hand =
                sp.hand.as_ref().ok_or_else(|| err(f("hand"), "an active seat needs a Sand and a Blood card"))?;
            player.hand[0] = alloc.take(&hand[0], &f("hand[0]"), Some(Family::Sand))?;
            player.hand[1] = alloc.take(&hand[1], &f("hand[1]"), Some(Family::Blood))?;
        }
        let mut round_tokens = sp.round_tokens;
        if s == actor {
            // The token whose target or die is being chosen was played this round.
            if let ScenarioDecision::Target { token } = self.decision {
                round_tokens.insert(token);
            } else if let ScenarioDecision::PrimeDie { .. } = self.decision {
                round_tokens.insert(Token::PrimeSabacc);
            }
            round_tokens = TokenSet(round_tokens.0 & sp.spent.0);
        }
        builder.player(s, player).history(s, turns, round_tokens);
        Ok(last_action)
    }

    /// A seat's unplayed, spent and this-round tokens must be consistent with each other and
    /// with the enabled kinds.
    fn check_seat_tokens(&self, i: usize, sp: &ScenarioPlayer) -> Result<(), ScenarioError> {
        let f = |x: &str| format!("players[{i}].{x}");
        if sp.tokens.0 & sp.spent.0 != 0 {
            return Err(err(f("tokens"), "a token cannot be both unplayed and spent"));
        }
        if (sp.tokens.0 | sp.spent.0) & !self.config.enabled_tokens.0 != 0 {
            return Err(err(f("tokens"), "lists a token kind that is not in config.enabled_tokens"));
        }
        if sp.round_tokens.0 & !sp.spent.0 != 0 {
            return Err(err(f("round_tokens"), "a token played this round must also be listed under `spent`"));
        }
        Ok(())
    }

    /// At least two seats are still in the game, the starter and the actor among them.
    fn check_seats_in_play(&self, eliminated: SeatSet) -> Result<(), ScenarioError> {
        if self.players.len() - eliminated.len() < 2 {
            return Err(err("players", "at least two seats must still be in the game"));
        }
        for (name, seat) in [("starter", self.starter), ("actor", self.actor)] {
            if eliminated.contains(Seat(seat)) {
                return Err(err(name, format!("seat {seat} is eliminated")));
            }
        }
        Ok(())
    }

    /// The chips out of the game (dealt minus stocks and hand pots), which must cover every
    /// seat's `lost` chips.
    fn chips_removed(&self) -> Result<u32, ScenarioError> {
        let dealt = self.config.total_chips();
        let total: u32 = self.players.iter().map(|sp| sp.stock as u32 + sp.pot as u32).sum();
        if total > dealt {
            return Err(err(
                "players",
                format!(
                    "stocks and hand pots add up to {total}, more than the {dealt} chips dealt (players × starting_chips)"
                ),
            ));
        }
        let removed = dealt - total;
        let lost_sum: u32 = self.players.iter().map(|p| p.lost as u32).sum();
        if lost_sum > removed {
            return Err(err(
                "players",
                format!("lost chips add up to {lost_sum}, more than the {removed} chips out of the game"),
            ));
        }
        Ok(removed)
    }

    /// The card the actor of a `keep` decision drew, and where from.
    fn drawn_card(&self, alloc: &mut CardAllocator) -> Result<Option<(Card, Source)>, ScenarioError> {
        match &self.decision {
            ScenarioDecision::Keep { drawn, source } => {
                let c = alloc.take(drawn, "decision.drawn", Some(source.family()))?;
                Ok(Some((c, *source)))
            }
            _ => Ok(None),
        }
    }

    fn discard_piles(&self, alloc: &mut CardAllocator) -> Result<[Pile; 2], ScenarioError> {
        let mut discard = [Pile::default(); 2];
        for (fi, list, name) in
            [(0usize, &self.sand_discard, "sand_discard"), (1, &self.blood_discard, "blood_discard")]
        {
            let mut cards = Vec::with_capacity(list.len());
            for (k, c) in list.iter().enumerate() {
                cards.push(alloc.take(c, &format!("{name}[{k}]"), Some(Family::from_index(fi)))?);
            }
            cards.reverse();
            discard[fi] = Pile::from_bottom_first(&cards).expect("family-checked cards fit");
        }
        Ok(discard)
    }

    /// Draw piles: the listed cards on top, in order; every card of the family placed nowhere
    /// else goes below them, shuffled by `seed`.
    fn draw_piles(&self, alloc: &mut CardAllocator) -> Result<[Pile; 2], ScenarioError> {
        let mut rng = GameRng::from_seed(self.seed);
        let mut draw = [Pile::default(); 2];
        for (fi, list, name) in [(0usize, &self.sand_draw, "sand_draw"), (1, &self.blood_draw, "blood_draw")] {
            let fam = Family::from_index(fi);
            let mut top = Vec::new();
            for (k, c) in list.iter().flatten().enumerate() {
                top.push(alloc.take(c, &format!("{name}[{k}]"), Some(fam))?);
            }
            let mut cards: Vec<Card> = Card::family_cards(fam).filter(|c| !alloc.used.contains(*c)).collect();
            for &c in &cards {
                alloc.used.insert(c);
            }
            rng.shuffle(&mut cards);
            cards.extend(top.iter().rev());
            draw[fi] = Pile::from_bottom_first(&cards).expect("a family fits a pile");
        }
        Ok(draw)
    }

    /// A discard pile is empty only while its single card is the one being kept or thrown back
    /// after a draw from it.
    fn check_discards_hold_a_card(
        &self,
        discard: &[Pile; 2],
        drawn: Option<(Card, Source)>,
    ) -> Result<(), ScenarioError> {
        for (fi, name) in [(0usize, "sand_discard"), (1, "blood_discard")] {
            let drawing_from_it = matches!(drawn, Some((_, src)) if !src.is_deck() && src.family().index() == fi);
            if discard[fi].is_empty() && !drawing_from_it {
                return Err(err(name, "a discard pile holds at least one card between actions"));
            }
        }
        Ok(())
    }

    /// The token effects in force, checked against the table in `state` (seats placed).
    fn effects_in_force(&self, state: &State, eliminated: SeatSet) -> Result<Effects, ScenarioError> {
        let n = self.players.len();
        let e = &self.effects;
        if let Some(v) = e.prime
            && !(1..=6).contains(&v)
        {
            return Err(err("effects.prime", format!("{v} is not a die value 1–6")));
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
            if s as usize >= n || eliminated.contains(Seat(s)) {
                return Err(err(format!("effects.embargoed[{k}]"), format!("seat {s} is not an active seat")));
            }
            embargoed.insert(Seat(s));
        }
        self.check_embargoes(embargoed, state.next_active(Seat(self.actor)))?;
        Ok(Effects {
            mods: RankingMods {
                cook_the_books: e.cook_the_books,
                markdown: e.markdown,
                major_fraud: e.major_fraud,
                prime: e.prime,
            },
            immune,
            embargoed,
            free_draw: e.free_draw,
        })
    }

    /// K5.13: an Embargo binds the seat acting next. Between actions only the actor can be under
    /// one; once the actor played its own Embargo in this action, also the seat after it
    /// (`after_actor`). An embargoed actor cannot have drawn.
    fn check_embargoes(&self, embargoed: SeatSet, after_actor: Seat) -> Result<(), ScenarioError> {
        let actor = Seat(self.actor);
        for s in embargoed.iter() {
            let own_embargo_on_next =
                self.token_played && self.players[actor.index()].spent.contains(Token::Embargo) && s == after_actor;
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
        Ok(())
    }

    /// The round's random streams, with the scenario's dice to come first.
    fn scripted_rng(&self) -> Result<GameRng, ScenarioError> {
        let mut rng = GameRng::at_round(self.seed, self.round);
        rng.set_script(
            DiceScript::new(&self.dice).ok_or_else(|| {
                err("dice", format!("dice must be 1–6 and at most {}", game::stream::MAX_SCRIPTED_DICE))
            })?,
        );
        Ok(rng)
    }

    /// The pending decision, checked against the actor's spent tokens and `token_played`.
    fn pending_decision(&self, drawn: Option<(Card, Source)>) -> Result<Pending, ScenarioError> {
        let actor = Seat(self.actor);
        let pending = match &self.decision {
            ScenarioDecision::Act => Pending::Act,
            ScenarioDecision::Keep { .. } => {
                let (drawn, source) = drawn.expect("taken by drawn_card");
                Pending::Keep { drawn, source }
            }
            ScenarioDecision::Target { token } => {
                if !token.needs_target() {
                    return Err(err("decision.token", format!("`{token}` takes no target")));
                }
                if !self.players[actor.index()].spent.contains(*token) {
                    return Err(err(
                        "decision.token",
                        format!("`{token}` must be listed in players[{}].spent", actor.0),
                    ));
                }
                Pending::Target { token: *token }
            }
            ScenarioDecision::PrimeDie { dice } => {
                if dice.iter().any(|d| !(1..=6).contains(d)) {
                    return Err(err("decision.dice", "dice must be 1–6"));
                }
                if !self.players[actor.index()].spent.contains(Token::PrimeSabacc) {
                    return Err(err("decision", format!("prime-sabacc must be listed in players[{}].spent", actor.0)));
                }
                Pending::PrimeDie { dice: *dice }
            }
        };
        if !matches!(pending, Pending::Act | Pending::Keep { .. }) && !self.token_played {
            return Err(err("token_played", "must be true while a token's target or die is being chosen"));
        }
        Ok(pending)
    }

    /// A seat's Stand/Draw per turn this round, and its most recent Stand/Draw and stand turn,
    /// from `turns`, `last_action` and `stood_turn`, which must agree with each other and with
    /// whether the seat already acted in the current turn. The actor of a `keep` decision has
    /// its draw recorded already (as `draw:<source>` for this turn), but not yet as its
    /// `last_action`, which changes when the action ends.
    fn seat_history(
        &self,
        i: usize,
        sp: &ScenarioPlayer,
        acted_this_turn: bool,
        drawing: Option<Source>,
    ) -> Result<([TurnAction; 3], LastAction, u8), ScenarioError> {
        let f = |x: &str| format!("players[{i}].{x}");
        let mut turns = [TurnAction::None; 3];
        let mut last_action = sp.last_action;
        let mut stood_turn = sp.stood_turn;
        if let Some(list) = &sp.turns {
            let want =
                if sp.eliminated { 0 } else { self.turn as usize - usize::from(!acted_this_turn && drawing.is_none()) };
            if list.len() != want {
                return Err(err(
                    f("turns"),
                    format!(
                        "lists {} actions, but this seat has acted in {want} turns of this round so far (turn {}, {})",
                        list.len(),
                        self.turn,
                        if acted_this_turn { "already acted this turn" } else { "not yet acted this turn" }
                    ),
                ));
            }
            let mut derived = (LastAction::None, 0u8);
            for (t, name) in list.iter().enumerate() {
                turns[t] = match name.as_str() {
                    "stand" => TurnAction::Stand { forced: false },
                    "forced-stand" => TurnAction::Stand { forced: true },
                    _ => match name.strip_prefix("draw:").and_then(Source::parse) {
                        Some(src) => TurnAction::Draw(src),
                        None => {
                            return Err(err(
                                format!("players[{i}].turns[{t}]"),
                                format!(
                                    "`{name}` is not `stand`, `forced-stand` or `draw:<source>` (sand-deck, blood-deck, sand-discard, blood-discard)"
                                ),
                            ));
                        }
                    },
                };
                if let Some(src) = drawing.filter(|_| t + 1 == list.len()) {
                    if turns[t] != TurnAction::Draw(src) {
                        return Err(err(
                            format!("players[{i}].turns[{t}]"),
                            format!("the actor of a keep decision drew this turn: `draw:{}`", src.name()),
                        ));
                    }
                    break;
                }
                derived = match turns[t] {
                    TurnAction::Draw(_) => (LastAction::Draw, derived.1),
                    _ => (LastAction::Stand, t as u8 + 1),
                };
            }
            if last_action == LastAction::None {
                last_action = derived.0;
            } else if last_action != derived.0 {
                return Err(err(f("last_action"), format!("`{}` contradicts players[{i}].turns", last_action.name())));
            }
            if stood_turn == 0 {
                stood_turn = derived.1;
            } else if stood_turn != derived.1 {
                return Err(err(f("stood_turn"), format!("{stood_turn} contradicts players[{i}].turns")));
            }
        }
        if stood_turn > self.turn {
            return Err(err(f("stood_turn"), format!("{stood_turn} is later than the current turn {}", self.turn)));
        }
        if last_action == LastAction::None && stood_turn > 0 {
            return Err(err(f("last_action"), format!("`none` contradicts stood_turn {stood_turn}")));
        }
        if !acted_this_turn && stood_turn == self.turn && !sp.eliminated {
            return Err(err(
                f("stood_turn"),
                format!("the seat has not acted yet in turn {}, so it cannot have stood in it", self.turn),
            ));
        }
        if acted_this_turn && last_action == LastAction::Draw && stood_turn == self.turn {
            return Err(err(f("last_action"), format!("`draw` contradicts a stand in this turn ({})", self.turn)));
        }
        Ok((turns, last_action, stood_turn))
    }

    /// `all_stood_this_turn` must agree with the Stand/Draw of the seats that already acted in
    /// the current turn (K3.6).
    fn check_all_stood(&self, acted: SeatSet, last: &[LastAction]) -> Result<(), ScenarioError> {
        let drew = acted.iter().find(|s| last[s.index()] == LastAction::Draw);
        let all_stand = acted.iter().all(|s| last[s.index()] == LastAction::Stand);
        if self.all_stood_this_turn {
            if let Some(s) = drew {
                return Err(err(
                    "all_stood_this_turn",
                    format!("is true, but seat {} already drew in turn {}", s.0, self.turn),
                ));
            }
        } else if acted.is_empty() {
            return Err(err(
                "all_stood_this_turn",
                format!("is false, but no seat has acted yet in turn {} (the actor is the starter)", self.turn),
            ));
        } else if all_stand {
            return Err(err("all_stood_this_turn", "is false, but every seat that acted this turn stood"));
        }
        Ok(())
    }
}

impl Scenario {
    /// The position of `state` written as a scenario: cards by name, piles top first, seats as
    /// lists, the history this round under each seat's `turns`. Loading it gives the same
    /// position (the random stream restarts from `seed`). `None` where a scenario has no such
    /// decision: token choice, the reveal's Impostor dice, and the end of the game.
    pub fn from_state(state: &State, seed: u64) -> Option<Scenario> {
        let names = |cards: &[Card]| -> Vec<String> { cards.iter().rev().map(|c| c.name()).collect() };
        let decision = match state.pending {
            Pending::Act => ScenarioDecision::Act,
            Pending::Keep { drawn, source } => ScenarioDecision::Keep { drawn: drawn.name(), source },
            Pending::Target { token } => ScenarioDecision::Target { token },
            Pending::PrimeDie { dice } => ScenarioDecision::PrimeDie { dice },
            Pending::ChooseToken | Pending::ImpostorDie { .. } | Pending::GameOver | Pending::Truncated => {
                return None;
            }
        };
        let n = state.config.players as usize;
        let players = (0..n)
            .map(|i| {
                let p = &state.players[i];
                let turns: Vec<String> = state.turn_actions[i]
                    .iter()
                    .take_while(|t| **t != TurnAction::None)
                    .map(|t| match t {
                        TurnAction::Stand { forced: false } => "stand".to_string(),
                        TurnAction::Stand { forced: true } => "forced-stand".to_string(),
                        TurnAction::Draw(src) => format!("draw:{}", src.name()),
                        TurnAction::None => unreachable!("taken while not none"),
                    })
                    .collect();
                ScenarioPlayer {
                    hand: (!p.eliminated).then(|| [p.hand[0].name(), p.hand[1].name()]),
                    stock: p.stock.0,
                    pot: p.pot.0,
                    lost: p.lost.0,
                    eliminated: p.eliminated,
                    tokens: p.tokens,
                    spent: p.spent,
                    last_action: p.last_action,
                    stood_turn: p.stood_turn,
                    // No recorded history (a seat yet to act in turn 1, or a position loaded
                    // without one) is written as unknown.
                    turns: (!turns.is_empty()).then_some(turns),
                    round_tokens: state.round_tokens[i],
                }
            })
            .collect();
        let fx = &state.effects;
        Some(Scenario {
            config: state.config,
            seed,
            round: state.round,
            turn: state.turn,
            starter: state.starter.0,
            actor: state.actor.0,
            decision,
            token_played: state.token_played,
            all_stood_this_turn: state.all_stood,
            players,
            sand_draw: Some(names(state.draw[0].as_slice())),
            blood_draw: Some(names(state.draw[1].as_slice())),
            sand_discard: names(state.discard[0].as_slice()),
            blood_discard: names(state.discard[1].as_slice()),
            effects: ScenarioEffects {
                cook_the_books: fx.mods.cook_the_books,
                markdown: fx.mods.markdown,
                major_fraud: fx.mods.major_fraud,
                prime: fx.mods.prime,
                immune: fx.immune.iter().map(|s| s.0).collect(),
                embargoed: fx.embargoed.iter().map(|s| s.0).collect(),
                free_draw: fx.free_draw,
            },
            dice: Vec::new(),
        })
    }
}

/// Renders a card kind for messages.
pub fn kind_name(f: Family, k: CardKind) -> String {
    Card::of(f, k, 0).map(|c| c.name()).unwrap_or_default()
}

/// The maximum table size, re-exported for scenario authors.
pub const SCENARIO_MAX_SEATS: usize = MAX_PLAYERS;
