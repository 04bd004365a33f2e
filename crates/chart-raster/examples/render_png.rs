//! Renders one bar chart to a PNG file with the one-call API.
//!
//! ```sh
//! cargo run -p chart-raster --example render_png -- chart.png
//! ```
//!
//! Without an argument the image goes to the system's temporary directory.

use chart_raster::{render, RenderOptions};
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args_os()
        .nth(1)
        .map_or_else(|| std::env::temp_dir().join("chart.png"), PathBuf::from);

    // The body of the service's `POST /render`: the Chart.js config under "chart", then the
    // canvas in CSS pixels (the bitmap is width·devicePixelRatio wide).
    let options = RenderOptions::from_json_bytes(
        br#"{
            "chart": {
                "type": "bar",
                "data": {
                    "labels": ["Q1", "Q2", "Q3", "Q4"],
                    "datasets": [
                        {"label": "2025", "data": [12, 19, 14, 22]},
                        {"label": "2026", "data": [15, 21, 18, 27]}
                    ]
                },
                "options": {"plugins": {"title": {"display": true, "text": "Revenue"}}}
            },
            "width": 640,
            "height": 400,
            "devicePixelRatio": 2
        }"#,
    )?;
    let image = render(&options)?;
    for message in &image.messages {
        eprintln!("{:?}: {}", message.level, message.message);
    }
    std::fs::write(&out, &image.bytes)?;

    // A PNG starts with its signature; its IHDR holds the bitmap size (640·2 × 400·2).
    let size = |at: usize| {
        image
            .bytes
            .get(at..at + 4)
            .map(|b| [b[0], b[1], b[2], b[3]])
    };
    let (width, height) = (
        size(16).map(u32::from_be_bytes),
        size(20).map(u32::from_be_bytes),
    );
    assert!(image.bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert_eq!((width, height), (Some(1280), Some(800)));
    println!(
        "{}: {} bytes, {}x{} px",
        out.display(),
        image.bytes.len(),
        width.unwrap_or(0),
        height.unwrap_or(0)
    );
    Ok(())
}
