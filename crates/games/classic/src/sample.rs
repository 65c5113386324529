//! Determinisation: a full [`State`] consistent with what one player sees, the cards hidden from
//! that player dealt at random.
//!
//! Search bots start from this instead of the real state, so they cannot read a hidden card even
//! by accident. What is sampled:
//! - **Cards.** Every card the viewer cannot place (not in its hand, not among the cards it put
//!   out of play itself) is shuffled and dealt to the opponents' hands (their public sizes), to
//!   the rest of the out-of-play pile and to the deck, in that order. This is uniform over the
//!   deals consistent with the view ([`determinize`]); it infers nothing from the opponents'
//!   past choices, and a card the viewer lost in a shift counts as unseen like any other.
//!   [`determinize_biased`] lets a caller tilt the opponents' hands towards what their play
//!   suggests (each keeps the best of several random hands).
//! - **Randomness.** The state gets fresh random streams (dice, shift picks, later hands) from a
//!   seed drawn from the caller's RNG.
//! - **What no view holds** is set to a neutral value: each seat's credits at the start of the hand
//!   are taken to be its credits plus this phase's contribution, the event log is off.
//!
//! The result passes [`StateBuilder::build`]'s invariant checks and shows the viewer exactly its
//! own view: `determinize(&v, rng)?.view(v.viewer) == v`.

use crate::card::{Card, CardSet, Hand, Pile};
use crate::state::builder::{InvalidPosition, Position};
use crate::state::{Player, State, StateBuilder};
use crate::view::PlayerView;
use game::seat::{MAX_PLAYERS, Seat};
use game::stream::DiceScript;
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

/// A full state consistent with `view`, the hidden cards dealt at random (see the module
/// documentation). Fails only on a view no real state produces (the game is over, or the card
/// counts do not add up).
pub fn determinize<R: Rng + ?Sized>(view: &PlayerView, rng: &mut R) -> Result<State, InvalidPosition> {
    determinize_biased(view, rng, &[1; MAX_PLAYERS], |_| 0)
}

/// [`determinize`] with a model of the opponents' play: seat `i` is dealt `candidates[i]` random
/// hands of its size and keeps the one `score` rates highest (ties: the first), the others going
/// back among the unseen cards before the out-of-play pile and the deck are dealt. One candidate
/// everywhere is the uniform deal. Every state is still consistent with the view; only the odds
/// of the deals change.
pub fn determinize_biased<R: Rng + ?Sized>(
    view: &PlayerView,
    rng: &mut R,
    candidates: &[usize; MAX_PLAYERS],
    score: impl Fn(&[Card]) -> i32,
) -> Result<State, InvalidPosition> {
    let bad = |m: String| InvalidPosition(m);
    let actor = view.actor.ok_or_else(|| bad("the game is over: there is no decision to search".into()))?;
    let cfg = view.config;
    let n = cfg.players as usize;
    let me = view.viewer.index();

    let mut known = view.put_out;
    for &c in view.hand.as_slice() {
        known.insert(c);
    }
    let mut unseen: Vec<Card> = Card::all().filter(|&c| !known.contains(c)).collect();
    // The opponents' hands first: each candidate a random draw from the pool, the kept one taken
    // out of it.
    let mut hands: Vec<Option<Hand>> = vec![None; n];
    for (i, slot) in hands.iter_mut().enumerate() {
        let sv = &view.seats[i];
        if i == me || !sv.in_game || sv.folded {
            continue;
        }
        let k = sv.hand_len as usize;
        if k > unseen.len() {
            return Err(bad(format!("too few unseen cards for seat {i}'s hand")));
        }
        let mut best: Option<(i32, Vec<Card>)> = None;
        for _ in 0..candidates[i].max(1) {
            let (hand, _) = unseen.partial_shuffle(rng, k);
            let sc = score(hand);
            if best.as_ref().is_none_or(|(b, _)| sc > *b) {
                best = Some((sc, hand.to_vec()));
            }
        }
        let cards = best.expect("one candidate at least").1;
        unseen.retain(|c| !cards.contains(c));
        *slot = Some(Hand::from_slice(&cards).ok_or_else(|| bad(format!("seat {i} holds too many cards")))?);
    }
    unseen.shuffle(rng);
    let mut next = unseen.into_iter();
    let mut take = |k: usize, what: &str| -> Result<Vec<Card>, InvalidPosition> {
        let cards: Vec<Card> = next.by_ref().take(k).collect();
        if cards.len() == k { Ok(cards) } else { Err(bad(format!("too few unseen cards for {what}"))) }
    };

    let seed: u64 = rng.random();
    let mut b = StateBuilder::new(cfg, seed).map_err(|e| bad(e.to_string()))?;
    b.position(Position {
        hand: view.hand_no,
        round: view.round,
        dealer: view.dealer,
        turn_seat: view.turn_seat,
        actor,
        pending: view.pending,
        die: view.die,
    });
    for (i, (sv, dealt)) in view.seats.iter().zip(&hands).enumerate() {
        let hand = if i == me { view.hand } else { dealt.unwrap_or_default() };
        b.player(
            Seat(i as u8),
            Player {
                hand,
                credits: sv.credits,
                in_game: sv.in_game,
                left_in_hand: 0,
                folded: sv.folded,
                completed_turns: sv.completed_turns,
                contributed: sv.contributed,
                hand_start_credits: sv.credits + sv.contributed,
                shift: if i == me { view.shift } else { None },
                put_out: if i == me { view.put_out } else { CardSet::default() },
            },
        );
    }
    let hidden_out = (view.out_len as usize)
        .checked_sub(view.put_out.len())
        .ok_or_else(|| bad("the viewer put out more cards than are out of play".into()))?;
    let mut out = Pile::default();
    for c in view.put_out.iter().chain(take(hidden_out, "the out-of-play pile")?) {
        out.push(c);
    }
    let mut deck = Pile::default();
    for c in take(view.deck_len as usize, "the deck")? {
        deck.push(c);
    }
    if next.next().is_some() {
        return Err(bad("more unseen cards than hidden places".into()));
    }
    b.piles(deck, out)
        .pots(view.hand_pot, view.sabacc_pot)
        .betting(view.betting)
        .rng(seed, DiceScript::default())
        .last_result(view.last_result)
        .event_logging(false);
    b.build()
}
