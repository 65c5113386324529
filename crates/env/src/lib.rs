//! A Gym-like, multi-agent environment over the Kessel Sabacc engine.

pub mod agent;

pub use agent::{Agent, AgentRng, RandomAgent};
