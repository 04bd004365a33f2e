//! Renders one chart in every format of [`ImageFormat`], written in code rather than as JSON.
//!
//! ```sh
//! cargo run -p chart-raster --example render_all_formats -- out-dir
//! ```
//!
//! Without an argument the files go to the system's temporary directory.

use chart_raster::{render, ImageFormat, RenderOptions};
use serde_json::json;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args_os()
        .nth(1)
        .map_or_else(std::env::temp_dir, PathBuf::from);
    std::fs::create_dir_all(&dir)?;

    let serde_json::Value::Object(config) = json!({
        "type": "doughnut",
        "data": {
            "labels": ["Rust", "C++", "Go"],
            "datasets": [{"data": [55, 30, 15]}]
        },
        "options": {"plugins": {"legend": {"position": "right"}}}
    }) else {
        return Err("the config is not a JSON object".into());
    };
    // The fields are public: take the defaults of `new` and change what differs. `render`
    // checks the values as the JSON parser would.
    let base = RenderOptions {
        width: 480.0,
        height: 320.0,
        background_color: "#fafafa".into(),
        quality: 85,
        ..RenderOptions::new(config)
    };

    for &format in ImageFormat::ALL {
        let options = RenderOptions {
            format,
            ..base.clone()
        };
        let image = render(&options)?;
        assert_eq!(image.content_type, format.content_type());
        assert!(!image.bytes.is_empty());
        let path = dir.join(format!("doughnut.{}", format.extension()));
        std::fs::write(&path, &image.bytes)?;
        println!(
            "{:<5} {:<16} {:>7} bytes  {}",
            format.as_str(),
            image.content_type,
            image.bytes.len(),
            path.display()
        );
    }
    Ok(())
}
