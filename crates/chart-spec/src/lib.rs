//! The chart model shared by every engine: the render request ([`request`]), what a render
//! returns ([`bitmap`], [`message`]), CSS values ([`color`], [`font`]) and the Chart.js
//! configuration resolved through Chart.js's option scope chain.
//!
//! Raw vs resolved: [`resolve::resolve_chart`] reads the config JSON as the user wrote it and
//! looks every option up through ordered scopes ([`scopes`]: dataset →
//! `options.datasets[type]` → `options` → `options.elements.<element>` → chart-type overrides →
//! global defaults, the latter as data in [`defaults`]), producing the typed, fully resolved
//! [`model::Chart`]. Small value types (padding, fonts via `toFont`, indexable options) live
//! in [`values`]; dates in [`time`].
//!
//! [`model`], [`resolve`] and [`defaults`] are cut the same way, one file per concept (chart,
//! dataset, element, scale, plugin, plugin chart, annotation); `resolve` uses the other two,
//! `model` uses neither.
//!
//! This crate depends on no other workspace crate. The aim is that engines read only the
//! resolved model, never raw JSON; the skia engine does not yet (`Engine::scene` takes the
//! config map and calls [`resolve_chart`] itself, and some plugin options are resolved there:
//! issue 10, listed in `cargo xtask tidy`'s serde_json allow-list).

pub mod bitmap;
pub mod budget;
pub mod color;
pub mod defaults;
pub mod error;
pub mod font;
pub mod limits;
pub mod message;
pub mod model;
pub mod request;
pub mod resolve;
pub mod scopes;
pub mod time;
pub mod values;

pub use bitmap::{Bitmap, Rendered};
pub use color::Rgba;
pub use limits::{Cancel, Limits, LimitsError};
pub use message::{Level, Message};
pub use model::Chart;
pub use request::{EngineKind, ImageFormat, RenderOptions, RequestError};
pub use resolve::resolve_chart;
