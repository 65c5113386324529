//! Drives the engine with arbitrary bytes: the first bytes choose a config (valid or not) and a
//! seed, the rest is a stream of action indices. The engine must never panic, a refused action
//! must leave the state unchanged and every accepted one must keep the invariants.
#![no_main]

use kessel::config::{
    CookScope, EmbezzlementSource, FirstStarter, ImpostorRule, InStand, MarkdownSylops, NulhrekTiebreak, RefundSource,
    RoundStarter, TaxTokenChips, TokenAssignment,
};
use kessel::{RuleConfig, State, TokenSet};
use game::Seat;
use libfuzzer_sys::fuzz_target;

fn config(b: &[u8; 16]) -> RuleConfig {
    let bit = |i: usize| b[4] >> i & 1 == 1;
    let mut c = RuleConfig {
        players: b[0] % 10,
        starting_chips: (b[1] % 52) as u16,
        round_limit: (b[2] % 8) as u16,
        tokens_per_player: b[3] % 18,
        nulhrek_tiebreak: if bit(0) { NulhrekTiebreak::LowerCards } else { NulhrekTiebreak::None },
        cook_the_books: if bit(1) { CookScope::PureLast } else { CookScope::PureFirst },
        markdown_sylops: if bit(2) { MarkdownSylops::ZeroPair } else { MarkdownSylops::StaysPure },
        refund_source: if bit(3) { RefundSource::HandPot } else { RefundSource::LostChips },
        embezzlement: if bit(4) { EmbezzlementSource::HandPot } else { EmbezzlementSource::Stock },
        tax_token_chips: if bit(5) { TaxTokenChips::LeaveGame } else { TaxTokenChips::VictimHandPot },
        in_stand: if bit(6) { InStand::LastAction } else { InStand::StoodThisTurn },
        early_reveal: bit(7),
        impostor: [ImpostorRule::OwnerChooses, ImpostorRule::AutoBest, ImpostorRule::OneDie][(b[5] % 3) as usize],
        round_starter: if b[5] & 8 == 0 { RoundStarter::Rotates } else { RoundStarter::AlwaysSeat0 },
        first_starter: if b[5] & 16 == 0 { FirstStarter::Seat0 } else { FirstStarter::Random },
        token_assignment: [
            TokenAssignment::Random,
            TokenAssignment::Fixed,
            TokenAssignment::Choose,
            TokenAssignment::None,
        ][(b[6] % 4) as usize],
        enabled_tokens: if b[7] & 1 == 0 { TokenSet::ALL } else { TokenSet(u16::from_le_bytes([b[8], b[9]])) },
        ..RuleConfig::default()
    };
    for i in 0..8 {
        c.fixed_loadouts[i] = TokenSet(u16::from_le_bytes([b[10 + i % 6], b[15 - i % 6]]));
    }
    c
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 24 {
        return;
    }
    let head: [u8; 16] = data[..16].try_into().unwrap();
    let seed = u64::from_le_bytes(data[16..24].try_into().unwrap());
    let Ok(mut s) = State::new(config(&head), seed) else { return };
    for &b in &data[24..] {
        if s.is_terminal() {
            break;
        }
        // High bit set: a raw index 0..128 (mostly illegal); otherwise the n-th legal action.
        let index = if b & 0x80 != 0 {
            (b & 0x7f) as usize
        } else {
            let m = s.legal_mask();
            m.nth_index(b as usize % m.count()).unwrap()
        };
        let before = s.clone();
        match s.apply_index(index) {
            Ok(()) => s.check_invariants().unwrap(),
            Err(_) => assert!(s == before, "a refused action changed the state"),
        }
    }
    for v in 0..s.num_players() {
        let view = s.view(Seat(v));
        let d = s.determinize(Seat(v), seed);
        assert_eq!(d.view(Seat(v)), view);
    }
});
