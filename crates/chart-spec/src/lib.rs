//! The chart model shared by every engine: the render request ([`request`]), what a render
//! returns ([`bitmap`], [`message`]), CSS values ([`color`], [`font`]) and the Chart.js
//! configuration resolved through Chart.js's option scope chain.
//!
//! This crate depends on no other workspace crate. Engines read only the resolved model,
//! never raw JSON.

pub mod bitmap;
pub mod color;
pub mod font;
pub mod message;
pub mod request;
pub mod time;

pub use bitmap::{Bitmap, Rendered};
pub use color::Rgba;
pub use message::{Level, Message};
pub use request::{EngineKind, ImageFormat, RenderOptions, RequestError};
