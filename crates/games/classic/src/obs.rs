//! The observation encoder of classic Sabacc: a fixed-length `f32` vector built only from a
//! [`PlayerView`], so it cannot hold anything the viewer may not see (C6).
//!
//! The layout is a list of named segments ([`SEGMENTS`]), each a block of named fields repeated
//! to fill it; `docs/observation-classic.md` lists both and a test checks it against these
//! tables, ranges included. Per-seat blocks are in *relative seat order*: index 0 is the viewer,
//! index `o` the seat `o` places clockwise, padded with zeros to [`MAX_PLAYERS`] so the length
//! never depends on the table size. Bump [`OBS_VERSION`] whenever the layout or a scaling changes.

use crate::card::{Card, DECK_SIZE, Face, HAND_CAPACITY, MAX_HAND_SIZE, SUIT_CARDS};
use crate::config::{
    AllBombed, CallerPenalty, DealerAnte, ExchangeDrop, IdiotsArrayPots, IdiotsArrayShape, MAX_BET_LIMIT, Stakes,
    Totals,
};
use crate::state::{HandResult, Pending, State};
use crate::view::PlayerView;
use game::seat::{MAX_PLAYERS, Seat};

/// Version of the observation layout; bumped on every change to [`SEGMENTS`] or its meaning.
pub const OBS_VERSION: u32 = 1;

/// One named float of a segment's block, with the range its value always lies in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    /// Stable name, used in `docs/observation-classic.md`.
    pub name: &'static str,
    /// Smallest value.
    pub lo: f32,
    /// Largest value.
    pub hi: f32,
}

/// One named slice of the observation vector: `len / fields.len()` copies of its field block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Stable name, used in `docs/observation-classic.md`.
    pub name: &'static str,
    /// First index in the vector.
    pub offset: usize,
    /// Number of floats.
    pub len: usize,
    /// The block of fields, repeated to fill `len`.
    pub fields: &'static [Field],
}

impl Segment {
    /// The field of the float at `offset + i`.
    pub fn field(&self, i: usize) -> Field {
        self.fields[i % self.fields.len()]
    }

    /// The smallest and largest value any float of the segment may take.
    pub fn range(&self) -> (f32, f32) {
        self.fields.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), f| (lo.min(f.lo), hi.max(f.hi)))
    }
}

const fn unit(name: &'static str) -> Field {
    Field { name, lo: 0.0, hi: 1.0 }
}

/// Card values are divided by 23, the target total; a face value may be any `i8` (C9).
const VALUE_SCALE: f32 = 1.0 / 23.0;
const VALUE_LO: f32 = -128.0 / 23.0;
const VALUE_HI: f32 = 127.0 / 23.0;
/// Credit ratios to the starting credits are at most the number of seats (C1.3).
const CREDITS_HI: f32 = MAX_PLAYERS as f32;

/// A flag per slot of a one-hot segment.
pub const ONE_HOT: [Field; 1] = [unit("one-hot")];

/// The rules that change play beyond what the legal mask shows (C9).
pub const RULES_FIELDS: [Field; 11] = [
    unit("bet_limit"),
    unit("raises_per_phase"),
    unit("max_hand_size"),
    unit("closest_absolute"),
    unit("array_any_hand"),
    unit("array_sabacc_pot_only"),
    unit("no_cap"),
    unit("dealer_exempt"),
    unit("exchange_any_card"),
    unit("caller_penalty_once"),
    unit("all_bombed_carry_over"),
];

/// How far the game and the hand have gone.
pub const PROGRESS_FIELDS: [Field; 4] = [unit("hand"), unit("round"), unit("last_round"), unit("round_inv")];

/// The current turn.
pub const TURN_FIELDS: [Field; 8] = [
    unit("turn_folded"),
    unit("calls_open"),
    unit("die_1"),
    unit("die_2"),
    unit("die_3"),
    unit("die_4"),
    unit("die_5"),
    unit("die_6"),
];

/// The betting phase; amounts in units of the largest amount to match a phase can reach.
pub const BETTING_FIELDS: [Field; 6] =
    [unit("bet_stands"), unit("to_match"), unit("owed"), unit("raises"), unit("raise_open"), unit("cap")];

/// The two pots over the starting credits.
pub const POTS_FIELDS: [Field; 2] =
    [Field { name: "hand_pot", lo: 0.0, hi: CREDITS_HI }, Field { name: "sabacc_pot", lo: 0.0, hi: CREDITS_HI }];

/// Cards in the deck and out of play, over the deck size.
pub const CARDS_LEFT_FIELDS: [Field; 2] = [unit("deck"), unit("out")];

/// One card: suit card or which face card (one-hot over nine), and its value / 23.
pub const CARD_FIELDS: [Field; 10] = [
    unit("suit"),
    unit("idiot"),
    unit("queen"),
    unit("endurance"),
    unit("balance"),
    unit("demise"),
    unit("moderation"),
    unit("evil_one"),
    unit("star"),
    Field { name: "value", lo: VALUE_LO, hi: VALUE_HI },
];

/// One hand position: whether a card is there, then [`CARD_FIELDS`].
pub const HAND_SLOT_FIELDS: [Field; 11] = {
    let mut t = [unit("present"); 11];
    let mut i = 0;
    while i < CARD_FIELDS.len() {
        t[i + 1] = CARD_FIELDS[i];
        i += 1;
    }
    t
};

/// What the viewer's hand amounts to, judged as at a call (C4.2, C4.4).
pub const HAND_SUMMARY_FIELDS: [Field; 9] = [
    unit("count"),
    Field { name: "total", lo: -2.0, hi: 2.0 },
    Field { name: "gap", lo: -1.0, hi: 2.0 },
    unit("bombed"),
    unit("pure_sabacc"),
    unit("idiots_array"),
    unit("has_idiot"),
    unit("has_suit_2"),
    unit("has_suit_3"),
];

/// Card kinds for the `unseen` segment: suit ranks 1–15 (four copies each), then the face cards
/// in [`Face`] order (two copies each).
pub const KIND_NAMES: [&str; 23] = [
    "rank_1",
    "rank_2",
    "rank_3",
    "rank_4",
    "rank_5",
    "rank_6",
    "rank_7",
    "rank_8",
    "rank_9",
    "rank_10",
    "rank_11",
    "rank_12",
    "rank_13",
    "rank_14",
    "rank_15",
    "idiot",
    "queen",
    "endurance",
    "balance",
    "demise",
    "moderation",
    "evil_one",
    "star",
];

/// Per card kind, the share of its copies the viewer cannot place (see [`KIND_NAMES`]).
pub const UNSEEN_FIELDS: [Field; 23] = {
    let mut t = [unit(""); 23];
    let mut i = 0;
    while i < 23 {
        t[i] = unit(KIND_NAMES[i]);
        i += 1;
    }
    t
};

/// One seat's public facts.
pub const SEAT_FIELDS: [Field; 12] = [
    unit("present"),
    unit("in_game"),
    unit("folded"),
    unit("live"),
    Field { name: "credits", lo: 0.0, hi: CREDITS_HI },
    unit("broke"),
    unit("contributed"),
    Field { name: "paid_this_hand", lo: 0.0, hi: CREDITS_HI },
    unit("waiting"),
    unit("cards"),
    unit("turns"),
    unit("had_turn"),
];

/// Order of the `decision` one-hot.
pub const DECISION_NAMES: [&str; 7] = ["bet", "answer", "call", "draw", "drop", "game-over", "truncated"];

const NSEG: usize = 17;

const SPEC: [(&str, usize, &[Field]); NSEG] = [
    ("players", MAX_PLAYERS - 1, &ONE_HOT),
    ("rules", RULES_FIELDS.len(), &RULES_FIELDS),
    ("progress", PROGRESS_FIELDS.len(), &PROGRESS_FIELDS),
    ("decision", DECISION_NAMES.len(), &ONE_HOT),
    ("dealer", MAX_PLAYERS, &ONE_HOT),
    ("turn_seat", MAX_PLAYERS, &ONE_HOT),
    ("actor", MAX_PLAYERS, &ONE_HOT),
    ("turn", TURN_FIELDS.len(), &TURN_FIELDS),
    ("betting", BETTING_FIELDS.len(), &BETTING_FIELDS),
    ("pots", POTS_FIELDS.len(), &POTS_FIELDS),
    ("cards_left", CARDS_LEFT_FIELDS.len(), &CARDS_LEFT_FIELDS),
    ("hand", HAND_CAPACITY * HAND_SLOT_FIELDS.len(), &HAND_SLOT_FIELDS),
    ("hand_summary", HAND_SUMMARY_FIELDS.len(), &HAND_SUMMARY_FIELDS),
    ("shift_lost", CARD_FIELDS.len(), &CARD_FIELDS),
    ("shift_got", CARD_FIELDS.len(), &CARD_FIELDS),
    ("unseen", UNSEEN_FIELDS.len(), &UNSEEN_FIELDS),
    ("seats", MAX_PLAYERS * SEAT_FIELDS.len(), &SEAT_FIELDS),
];

const fn build() -> [Segment; NSEG] {
    let mut out = [Segment { name: "", offset: 0, len: 0, fields: &ONE_HOT }; NSEG];
    let mut i = 0;
    let mut off = 0;
    while i < NSEG {
        assert!(SPEC[i].1.is_multiple_of(SPEC[i].2.len()), "a segment holds whole field blocks");
        out[i] = Segment { name: SPEC[i].0, offset: off, len: SPEC[i].1, fields: SPEC[i].2 };
        off += SPEC[i].1;
        i += 1;
    }
    out
}

/// The observation layout, in order; offsets are contiguous and end at [`OBS_LEN`].
pub const SEGMENTS: [Segment; NSEG] = build();

/// Length of every observation vector, whatever the number of players.
pub const OBS_LEN: usize = SEGMENTS[NSEG - 1].offset + SEGMENTS[NSEG - 1].len;

/// The segment with this name.
pub fn segment(name: &str) -> Option<Segment> {
    SEGMENTS.iter().copied().find(|s| s.name == name)
}

/// Checks an observation against the documented layout: [`OBS_LEN`] finite floats, each inside
/// its field's range, and the `players` and `decision` segments one-hot. The conformance
/// harness runs it at every decision of its random games.
pub fn check_ranges(obs: &[f32]) -> Result<(), String> {
    if obs.len() != OBS_LEN {
        return Err(format!("observation has {} floats, not {OBS_LEN}", obs.len()));
    }
    for seg in &SEGMENTS {
        for (i, &x) in obs[seg.offset..seg.offset + seg.len].iter().enumerate() {
            let f = seg.field(i);
            if !x.is_finite() || x < f.lo - 1e-6 || x > f.hi + 1e-6 {
                return Err(format!(
                    "observation[{}] = {x} outside {} {} [{}, {}]",
                    seg.offset + i,
                    seg.name,
                    f.name,
                    f.lo,
                    f.hi
                ));
            }
        }
    }
    for name in ["players", "decision"] {
        let s = segment(name).expect("segment");
        let block = &obs[s.offset..s.offset + s.len];
        if block.iter().filter(|&&x| x == 1.0).count() != 1 || block.iter().sum::<f32>() != 1.0 {
            return Err(format!("segment {name} is not one-hot"));
        }
    }
    Ok(())
}

const O_PLAYERS: usize = SEGMENTS[0].offset;
const O_RULES: usize = SEGMENTS[1].offset;
const O_PROGRESS: usize = SEGMENTS[2].offset;
const O_DECISION: usize = SEGMENTS[3].offset;
const O_DEALER: usize = SEGMENTS[4].offset;
const O_TURN_SEAT: usize = SEGMENTS[5].offset;
const O_ACTOR: usize = SEGMENTS[6].offset;
const O_TURN: usize = SEGMENTS[7].offset;
const O_BETTING: usize = SEGMENTS[8].offset;
const O_POTS: usize = SEGMENTS[9].offset;
const O_CARDS_LEFT: usize = SEGMENTS[10].offset;
const O_HAND: usize = SEGMENTS[11].offset;
const O_SUMMARY: usize = SEGMENTS[12].offset;
const O_SHIFT_LOST: usize = SEGMENTS[13].offset;
const O_SHIFT_GOT: usize = SEGMENTS[14].offset;
const O_UNSEEN: usize = SEGMENTS[15].offset;
const O_SEATS: usize = SEGMENTS[16].offset;

const SLOT: usize = HAND_SLOT_FIELDS.len();
const SEAT: usize = SEAT_FIELDS.len();
const CARD_VALUE: usize = CARD_FIELDS.len() - 1;

/// Per card id: which of the card block's first nine flags it sets (0 suit card, 1 + face kind).
const CARD_FLAG: [u8; DECK_SIZE] = {
    let mut t = [0u8; DECK_SIZE];
    let mut id = SUIT_CARDS;
    while id < DECK_SIZE {
        t[id] = 1 + ((id - SUIT_CARDS) / 2) as u8;
        id += 1;
    }
    t
};

/// The fixed-size block `out[base..base + L]`: one bounds check, then constant indices and
/// inlined stores.
#[inline(always)]
fn block<const L: usize>(out: &mut [f32], base: usize) -> &mut [f32; L] {
    (&mut out[base..base + L]).try_into().expect("block inside the observation")
}

/// Writes one card's [`CARD_FIELDS`] into `f`, zeroed first in place (building the block on the
/// stack and copying it would stall on store forwarding).
#[inline(always)]
fn write_card(f: &mut [f32; CARD_FIELDS.len()], c: Card, values: &[f32; 8]) {
    *f = [0.0; CARD_FIELDS.len()];
    let id = c.id() as usize;
    f[CARD_FLAG[id] as usize] = 1.0;
    f[CARD_VALUE] = match c.rank() {
        Some(r) => f32::from(r) * VALUE_SCALE,
        None => values[(id - SUIT_CARDS) / 2],
    };
}

#[inline(always)]
fn flag(b: bool) -> f32 {
    b as u8 as f32
}

/// Writes the observation of `view.viewer` into `out` (length [`OBS_LEN`]), overwriting all of
/// it. A pure function of the view: no allocation, no hidden state.
///
/// Sparse segments are zeroed in fixed-size blocks (inlined stores) and dense ones written
/// whole, instead of a call to fill the whole vector first.
///
/// # Panics
/// If `out.len() != OBS_LEN`.
pub fn encode(view: &PlayerView, out: &mut [f32]) {
    encode_with(view, view.last_result.as_ref(), out);
}

/// [`encode`] with the last hand's result passed apart from the view (whose own is not read):
/// [`State::observe`] uses it so as not to copy the result into a view first.
#[inline]
fn encode_with(view: &PlayerView, last_result: Option<&HandResult>, out: &mut [f32]) {
    let out: &mut [f32; OBS_LEN] = out.try_into().expect("observation buffer must hold OBS_LEN floats");
    *block::<{ O_RULES - O_PLAYERS }>(out, O_PLAYERS) = [0.0; O_RULES - O_PLAYERS];
    *block::<{ O_BETTING - O_DECISION }>(out, O_DECISION) = [0.0; O_BETTING - O_DECISION];
    let cfg = &view.config;
    let n = cfg.players.clamp(1, MAX_PLAYERS as u8);
    let me = view.viewer;
    // Places clockwise from the viewer, without a division: both seats are below `n`.
    let rel = |s: Seat| {
        let d = s.0 as usize + n as usize - me.0 as usize;
        if d >= n as usize { d - n as usize } else { d }
    };
    let inv_start = 1.0 / cfg.starting_credits.max(1) as f32;
    // The largest amount to match a phase can reach: the bet and every raise at the limit.
    let phase_max = u32::from(cfg.bet_limit.max(1)) * (u32::from(cfg.raises_per_phase) + 1);
    let inv_phase = 1.0 / phase_max as f32;
    let phase_ratio = |x: u32| (x as f32 * inv_phase).min(1.0);

    out[O_PLAYERS + (n as usize).clamp(2, MAX_PLAYERS) - 2] = 1.0;
    out[O_RULES..O_RULES + RULES_FIELDS.len()].copy_from_slice(&[
        f32::from(cfg.bet_limit) / f32::from(MAX_BET_LIMIT),
        (f32::from(cfg.raises_per_phase) / 20.0).min(1.0),
        f32::from(cfg.max_hand_size) / f32::from(MAX_HAND_SIZE),
        flag(cfg.totals == Totals::ClosestAbsolute),
        flag(cfg.idiots_array == IdiotsArrayShape::AnyHand),
        flag(cfg.idiots_array_pots == IdiotsArrayPots::SabaccPotOnly),
        flag(cfg.stakes == Stakes::NoCap),
        flag(cfg.dealer_ante == DealerAnte::Exempt),
        flag(cfg.exchange == ExchangeDrop::AnyCard),
        flag(cfg.caller_penalty == CallerPenalty::Once),
        flag(cfg.all_bombed == AllBombed::CarryOver),
    ]);
    let round = view.round.max(1);
    let max_rounds = cfg.max_rounds_per_hand.max(1);
    out[O_PROGRESS..O_PROGRESS + PROGRESS_FIELDS.len()].copy_from_slice(&[
        (view.hand_no as f32 / cfg.hand_limit.max(1) as f32).min(1.0),
        (f32::from(round) / f32::from(max_rounds)).min(1.0),
        flag(round >= max_rounds),
        1.0 / f32::from(round),
    ]);
    let decision = match view.pending {
        Pending::Bet => 0,
        Pending::Answer => 1,
        Pending::Call => 2,
        Pending::Draw => 3,
        Pending::Drop => 4,
        Pending::GameOver => 5,
        Pending::Truncated => 6,
    };
    out[O_DECISION + decision] = 1.0;
    out[O_DEALER + rel(view.dealer)] = 1.0;
    out[O_TURN_SEAT + rel(view.turn_seat)] = 1.0;
    if let Some(a) = view.actor {
        out[O_ACTOR + rel(a)] = 1.0;
    }
    out[O_TURN] = flag(view.turn_folded);
    out[O_TURN + 1] = flag(view.calls_open);
    if let Some(d @ 1..=6) = view.die {
        out[O_TURN + 1 + d as usize] = 1.0;
    }

    let b = &view.betting;
    let my_seat = &view.seats[me.index()];
    let live = |s: &crate::view::SeatView| s.in_game && !s.folded;
    out[O_BETTING..O_BETTING + BETTING_FIELDS.len()].copy_from_slice(&[
        flag(b.to_match > 0),
        phase_ratio(b.to_match),
        if live(my_seat) { phase_ratio(b.to_match.saturating_sub(my_seat.contributed)) } else { 0.0 },
        if cfg.raises_per_phase == 0 { 0.0 } else { (f32::from(b.raises) / f32::from(cfg.raises_per_phase)).min(1.0) },
        flag(b.raises < cfg.raises_per_phase),
        phase_ratio(b.cap),
    ]);
    out[O_POTS] = view.hand_pot as f32 * inv_start;
    out[O_POTS + 1] = view.sabacc_pot as f32 * inv_start;
    out[O_CARDS_LEFT] = f32::from(view.deck_len) * (1.0 / DECK_SIZE as f32);
    out[O_CARDS_LEFT + 1] = f32::from(view.out_len) * (1.0 / DECK_SIZE as f32);

    // The viewer's cards in hand order, so slot `i` is the card `drop:i` gives up.
    let values = cfg.face_values.map(|v| f32::from(v) * VALUE_SCALE);
    let cards = view.hand.as_slice();
    let (mut total, mut idiot, mut two, mut three) = (0i16, false, false, false);
    for i in 0..HAND_CAPACITY {
        let slot = block::<SLOT>(out, O_HAND + i * SLOT);
        let Some(&c) = cards.get(i) else {
            *slot = [0.0; SLOT];
            continue;
        };
        slot[0] = 1.0;
        write_card(block::<{ SLOT - 1 }>(slot, 1), c, &values);
        total += c.value(&cfg.face_values);
        match c.rank() {
            Some(2) => two = true,
            Some(3) => three = true,
            Some(_) => {}
            None => idiot |= c.face() == Some(Face::Idiot),
        }
    }
    let summary = block::<{ HAND_SUMMARY_FIELDS.len() }>(out, O_SUMMARY);
    if cards.is_empty() {
        *summary = [0.0; HAND_SUMMARY_FIELDS.len()];
    } else {
        let len = cards.len();
        let array = idiot
            && two
            && three
            && match cfg.idiots_array {
                IdiotsArrayShape::ExactlyThree => len == 3,
                IdiotsArrayShape::AnyHand => len >= 3,
            };
        let closest = cfg.totals == Totals::ClosestAbsolute;
        let pure = !array && (total == 23 || (closest && total == -23));
        let bombed = !array && !pure && (!(-23..=23).contains(&total) || total == 0);
        let score = if closest { total.abs() } else { total };
        *summary = [
            len as f32 * (1.0 / HAND_CAPACITY as f32),
            (f32::from(total) * VALUE_SCALE).clamp(-2.0, 2.0),
            (f32::from(23 - score) * VALUE_SCALE).clamp(-1.0, 2.0),
            flag(bombed),
            flag(pure),
            flag(array),
            flag(idiot),
            flag(two),
            flag(three),
        ];
    }
    // Cards the viewer can place outside the deck; the rest are what a draw may bring.
    let mut placed = view.put_out;
    for &c in cards {
        placed.insert(c);
    }
    const CARD: usize = CARD_FIELDS.len();
    if let Some(sw) = view.shift {
        write_card(block::<CARD>(out, O_SHIFT_LOST), sw.lost, &values);
        write_card(block::<CARD>(out, O_SHIFT_GOT), sw.got, &values);
        placed.insert(sw.lost);
    } else {
        *block::<{ 2 * CARD }>(out, O_SHIFT_LOST) = [0.0; 2 * CARD];
    }
    *block::<{ UNSEEN_FIELDS.len() }>(out, O_UNSEEN) = [1.0; UNSEEN_FIELDS.len()];
    for c in placed.iter() {
        let id = c.id() as usize;
        let (kind, share) = if id < SUIT_CARDS { (id % 15, 0.25) } else { (15 + (id - SUIT_CARDS) / 2, 0.5) };
        out[O_UNSEEN + kind] -= share;
    }

    // Credits each seat held when the hand began: the last hand's closing credits (nothing moves
    // between hands), or the starting credits in hand 1; unknown (0 paid) otherwise.
    let in_hand = !matches!(view.pending, Pending::GameOver | Pending::Truncated);
    let last = last_result.filter(|r| in_hand && r.hand + 1 == view.hand_no);
    let first_hand = in_hand && view.hand_no == 1;
    let start_credits = |i: usize| -> Option<u32> {
        match last {
            Some(r) => r.seats[i].as_ref().map(|sr| sr.credits_after),
            None if first_hand => Some(cfg.starting_credits),
            None => None,
        }
    };
    let inv_cap = 1.0 / HAND_CAPACITY as f32;
    let inv_rounds = 1.0 / f32::from(max_rounds);
    let mut s = me;
    for o in 0..n as usize {
        let sv = &view.seats[s.index()];
        let paid = start_credits(s.index()).map_or(0.0, |c| c.saturating_sub(sv.credits) as f32 * inv_start);
        *block::<SEAT>(out, O_SEATS + o * SEAT) = [
            1.0,
            flag(sv.in_game),
            flag(sv.folded),
            flag(live(sv)),
            sv.credits as f32 * inv_start,
            flag(sv.credits == 0),
            phase_ratio(sv.contributed),
            paid.min(CREDITS_HI),
            flag(b.waiting.contains(s)),
            f32::from(sv.hand_len) * inv_cap,
            (f32::from(sv.completed_turns) * inv_rounds).min(1.0),
            flag(sv.completed_turns >= round),
        ];
        s = if s.0 + 1 >= n { Seat(0) } else { Seat(s.0 + 1) };
    }
    for o in n as usize..MAX_PLAYERS {
        *block::<SEAT>(out, O_SEATS + o * SEAT) = [0.0; SEAT];
    }
}

impl State {
    /// Writes `viewer`'s observation ([`encode`] of its view) without copying the last hand's
    /// result into a view: the encoder reads only its closing credits, and the result is most of
    /// a view's bytes.
    ///
    /// # Panics
    /// If `viewer` is not at the table, or `out` does not hold [`OBS_LEN`] floats.
    #[inline]
    pub fn observe(&self, viewer: Seat, out: &mut [f32]) {
        encode_with(&self.view_without_result(viewer), self.last_result.as_ref(), out);
    }
}

/// The observation in a new vector (for tests and tools; hot paths reuse a buffer with [`encode`]).
pub fn encode_vec(view: &PlayerView) -> Vec<f32> {
    let mut v = vec![0.0; OBS_LEN];
    encode(view, &mut v);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_contiguous_uniquely_named_and_hold_whole_blocks() {
        let mut off = 0;
        for (i, s) in SEGMENTS.iter().enumerate() {
            assert_eq!(s.offset, off, "{}", s.name);
            assert!(s.len > 0 && s.len.is_multiple_of(s.fields.len()), "{}", s.name);
            assert!(SEGMENTS[..i].iter().all(|t| t.name != s.name));
            off += s.len;
        }
        assert_eq!(off, OBS_LEN);
    }
}
