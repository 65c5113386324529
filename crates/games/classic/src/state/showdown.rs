//! Winning a hand (C4): the fold win, the reveal at a call, bombing out, special hands, sudden
//! demise, splitting pots, and penalties.
//!
//! A call is settled as one or two **contests**, each a set of tied players and the pots at
//! stake: with a special hand, its best holders contest both pots (or, when an Idiot's Array
//! wins the sabacc pot only, the sabacc pot, and the best totals contest the hand pot apart);
//! without one, the best totals contest the hand pot. Contests with more than one player share
//! one sudden demise, so no player is dealt more than one demise card.

use super::State;
use crate::card::{Card, Face, Hand};
use crate::config::{AllBombed, CallerPenalty, IdiotsArrayPots, IdiotsArrayShape, Totals};
use crate::event::{Event, Pot};
pub use crate::hand_end::{HandClass, HandEnd};
use game::seat::{MAX_PLAYERS, Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// One seat's part in a finished hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatResult {
    /// Folded before the end.
    pub folded: bool,
    /// The cards shown at the call (empty when not revealed).
    pub hand: Hand,
    /// Their total (0 when not revealed).
    pub total: i16,
    /// What the hand was at the call (`normal` when not revealed).
    pub class: HandClass,
    /// The sudden-demise card, if one was dealt.
    pub demise_card: Option<Card>,
    /// The total after the demise card.
    pub demise_total: Option<i16>,
    /// Credits won from the hand pot.
    pub hand_pot_won: u32,
    /// Credits won from the sabacc pot.
    pub sabacc_pot_won: u32,
    /// Penalty owed to the sabacc pot (C4.5).
    pub penalty_owed: u32,
    /// Penalty actually paid (all the player held, if less).
    pub penalty_paid: u32,
    /// Credits at the start of the hand, before the antes.
    pub credits_before: u32,
    /// Credits at the end of the hand.
    pub credits_after: u32,
}

impl SeatResult {
    /// Credits won (positive) or lost over the hand, antes included: the per-hand reward of C5.3
    /// before scaling.
    pub fn credit_change(&self) -> i64 {
        self.credits_after as i64 - self.credits_before as i64
    }
}

/// The result of one hand: public once the hand is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HandResult {
    /// The hand number.
    pub hand: u32,
    /// How it ended.
    pub end: HandEnd,
    /// The hand pot when the hand ended (the amount of each penalty at a call).
    pub hand_pot: u32,
    /// Winners of (a share of) the hand pot.
    pub hand_pot_winners: SeatSet,
    /// Winners of (a share of) the sabacc pot.
    pub sabacc_pot_winners: SeatSet,
    /// Players dealt a sudden-demise card.
    pub demise: SeatSet,
    /// Nobody could take the hand pot (every hand bombed out).
    pub all_bombed: bool,
    /// Per seat; `None` for seats not dealt into the hand.
    pub seats: [Option<SeatResult>; MAX_PLAYERS],
}

/// A total that bombs out (C4.2).
#[inline]
pub fn bombs(total: i16) -> bool {
    !(-23..=23).contains(&total) || total == 0
}

impl State {
    /// What a hand is at the call under this game's rules (C4.2, C4.4).
    pub fn classify(&self, hand: &Hand) -> HandClass {
        let total = hand.total(&self.config.face_values);
        let cards = hand.as_slice();
        let is_array = match self.config.idiots_array {
            IdiotsArrayShape::ExactlyThree => cards.len() == 3,
            IdiotsArrayShape::AnyHand => cards.len() >= 3,
        } && cards.iter().any(|c| c.face() == Some(Face::Idiot))
            && cards.iter().any(|c| c.rank() == Some(2))
            && cards.iter().any(|c| c.rank() == Some(3));
        if is_array {
            HandClass::IdiotsArray
        } else if total == 23 || (total == -23 && self.config.totals == Totals::ClosestAbsolute) {
            HandClass::PureSabacc
        } else if bombs(total) {
            HandClass::Bombed
        } else {
            HandClass::Normal
        }
    }

    /// How good a total that did not bomb is: higher is better (C4.3, C9).
    #[inline]
    fn score(&self, total: i16) -> i16 {
        match self.config.totals {
            Totals::Highest => total,
            Totals::ClosestAbsolute => total.abs(),
        }
    }

    /// The players among `among` with the best total that did not bomb.
    fn best_totals(&self, among: SeatSet, totals: &[i16; MAX_PLAYERS]) -> SeatSet {
        let mut best = i16::MIN;
        let mut set = SeatSet::EMPTY;
        for s in among.iter() {
            let t = totals[s.index()];
            if bombs(t) {
                continue;
            }
            let sc = self.score(t);
            if sc > best {
                best = sc;
                set = SeatSet::EMPTY;
            }
            if sc == best {
                set.insert(s);
            }
        }
        set
    }

    /// A blank result for the current hand.
    fn new_result(&self, end: HandEnd) -> HandResult {
        let mut seats = [None; MAX_PLAYERS];
        for s in self.hand_players.iter() {
            let p = &self.players[s.index()];
            seats[s.index()] = Some(SeatResult {
                folded: p.folded,
                hand: Hand::default(),
                total: 0,
                class: HandClass::Normal,
                demise_card: None,
                demise_total: None,
                hand_pot_won: 0,
                sabacc_pot_won: 0,
                penalty_owed: 0,
                penalty_paid: 0,
                credits_before: p.hand_start_credits,
                credits_after: p.credits,
            });
        }
        HandResult {
            hand: self.hand_no,
            end,
            hand_pot: self.hand_pot,
            hand_pot_winners: SeatSet::EMPTY,
            sabacc_pot_winners: SeatSet::EMPTY,
            demise: SeatSet::EMPTY,
            all_bombed: false,
            seats,
        }
    }

    /// C4.1: the one player left takes the hand pot, with no reveal and no sabacc pot.
    pub(super) fn win_by_folds(&mut self) {
        let winner = self.live.iter().next().expect("one player is left");
        let mut r = self.new_result(HandEnd::Folds { winner });
        let amount = self.hand_pot;
        self.hand_pot = 0;
        self.players[winner.index()].credits += amount;
        self.log(Event::PotWon { seat: winner, pot: Pot::Hand, amount });
        r.hand_pot_winners.insert(winner);
        if let Some(sr) = r.seats[winner.index()].as_mut() {
            sr.hand_pot_won = amount;
            sr.credits_after = self.players[winner.index()].credits;
        }
        self.last_result = Some(r);
        self.end_hand();
    }

    /// Pays `amount` in equal shares to `winners`, the remainder to the first of them from the
    /// dealer's left; returns each seat's share.
    fn split(&self, amount: u32, winners: SeatSet) -> [u32; MAX_PLAYERS] {
        let mut shares = [0u32; MAX_PLAYERS];
        let k = winners.len() as u32;
        if k == 0 {
            return shares;
        }
        for s in winners.iter() {
            shares[s.index()] = amount / k;
        }
        let n = self.config.players;
        let first = (1..=n).map(|i| self.dealer.offset(i, n)).find(|s| winners.contains(*s)).expect("non-empty");
        shares[first.index()] += amount % k;
        shares
    }

    /// Settles a call (C4.2–C4.5), by `caller` or automatically (`None`), then ends the hand.
    pub(super) fn resolve_call(&mut self, caller: Option<Seat>) {
        let end = caller.map_or(HandEnd::AutoCall, |caller| HandEnd::Called { caller });
        let mut r = self.new_result(end);
        let penalty_base = self.hand_pot;
        let n = self.config.players;
        let faces = self.config.face_values;
        let contenders = self.live;
        let mut order = [Seat(0); MAX_PLAYERS];
        let mut k = 0;
        for i in 1..=n {
            let s = self.dealer.offset(i, n);
            if self.hand_players.contains(s) {
                order[k] = s;
                k += 1;
            }
        }
        let order = &order[..k];

        // C4.2: reveal, totals and classes.
        let mut totals = [0i16; MAX_PLAYERS];
        let mut classes = [HandClass::Normal; MAX_PLAYERS];
        let mut best_special = None;
        for &s in order {
            if !contenders.contains(s) {
                continue;
            }
            let hand = self.players[s.index()].hand;
            let total = hand.total(&faces);
            let class = self.classify(&hand);
            totals[s.index()] = total;
            classes[s.index()] = class;
            if class >= HandClass::PureSabacc {
                best_special = best_special.max(Some(class));
            }
            let sr = r.seats[s.index()].as_mut().expect("a contender was dealt in");
            (sr.hand, sr.total, sr.class) = (hand, total, class);
            self.log(Event::Revealed { seat: s, hand, total, class });
        }

        // C4.3, C4.4: the contests, as (tied players, hand pot at stake, sabacc pot at stake).
        let mut contests = [(SeatSet::EMPTY, false, false); 2];
        let nc = match best_special {
            Some(HandClass::IdiotsArray) if self.config.idiots_array_pots == IdiotsArrayPots::SabaccPotOnly => {
                let holders = contenders.iter().filter(|s| classes[s.index()] == HandClass::IdiotsArray).collect();
                contests[0] = (holders, false, true);
                // The hand pot by totals, the array counting its literal total.
                let by_total = self.best_totals(contenders, &totals);
                contests[1] = (by_total, true, false);
                2
            }
            Some(best) => {
                let holders = contenders.iter().filter(|s| classes[s.index()] == best).collect();
                contests[0] = (holders, true, true);
                1
            }
            None => {
                contests[0] = (self.best_totals(contenders, &totals), true, false);
                1
            }
        };
        let contests = &contests[..nc];

        // Sudden demise: one card each to every tied player, from the dealer's left, if the deck
        // holds enough for all of them.
        let mut demise = SeatSet::EMPTY;
        for &(tied, _, _) in contests {
            if tied.len() > 1 {
                demise.0 |= tied.0;
            }
        }
        let mut demise_totals = totals;
        let dealt = !demise.is_empty() && self.deck.len() >= demise.len();
        if dealt {
            for &s in order {
                if demise.contains(s) {
                    let c = self.deck.pop().expect("deck size checked");
                    self.players[s.index()].hand.push(c);
                    let t = totals[s.index()] + c.value(&faces);
                    demise_totals[s.index()] = t;
                    let sr = r.seats[s.index()].as_mut().expect("dealt in");
                    (sr.demise_card, sr.demise_total) = (Some(c), Some(t));
                    self.log(Event::DemiseCard { seat: s, card: c, total: t });
                }
            }
            r.demise = demise;
        }

        // Awards: a contest of one wins outright; after a demise the best new total that did not
        // bomb wins, ties split; with no survivor, or no demise card dealt, the tied players split.
        let mut hand_pot_taken = false;
        let sabacc_at_stake = self.sabacc_pot;
        for &(tied, hand_pot, sabacc_pot) in contests {
            if tied.is_empty() {
                continue;
            }
            let mut winners = tied;
            if tied.len() > 1 && dealt {
                let best = self.best_totals(tied, &demise_totals);
                if !best.is_empty() {
                    winners = best;
                }
            }
            if hand_pot {
                hand_pot_taken = true;
                r.hand_pot_winners = winners;
                let shares = self.split(penalty_base, winners);
                for s in winners.iter() {
                    let amount = shares[s.index()];
                    self.players[s.index()].credits += amount;
                    r.seats[s.index()].as_mut().expect("dealt in").hand_pot_won = amount;
                    self.log(Event::PotWon { seat: s, pot: Pot::Hand, amount });
                }
                self.hand_pot = 0;
            }
            if sabacc_pot {
                r.sabacc_pot_winners = winners;
                let shares = self.split(sabacc_at_stake, winners);
                for s in winners.iter() {
                    let amount = shares[s.index()];
                    self.players[s.index()].credits += amount;
                    r.seats[s.index()].as_mut().expect("dealt in").sabacc_pot_won = amount;
                    self.log(Event::PotWon { seat: s, pot: Pot::Sabacc, amount });
                }
                self.sabacc_pot -= sabacc_at_stake;
            }
        }
        if !hand_pot_taken {
            r.all_bombed = true;
            let amount = self.hand_pot;
            match self.config.all_bombed {
                AllBombed::ToSabaccPot => {
                    self.sabacc_pot += amount;
                    self.hand_pot = 0;
                    self.log(Event::HandPotToSabacc { amount });
                }
                AllBombed::CarryOver => self.log(Event::HandPotCarried { amount }),
            }
        }

        // C4.5: penalties, after the pots, as far as credits go.
        for &s in order {
            if !contenders.contains(s) {
                continue;
            }
            let mut owed = 0u32;
            if classes[s.index()] == HandClass::Bombed {
                owed = penalty_base;
            }
            let won_something = r.hand_pot_winners.contains(s) || r.sabacc_pot_winners.contains(s);
            if caller == Some(s) && !won_something {
                owed = match self.config.caller_penalty {
                    CallerPenalty::InAddition => owed + penalty_base,
                    CallerPenalty::Once => penalty_base,
                };
            }
            if owed == 0 {
                continue;
            }
            let p = &mut self.players[s.index()];
            let paid = owed.min(p.credits);
            p.credits -= paid;
            self.sabacc_pot += paid;
            let sr = r.seats[s.index()].as_mut().expect("dealt in");
            (sr.penalty_owed, sr.penalty_paid) = (owed, paid);
            self.log(Event::Penalty { seat: s, owed, paid });
        }
        for &s in order {
            r.seats[s.index()].as_mut().expect("dealt in").credits_after = self.players[s.index()].credits;
        }
        self.last_result = Some(r);
        self.end_hand();
    }
}
