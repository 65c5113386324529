//! Seats (C1.2) and sets of seats: the engine's, shared by both games so that everything above
//! the engines (the env, the agents, the arena) has one seat type.

pub use kessel::{MAX_PLAYERS, Seat, SeatSet};
