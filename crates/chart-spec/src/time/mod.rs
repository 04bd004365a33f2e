//! Dates for Chart.js time scales: what a Chart.js date adapter does, without a date library.
//!
//! Chart.js delegates every calendar operation of its `time` and `timeseries` scales to a
//! date adapter (`parse`, `format`, `add`, `diff`, `startOf`, `endOf`). Two adapters matter:
//! `chartjs-adapter-moment` (the Chart.js image fixtures were rendered with it, so their
//! `parser` and `displayFormats` strings use moment tokens such as `YYYY-MM-DD`, `MMM D`) and
//! `chartjs-adapter-date-fns` (bundled by the browser engine of this service; its tokens differ:
//! `yyyy-MM-dd`, `MMM d`). [`DateAdapter`] implements both token styles, chosen by
//! [`TokenStyle`], with each adapter's default `displayFormats`.
//!
//! Time is milliseconds since the Unix epoch (`f64`, like a JavaScript `Date`). The "local"
//! time zone of the adapter is UTC by default, or any fixed offset ([`DateAdapter::with_offset`]).
//! Calendar arithmetic is proleptic Gregorian with English month and day names (en-US).
//!
//! No date crate: the adapters need a small, well-defined subset (fixed offsets, two token
//! languages with moment's and date-fns's exact quirks) that general date crates do not offer
//! in either token style, so the few hundred lines of this module are simpler than adapting one.
//!
//! One file per concept: time units (`unit.rs`), the calendar (`calendar.rs`), format tokens
//! (`token.rs`), formatting (`format.rs`), parsing (`parse.rs`), and the adapter that combines
//! them (`adapter.rs`).

mod adapter;
mod calendar;
mod format;
mod parse;
mod token;
mod unit;

pub use adapter::DateAdapter;
pub use calendar::{civil_from_days, days_from_civil, Civil};
pub use parse::parse_fixed_offset;
pub use token::{DisplayFormats, TokenStyle};
pub use unit::TimeUnit;
