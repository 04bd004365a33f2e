//! The resolved chart model: every option already looked up through Chart.js's scope chain
//! ([`crate::resolve`]) and typed. Engines draw from this only.
//!
//! One file per concept: the registered type names ([`kind`]), the [`chart`](mod@chart) and
//! its [`dataset`]s, the [`element`] options, [`scale`]s, [`plugin`] options, the bundled
//! [`plugin_chart`] types and [`annotation`]s. Every type but the annotation ones is re-exported here
//! (`chart_spec::model::Dataset`); annotation types keep their namespace
//! (`chart_spec::model::annotation::Shape`) because their names are the plugin's own.

pub mod annotation;
pub mod chart;
pub mod dataset;
pub mod element;
pub mod geo;
pub mod kind;
pub mod plugin;
pub mod plugin_chart;
pub mod raw;
pub mod scale;
pub mod word_cloud;

pub use chart::*;
pub use dataset::*;
pub use element::*;
pub use geo::*;
pub use kind::*;
pub use plugin::*;
pub use plugin_chart::*;
pub use raw::*;
pub use scale::*;
pub use word_cloud::*;
