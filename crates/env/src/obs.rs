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

use engine::state::TurnAction;
use engine::{Card, CardKind, MAX_PLAYERS, PlayerView, Seat, Source, Token, ViewDecision};

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

/// Per card id: 1 / copies of its kind (the `seen` normalisation).
const SEEN_WEIGHT: [f32; 44] = {
    let mut t = [0.0f32; 44];
    let mut id = 0;
    while id < 44 {
        t[id] = if id % 22 == 21 { 1.0 } else { 1.0 / 3.0 };
        id += 1;
    }
    t
};

#[inline]
fn card_slot(c: Card) -> usize {
    CARD_SLOT[c.id() as usize] as usize
}

/// 0/1 floats of every 4-bit pattern, low bit first.
const NIBBLE: [[f32; 4]; 16] = {
    let mut t = [[0.0f32; 4]; 16];
    let mut v = 0;
    while v < 16 {
        let mut b = 0;
        while b < 4 {
            t[v][b] = ((v >> b) & 1) as f32;
            b += 1;
        }
        v += 1;
    }
    t
};

/// One-hot rows of the history slots; row `HIST` (no action) is all zero.
const HIST_ONEHOT: [[f32; HIST]; HIST + 1] = {
    let mut t = [[0.0f32; HIST]; HIST + 1];
    let mut k = 0;
    while k < HIST {
        t[k][k] = 1.0;
        k += 1;
    }
    t
};

/// Writes the 16 bits of a token set as 0/1 floats at `out[base..base + 16]` (branch-free,
/// four table lookups).
#[inline(always)]
fn write_bits16(out: &mut [f32], base: usize, bits: u16) {
    let dst: &mut [f32; 16] = (&mut out[base..base + 16]).try_into().expect("16 slots");
    for (q, chunk) in dst.chunks_exact_mut(4).enumerate() {
        chunk.copy_from_slice(&NIBBLE[usize::from((bits >> (4 * q)) & 0xF)]);
    }
}

/// History slot of a turn action (6 = none: the one-hot stays all zero).
#[inline(always)]
fn history_slot(ta: TurnAction) -> usize {
    match ta {
        TurnAction::None => HIST,
        TurnAction::Stand { forced } => forced as usize,
        TurnAction::Draw(src) => 2 + source_slot(src),
    }
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
    out.fill(0.0);
    let cfg = &view.config;
    let n = cfg.players;
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
    let mut m = view.seen_face_up.0;
    while m != 0 {
        let id = m.trailing_zeros() as usize;
        out[O_SEEN + CARD_SLOT[id] as usize] += SEEN_WEIGHT[id];
        m &= m - 1;
    }
    write_bits16(out, O_OWN_TOKENS, view.own_tokens.0);

    let fx = &view.effects;
    let mut round_tokens = 0u16;
    for o in 0..n {
        let s = me.offset(o, n);
        let o = o as usize;
        let sv = &view.seats[s.index()];
        if o > 0 {
            for c in sv.known_hand.iter().flatten() {
                out[O_KNOWN + (o - 1) * CARD + card_slot(*c)] = 1.0;
            }
        }
        let b = O_SEATS + o * SEAT_FIELDS;
        out[b] = 1.0;
        out[b + 1] = sv.eliminated as u8 as f32;
        out[b + 2] = f32::from(sv.stock.0) * inv_start;
        out[b + 3] = f32::from(sv.pot.0) * inv_start;
        out[b + 4] = f32::from(sv.lost.0) * inv_start;
        out[b + 5] = (sv.last_action == engine::LastAction::Stand) as u8 as f32;
        out[b + 6] = (sv.last_action == engine::LastAction::Draw) as u8 as f32;
        out[b + 7] = sv.immune as u8 as f32;
        out[b + 8] = (fx.embargoed == Some(s)) as u8 as f32;
        out[b + 9] = f32::from(sv.unplayed) * inv_tpp;
        out[b + 10] = sv.round_tokens.len() as f32 * inv_tpp;
        write_bits16(out, O_SPENT + o * Token::COUNT, sv.spent.0);
        round_tokens |= sv.round_tokens.0;
        for (turn, &ta) in sv.turn_actions.iter().enumerate() {
            let slot = history_slot(ta);
            let base = O_HISTORY + (o * 3 + turn) * HIST;
            out[base..base + HIST].copy_from_slice(&HIST_ONEHOT[slot]);
        }
    }
    write_bits16(out, O_ROUND_TOKENS, round_tokens);
    out[O_EFFECTS] = fx.mods.cook_the_books as u8 as f32;
    out[O_EFFECTS + 1] = fx.mods.markdown as u8 as f32;
    out[O_EFFECTS + 2] = fx.mods.major_fraud as u8 as f32;
    out[O_EFFECTS + 3] = fx.free_draw as u8 as f32;
    if let Some(p) = fx.mods.prime {
        if (1..=6).contains(&p) {
            out[O_EFFECTS + 4 + p as usize - 1] = 1.0;
        }
    }
}

/// Writes the observation into a new vector (convenience for tests and tools; the hot paths use
/// [`encode`] with a reused buffer).
pub fn encode_vec(view: &PlayerView) -> Vec<f32> {
    let mut v = vec![0.0; OBS_LEN];
    encode(view, &mut v);
    v
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
