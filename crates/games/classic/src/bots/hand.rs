//! What every bot shares: how a hand stands at a call under the rules in force, which cards the
//! viewer cannot place, and a sampled picture of the opponents' hands.

use crate::card::{Card, Face};
use crate::config::{IdiotsArrayPots, IdiotsArrayShape, RuleConfig, Totals};
use crate::state::HandClass;
use crate::view::PlayerView;
use game::seat::Seat;
use rand::{Rng, RngExt};

/// The key of a hand that bombed out: below every other.
pub const BOMBED: i32 = -1000;
/// The key of a Pure Sabacc: above every plain total.
pub const PURE: i32 = 100;
/// The key of an Idiot's Array that takes both pots: above a Pure Sabacc.
pub const ARRAY: i32 = 200;

/// The sum of the cards' values (C4.2).
#[inline]
pub fn total(cfg: &RuleConfig, cards: &[Card]) -> i16 {
    cards.iter().map(|c| c.value(&cfg.face_values)).sum()
}

/// Whether a total bombs out (C4.2).
#[inline]
pub fn bombs(total: i16) -> bool {
    !(-23..=23).contains(&total) || total == 0
}

/// What decides a hand's standing at a call: its total, its size and the cards an Idiot's Array
/// needs. Cheap to update card by card, so a bot can weigh every possible draw without building
/// hands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The hand's total.
    pub total: i16,
    /// Cards held.
    pub len: u8,
    /// Idiots held.
    pub idiots: u8,
    /// Suit cards of rank 2 held.
    pub twos: u8,
    /// Suit cards of rank 3 held.
    pub threes: u8,
}

impl Summary {
    /// The summary of these cards.
    #[inline]
    pub fn of(cfg: &RuleConfig, cards: &[Card]) -> Summary {
        let mut s = Summary::default();
        for &c in cards {
            s.add(cfg, c);
        }
        s
    }

    /// The summary with one more card.
    #[inline]
    pub fn add(&mut self, cfg: &RuleConfig, c: Card) {
        self.total += c.value(&cfg.face_values);
        self.len += 1;
        self.idiots += (c.face() == Some(Face::Idiot)) as u8;
        self.twos += (c.rank() == Some(2)) as u8;
        self.threes += (c.rank() == Some(3)) as u8;
    }

    /// The summary with one card fewer (one that is held).
    #[inline]
    pub fn remove(&mut self, cfg: &RuleConfig, c: Card) {
        self.total -= c.value(&cfg.face_values);
        self.len -= 1;
        self.idiots -= (c.face() == Some(Face::Idiot)) as u8;
        self.twos -= (c.rank() == Some(2)) as u8;
        self.threes -= (c.rank() == Some(3)) as u8;
    }

    /// [`Summary::add`] as a new value.
    #[inline]
    pub fn with(mut self, cfg: &RuleConfig, c: Card) -> Summary {
        self.add(cfg, c);
        self
    }

    /// [`Summary::remove`] as a new value.
    #[inline]
    pub fn without(mut self, cfg: &RuleConfig, c: Card) -> Summary {
        self.remove(cfg, c);
        self
    }

    /// Whether the hand is an Idiot's Array under the rules in force (C4.4).
    #[inline]
    pub fn is_array(&self, cfg: &RuleConfig) -> bool {
        let shape = match cfg.idiots_array {
            IdiotsArrayShape::ExactlyThree => self.len == 3,
            IdiotsArrayShape::AnyHand => self.len >= 3,
        };
        shape && self.idiots > 0 && self.twos > 0 && self.threes > 0
    }

    /// What the hand would be at a call (the same as `State::classify`).
    #[inline]
    pub fn class(&self, cfg: &RuleConfig) -> HandClass {
        let t = self.total;
        if self.is_array(cfg) {
            HandClass::IdiotsArray
        } else if t == 23 || (t == -23 && cfg.totals == Totals::ClosestAbsolute) {
            HandClass::PureSabacc
        } else if bombs(t) {
            HandClass::Bombed
        } else {
            HandClass::Normal
        }
    }

    /// How the hand stands for the hand pot at a call: a higher key beats a lower one, equal
    /// keys tie (a sudden demise). Bombed hands get [`BOMBED`] and never win.
    #[inline]
    pub fn key(&self, cfg: &RuleConfig) -> i32 {
        let t = self.total;
        let plain = || -> i32 {
            if bombs(t) {
                BOMBED
            } else {
                match cfg.totals {
                    Totals::Highest => t as i32,
                    Totals::ClosestAbsolute => t.abs() as i32,
                }
            }
        };
        match self.class(cfg) {
            HandClass::IdiotsArray if cfg.idiots_array_pots == IdiotsArrayPots::Both => ARRAY,
            // With `sabacc-pot-only` the array plays for the hand pot with its literal total.
            HandClass::IdiotsArray => plain(),
            HandClass::PureSabacc => PURE,
            HandClass::Bombed => BOMBED,
            HandClass::Normal => plain(),
        }
    }

    /// Whether the hand would take the sabacc pot if nobody shows a better special hand.
    #[inline]
    pub fn special(&self, cfg: &RuleConfig) -> bool {
        matches!(self.class(cfg), HandClass::PureSabacc | HandClass::IdiotsArray)
    }
}

/// What the hand would be at a call (the same as `State::classify`).
pub fn class(cfg: &RuleConfig, cards: &[Card]) -> HandClass {
    Summary::of(cfg, cards).class(cfg)
}

/// Whether the hand would take the sabacc pot if nobody shows a better special hand.
pub fn special(cfg: &RuleConfig, cards: &[Card]) -> bool {
    Summary::of(cfg, cards).special(cfg)
}

/// How the hand stands for the hand pot at a call (see [`Summary::key`]).
pub fn key(cfg: &RuleConfig, cards: &[Card]) -> i32 {
    Summary::of(cfg, cards).key(cfg)
}

/// What the viewer knows of the cards: those it cannot place and who holds how many of them.
#[derive(Clone, Debug)]
pub struct Knowledge {
    /// Cards neither in the viewer's hand nor put out of play by the viewer: each may be in an
    /// opponent's hand, out of play or in the deck, and the next card drawn is one of them, each
    /// equally likely.
    pub unseen: Vec<Card>,
    /// Opponents still in the hand, with the number of cards each holds.
    pub opponents: Vec<(Seat, usize)>,
}

impl Knowledge {
    /// The viewer's knowledge, from its view alone.
    pub fn of(view: &PlayerView) -> Knowledge {
        let mut known = view.put_out;
        for &c in view.hand.as_slice() {
            known.insert(c);
        }
        let unseen = Card::all().filter(|&c| !known.contains(c)).collect();
        let opponents = (0..view.config.players as usize)
            .filter(|&i| i != view.viewer.index())
            .filter(|&i| view.seats[i].in_game && !view.seats[i].folded)
            .map(|i| (Seat(i as u8), view.seats[i].hand_len as usize))
            .collect();
        Knowledge { unseen, opponents }
    }
}

/// Candidate hands per opponent, once it has steered its hand (a completed turn: it drew, or
/// passed on what it held). A freshly dealt hand is random.
pub const STEERED: usize = 2;
/// Extra candidate hands for an opponent who put credits in this phase (a bet, a raise, a match).
pub const SHOWN: usize = 2;

/// How many random hands an opponent's hand is the best of, in the bots' model of play: 1 for a
/// fresh deal, `steered` ([`STEERED`]) once it has had a turn, `shown` ([`SHOWN`]) more when it
/// put credits in this betting phase.
pub fn skill(view: &PlayerView, seat: Seat, steered: usize, shown: usize) -> usize {
    let sv = &view.seats[seat.index()];
    let base = if sv.completed_turns > 0 { steered } else { 1 };
    base + if sv.contributed > 0 { shown } else { 0 }
}

/// The opponents' best key at a call, over sampled deals of the unseen cards: the strength a
/// hand must beat.
#[derive(Clone, Debug, Default)]
pub struct Field {
    /// The best opponent key of each sample, sorted.
    best: Vec<i32>,
}

impl Field {
    /// Samples `samples` deals of the unseen cards to the opponents' hands (their public sizes).
    /// Opponent `o` (in [`Knowledge::opponents`] order) is dealt `skill[o]` candidate hands and
    /// keeps the best: players still in have been steering their totals, and those who put
    /// credits in have shown strength, so a plain random hand underrates them.
    pub fn sample<R: Rng + ?Sized>(
        cfg: &RuleConfig,
        know: &Knowledge,
        samples: usize,
        skill: &[usize],
        rng: &mut R,
    ) -> Field {
        if know.opponents.is_empty() {
            return Field::default();
        }
        let mut pool = know.unseen.clone();
        let need: usize = know.opponents.iter().map(|&(_, k)| k).sum::<usize>().min(pool.len());
        let rounds = skill.iter().copied().max().unwrap_or(1).max(1);
        let mut best = Vec::with_capacity(samples);
        let mut per = [BOMBED; game::seat::MAX_PLAYERS];
        for _ in 0..samples.max(1) {
            per.iter_mut().for_each(|k| *k = BOMBED);
            for round in 0..rounds {
                for i in 0..need {
                    let j = rng.random_range(i..pool.len());
                    pool.swap(i, j);
                }
                let mut at = 0;
                for (o, &(_, k)) in know.opponents.iter().enumerate() {
                    let end = (at + k).min(need);
                    if round < skill.get(o).copied().unwrap_or(1).max(1) {
                        per[o] = per[o].max(Summary::of(cfg, &pool[at..end]).key(cfg));
                    }
                    at = end;
                }
            }
            best.push(per[..know.opponents.len()].iter().copied().max().unwrap_or(BOMBED));
        }
        best.sort_unstable();
        Field { best }
    }

    /// The chance that a hand of this key wins the hand pot at a call: it beats every opponent,
    /// a tie counting one half. A bombed hand never wins.
    pub fn win(&self, key: i32) -> f64 {
        if key == BOMBED {
            return 0.0;
        }
        if self.best.is_empty() {
            return 1.0;
        }
        let below = self.best.partition_point(|&b| b < key);
        let tied = self.best.partition_point(|&b| b <= key) - below;
        (below as f64 + 0.5 * tied as f64) / self.best.len() as f64
    }
}

/// The largest legal bet or raise among the run of actions starting at `first` (a `Bet(1)` or
/// `Raise(1)` index), if any.
pub(crate) fn largest_in_run(legal: crate::action::ActionMask, first: usize, len: usize) -> Option<u8> {
    (0..len).rev().find(|&i| legal.contains_index(first + i)).map(|i| i as u8 + 1)
}
