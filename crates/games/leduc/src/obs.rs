//! The observation encoder: a fixed-length `f32` vector built only from a [`PlayerView`], so it
//! cannot hold anything the viewer may not see.
//!
//! The layout is the list of named [`SEGMENTS`]. Per-seat blocks are in *relative* order:
//! index 0 is the viewer, index 1 the opponent, so one network can play either seat. Every
//! float lies in [0, 1]. Two decision points the viewer can tell apart always encode
//! differently, because the seat, both cards and the whole betting are in the vector; the rest
//! (pot, contributions, turn) follows from those. Bump [`OBS_VERSION`] on any change to the
//! layout or a scaling.

use crate::action::{Action, NUM_ACTIONS};
use crate::card::{Card, NUM_RANKS, NUM_SUITS};
use crate::config::PLAYERS;
use crate::config::{MAX_ROUND_ACTIONS, ROUNDS};
use crate::view::PlayerView;

/// Version of the observation layout; bumped on every change to [`SEGMENTS`] or its meaning.
pub const OBS_VERSION: u32 = 1;

/// One named slice of the observation vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Stable name.
    pub name: &'static str,
    /// First index in the vector.
    pub offset: usize,
    /// Number of floats.
    pub len: usize,
    /// What the floats mean.
    pub doc: &'static str,
}

const HISTORY_LEN: usize = MAX_ROUND_ACTIONS * NUM_ACTIONS;

const O_SEAT: usize = 0;
const O_OWN_RANK: usize = O_SEAT + PLAYERS;
const O_OWN_SUIT: usize = O_OWN_RANK + NUM_RANKS;
const O_PUBLIC_RANK: usize = O_OWN_SUIT + NUM_SUITS;
const O_PUBLIC_SUIT: usize = O_PUBLIC_RANK + NUM_RANKS;
const O_ROUND: usize = O_PUBLIC_SUIT + NUM_SUITS;
const O_HISTORY: [usize; ROUNDS] = [O_ROUND + ROUNDS, O_ROUND + ROUNDS + HISTORY_LEN];
const O_POT: usize = O_HISTORY[1] + HISTORY_LEN;
const O_CONTRIB: usize = O_POT + 1;
const O_TO_ACT: usize = O_CONTRIB + PLAYERS;

/// Length of the observation vector.
pub const OBS_LEN: usize = O_TO_ACT + PLAYERS;

/// The layout, in vector order; the segments tile `0..OBS_LEN`.
pub const SEGMENTS: [Segment; 11] = [
    Segment { name: "seat", offset: O_SEAT, len: PLAYERS, doc: "one-hot of the viewer's seat (seat 0 acts first)" },
    Segment { name: "own-rank", offset: O_OWN_RANK, len: NUM_RANKS, doc: "one-hot of the viewer's card rank: J, Q, K" },
    Segment { name: "own-suit", offset: O_OWN_SUIT, len: NUM_SUITS, doc: "one-hot of the viewer's card suit: s, h" },
    Segment {
        name: "public-rank",
        offset: O_PUBLIC_RANK,
        len: NUM_RANKS,
        doc: "one-hot of the public card rank: J, Q, K; zeros until it is revealed",
    },
    Segment {
        name: "public-suit",
        offset: O_PUBLIC_SUIT,
        len: NUM_SUITS,
        doc: "one-hot of the public card suit: s, h; zeros until it is revealed",
    },
    Segment { name: "round", offset: O_ROUND, len: ROUNDS, doc: "one-hot of the betting round: 1, 2" },
    Segment {
        name: "history-round-1",
        offset: O_HISTORY[0],
        len: HISTORY_LEN,
        doc: "round-1 actions in order, one slot of three (fold, call, raise) per action; unused slots are zeros",
    },
    Segment {
        name: "history-round-2",
        offset: O_HISTORY[1],
        len: HISTORY_LEN,
        doc: "round-2 actions, as for round 1; all zeros before round 2",
    },
    Segment {
        name: "pot", offset: O_POT, len: 1, doc: "the pot over the largest possible pot (2 × max contribution)"
    },
    Segment {
        name: "contributions",
        offset: O_CONTRIB,
        len: PLAYERS,
        doc: "chips put in by the viewer, then the opponent, each over the max contribution",
    },
    Segment {
        name: "to-act",
        offset: O_TO_ACT,
        len: PLAYERS,
        doc: "1 for whoever acts: the viewer, then the opponent; zeros once the hand is over",
    },
];

const _: () = {
    let mut end = 0;
    let mut i = 0;
    while i < SEGMENTS.len() {
        assert!(SEGMENTS[i].offset == end);
        end += SEGMENTS[i].len;
        i += 1;
    }
    assert!(end == OBS_LEN);
};

/// The segment with this name.
pub fn segment(name: &str) -> Option<Segment> {
    SEGMENTS.iter().find(|s| s.name == name).copied()
}

/// Writes the observation of `view.seat` into `out` (length [`OBS_LEN`]), overwriting all of it.
/// A pure function of the view.
///
/// # Panics
/// If `out.len() != OBS_LEN` (a caller's buffer bug, not a game input).
pub fn encode(view: &PlayerView, out: &mut [f32]) {
    assert_eq!(out.len(), OBS_LEN, "observation buffer must hold OBS_LEN floats");
    out.fill(0.0);
    let me = view.seat.index() % PLAYERS;
    let rel = [me, 1 - me];
    out[O_SEAT + me] = 1.0;
    card(out, O_OWN_RANK, O_OWN_SUIT, view.own_card);
    if let Some(c) = view.public_card {
        card(out, O_PUBLIC_RANK, O_PUBLIC_SUIT, c);
    }
    out[O_ROUND + usize::from(view.round.clamp(1, 2) - 1)] = 1.0;
    for (r, actions) in view.history.iter().enumerate() {
        for (k, a) in actions.iter().take(MAX_ROUND_ACTIONS).enumerate() {
            out[O_HISTORY[r] + k * NUM_ACTIONS + a.index()] = 1.0;
        }
    }
    let max = view.rules.max_contribution().max(1) as f32;
    out[O_POT] = (view.pot as f32 / (2.0 * max)).min(1.0);
    for (i, &seat) in rel.iter().enumerate() {
        out[O_CONTRIB + i] = (view.contributions[seat] as f32 / max).min(1.0);
        if view.to_act.map(|s| s.index()) == Some(seat) {
            out[O_TO_ACT + i] = 1.0;
        }
    }
}

fn card(out: &mut [f32], rank_at: usize, suit_at: usize, c: Card) {
    out[rank_at + c.rank.index()] = 1.0;
    out[suit_at + c.suit.index()] = 1.0;
}

/// The observation as a new vector (see [`encode`]).
pub fn encode_vec(view: &PlayerView) -> Vec<f32> {
    let mut out = vec![0.0; OBS_LEN];
    encode(view, &mut out);
    out
}

/// Checks that a vector could have come from [`encode`]: its length, every float in [0, 1],
/// one-hot segments one-hot, the public card present exactly in round 2, and each round's
/// history a run of one-hot slots followed by empty ones.
pub fn check_ranges(obs: &[f32]) -> Result<(), String> {
    if obs.len() != OBS_LEN {
        return Err(format!("observation has {} floats, not {OBS_LEN}", obs.len()));
    }
    for seg in &SEGMENTS {
        for (i, &x) in obs[seg.offset..seg.offset + seg.len].iter().enumerate() {
            if !x.is_finite() || !(0.0..=1.0).contains(&x) {
                return Err(format!("observation[{}] = {x}: {} {i} is outside [0, 1]", seg.offset + i, seg.name));
            }
        }
    }
    let block = |at: usize, len: usize| &obs[at..at + len];
    let ones = |b: &[f32]| -> Result<usize, String> {
        if b.iter().any(|&x| x != 0.0 && x != 1.0) {
            return Err(format!("{b:?} is not 0/1"));
        }
        Ok(b.iter().filter(|&&x| x == 1.0).count())
    };
    for name in ["seat", "own-rank", "own-suit", "round"] {
        let s = segment(name).ok_or("missing segment")?;
        if ones(block(s.offset, s.len))? != 1 {
            return Err(format!("segment {name} is not one-hot: {:?}", block(s.offset, s.len)));
        }
    }
    let round2 = obs[O_ROUND + 1] == 1.0;
    let public = [ones(block(O_PUBLIC_RANK, NUM_RANKS))?, ones(block(O_PUBLIC_SUIT, NUM_SUITS))?];
    if public != if round2 { [1, 1] } else { [0, 0] } {
        return Err(format!("public card one-hots {public:?} in round {}", 1 + usize::from(round2)));
    }
    for (r, &at) in O_HISTORY.iter().enumerate() {
        let mut ended = false;
        for k in 0..MAX_ROUND_ACTIONS {
            match ones(block(at + k * NUM_ACTIONS, NUM_ACTIONS))? {
                0 => ended = true,
                1 if !ended => {}
                n => {
                    return Err(format!(
                        "round {} history slot {k} has {n} flags after an empty slot or more than one",
                        r + 1
                    ));
                }
            }
        }
        if r == 1 && !round2 && obs[at..at + HISTORY_LEN].iter().any(|&x| x != 0.0) {
            return Err("round-2 history before round 2".into());
        }
    }
    if ones(block(O_TO_ACT, PLAYERS))? > 1 {
        return Err("both seats to act".into());
    }
    Ok(())
}

/// The action in a history slot of an observation (`None` for an empty slot), for decoding
/// and debugging.
pub fn history_slot(obs: &[f32], round: usize, slot: usize) -> Option<Action> {
    if round >= ROUNDS || slot >= MAX_ROUND_ACTIONS || obs.len() != OBS_LEN {
        return None;
    }
    let at = O_HISTORY[round] + slot * NUM_ACTIONS;
    (0..NUM_ACTIONS).find(|&i| obs[at + i] == 1.0).and_then(Action::from_index)
}
