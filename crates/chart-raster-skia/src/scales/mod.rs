//! Scales.

pub mod log;
pub mod time;
