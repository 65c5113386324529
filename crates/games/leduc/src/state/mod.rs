//! The state of one hand of Leduc hold'em.
//!
//! A hand is a pure function of its rules, its [`Deal`] and its actions: that is also how a
//! state is serialized ([`record::StateRecord`]), so a state read back is replayed through [`State::apply`]
//! and cannot be inconsistent.

mod invariants;
pub mod record;
mod showdown;

pub use showdown::{compare, strength};

use crate::action::{Action, ActionMask};
use crate::betting::Betting;
use crate::card::Card;
use crate::config::PLAYERS;
use crate::config::{ConfigError, ROUNDS, RuleConfig};
use crate::deal::Deal;
use crate::error::{ActionError, DealError};
use crate::event::Event;
use crate::view::PlayerView;
use game::Seat;
use std::cmp::Ordering;

/// One hand in progress or finished.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    rules: RuleConfig,
    deal: Deal,
    /// The seed the deal came from (0 for a deal given card by card).
    seed: u64,
    /// 1 or 2.
    round: u8,
    history: [Vec<Action>; ROUNDS],
    contributions: [u32; PLAYERS],
    folded: Option<Seat>,
    over: bool,
    events: Vec<Event>,
}

impl State {
    /// A hand dealt at random from `seed` (see [`Deal::random`]).
    pub fn new(rules: RuleConfig, seed: u64) -> Result<State, ConfigError> {
        rules.validate()?;
        Ok(State { seed, ..State::start(rules, Deal::random(seed)) })
    }

    /// A hand with these cards, for exact enumeration and scenarios; the three cards must be
    /// distinct.
    pub fn with_deal(rules: RuleConfig, private: [Card; PLAYERS], public: Card) -> Result<State, DealError> {
        rules.validate()?;
        Ok(State::start(rules, Deal::new(private, public)?))
    }

    /// A hand with this deal (see [`State::with_deal`]).
    pub fn from_deal(rules: RuleConfig, deal: Deal) -> Result<State, ConfigError> {
        rules.validate()?;
        Ok(State::start(rules, deal))
    }

    fn start(rules: RuleConfig, deal: Deal) -> State {
        let ante = rules.ante;
        State {
            rules,
            deal,
            seed: 0,
            round: 1,
            history: Default::default(),
            contributions: [ante; PLAYERS],
            folded: None,
            over: false,
            events: vec![Event::Deal { ante, cards: deal.private.map(Some) }],
        }
    }

    /// The seed the deal came from (0 for a deal given card by card).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The rules.
    pub fn rules(&self) -> &RuleConfig {
        &self.rules
    }

    /// The full deal, hidden cards included (for tests, logs and scenarios, not for players).
    pub fn deal(&self) -> Deal {
        self.deal
    }

    /// The seat to act, `None` once the hand is over.
    pub fn current_player(&self) -> Option<Seat> {
        (!self.over).then(|| Seat((self.round_actions().len() % PLAYERS) as u8))
    }

    /// The betting round: 1 or 2 (a hand that ended in round 1 stays at 1).
    pub fn round(&self) -> u8 {
        self.round
    }

    /// True once the hand is over (a fold or a showdown).
    pub fn is_terminal(&self) -> bool {
        self.over
    }

    /// The legal actions of the player to act (empty once the hand is over).
    pub fn legal_mask(&self) -> ActionMask {
        if self.over {
            return ActionMask::default();
        }
        self.betting().legal(&self.rules)
    }

    /// The legal actions in index order.
    pub fn legal_actions(&self) -> Vec<Action> {
        self.legal_mask().actions().collect()
    }

    /// The current round's standing.
    fn betting(&self) -> Betting {
        // Every stored action went through `apply`, which only accepts legal ones.
        Betting::replay(&self.rules, self.round_actions()).expect("stored history is legal")
    }

    fn round_actions(&self) -> &[Action] {
        &self.history[usize::from(self.round - 1)]
    }

    /// Applies the action of the player to act; on error the state is unchanged.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        let seat = self.current_player().ok_or(ActionError::GameOver)?;
        let legal = self.legal_mask();
        if !legal.contains(action) {
            return Err(ActionError::Illegal { action, seat, legal });
        }
        let (me, opp) = (seat.index(), 1 - seat.index());
        let to_call = self.contributions[opp] - self.contributions[me];
        match action {
            Action::Fold => {}
            Action::Call => self.contributions[me] += to_call,
            Action::Raise => self.contributions[me] += to_call + self.rules.raise_size(self.round),
        }
        self.history[usize::from(self.round - 1)].push(action);
        self.events.push(Event::Action { seat, action });
        if action == Action::Fold {
            self.folded = Some(seat);
            self.events.push(Event::Fold { seat });
            self.finish();
        } else if self.betting().closed {
            if self.round == 1 {
                self.round = 2;
                self.events.push(Event::PublicCard { card: self.deal.public });
            } else {
                self.events.push(Event::Showdown { cards: self.deal.private });
                self.finish();
            }
        }
        Ok(())
    }

    /// Applies the action with this index (0 fold, 1 call, 2 raise).
    pub fn apply_index(&mut self, index: usize) -> Result<(), ActionError> {
        self.apply(Action::from_index(index).ok_or(ActionError::OutOfRange(index))?)
    }

    fn finish(&mut self) {
        self.over = true;
        self.events.push(Event::Result { returns: self.returns() });
    }

    /// Chips in the pot.
    pub fn pot(&self) -> u32 {
        self.contributions.iter().sum()
    }

    /// Chips each seat has put in, by seat index.
    pub fn contributions(&self) -> [u32; PLAYERS] {
        self.contributions
    }

    /// Whether the hand went to a showdown (both private cards become public).
    pub fn is_showdown(&self) -> bool {
        self.over && self.folded.is_none()
    }

    /// The seat that folded, if the hand ended on a fold.
    pub fn folded(&self) -> Option<Seat> {
        self.folded
    }

    /// Chips won (positive) or lost (negative) by seat; zero before the end. The loser loses
    /// what it put in and the winner wins it; a split returns each its own chips.
    pub fn returns(&self) -> [f64; PLAYERS] {
        if !self.over {
            return [0.0; PLAYERS];
        }
        let loser = match self.folded {
            Some(s) => s,
            None => match compare(self.deal.private, self.deal.public) {
                Ordering::Greater => Seat(1),
                Ordering::Less => Seat(0),
                Ordering::Equal => return [0.0; PLAYERS],
            },
        };
        let lost = f64::from(self.contributions[loser.index()]);
        let mut r = [lost; PLAYERS];
        r[loser.index()] = -lost;
        r
    }

    /// Seats with a positive return, or both on a split; empty before the end.
    pub fn winners(&self) -> Vec<Seat> {
        if !self.over {
            return Vec::new();
        }
        let r = self.returns();
        let winners: Vec<Seat> = (0..PLAYERS).filter(|&i| r[i] > 0.0).map(|i| Seat(i as u8)).collect();
        if winners.is_empty() { (0..PLAYERS).map(|i| Seat(i as u8)).collect() } else { winners }
    }

    /// The betting of round 1 and round 2, as everyone saw it.
    pub fn public_history(&self) -> &[Vec<Action>; ROUNDS] {
        &self.history
    }

    /// Every action in order, both rounds.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        self.history.iter().flatten().copied()
    }

    /// The public card, once round 2 has begun.
    pub fn public_card(&self) -> Option<Card> {
        (self.round == 2).then_some(self.deal.public)
    }

    /// The full event log (hidden cards included).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The event log as `viewer` sees it (`None`: a spectator).
    pub fn events_for(&self, viewer: Option<Seat>) -> Vec<Event> {
        self.events.iter().map(|e| e.seen_by(viewer)).collect()
    }

    /// What `seat` may see: its own card, the public card once revealed, the opponent's card
    /// only after a showdown, and everything public. (A seat number above 1 is read modulo 2,
    /// so a bad seat cannot panic; heads-up callers only ever pass seat 0 or 1.)
    pub fn view(&self, seat: Seat) -> PlayerView {
        let i = seat.index() % PLAYERS;
        PlayerView {
            seat: Seat(i as u8),
            rules: self.rules,
            own_card: self.deal.private[i],
            public_card: self.public_card(),
            opponent_card: self.is_showdown().then_some(self.deal.private[1 - i]),
            history: self.history.clone(),
            pot: self.pot(),
            contributions: self.contributions,
            to_act: self.current_player(),
            round: self.round,
            returns: self.over.then(|| self.returns()),
        }
    }
}
