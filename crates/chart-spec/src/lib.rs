//! The chart model shared by every engine: the render request ([`request`]), what a render
//! returns ([`bitmap`], [`message`]), CSS values ([`color`], [`font`]) and the Chart.js
//! configuration resolved through Chart.js's option scope chain.
//!
//! Raw vs resolved: [`resolve::resolve_for_render`] (a render's entry point, called once per
//! render) and [`resolve::resolve_chart`] read the config JSON ([`ChartConfig`]) as the user
//! wrote it and look every option up through ordered scopes ([`scopes`]: dataset →
//! `options.datasets[type]` → `options` → `options.elements.<element>` → chart-type overrides →
//! global defaults, the latter as data in [`defaults`]), producing the typed, fully resolved
//! [`model::Chart`]. Small value types (padding, fonts via `toFont`, indexable options) live
//! in [`values`]; dates in [`time`].
//!
//! [`model`], [`resolve`] and [`defaults`] are cut the same way, one file per concept (chart,
//! dataset, element, scale, plugin, plugin chart, annotation); `resolve` uses the other two,
//! `model` uses neither.
//!
//! This crate depends on no other workspace crate. Engines read only the resolved model:
//! the skia engine calls [`resolve_for_render`] once at its entry and draws the [`Chart`],
//! every option typed, the bundled plugins' and plugin chart types' included (the skia crate
//! has serde_json only for its tests; `cargo xtask tidy` checks it).
#![warn(missing_docs)]

pub mod bitmap;
pub mod budget;
mod canonical;
pub mod color;
pub mod defaults;
pub mod error;
mod fields;
pub mod font;
pub mod intl;
pub mod limits;
pub mod message;
pub mod model;
mod parse;
pub mod request;
pub mod resolve;
pub mod scopes;
pub mod split;
pub mod time;
pub mod values;

pub use bitmap::{Bitmap, Rendered};
pub use color::Rgba;
pub use limits::{Cancel, Limits, LimitsError};
pub use message::{Level, Message};
pub use model::Chart;
pub use request::{ChartConfig, EngineKind, ImageFormat, RenderOptions, RequestError};
pub use resolve::{resolve_chart, resolve_chart_within, resolve_for_render};
