use chart_spec::request::RenderOptions;
use serde_json::json;

#[test]
fn defaults_are_filled_in() {
    let opts = RenderOptions::from_json(&json!({"chart": {"type": "bar"}})).unwrap();
    assert_eq!(opts.width, 800.0);
    assert_eq!(opts.height, 600.0);
    assert_eq!(opts.device_pixel_ratio, 2.0);
}
