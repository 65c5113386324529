//! Token research: controlled experiments on Shift Tokens, played through the one game loop
//! ([`env::Driver`]) with agents from the agents layer.

pub mod estimate;
pub mod timing;
pub mod timing_report;
