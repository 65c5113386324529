//! Feeds arbitrary text to the scenario loader: it must return a state or a one-line error naming
//! a field, never panic; a loaded state must hold the invariants and play on without panicking.
#![no_main]

use kessel::Scenario;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match Scenario::from_json(&text) {
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.contains('\n'));
            assert!(msg.starts_with(&format!("{}: ", e.field)));
        }
        Ok(mut s) => {
            s.check_invariants().unwrap();
            for k in 0..64usize {
                if s.is_terminal() {
                    break;
                }
                let m = s.legal_mask();
                s.apply_index(m.nth_index(k % m.count()).unwrap()).unwrap();
            }
        }
    }
});
