//! The image-fixture harness shared by the skia engine's integration tests and `cargo xtask
//! fixtures`: each case of a fixtures folder (`../shared/chartjs-fixtures/dev`,
//! `../shared/plugin-fixtures/dev`) is rendered with the skia engine at the harness's settings
//! and compared with its reference PNG by the pixelmatch rule of the fixtures README
//! ("Comparing"); a pass list (`fixtures/<suite>-pass.txt`) is the ratchet: a listed case that
//! fails is a regression.
//!
//! A crate of its own rather than a module of the engine: reading the case files needs
//! `serde_json` and file access, which the engine's sources must not grow (`cargo xtask tidy`).
#![warn(missing_docs)]

mod image;
mod pixelmatch;
mod suite;

pub use image::{over_white, read_png, side_by_side, write_png};
pub use pixelmatch::pixelmatch;
pub use suite::{
    compare_case, list_cases, render_all, CaseResult, Comparison, Engines, Ratchet, Suite,
};

use std::path::PathBuf;

/// What can go wrong while reading, rendering or writing a fixture.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or folder could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A case file is not valid JSON.
    #[error("parsing {path}: {source}")]
    Json {
        /// The case file.
        path: PathBuf,
        /// The underlying error.
        source: serde_json::Error,
    },
    /// A reference PNG could not be decoded.
    #[error("decoding {path}: {source}")]
    PngDecode {
        /// The PNG file.
        path: PathBuf,
        /// The underlying error.
        source: png::DecodingError,
    },
    /// A PNG could not be encoded.
    #[error("encoding {path}: {source}")]
    PngEncode {
        /// The PNG file.
        path: PathBuf,
        /// The underlying error.
        source: png::EncodingError,
    },
    /// A case file is valid JSON but not a case.
    #[error("{0}")]
    Case(String),
    /// The engine refused the case's config.
    #[error("render: {0}")]
    Render(#[from] chart_raster_skia::Error),
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
