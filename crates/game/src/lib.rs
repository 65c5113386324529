//! The game interface.
