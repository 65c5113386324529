//! The observation encoder: a fixed-length `f32` vector built only from a [`PlayerView`].
//!
//! The layout is a list of named segments ([`SEGMENTS`]), documented one by one in
//! `docs/observation.md`; a test parses that file and checks it against this table, so the docs
//! cannot drift. Every per-seat block is in *relative seat order*: index 0 is the viewer, index
//! `o` the seat `o` places clockwise (the same offsets as the `target:+o` actions), padded to
//! [`MAX_PLAYERS`] so the length never depends on the table size. Bump [`OBS_VERSION`] whenever
//! the layout or a normalisation changes; checkpoints record it.
//!
//! Because the encoder sees only the view, it cannot leak hidden information (K7); the
//! conformance harness re-deals everything hidden from the viewer and checks the vector is
//! bit-identical.

use crate::state::TurnAction;
use crate::{Card, CardKind, PlayerView, Source, Token, ViewDecision};
use game::{MAX_PLAYERS, Seat};

/// Version of the observation layout; bumped on every change to [`SEGMENTS`] or its meaning.
pub const OBS_VERSION: u32 = 1;

/// One named slice of the observation vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Stable name, used in `docs/observation.md`.
    pub name: &'static str,
    /// First index in the vector.
    pub offset: usize,
    /// Number of floats.
    pub len: usize,
    /// One-line description (the full one is in `docs/observation.md`).
    pub doc: &'static str,
}

const NSEG: usize = 23;
const CARD: usize = 2 * CardKind::COUNT; // family × kind one-hot
const SEAT_FIELDS: usize = 11;
const HIST: usize = 6;

const SPEC: [(&str, usize, &str); NSEG] = [
    ("players", 7, "one-hot number of players, 2..=8"),
    ("round", 2, "[round / round_limit, 1 / round] (0 before round 1)"),
    ("turn", 3, "one-hot turn 1..=3 in the round"),
    ("starter", MAX_PLAYERS, "one-hot relative seat of this round's starter"),
    ("actor", MAX_PLAYERS, "one-hot relative seat whose decision it is (all 0 at the end)"),
    ("decision", 8, "one-hot pending decision kind"),
    ("flags", 2, "[token already played in this action, hands revealed this round]"),
    ("target_token", Token::COUNT, "one-hot token awaiting a target"),
    ("dice", 12, "dice on offer: first die one-hot 1..=6, second die one-hot 1..=6"),
    ("impostor_family", 2, "one-hot family of the Impostor being resolved"),
    ("drawn_card", CARD, "pending drawn card (family x kind one-hot) when the viewer may see it"),
    ("drawn_source", 4, "one-hot source of the pending drawn card"),
    ("hand", CARD, "viewer's own Sand and Blood card, kind one-hot per family"),
    ("discard_top", CARD, "top card of each discard pile, kind one-hot per family"),
    ("pile_sizes", 4, "[Sand discard, Blood discard, Sand draw, Blood draw] sizes / 22"),
    ("seen", CARD, "cards of each (family, kind) turned face up this round / copies of the kind"),
    ("known_cards", (MAX_PLAYERS - 1) * CARD, "per opponent (relative 1..=7): known cards, kind one-hot per family"),
    ("seats", MAX_PLAYERS * SEAT_FIELDS, "per relative seat: 11 public fields (see docs)"),
    ("own_tokens", Token::COUNT, "viewer's unplayed token kinds"),
    ("spent", MAX_PLAYERS * Token::COUNT, "per relative seat: token kinds played this game"),
    ("round_tokens", Token::COUNT, "token kinds played this round by anyone"),
    ("effects", 10, "[Cook the Books, Markdown, Major Fraud, Free Draw active, Prime value one-hot 1..=6]"),
    ("history", MAX_PLAYERS * 3 * HIST, "per relative seat, per turn 1..=3: one-hot Stand/Draw taken"),
];

const fn build() -> [Segment; NSEG] {
    let mut out = [Segment { name: "", offset: 0, len: 0, doc: "" }; NSEG];
    let mut i = 0;
    let mut off = 0;
    while i < NSEG {
        out[i] = Segment { name: SPEC[i].0, offset: off, len: SPEC[i].1, doc: SPEC[i].2 };
        off += SPEC[i].1;
        i += 1;
    }
    out
}

/// The observation layout, in order; offsets are contiguous and end at [`OBS_LEN`].
pub const SEGMENTS: [Segment; NSEG] = build();

/// Length of every observation vector, whatever the number of players.
pub const OBS_LEN: usize = SEGMENTS[NSEG - 1].offset + SEGMENTS[NSEG - 1].len;

/// The segment with this name, for feature inspection and tests.
pub fn segment(name: &str) -> Option<Segment> {
    SEGMENTS.iter().copied().find(|s| s.name == name)
}

const O_PLAYERS: usize = SEGMENTS[0].offset;
const O_ROUND: usize = SEGMENTS[1].offset;
const O_TURN: usize = SEGMENTS[2].offset;
const O_STARTER: usize = SEGMENTS[3].offset;
const O_ACTOR: usize = SEGMENTS[4].offset;
const O_DECISION: usize = SEGMENTS[5].offset;
const O_FLAGS: usize = SEGMENTS[6].offset;
const O_TARGET_TOKEN: usize = SEGMENTS[7].offset;
const O_DICE: usize = SEGMENTS[8].offset;
const O_IMP_FAMILY: usize = SEGMENTS[9].offset;
const O_DRAWN: usize = SEGMENTS[10].offset;
const O_DRAWN_SRC: usize = SEGMENTS[11].offset;
const O_HAND: usize = SEGMENTS[12].offset;
const O_DISCARD_TOP: usize = SEGMENTS[13].offset;
const O_PILES: usize = SEGMENTS[14].offset;
const O_SEEN: usize = SEGMENTS[15].offset;
const O_KNOWN: usize = SEGMENTS[16].offset;
const O_SEATS: usize = SEGMENTS[17].offset;
const O_OWN_TOKENS: usize = SEGMENTS[18].offset;
const O_SPENT: usize = SEGMENTS[19].offset;
const O_ROUND_TOKENS: usize = SEGMENTS[20].offset;
const O_EFFECTS: usize = SEGMENTS[21].offset;
const O_HISTORY: usize = SEGMENTS[22].offset;

/// Field order inside one `seats` block, documented in `docs/observation.md`.
pub const SEAT_FIELD_NAMES: [&str; SEAT_FIELDS] = [
    "present",
    "eliminated",
    "stock",
    "pot",
    "lost",
    "last_stand",
    "last_draw",
    "immune",
    "embargoed",
    "unplayed",
    "tokens_this_round",
];

/// Order of the six one-hot slots of one `history` entry.
pub const HISTORY_SLOT_NAMES: [&str; HIST] =
    ["stand", "forced-stand", "draw:sand-deck", "draw:blood-deck", "draw:sand-discard", "draw:blood-discard"];

/// Order of the `decision` one-hot.
pub const DECISION_NAMES: [&str; 8] =
    ["choose-token", "act", "target", "prime-die", "keep", "impostor-die", "game-over", "truncated"];

/// Per card id: its (family, kind) slot in a 16-wide card block.
const CARD_SLOT: [u8; 44] = {
    let mut t = [0u8; 44];
    let mut id = 0;
    while id < 44 {
        let fam = id / 22;
        let pos = id % 22;
        let kind = if pos < 18 {
            pos / 3
        } else if pos < 21 {
            6
        } else {
            7
        };
        t[id] = (fam * CardKind::COUNT + kind) as u8;
        id += 1;
    }
    t
};

/// `seen` value of a three-copy kind by which of its copies were seen (3-bit pattern): the
/// count times 1/3, summed one copy at a time in `f32` (so a full set is exactly 1.0).
const SEEN_BY_COPIES: [f32; 8] = {
    let mut t = [0.0f32; 8];
    let mut p = 0;
    while p < 8 {
        let mut b = 0;
        while b < 3 {
            if (p >> b) & 1 == 1 {
                t[p] += 1.0 / 3.0;
            }
            b += 1;
        }
        p += 1;
    }
    t
};

/// `seen` values of two consecutive three-copy kinds from their 6-bit pattern of copies seen.
const SEEN_PAIR: [[f32; 2]; 64] = {
    let mut t = [[0.0f32; 2]; 64];
    let mut p = 0;
    while p < 64 {
        t[p] = [SEEN_BY_COPIES[p & 7], SEEN_BY_COPIES[p >> 3]];
        p += 1;
    }
    t
};

/// `seen` values of the Impostor (3 copies) and the Sylop (1 copy) from their 4-bit pattern.
const SEEN_IMPOSTOR_SYLOP: [[f32; 2]; 16] = {
    let mut t = [[0.0f32; 2]; 16];
    let mut p = 0;
    while p < 16 {
        t[p] = [SEEN_BY_COPIES[p & 7], (p >> 3) as f32];
        p += 1;
    }
    t
};

/// Number of set bits of every byte (the target may lack a population-count instruction).
const POPCOUNT8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        t[v] = (v as u8).count_ones() as u8;
        v += 1;
    }
    t
};

/// Number of token kinds in a token set.
#[inline(always)]
fn token_count(bits: u16) -> u8 {
    POPCOUNT8[usize::from(bits & 0xFF)] + POPCOUNT8[usize::from(bits >> 8)]
}

#[inline]
fn card_slot(c: Card) -> usize {
    CARD_SLOT[c.id() as usize] as usize
}

/// 0/1 floats of every byte, low bit first (8 KiB, shared by every token-set segment).
static BYTE_BITS: [[f32; 8]; 256] = {
    let mut t = [[0.0f32; 8]; 256];
    let mut v = 0;
    while v < 256 {
        let mut b = 0;
        while b < 8 {
            t[v][b] = ((v >> b) & 1) as f32;
            b += 1;
        }
        v += 1;
    }
    t
};

/// Writes the 16 bits of a token set as 0/1 floats at `out[base..base + 16]` (branch-free,
/// two table lookups).
#[inline(always)]
fn write_bits16(out: &mut [f32], base: usize, bits: u16) {
    let dst = block::<16>(out, base);
    dst[..8].copy_from_slice(&BYTE_BITS[usize::from(bits & 0xFF)]);
    dst[8..].copy_from_slice(&BYTE_BITS[usize::from(bits >> 8)]);
}

/// Where a turn action goes in its (zeroed) 6-slot history entry, and the value to store there:
/// no action stores 0 at slot 0, leaving the entry all zero, so every turn costs one store and
/// no branch.
#[inline(always)]
fn history_slot(ta: TurnAction) -> (usize, f32) {
    match ta {
        TurnAction::None => (0, 0.0),
        TurnAction::Stand { forced } => (forced as usize, 1.0),
        TurnAction::Draw(src) => (2 + source_slot(src), 1.0),
    }
}

/// The fixed-size block `out[base..base + L]` (one bounds check, then constant indices).
#[inline(always)]
fn block<const L: usize>(out: &mut [f32], base: usize) -> &mut [f32; L] {
    (&mut out[base..base + L]).try_into().expect("block inside the observation")
}

#[inline]
fn source_slot(s: Source) -> usize {
    s as usize
}

/// Writes the observation of `view.viewer` into `out` (length [`OBS_LEN`]), overwriting all of
/// it. Pure function of the view: no allocation, no hidden state.
///
/// # Panics
/// If `out.len() != OBS_LEN`.
pub fn encode(view: &PlayerView, out: &mut [f32]) {
    let out: &mut [f32; OBS_LEN] = out.try_into().expect("observation buffer must hold OBS_LEN floats");
    let cfg = &view.config;
    let n = cfg.players;
    // Zero only the sparse parts (one-hots, known cards, effects, history) and the padding seats'
    // rows; every other float is written below. These short fills cost less than one of the
    // whole vector, which the C library does with a slow string instruction at this size.
    let seats_in_play = (n as usize).min(MAX_PLAYERS);
    out[..O_PILES].fill(0.0);
    out[O_KNOWN..O_SEATS].fill(0.0);
    out[O_SEATS + seats_in_play * SEAT_FIELDS..O_OWN_TOKENS].fill(0.0);
    out[O_SPENT + seats_in_play * Token::COUNT..O_ROUND_TOKENS].fill(0.0);
    out[O_EFFECTS..].fill(0.0);
    let me = view.viewer;
    let rel = |s: Seat| me.distance_to(s, n) as usize;
    let inv_start = 1.0 / f32::from(cfg.starting_chips.max(1));
    let inv_tpp = 1.0 / f32::from(cfg.tokens_per_player.max(1));

    out[O_PLAYERS + (n as usize).clamp(2, MAX_PLAYERS) - 2] = 1.0;
    if view.round > 0 {
        out[O_ROUND] = (f32::from(view.round) / f32::from(cfg.round_limit.max(1))).min(1.0);
        out[O_ROUND + 1] = 1.0 / f32::from(view.round);
    }
    if (1..=3).contains(&view.turn) {
        out[O_TURN + view.turn as usize - 1] = 1.0;
    }
    if view.round > 0 {
        out[O_STARTER + rel(view.starter)] = 1.0;
    }
    if let Some(a) = view.actor {
        out[O_ACTOR + rel(a)] = 1.0;
    }
    let dice_slot = |out: &mut [f32], dice: [u8; 2]| {
        for (k, &d) in dice.iter().enumerate() {
            if (1..=6).contains(&d) {
                out[O_DICE + k * 6 + d as usize - 1] = 1.0;
            }
        }
    };
    let dk = match view.decision {
        ViewDecision::ChooseToken => 0,
        ViewDecision::Act => 1,
        ViewDecision::Target { token } => {
            out[O_TARGET_TOKEN + token.index()] = 1.0;
            2
        }
        ViewDecision::PrimeDie { dice } => {
            dice_slot(out, dice);
            3
        }
        ViewDecision::Keep { drawn, source } => {
            if let Some(c) = drawn {
                out[O_DRAWN + card_slot(c)] = 1.0;
            }
            out[O_DRAWN_SRC + source_slot(source)] = 1.0;
            4
        }
        ViewDecision::ImpostorDie { family, dice } => {
            dice_slot(out, dice);
            out[O_IMP_FAMILY + family.index()] = 1.0;
            5
        }
        ViewDecision::GameOver => 6,
        ViewDecision::Truncated => 7,
    };
    out[O_DECISION + dk] = 1.0;
    out[O_FLAGS] = view.token_played as u8 as f32;
    out[O_FLAGS + 1] = view.revealed as u8 as f32;

    let me_view = &view.seats[me.index()];
    if view.round > 0 && !me_view.eliminated {
        for c in view.hand {
            out[O_HAND + card_slot(c)] = 1.0;
        }
    }
    for (f, pile) in view.discard.iter().enumerate() {
        if let Some(c) = pile.top() {
            out[O_DISCARD_TOP + card_slot(c)] = 1.0;
        }
        out[O_PILES + f] = pile.len() as f32 * (1.0 / 22.0);
        out[O_PILES + 2 + f] = f32::from(view.draw_sizes[f]) * (1.0 / 22.0);
    }
    // Per family, card ids hold kinds 1–6 and the Impostor three copies each, then the Sylop:
    // two kinds at a time from a 6-bit pattern, the Impostor and Sylop from the last 4 bits.
    for f in 0..2 {
        let bits = view.seen_face_up.0 >> (22 * f);
        let base = O_SEEN + f * CardKind::COUNT;
        for pair in 0..3 {
            let v = &SEEN_PAIR[((bits >> (6 * pair)) & 0x3F) as usize];
            out[base + 2 * pair..base + 2 * pair + 2].copy_from_slice(v);
        }
        out[base + 6..base + 8].copy_from_slice(&SEEN_IMPOSTOR_SYLOP[((bits >> 18) & 0xF) as usize]);
    }
    write_bits16(out, O_OWN_TOKENS, view.own_tokens.0);

    let fx = &view.effects;
    let mut round_tokens = 0u16;
    // Seats clockwise from the viewer, wrapping by one subtraction instead of a modulo.
    let mut s = me;
    for o in 0..n as usize {
        let sv = &view.seats[s.index()];
        if o > 0 {
            let known = block::<CARD>(out, O_KNOWN + (o - 1) * CARD);
            for c in sv.known_hand.iter().flatten() {
                known[card_slot(*c) & (CARD - 1)] = 1.0;
            }
        }
        *block::<SEAT_FIELDS>(out, O_SEATS + o * SEAT_FIELDS) = [
            1.0,
            sv.eliminated as u8 as f32,
            f32::from(sv.stock.0) * inv_start,
            f32::from(sv.pot.0) * inv_start,
            f32::from(sv.lost.0) * inv_start,
            (sv.last_action == crate::LastAction::Stand) as u8 as f32,
            (sv.last_action == crate::LastAction::Draw) as u8 as f32,
            sv.immune as u8 as f32,
            fx.embargoed.contains(s) as u8 as f32,
            f32::from(sv.unplayed) * inv_tpp,
            f32::from(token_count(sv.round_tokens.0)) * inv_tpp,
        ];
        write_bits16(out, O_SPENT + o * Token::COUNT, sv.spent.0);
        round_tokens |= sv.round_tokens.0;
        let history = block::<{ 3 * HIST }>(out, O_HISTORY + o * 3 * HIST);
        for (turn, &ta) in sv.turn_actions.iter().enumerate() {
            let (k, v) = history_slot(ta);
            history[turn * HIST + k] = v;
        }
        s = if s.0 + 1 == n { Seat(0) } else { Seat(s.0 + 1) };
    }
    write_bits16(out, O_ROUND_TOKENS, round_tokens);
    out[O_EFFECTS] = fx.mods.cook_the_books as u8 as f32;
    out[O_EFFECTS + 1] = fx.mods.markdown as u8 as f32;
    out[O_EFFECTS + 2] = fx.mods.major_fraud as u8 as f32;
    out[O_EFFECTS + 3] = fx.free_draw as u8 as f32;
    if let Some(p) = fx.mods.prime
        && (1..=6).contains(&p)
    {
        out[O_EFFECTS + 4 + p as usize - 1] = 1.0;
    }
}

/// Writes the observation into a new vector (convenience for tests and tools; the hot paths use
/// [`encode`] with a reused buffer).
pub fn encode_vec(view: &PlayerView) -> Vec<f32> {
    let mut v = vec![0.0; OBS_LEN];
    encode(view, &mut v);
    v
}

/// Checks an observation against the documented layout — size, finiteness and ranges: every value in [0, 1] except the chip ratios of the
/// `seats` block (at most `players` times the start); `players` and `decision` are one-hot.
pub fn check_ranges(obs: &[f32], players: u8) -> Result<(), String> {
    if obs.len() != OBS_LEN || obs.iter().any(|x| !x.is_finite()) {
        return Err("observation has the wrong size or a non-finite value".into());
    }
    let seats = segment("seats").expect("seats segment");
    for (i, &x) in obs.iter().enumerate() {
        let chip = i >= seats.offset
            && i < seats.offset + seats.len
            && matches!((i - seats.offset) % SEAT_FIELD_NAMES.len(), 2..=4);
        let max = if chip { f32::from(players) } else { 1.0 + 1e-6 };
        if !(0.0..=max).contains(&x) {
            let seg = SEGMENTS.iter().find(|s| (s.offset..s.offset + s.len).contains(&i)).map(|s| s.name);
            return Err(format!("observation[{i}] = {x} out of range (segment {seg:?})"));
        }
    }
    for name in ["players", "decision"] {
        let s = segment(name).expect("segment");
        let ones = obs[s.offset..s.offset + s.len].iter().filter(|&&x| x == 1.0).count();
        let sum: f32 = obs[s.offset..s.offset + s.len].iter().sum();
        if ones != 1 || sum != 1.0 {
            return Err(format!("segment {name} is not one-hot"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_contiguous_and_uniquely_named() {
        let mut off = 0;
        for (i, s) in SEGMENTS.iter().enumerate() {
            assert_eq!(s.offset, off, "{}", s.name);
            assert!(s.len > 0);
            assert!(SEGMENTS[..i].iter().all(|t| t.name != s.name));
            off += s.len;
        }
        assert_eq!(off, OBS_LEN);
    }
}
