//! Scales.

pub mod log;
pub mod radial_draw;
pub mod radial_geometry;
pub mod time;
