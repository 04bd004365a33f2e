//! Dataset controllers.

pub mod arc_layout;
