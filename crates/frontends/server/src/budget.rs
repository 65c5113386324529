//! How much work one request may do. A request that makes agents play (creating a table whose
//! first seats are agents, a person's action followed by the agents' turns) runs decision after
//! decision on the blocking pool; its [`Budget`] stops it between two decisions once the
//! server's time limit has passed or its client has gone, so neither a slow table nor a client
//! that hangs up leaves the server working for nobody. One decision is bounded on its own: an
//! agent's search budget is capped by the server (`--max-search`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The work one request may still do: a deadline, and a flag raised when its client goes.
#[derive(Clone, Debug)]
pub struct Budget {
    deadline: Instant,
    limit: Duration,
    gone: Arc<AtomicBool>,
}

/// Why a request's work was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The server's time limit for one request passed.
    TimeLimit(Duration),
    /// The client closed its connection before the answer.
    ClientGone,
}

impl Budget {
    /// A budget of `limit` from now, and the guard that raises its flag when dropped (the
    /// request's future is dropped when its client goes).
    pub fn start(limit: Duration) -> (Budget, ClientGuard) {
        let gone = Arc::new(AtomicBool::new(false));
        let budget = Budget { deadline: Instant::now() + limit, limit, gone: gone.clone() };
        (budget, ClientGuard { gone: Some(gone) })
    }

    /// A budget that never runs out (for callers outside a request: tests, tools).
    pub fn unlimited() -> Budget {
        let far = Duration::from_secs(365 * 24 * 3600);
        Budget { deadline: Instant::now() + far, limit: far, gone: Arc::new(AtomicBool::new(false)) }
    }

    /// `Err` once the work should stop.
    pub fn check(&self) -> Result<(), Stop> {
        if self.gone.load(Ordering::Relaxed) {
            Err(Stop::ClientGone)
        } else if Instant::now() >= self.deadline {
            Err(Stop::TimeLimit(self.limit))
        } else {
            Ok(())
        }
    }
}

/// Raises its budget's "client gone" flag when dropped, unless [`ClientGuard::answered`] was
/// called first.
pub struct ClientGuard {
    gone: Option<Arc<AtomicBool>>,
}

impl ClientGuard {
    /// The answer is ready: dropping the guard now means nothing.
    pub fn answered(mut self) {
        self.gone = None;
    }
}

impl Drop for ClientGuard {
    fn drop(&mut self) {
        if let Some(gone) = self.gone.take() {
            gone.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_runs_out_at_its_deadline_and_when_its_client_goes() {
        let (b, guard) = Budget::start(Duration::from_secs(60));
        assert_eq!(b.check(), Ok(()));
        drop(guard);
        assert_eq!(b.check(), Err(Stop::ClientGone));

        let (b, guard) = Budget::start(Duration::from_secs(60));
        guard.answered();
        assert_eq!(b.check(), Ok(()), "an answered request's guard raises nothing");

        let (b, _guard) = Budget::start(Duration::ZERO);
        assert_eq!(b.check(), Err(Stop::TimeLimit(Duration::ZERO)));
        assert_eq!(Budget::unlimited().check(), Ok(()));
    }
}
