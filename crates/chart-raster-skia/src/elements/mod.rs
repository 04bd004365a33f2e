//! Elements.

pub mod arc;
