//! Unguessable names: game ids, seat secrets, and the deal seed of a server started without
//! `--seed`.
//!
//! These are the one kind of randomness in the project that must *not* flow from a seed: a seat
//! secret, a game id or a deal that anyone could recompute from a known seed would give the seat
//! away. They come from the operating system's generator, 128 bits each.

use crate::error::ApiError;

/// 128 random bits as 32 lowercase hex digits.
pub fn fresh() -> Result<String, ApiError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(no_randomness)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A random 64-bit seed.
pub fn seed() -> Result<u64, ApiError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(no_randomness)?;
    Ok(u64::from_le_bytes(bytes))
}

fn no_randomness(e: getrandom::Error) -> ApiError {
    ApiError::Agent(format!("the operating system gave no randomness for a secret: {e}"))
}

/// Compares a presented secret with the real one in time that does not depend on where they
/// first differ, so that response times do not reveal a secret digit by digit.
pub fn matches(presented: &str, real: &str) -> bool {
    let (a, b) = (presented.as_bytes(), real.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_fresh_hex_and_compared_exactly() {
        let a = fresh().unwrap();
        let b = fresh().unwrap();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)), "{a}");
        assert_ne!(a, b, "two secrets collided");
        assert!(matches(&a, &a.clone()));
        assert!(!matches(&a, &b));
        assert!(!matches(&a[..31], &a));
        assert!(!matches("", &a));
        assert_ne!(seed().unwrap(), seed().unwrap());
    }
}
