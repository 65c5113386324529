//! Scenarios: a JSON description of any position inside a hand, validated on load.
//!
//! The format is documented in `docs/rules-classic.md` ("Scenario files"). Cards are named by
//! kind (`sabres-7`, `sa7`, `coins-ace`, `idiot`, `evil-one`); the two copies of a face card are
//! told apart automatically. The deck is listed **top first**; cards placed nowhere else go
//! below the listed ones, shuffled by `seed`.

use crate::card::{Card, CardKind, CardSet, Hand, Pile};
use crate::config::{RuleConfig, Stakes};
use crate::rng::GameRng;
use crate::state::builder::Position;
use crate::state::{Betting, Pending, Player, State, StateBuilder};
use game::seat::{MAX_PLAYERS, Seat, SeatSet};
use game::stream::{DiceScript, MAX_SCRIPTED_DICE};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A scenario that cannot be loaded: the offending field and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{field}: {message}")]
pub struct ScenarioError {
    /// Path of the offending field, e.g. `players[2].credits`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

fn err(field: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    let clean = |s: String| s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>();
    ScenarioError { field: clean(field.into()), message: clean(message.into()) }
}

/// The decision pending in a scenario (C8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScenarioDecision {
    /// The turn player opens the betting.
    #[default]
    Bet,
    /// A player answers in the betting phase (needs `betting`).
    Answer,
    /// A player may call.
    Call,
    /// The turn player draws, exchanges or passes.
    Draw,
    /// The turn player drops a card after an exchange (the drawn card is last in the hand).
    Drop,
}

/// The betting phase of a scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScenarioBetting {
    /// The amount to match this phase (0: no bet stands).
    pub to_match: u32,
    /// Raises made this phase.
    pub raises: u8,
    /// The stakes cap; omitted: derived from the players still in (credits + contributed).
    pub cap: Option<u32>,
    /// Players still to answer.
    pub waiting: Vec<u8>,
}

/// One seat of a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioPlayer {
    /// Cards in hand order (empty when folded or out of the game).
    #[serde(default)]
    pub hand: Vec<String>,
    /// Credits in front of the player.
    pub credits: u32,
    /// Folded this hand.
    #[serde(default)]
    pub folded: bool,
    /// Out of the game (C5.1).
    #[serde(default)]
    pub left: bool,
    /// Credits put in during the current betting phase.
    #[serde(default)]
    pub contributed: u32,
    /// Credits at the start of the hand (omitted: credits + contributed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_start_credits: Option<u32>,
}

/// A whole scenario file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The rules (missing fields take their defaults); `players` must match the seat list.
    #[serde(default)]
    pub config: RuleConfig,
    /// Seed of the shuffle of unlisted deck cards and of all later randomness.
    #[serde(default)]
    pub seed: u64,
    /// Hand number, 1..=hand_limit.
    #[serde(default = "one_u32")]
    pub hand: u32,
    /// Round of the hand, 1..=max_rounds_per_hand.
    #[serde(default = "one_u16")]
    pub round: u16,
    /// The dealer.
    #[serde(default)]
    pub dealer: u8,
    /// Whose turn it is (omitted: the dealer's left).
    #[serde(default)]
    pub turn: Option<u8>,
    /// Whose decision it is (omitted: the turn player, or the first to answer or call).
    #[serde(default)]
    pub actor: Option<u8>,
    /// The pending decision.
    #[serde(default)]
    pub decision: ScenarioDecision,
    /// The seats, in seat order.
    pub players: Vec<ScenarioPlayer>,
    /// Credits in the hand pot.
    #[serde(default)]
    pub hand_pot: u32,
    /// Credits in the sabacc pot.
    #[serde(default)]
    pub sabacc_pot: u32,
    /// The betting phase (required for `answer`).
    #[serde(default)]
    pub betting: Option<ScenarioBetting>,
    /// The top of the deck, top first.
    #[serde(default)]
    pub deck: Vec<String>,
    /// Cards out of play this hand.
    #[serde(default)]
    pub out: Vec<String>,
    /// This turn's die, if rolled.
    #[serde(default)]
    pub die: Option<u8>,
    /// Upcoming dice, used before the seeded stream.
    #[serde(default)]
    pub dice: Vec<u8>,
}

fn one_u32() -> u32 {
    1
}
fn one_u16() -> u16 {
    1
}

/// The shape of a scenario's table, checked before its players are built.
struct Table {
    n: u8,
    dealer: Seat,
    turn: Seat,
    /// Seats that have not left the game.
    in_game: SeatSet,
    /// Seats still in the hand (in the game, not folded).
    live: SeatSet,
}

/// Hands out distinct physical cards for card names, in order of appearance.
struct CardAllocator {
    used: CardSet,
}

impl CardAllocator {
    fn take(&mut self, name: &str, field: &str) -> Result<Card, ScenarioError> {
        let kind = CardKind::parse(name).ok_or_else(|| {
            err(field, format!("`{name}` is not a card name (sabres-7, sa7, coins-ace, idiot, evil-one, …)"))
        })?;
        for copy in 0..kind.copies() {
            let c = Card::of(kind, copy).expect("copy in range");
            if self.used.insert(c) {
                return Ok(c);
            }
        }
        let copies = kind.copies();
        Err(err(
            field,
            format!(
                "`{name}` appears more often than the deck's {copies} {}",
                if copies == 1 { "copy" } else { "copies" }
            ),
        ))
    }
}

impl Scenario {
    /// Parses and validates a scenario from JSON text.
    pub fn from_json(text: &str) -> Result<State, ScenarioError> {
        Scenario::parse(text)?.build()
    }

    /// Parses a scenario without building it.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." || path.is_empty() { "scenario".to_string() } else { path };
            err(field, e.into_inner().to_string())
        })
    }

    /// Validates the scenario and builds the state it describes: the seats, then each player,
    /// the piles, the betting phase, whose decision it is, and last what only the built state
    /// can tell (whether calls are open).
    pub fn build(&self) -> Result<State, ScenarioError> {
        let cfg = self.config;
        cfg.validate().map_err(|e| {
            let text = e.to_string();
            match text.split_once(": ") {
                Some((field, message)) => err(format!("config.{field}"), message),
                None => err("config", text),
            }
        })?;
        let table = self.table()?;
        let mut builder = StateBuilder::new(cfg, self.seed).map_err(|e| err("config", e.to_string()))?;
        let mut alloc = CardAllocator { used: CardSet::default() };
        let players = self.players(&table, &mut alloc, *builder.peek().player(Seat(0)))?;
        let (deck, out) = self.piles(&mut alloc)?;
        let betting = self.betting(&table, &players)?;
        let actor = self.actor(&table, &players, betting.waiting)?;
        self.check_die()?;
        let dice = DiceScript::new(&self.dice)
            .ok_or_else(|| err("dice", format!("dice must be 1–6 and at most {MAX_SCRIPTED_DICE}")))?;

        for (i, p) in players.iter().enumerate().take(usize::from(table.n)) {
            builder.player(Seat(i as u8), *p);
        }
        builder
            .position(Position {
                hand: self.hand,
                round: self.round,
                dealer: table.dealer,
                turn_seat: table.turn,
                actor,
                pending: self.pending(),
                die: self.die,
            })
            .piles(deck, out)
            .pots(self.hand_pot, self.sabacc_pot)
            .betting(betting)
            .rng(self.seed, dice);
        let state = builder.build().map_err(|e| err("scenario", e.0))?;
        if self.decision == ScenarioDecision::Call && !state.calls_open() {
            return Err(err(
                "decision",
                format!(
                    "calls are not open in round {}: every seat must first complete {} turn(s)",
                    self.round,
                    cfg.effective_min_turns_before_call()
                ),
            ));
        }
        Ok(state)
    }

    /// Seat `v` of field `name`, refused when it is not at the table.
    fn seat(&self, name: &str, v: u8) -> Result<Seat, ScenarioError> {
        let n = self.config.players;
        if v >= n {
            return Err(err(name, format!("seat {v} is not at a table of {n}")));
        }
        Ok(Seat(v))
    }

    /// The table's shape: its size, hand and round in range, the dealer, who is in the game and
    /// in the hand, and whose turn it is.
    fn table(&self) -> Result<Table, ScenarioError> {
        let cfg = self.config;
        let n = cfg.players;
        if self.players.len() != n as usize {
            return Err(err("players", format!("lists {} seats but config.players is {n}", self.players.len())));
        }
        if !(1..=cfg.hand_limit).contains(&self.hand) {
            return Err(err("hand", format!("{} is outside 1..={}", self.hand, cfg.hand_limit)));
        }
        if !(1..=cfg.max_rounds_per_hand).contains(&self.round) {
            return Err(err("round", format!("{} is outside 1..={}", self.round, cfg.max_rounds_per_hand)));
        }
        let dealer = self.seat("dealer", self.dealer)?;
        let in_game: SeatSet = (0..n).map(Seat).filter(|s| !self.players[s.index()].left).collect();
        let live: SeatSet = in_game.iter().filter(|s| !self.players[s.index()].folded).collect();
        if !in_game.contains(dealer) {
            return Err(err("dealer", format!("seat {} has left the game", dealer.0)));
        }
        if live.len() < 2 {
            return Err(err("players", "at least two players must still be in the hand (not left, not folded)"));
        }
        let turn = match self.turn {
            Some(t) => self.seat("turn", t)?,
            None => in_game.next_after(dealer, n).expect("the dealer is in the game"),
        };
        if !in_game.contains(turn) {
            return Err(err("turn", format!("seat {} has left the game", turn.0)));
        }
        if !live.contains(turn) && !matches!(self.decision, ScenarioDecision::Answer | ScenarioDecision::Call) {
            return Err(err(
                "turn",
                format!("seat {} has folded: only an answer or a call can be pending in the turn it folded", turn.0),
            ));
        }
        Ok(Table { n, dealer, turn, in_game, live })
    }

    /// Every seat's player, its cards taken from `alloc`, and the credits checked against the
    /// game's total and the hand pot.
    fn players(
        &self,
        table: &Table,
        alloc: &mut CardAllocator,
        blank: Player,
    ) -> Result<[Player; MAX_PLAYERS], ScenarioError> {
        let mut players = [blank; MAX_PLAYERS];
        for (i, sp) in self.players.iter().enumerate() {
            players[i] = self.player(table, alloc, Seat(i as u8), sp)?;
        }
        let credits_sum: u64 = u64::from(self.hand_pot)
            + u64::from(self.sabacc_pot)
            + self.players.iter().map(|p| u64::from(p.credits)).sum::<u64>();
        let contributed_sum: u64 = self.players.iter().map(|p| u64::from(p.contributed)).sum();
        if credits_sum != self.config.total_credits() {
            return Err(err(
                "credits",
                format!(
                    "players' credits + hand_pot + sabacc_pot = {credits_sum}, but config.players × \
                     config.starting_credits = {}",
                    self.config.total_credits()
                ),
            ));
        }
        if contributed_sum > u64::from(self.hand_pot) {
            return Err(err(
                "hand_pot",
                format!("{} is less than the {contributed_sum} contributed this phase", self.hand_pot),
            ));
        }
        Ok(players)
    }

    /// Seat `s`'s player: its hand checked against its state (left, folded, in the hand, or
    /// dropping after an exchange) and the turns it has completed this round.
    fn player(
        &self,
        table: &Table,
        alloc: &mut CardAllocator,
        s: Seat,
        sp: &ScenarioPlayer,
    ) -> Result<Player, ScenarioError> {
        let i = s.index();
        let f = |x: &str| format!("players[{i}].{x}");
        let max = self.config.max_hand_size as usize;
        if sp.hand.len() > crate::card::HAND_CAPACITY {
            return Err(err(f("hand"), format!("{} cards; a hand holds at most {}", sp.hand.len(), max + 1)));
        }
        let mut hand = Hand::default();
        for (k, name) in sp.hand.iter().enumerate() {
            hand.push(alloc.take(name, &f(&format!("hand[{k}]")))?);
        }
        if sp.left {
            if sp.credits != 0 || !hand.is_empty() || sp.folded || sp.contributed != 0 {
                return Err(err(f("left"), "a player who left holds no credits and no cards, and is not folded"));
            }
        } else if sp.folded {
            if !hand.is_empty() {
                return Err(err(f("hand"), "a folded player's cards are out of play: list them under `out`"));
            }
        } else {
            let dropping = self.decision == ScenarioDecision::Drop && s == table.turn;
            let (lo, hi) = if dropping { (3, max + 1) } else { (2, max) };
            if !(lo..=hi).contains(&hand.len()) {
                let why = if dropping { " (the drawn card of the exchange last)" } else { "" };
                return Err(err(f("hand"), format!("{} cards; allowed {lo}..={hi}{why}", hand.len())));
            }
        }
        let (n, dealer) = (table.n, table.dealer);
        let pos = (s.0 + n - dealer.0 - 1) % n; // 0 for the dealer's left, n − 1 for the dealer
        let turn_pos = (table.turn.0 + n - dealer.0 - 1) % n;
        let completed_turns = if !table.in_game.contains(s) {
            0
        } else if pos < turn_pos {
            self.round
        } else {
            self.round - 1
        };
        Ok(Player {
            hand,
            credits: sp.credits,
            in_game: !sp.left,
            left_in_hand: 0,
            folded: sp.folded,
            completed_turns,
            contributed: sp.contributed,
            hand_start_credits: sp.hand_start_credits.unwrap_or(sp.credits + sp.contributed),
            shift: None,
            put_out: Default::default(),
        })
    }

    /// The deck (the listed top over the unlisted cards, shuffled by the seed) and the cards
    /// out of play.
    fn piles(&self, alloc: &mut CardAllocator) -> Result<(Pile, Pile), ScenarioError> {
        let mut out = Pile::default();
        for (k, name) in self.out.iter().enumerate() {
            out.push(alloc.take(name, &format!("out[{k}]"))?);
        }
        let mut top = Vec::with_capacity(self.deck.len());
        for (k, name) in self.deck.iter().enumerate() {
            top.push(alloc.take(name, &format!("deck[{k}]"))?);
        }
        let mut rest: Vec<Card> = Card::all().filter(|c| !alloc.used.contains(*c)).collect();
        GameRng::at_hand(self.seed, self.hand).shuffle_deck(&mut rest);
        rest.extend(top.iter().rev());
        Ok((Pile::from_slice(&rest).expect("at most 76 cards"), out))
    }

    /// The betting phase, checked against the stakes, the raises allowed and the pending
    /// decision (nothing bet before an opening, someone waiting for an answer, everyone matched
    /// after the phase).
    fn betting(&self, table: &Table, players: &[Player; MAX_PLAYERS]) -> Result<Betting, ScenarioError> {
        let cfg = self.config;
        let b = self.betting.clone().unwrap_or_default();
        let mut waiting = SeatSet::EMPTY;
        for (k, &w) in b.waiting.iter().enumerate() {
            let s = self.seat(&format!("betting.waiting[{k}]"), w)?;
            if !table.live.contains(s) {
                return Err(err(format!("betting.waiting[{k}]"), format!("seat {w} is not in the hand")));
            }
            waiting.insert(s);
        }
        let derived_cap = match cfg.stakes {
            Stakes::NoCap => u32::MAX,
            Stakes::SmallestStack => table
                .live
                .iter()
                .map(|s| players[s.index()].credits + players[s.index()].contributed)
                .filter(|&c| c >= 1)
                .min()
                .unwrap_or(0),
        };
        let cap = b.cap.unwrap_or(derived_cap);
        if b.to_match > cap {
            return Err(err("betting.to_match", format!("{} is above the stakes cap {cap}", b.to_match)));
        }
        if b.raises > cfg.raises_per_phase {
            return Err(err(
                "betting.raises",
                format!("{} is above config.raises_per_phase {}", b.raises, cfg.raises_per_phase),
            ));
        }
        for (i, p) in players.iter().enumerate().take(usize::from(table.n)) {
            if p.contributed > b.to_match {
                return Err(err(
                    format!("players[{i}].contributed"),
                    format!("{} is above betting.to_match {}", p.contributed, b.to_match),
                ));
            }
        }
        let contributed_sum: u64 = self.players.iter().map(|p| u64::from(p.contributed)).sum();
        let fresh = b.to_match == 0 && b.raises == 0 && contributed_sum == 0;
        let matched = table.live.iter().all(|s| players[s.index()].contributed == b.to_match);
        match self.decision {
            ScenarioDecision::Bet => {
                if !fresh || !waiting.is_empty() {
                    return Err(err("betting", "nothing is bet, raised or waiting before the turn player opens"));
                }
            }
            ScenarioDecision::Answer => {
                if waiting.is_empty() {
                    return Err(err("betting.waiting", "an answer needs at least one player waiting to answer"));
                }
                if b.to_match == 0 && !fresh {
                    return Err(err("betting", "with no bet standing nobody has put anything in or raised"));
                }
                for s in table.live.iter() {
                    if players[s.index()].contributed < b.to_match && !waiting.contains(s) {
                        return Err(err(
                            "betting.waiting",
                            format!("seat {} has not matched yet and must be waiting", s.0),
                        ));
                    }
                }
            }
            _ => {
                if !waiting.is_empty() || !matched {
                    return Err(err(
                        "betting",
                        "after the betting phase nobody is waiting and every player still in has matched",
                    ));
                }
            }
        }
        Ok(Betting { to_match: b.to_match, raises: b.raises, cap, waiting })
    }

    /// Whose decision it is: the scenario's `actor`, or by default the turn player, the first
    /// seat waiting to answer, or the first seat that may call; checked against the decision.
    fn actor(&self, table: &Table, players: &[Player; MAX_PLAYERS], waiting: SeatSet) -> Result<Seat, ScenarioError> {
        let (n, turn) = (table.n, table.turn);
        let may_call = |s: Seat| table.live.contains(s) && players[s.index()].credits >= 1;
        let actor = match self.actor {
            Some(a) => self.seat("actor", a)?,
            None => match self.decision {
                ScenarioDecision::Answer => waiting.next_after(turn, n).expect("waiting is not empty"),
                ScenarioDecision::Call => {
                    (1..n).map(|k| turn.offset(k, n)).find(|&s| may_call(s)).ok_or_else(|| {
                        err("decision", "nobody but the turn player may call (still in, holding a credit)")
                    })?
                }
                _ => turn,
            },
        };
        match self.decision {
            ScenarioDecision::Bet | ScenarioDecision::Draw | ScenarioDecision::Drop if actor != turn => {
                Err(err("actor", format!("seat {} decides, but it is seat {}'s turn", actor.0, turn.0)))
            }
            ScenarioDecision::Answer if !waiting.contains(actor) => {
                Err(err("actor", format!("seat {} is not waiting to answer", actor.0)))
            }
            ScenarioDecision::Call if actor == turn => {
                Err(err("actor", "the turn player never calls on their own turn"))
            }
            ScenarioDecision::Call if !may_call(actor) => {
                Err(err("actor", format!("seat {} may not call (folded, left, or no credits)", actor.0)))
            }
            _ => Ok(actor),
        }
    }

    /// This turn's die: a die value, and only after the betting phase.
    fn check_die(&self) -> Result<(), ScenarioError> {
        let Some(d) = self.die else { return Ok(()) };
        if !(1..=6).contains(&d) {
            return Err(err("die", format!("{d} is not a die value 1–6")));
        }
        if matches!(self.decision, ScenarioDecision::Bet | ScenarioDecision::Answer) {
            return Err(err("die", "the die is rolled after the betting phase"));
        }
        Ok(())
    }

    /// The engine's pending decision for the scenario's.
    fn pending(&self) -> Pending {
        match self.decision {
            ScenarioDecision::Bet => Pending::Bet,
            ScenarioDecision::Answer => Pending::Answer,
            ScenarioDecision::Call => Pending::Call,
            ScenarioDecision::Draw => Pending::Draw,
            ScenarioDecision::Drop => Pending::Drop,
        }
    }

    /// The scenario of a position (`None` once the game is over). The latest shift's cards, the
    /// last hand's result, the event log and the random streams' positions are not part of it.
    pub fn from_state(state: &State) -> Option<Scenario> {
        if state.is_terminal() {
            return None;
        }
        let n = state.num_players() as usize;
        let players = (0..n)
            .map(|i| {
                let p = state.player(Seat(i as u8));
                ScenarioPlayer {
                    hand: p.hand.names(),
                    credits: p.credits,
                    folded: p.folded,
                    left: !p.in_game,
                    contributed: p.contributed,
                    hand_start_credits: Some(p.hand_start_credits),
                }
            })
            .collect();
        let b = state.betting();
        let decision = match state.pending() {
            Pending::Bet => ScenarioDecision::Bet,
            Pending::Answer => ScenarioDecision::Answer,
            Pending::Call => ScenarioDecision::Call,
            Pending::Draw => ScenarioDecision::Draw,
            Pending::Drop => ScenarioDecision::Drop,
            Pending::GameOver | Pending::Truncated => return None,
        };
        Some(Scenario {
            config: *state.config(),
            seed: state.rng().seed(),
            hand: state.hand_number(),
            round: state.round(),
            dealer: state.dealer().0,
            turn: Some(state.turn_seat().0),
            actor: state.current_player().map(|s| s.0),
            decision,
            players,
            hand_pot: state.hand_pot(),
            sabacc_pot: state.sabacc_pot(),
            betting: Some(ScenarioBetting {
                to_match: b.to_match,
                raises: b.raises,
                cap: Some(b.cap),
                waiting: b.waiting.iter().map(|s| s.0).collect(),
            }),
            deck: state.deck().as_slice().iter().rev().map(|c| c.name()).collect(),
            out: state.out_of_play().names(),
            die: state.die(),
            dice: state.rng().script().remaining().to_vec(),
        })
    }
}
