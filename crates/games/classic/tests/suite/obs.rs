//! The observation encoder (`classic::obs`): the doc's tables match the code; no hidden card
//! (another hand, a dropped card, the deck order) ever changes an observation; every value is
//! finite and in its documented range; the fields say what the doc says; no allocation.

use crate::common;

use classic::card::CardSet;
use classic::obs::{self, OBS_LEN, OBS_VERSION, SEGMENTS, Segment, encode, encode_vec, segment};
use classic::{
    Action, Card, Event, Hand, HandClass, Pending, Pile, Position, RuleConfig, Scenario, State, StateBuilder,
};
use common::random_config;
use game::Seat;
use game::stream::DiceScript;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

type Rng = Pcg64Mcg;

// ------------------------------------------------------------------------------------------
// The doc's tables

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs/observation-classic.md");
    std::fs::read_to_string(path).expect("docs/observation-classic.md exists")
}

/// Cells of the table that follows the first line starting with `heading` (header and rule rows
/// skipped), backquotes trimmed.
fn table_after(doc: &str, heading: impl Fn(&str) -> bool) -> Vec<Vec<String>> {
    let mut lines = doc.lines().skip_while(|l| !heading(l));
    assert!(lines.next().is_some(), "heading missing");
    lines
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.trim().trim_matches('|').split('|').map(|c| c.trim().trim_matches('`').to_string()).collect())
        .collect()
}

/// `[a, b]`, each bound a number or a fraction `p/q`, computed as the code computes it.
fn range(cell: &str) -> (f32, f32) {
    let num = |t: &str| -> f32 {
        let t = t.trim();
        match t.split_once('/') {
            Some((p, q)) => p.trim().parse::<f32>().unwrap() / q.trim().parse::<f32>().unwrap(),
            None => t.parse().unwrap_or_else(|_| panic!("`{t}` is not a number")),
        }
    };
    let inner = cell.trim().strip_prefix('[').and_then(|c| c.strip_suffix(']')).expect("a range `[a, b]`");
    let (a, b) = inner.split_once(',').expect("two bounds");
    (num(a), num(b))
}

#[test]
fn doc_segment_table_matches_code() {
    let d = doc();
    assert!(d.contains(&format!("`OBS_VERSION = {OBS_VERSION}`")), "the doc names the version");
    assert!(d.contains(&format!("`OBS_LEN = {OBS_LEN}`")), "the doc names the length");
    let rows = table_after(&d, |l| l == "## Segments");
    let got: Vec<(String, usize, usize, (f32, f32))> =
        rows.iter().map(|r| (r[0].clone(), r[1].parse().unwrap(), r[2].parse().unwrap(), range(&r[3]))).collect();
    let want: Vec<(String, usize, usize, (f32, f32))> =
        SEGMENTS.iter().map(|s| (s.name.to_string(), s.offset, s.len, s.range())).collect();
    assert_eq!(got, want);
}

#[test]
fn doc_field_tables_match_code() {
    let d = doc();
    let mut checked = 0;
    for s in SEGMENTS.iter().filter(|s| s.fields.len() > 1) {
        let name = format!("`{}`", s.name);
        let rows = table_after(&d, |l| l.starts_with("### ") && l.contains(&name) && l.contains("fields"));
        let got: Vec<(usize, String, (f32, f32))> =
            rows.iter().map(|r| (r[0].parse().unwrap(), r[1].clone(), range(&r[2]))).collect();
        let want: Vec<(usize, String, (f32, f32))> =
            s.fields.iter().enumerate().map(|(i, f)| (i, f.name.to_string(), (f.lo, f.hi))).collect();
        assert_eq!(got, want, "fields of `{}`", s.name);
        checked += 1;
    }
    assert_eq!(checked, 12);
    // The one-hot segments' slots and the hand's and seats' blocks are as the doc says.
    assert_eq!(segment("decision").unwrap().len, obs::DECISION_NAMES.len());
    assert_eq!(segment("hand").unwrap().len, 15 * obs::HAND_SLOT_FIELDS.len());
    assert_eq!(segment("seats").unwrap().len, game::MAX_PLAYERS * obs::SEAT_FIELDS.len());
    assert!(d.contains(&format!("offset `{} + slot * 11 + field`", segment("hand").unwrap().offset)));
    assert!(d.contains(&format!("offset `{} + relative_seat * 12 + field`", segment("seats").unwrap().offset)));
}

// ------------------------------------------------------------------------------------------
// Random play

/// A random legal action; folds are rare so that hands reach draws, shifts and calls.
fn random_action(r: &mut Rng, s: &State) -> usize {
    let m = s.legal_mask();
    let fold = Action::Fold.index();
    if m.contains_index(fold) && m.count() > 1 && r.random_range(0..10) != 0 {
        let rest = classic::ActionMask::from_bits(m.bits() & !(1u64 << fold));
        return rest.nth_index(r.random_range(0..rest.count())).unwrap();
    }
    m.nth_index(r.random_range(0..m.count())).unwrap()
}

/// Random mid-game positions, every table size and rule variant.
fn random_positions(count: usize, seed: u64) -> Vec<State> {
    let mut r = Rng::seed_from_u64(seed);
    let mut out = vec![];
    while out.len() < count {
        let players = r.random_range(2..=8u8);
        let config = RuleConfig { hand_limit: 30, ..random_config(&mut r, players) };
        let mut s = State::new(config, r.random()).unwrap();
        for _ in 0..r.random_range(0..400) {
            if s.is_terminal() {
                break;
            }
            let a = random_action(&mut r, &s);
            s.apply_index(a).unwrap();
        }
        if !s.is_terminal() {
            out.push(s);
        }
    }
    out
}

// ------------------------------------------------------------------------------------------
// Hidden information never changes an observation (C6)

/// The position rebuilt with every card `viewer` cannot see relabelled by one random permutation:
/// other hands, the deck order, the out-of-play pile (the viewer's own drops kept), and the
/// others' shift cards and drops. `shuffle = false` rebuilds it unchanged, for comparison.
fn relabelled(s: &State, viewer: Seat, shuffle: bool, r: &mut Rng) -> State {
    let me = s.player(viewer);
    let mut known = me.put_out;
    me.hand.as_slice().iter().for_each(|&c| {
        known.insert(c);
    });
    if let Some(sw) = me.shift {
        known.insert(sw.lost);
        known.insert(sw.got);
    }
    let hidden: Vec<Card> = Card::all().filter(|&c| !known.contains(c)).collect();
    let mut image = hidden.clone();
    if shuffle {
        image.shuffle(r);
    }
    let mut map: Vec<Card> = Card::all().collect();
    for (a, b) in hidden.iter().zip(&image) {
        map[a.id() as usize] = *b;
    }
    let m = |c: Card| map[c.id() as usize];
    let pile = |p: &Pile| Pile::from_slice(&p.as_slice().iter().map(|&c| m(c)).collect::<Vec<_>>()).unwrap();

    let mut b = StateBuilder::new(*s.config(), 99).unwrap();
    b.position(Position {
        hand: s.hand_number(),
        round: s.round(),
        dealer: s.dealer(),
        turn_seat: s.turn_seat(),
        actor: s.current_player().unwrap(),
        pending: s.pending(),
        die: s.die(),
    });
    for i in 0..s.num_players() {
        let mut p = *s.player(Seat(i));
        if Seat(i) != viewer {
            p.hand = Hand::from_slice(&p.hand.as_slice().iter().map(|&c| m(c)).collect::<Vec<_>>()).unwrap();
            p.put_out = CardSet(0);
            for c in s.player(Seat(i)).put_out.iter() {
                p.put_out.insert(m(c));
            }
            p.shift = p.shift.map(|mut sw| {
                sw.lost = m(sw.lost);
                sw.got = m(sw.got);
                sw
            });
        }
        b.player(Seat(i), p);
    }
    b.piles(pile(s.deck()), pile(s.out_of_play()))
        .pots(s.hand_pot(), s.sabacc_pot())
        .betting(*s.betting())
        .rng(7, DiceScript::default())
        .event_logging(true);
    b.build().unwrap_or_else(|e| panic!("relabelled position: {e}"))
}

/// Whether the viewer legitimately learned a hidden card in these events: a card it drew or got in
/// a shift, or a reveal.
fn reached(events: &[Event], viewer: Seat) -> bool {
    events.iter().any(|e| match e {
        Event::Drew { seat, .. } | Event::ShiftCards { seat, .. } => *seat == viewer,
        Event::Revealed { .. } | Event::DemiseCard { .. } | Event::HandEnded { .. } => true,
        _ => false,
    })
}

#[test]
fn c6_rearranging_hidden_cards_in_a_scenario_never_changes_an_observation() {
    let mut r = Rng::seed_from_u64(3);
    let mut changed = 0;
    for s in random_positions(120, 1) {
        let sc = Scenario::from_state(&s).unwrap();
        let base = sc.build().unwrap();
        for v in (0..s.num_players()).map(Seat).filter(|&v| s.player(v).in_game) {
            let other = common::rearranged(&sc, v, &mut r).build().unwrap();
            changed += (other.deck() != base.deck()) as u32;
            assert_eq!(encode_vec(&base.view(v)), encode_vec(&other.view(v)), "the observation of {v} changed");
        }
    }
    assert!(changed > 100, "{changed}");
}

#[test]
fn c6_relabelling_every_hidden_card_never_changes_an_observation_now_or_later() {
    let mut r = Rng::seed_from_u64(4);
    let (mut compared, mut changed, mut with_shift, mut with_drops) = (0u32, 0u32, 0u32, 0u32);
    for s in random_positions(100, 2) {
        for v in (0..s.num_players()).map(Seat).filter(|&v| s.player(v).in_game) {
            let mut a = relabelled(&s, v, false, &mut r);
            let mut b = relabelled(&s, v, true, &mut r);
            changed += (a.deck() != b.deck()) as u32;
            // The rebuilt position shows the viewer what the real one does, except what comes from
            // the last hand's result, which a rebuilt position lacks.
            let (real, rebuilt) = (encode_vec(&s.view(v)), encode_vec(&a.view(v)));
            let seats = segment("seats").unwrap();
            let paid = 7;
            for i in 0..OBS_LEN {
                let in_paid = (seats.offset..seats.offset + seats.len).contains(&i) && (i - seats.offset) % 12 == paid;
                assert!(in_paid || real[i] == rebuilt[i], "index {i}: {} vs {}", real[i], rebuilt[i]);
            }
            with_shift += s.player(v).shift.is_some() as u32;
            with_drops += !s.player(v).put_out.is_empty() as u32;
            // The same actions on both, until the viewer legitimately sees a hidden card.
            let mut pick = Rng::seed_from_u64(v.0 as u64);
            loop {
                assert_eq!(encode_vec(&a.view(v)), encode_vec(&b.view(v)), "the observation of {v} changed");
                compared += 1;
                if a.is_terminal() {
                    break;
                }
                let x = random_action(&mut pick, &a);
                let from = a.events().len();
                a.apply_index(x).unwrap();
                b.apply_index(x).unwrap();
                if reached(&a.events()[from..], v) {
                    break;
                }
            }
        }
    }
    assert!(
        compared > 1500 && changed > 300 && with_shift > 20 && with_drops > 5,
        "{compared} {changed} {with_shift} {with_drops}"
    );
}

// ------------------------------------------------------------------------------------------
// Ranges and meanings over random games

/// Checks every float of one observation against its field's range.
fn check_ranges(o: &[f32], what: &dyn Fn() -> String) {
    for s in SEGMENTS.iter() {
        for i in 0..s.len {
            let (x, f) = (o[s.offset + i], s.field(i));
            assert!(
                x.is_finite() && f.lo <= x && x <= f.hi,
                "{}[{i}] `{}` = {x} outside [{}, {}] at {}",
                s.name,
                f.name,
                f.lo,
                f.hi,
                what()
            );
        }
    }
}

fn close(a: f32, b: f32, what: &str) {
    assert!((a - b).abs() <= 1e-6 * b.abs().max(1.0), "{what}: {a} vs {b}");
}

fn close_all(a: &[f32], b: &[f32]) {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).for_each(|(&x, &y)| close(x, y, &format!("{a:?} vs {b:?}")));
}

fn seg(o: &[f32], name: &str) -> Vec<f32> {
    let s: Segment = segment(name).unwrap();
    o[s.offset..s.offset + s.len].to_vec()
}

/// What the doc says, checked against the state behind the view.
fn check_meaning(s: &State, v: Seat, o: &[f32]) {
    let n = s.num_players() as usize;
    let cfg = s.config();
    let start = cfg.starting_credits as f32;
    let seats = seg(o, "seats");
    for k in 0..game::MAX_PLAYERS {
        let row = &seats[k * 12..(k + 1) * 12];
        if k >= n {
            assert!(row.iter().all(|&x| x == 0.0), "padding row {k} is not zero");
            continue;
        }
        let seat = Seat(((v.index() + k) % n) as u8);
        let p = s.player(seat);
        assert_eq!(row[0], 1.0);
        close(row[4], p.credits as f32 / start, "credits");
        close(row[9] * 15.0, p.hand.len() as f32, "cards");
        if !s.is_terminal() && (s.hand_number() == 1 || s.last_result().is_some()) {
            let paid = (p.hand_start_credits - p.credits) as f32 / start;
            close(row[7], paid, "paid this hand");
        }
    }
    let one_hot = |name: &str| seg(o, name).iter().position(|&x| x == 1.0);
    let rel = |x: Seat| (x.index() + n - v.index()) % n;
    assert_eq!(one_hot("dealer"), Some(rel(s.dealer())));
    assert_eq!(one_hot("turn_seat"), Some(rel(s.turn_seat())));
    assert_eq!(one_hot("actor"), s.current_player().map(rel));
    assert_eq!(seg(o, "decision").iter().sum::<f32>(), 1.0);

    let hand = s.player(v).hand;
    let slots = seg(o, "hand");
    for (i, c) in hand.as_slice().iter().enumerate() {
        let slot = &slots[i * 11..(i + 1) * 11];
        assert_eq!(slot[0], 1.0);
        close(slot[10], c.value(&cfg.face_values) as f32 / 23.0, "card value");
        assert_eq!(slot[1] == 1.0, c.rank().is_some());
        assert_eq!(slot[1..10].iter().sum::<f32>(), 1.0);
    }
    assert!(slots[hand.len() * 11..].iter().all(|&x| x == 0.0));
    let summary = seg(o, "hand_summary");
    if hand.is_empty() {
        assert!(summary.iter().all(|&x| x == 0.0));
    } else {
        let class = s.classify(&hand);
        assert_eq!(summary[3] == 1.0, class == HandClass::Bombed, "{hand:?}");
        assert_eq!(summary[4] == 1.0, class == HandClass::PureSabacc, "{hand:?}");
        assert_eq!(summary[5] == 1.0, class == HandClass::IdiotsArray, "{hand:?}");
    }
    // `unseen`: the copies it says the viewer can place are exactly its hand, its drops and its
    // latest lost card.
    let mut placed = s.player(v).put_out;
    hand.as_slice().iter().for_each(|&c| {
        placed.insert(c);
    });
    if let Some(sw) = s.player(v).shift {
        placed.insert(sw.lost);
    }
    let unseen = seg(o, "unseen");
    let placed_count: f32 = unseen.iter().enumerate().map(|(k, &x)| (1.0 - x) * if k < 15 { 4.0 } else { 2.0 }).sum();
    assert_eq!(placed_count, placed.len() as f32);
}

#[test]
fn every_value_is_finite_and_in_its_documented_range_and_means_what_the_doc_says() {
    let games: u64 = std::env::var("CLASSIC_OBS_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(6);
    let mut buf = vec![f32::NAN; OBS_LEN];
    let (mut encoded, mut extremes) = (0u64, [false; 2]);
    for players in 2..=8u8 {
        let mut r = Rng::seed_from_u64(100 + players as u64);
        for g in 0..games {
            let config = if g == 0 { RuleConfig::with_players(players) } else { random_config(&mut r, players) };
            let mut s = State::new(config, r.random()).unwrap();
            s.set_event_logging(false);
            loop {
                // Every seat's view at every decision, the finished game's too.
                for v in (0..players).map(Seat) {
                    encode(&s.view(v), &mut buf);
                    check_ranges(&buf, &|| format!("{config:?}, seat {v}, {:?}", s.pending()));
                    check_meaning(&s, v, &buf);
                    encoded += 1;
                    let pots = seg(&buf, "pots");
                    extremes[0] |= pots.iter().any(|&x| x > 1.0);
                    extremes[1] |= seg(&buf, "hand").iter().any(|&x| x.abs() > 1.0);
                }
                if s.is_terminal() {
                    break;
                }
                let a = random_action(&mut r, &s);
                s.apply_index(a).unwrap();
            }
        }
    }
    assert!(encoded > 20_000, "{encoded}");
    assert!(extremes.iter().all(|&e| e), "pots above the starting credits and extreme face values were reached");
}

#[test]
fn a_known_position_reads_as_documented() {
    // Seat 1 to answer a bet of 2 by seat 0 (seat 2 deals); seat 1 holds an Idiot's Array.
    let s = Scenario::from_json(
        &serde_json::json!({
            "config": {"players": 3},
            "dealer": 2,
            "turn": 0,
            "decision": "answer",
            "players": [
                {"hand": ["sabres-10", "coins-ace"], "credits": 96, "contributed": 2},
                {"hand": ["idiot", "staves-2", "flasks-3"], "credits": 98},
                {"hand": ["star", "demise"], "credits": 98}
            ],
            "hand_pot": 5,
            "sabacc_pot": 3,
            "betting": {"to_match": 2, "waiting": [1, 2]},
            "deck": ["coins-1"]
        })
        .to_string(),
    )
    .unwrap();
    assert_eq!(s.pending(), Pending::Answer);
    let o = encode_vec(&s.view(Seat(1)));
    assert_eq!(seg(&o, "players"), [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(seg(&o, "decision")[1], 1.0);
    // Relative seats from seat 1: seat 1 → 0, seat 2 → 1, seat 0 → 2.
    assert_eq!(seg(&o, "dealer")[1], 1.0);
    assert_eq!(seg(&o, "turn_seat")[2], 1.0);
    assert_eq!(seg(&o, "actor")[0], 1.0);
    // The phase maximum is 3 × (3 + 1) = 12 credits.
    close_all(&seg(&o, "betting"), &[1.0, 2.0 / 12.0, 2.0 / 12.0, 0.0, 1.0, 1.0]);
    close_all(&seg(&o, "pots"), &[0.05, 0.03]);
    close_all(&seg(&o, "hand_summary"), &[3.0 / 15.0, 5.0 / 23.0, 18.0 / 23.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
    let hand = seg(&o, "hand");
    assert_eq!(&hand[..11], &[1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    close_all(&hand[11..22], &[1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0 / 23.0]);
    let seats = seg(&o, "seats");
    let row = |k: usize| &seats[k * 12..(k + 1) * 12];
    close(row(2)[4], 0.96, "credits");
    close(row(2)[6], 2.0 / 12.0, "contributed");
    assert_eq!((row(0)[8], row(1)[8], row(2)[8]), (1.0, 1.0, 0.0), "waiting");
    // Hand 1: paid since the hand began is measured from the starting credits.
    close_all(&[row(0)[7], row(1)[7], row(2)[7]], &[0.02, 0.02, 0.04]);
    let unseen = seg(&o, "unseen");
    assert_eq!((unseen[1], unseen[2], unseen[15], unseen[22]), (0.75, 0.75, 0.5, 1.0));
    assert!(row(3).iter().all(|&x| x == 0.0));
    // The others' cards are nowhere: seat 0's view differs only where the doc says.
    let o0 = encode_vec(&s.view(Seat(0)));
    close(seg(&o0, "hand")[10], 10.0 / 23.0, "seat 0's first card");
}

#[test]
fn encoding_overwrites_every_float_of_a_used_buffer() {
    let positions = random_positions(40, 7);
    let mut buf = vec![f32::NAN; OBS_LEN];
    for (k, s) in positions.iter().enumerate() {
        for v in (0..s.num_players()).map(Seat) {
            // The buffer holds the last observation of another position (or NaN at first).
            let fresh = encode_vec(&s.view(v));
            encode(&s.view(v), &mut buf);
            assert_eq!(buf, fresh, "position {k}, {v}");
            buf.iter_mut().step_by(3).for_each(|x| *x = f32::NAN);
        }
    }
}

// ------------------------------------------------------------------------------------------
// No allocation

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.with(|a| a.set(a.get() + 1));
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn encoding_allocates_nothing() {
    let mut buf = vec![0.0f32; OBS_LEN];
    for s in random_positions(30, 6) {
        let views: Vec<_> = (0..s.num_players()).map(|v| s.view(Seat(v))).collect();
        let before = ALLOCS.with(|a| a.get());
        for v in &views {
            encode(v, &mut buf);
        }
        assert_eq!(ALLOCS.with(|a| a.get()), before);
    }
}
