//! Limits per client (by IP address), so that one caller cannot crowd out the others: a request
//! rate (a token bucket: `requests_per_second` on average, bursts of `burst`) and, in the
//! store, a number of games (finished ones until they are dropped). Past either, the answer is 429 with a message naming
//! the limit (and `Retry-After` for the rate). Memory stays bounded: clients silent for a minute
//! are forgotten.

use crate::error::ApiError;
use axum::extract::{ConnectInfo, Request};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A client silent this long is forgotten (its bucket would be full again anyway).
const FORGET_AFTER: Duration = Duration::from_secs(60);
/// Clients remembered before the silent ones are swept out.
const SWEEP_ABOVE: usize = 4096;

struct Bucket {
    tokens: f64,
    last: Instant,
}

/// Token buckets by client address.
pub struct RateLimiter {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    /// `per_second` requests on average per client, bursts of `burst`; `per_second <= 0`
    /// switches the limit off.
    pub fn new(per_second: f64, burst: f64) -> RateLimiter {
        RateLimiter { per_second, burst: burst.max(1.0), buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes one request from `client`'s bucket at `now`, or says how long to wait.
    pub fn take(&self, client: IpAddr, now: Instant) -> Result<(), ApiError> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > SWEEP_ABOVE {
            buckets.retain(|_, b| now.saturating_duration_since(b.last) < FORGET_AFTER);
        }
        let b = buckets.entry(client).or_insert(Bucket { tokens: self.burst, last: now });
        let refill = now.saturating_duration_since(b.last).as_secs_f64() * self.per_second;
        b.tokens = (b.tokens + refill).min(self.burst);
        b.last = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            let wait = ((1.0 - b.tokens) / self.per_second).ceil().max(1.0) as u64;
            Err(ApiError::RateLimited { per_second: self.per_second, retry_after: wait })
        }
    }

    /// Clients remembered now.
    #[cfg(test)]
    fn clients(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// The client's address: the connection's peer (a router served without connection info, as in
/// some tests, counts as one local client).
pub fn client_of(request: &Request) -> IpAddr {
    request.extensions().get::<ConnectInfo<SocketAddr>>().map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |c| c.0.ip())
}

/// The client a request came from, for handlers (set by the router's rate-limit middleware).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_the_rate_and_forgets_nobody_else() {
        let limiter = RateLimiter::new(10.0, 5.0);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let t0 = Instant::now();
        for _ in 0..5 {
            limiter.take(a, t0).expect("within the burst");
        }
        let Err(ApiError::RateLimited { retry_after, .. }) = limiter.take(a, t0) else { panic!("burst exceeded") };
        assert_eq!(retry_after, 1);
        // Another client is not affected.
        limiter.take(b, t0).expect("b has its own bucket");
        // A tenth of a second later one more request is allowed (10 per second), not two.
        let t1 = t0 + Duration::from_millis(100);
        limiter.take(a, t1).expect("refilled by one");
        assert!(limiter.take(a, t1).is_err());
        assert_eq!(limiter.clients(), 2);
        // Off: no limit at all.
        let off = RateLimiter::new(0.0, 1.0);
        for _ in 0..1000 {
            off.take(a, t0).unwrap();
        }
    }

    #[test]
    fn silent_clients_are_forgotten_so_memory_stays_bounded() {
        let limiter = RateLimiter::new(1000.0, 10.0);
        let t0 = Instant::now();
        for i in 0..=SWEEP_ABOVE as u32 {
            limiter.take(IpAddr::V4(Ipv4Addr::from(i)), t0).unwrap();
        }
        let later = t0 + FORGET_AFTER + Duration::from_secs(1);
        limiter.take("10.9.9.9".parse().unwrap(), later).unwrap();
        assert_eq!(limiter.clients(), 1, "the silent clients were kept");
    }
}
