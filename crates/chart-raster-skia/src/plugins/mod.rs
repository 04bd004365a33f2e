//! Plugins.

pub mod decimation;
