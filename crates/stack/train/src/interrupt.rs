//! Ctrl-C and SIGTERM during training: the first signal asks the trainer to write a checkpoint
//! at the end of the update in progress and return; a second signal ends the process at once
//! (exit code 128 + the signal's number), for a trainer stuck while saving.
//!
//! SIGKILL cannot be caught: it keeps the ordinary guarantee of at most `checkpoint_every`
//! updates lost.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Shared with the signal handlers: whether a stop was asked, and by which signal.
#[derive(Clone, Debug, Default)]
pub struct StopRequest {
    asked: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
}

impl StopRequest {
    /// A request nobody has made yet (and no handler installed: tests set it by hand).
    pub fn new() -> StopRequest {
        StopRequest::default()
    }

    /// Installs the SIGINT and SIGTERM handlers feeding this request.
    pub fn install() -> std::io::Result<StopRequest> {
        let req = StopRequest::new();
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGINT, SIGTERM};
            use signal_hook::flag;
            for sig in [SIGINT, SIGTERM] {
                // Registered first, so it sees the flag as it was before this signal: armed only
                // by an earlier one.
                flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&req.asked))?;
                flag::register_usize(sig, Arc::clone(&req.signal), sig as usize)?;
                flag::register(sig, Arc::clone(&req.asked))?;
            }
        }
        Ok(req)
    }

    /// Asks for a stop as if `signal` had arrived.
    pub fn ask(&self, signal: i32) {
        self.signal.store(signal as usize, Ordering::SeqCst);
        self.asked.store(true, Ordering::SeqCst);
    }

    /// The signal that asked for a stop, if one did.
    pub fn asked(&self) -> Option<i32> {
        self.asked.load(Ordering::SeqCst).then(|| self.signal.load(Ordering::SeqCst) as i32)
    }
}

/// The signal's usual name, for messages.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        2 => "SIGINT (Ctrl-C)",
        15 => "SIGTERM",
        _ => "a signal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interrupt_request_records_the_signal() {
        let r = StopRequest::new();
        assert_eq!(r.asked(), None);
        let shared = r.clone();
        shared.ask(15);
        assert_eq!(r.asked(), Some(15));
        assert_eq!(signal_name(15), "SIGTERM");
    }
}
