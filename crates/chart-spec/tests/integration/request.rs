use chart_spec::request::{
    EngineKind, ImageFormat, RenderOptions, RequestError, MAX_DEVICE_PIXEL_RATIO, MAX_HEIGHT,
    MAX_PIXELS, MAX_WIDTH,
};
use serde_json::json;

fn err(v: serde_json::Value) -> String {
    RenderOptions::from_json(&v).unwrap_err().to_string()
}

#[test]
fn defaults_are_filled_in() {
    let opts = RenderOptions::from_json(&json!({"chart": {"type": "bar"}})).unwrap();
    assert_eq!(opts.width, 800.0);
    assert_eq!(opts.height, 600.0);
    assert_eq!(opts.device_pixel_ratio, 2.0);
    assert_eq!(opts.background_color, "white");
    assert_eq!(opts.format, ImageFormat::Png);
    assert_eq!(opts.quality, 90);
    assert_eq!(opts.engine, EngineKind::Skia);
    assert_eq!((opts.bitmap_width(), opts.bitmap_height()), (1600, 1200));
}

#[test]
fn every_field_is_read() {
    let opts = RenderOptions::from_json(&json!({
        "chart": {"type": "line"}, "width": 300, "height": 200.5, "devicePixelRatio": 1.5,
        "backgroundColor": "transparent", "format": "JPEG", "quality": 55, "engine": "browser"
    }))
    .unwrap();
    assert_eq!(opts.width, 300.0);
    assert_eq!(opts.height, 200.5);
    assert_eq!(opts.device_pixel_ratio, 1.5);
    assert_eq!(opts.background_color, "transparent");
    assert_eq!(opts.format, ImageFormat::Jpeg);
    assert_eq!(opts.quality, 55);
    assert_eq!(opts.engine, EngineKind::Browser);
}

#[test]
fn missing_or_null_chart_is_the_documented_error() {
    assert_eq!(err(json!({})), "Missing chart parameter");
    assert_eq!(err(json!({"chart": null})), "Missing chart parameter");
    assert_eq!(
        RenderOptions::from_json(&json!({"width": 3})),
        Err(RequestError::MissingChart)
    );
}

#[test]
fn chart_and_body_of_the_wrong_type_are_named() {
    assert_eq!(
        err(json!({"chart": [1, 2]})),
        "Invalid chart parameter: expected a JSON object (a Chart.js config), got an array"
    );
    assert_eq!(
        err(json!([1])),
        "Request body must be a JSON object, got an array"
    );
}

#[test]
fn malformed_json_names_the_problem() {
    let e = RenderOptions::from_json_bytes(b"{\"chart\": {").unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("Invalid JSON body: "), "{msg}");
    assert!(msg.contains("line 1"), "{msg}");
}

#[test]
fn engine_and_format_values_are_checked() {
    assert_eq!(
        err(json!({"chart": {}, "engine": "cairo"})),
        "Invalid engine: cairo"
    );
    assert_eq!(
        err(json!({"chart": {}, "format": "gif"})),
        "Invalid format: gif (expected png, jpeg, webp, svg or pdf)"
    );
    assert_eq!(
        err(json!({"chart": {}, "format": 3})),
        "Invalid format: expected a string, got a number"
    );
}

#[test]
fn sizes_name_their_limit() {
    assert_eq!(
        err(json!({"chart": {}, "width": 0})),
        "Invalid width: must be a positive finite number, got 0"
    );
    assert_eq!(
        err(json!({"chart": {}, "height": -5})),
        "Invalid height: must be a positive finite number, got -5"
    );
    assert_eq!(
        err(json!({"chart": {}, "width": 10001})),
        "Invalid width: 10001 is over the limit of 10000 (MAX_WIDTH)"
    );
    assert_eq!(
        err(json!({"chart": {}, "height": 20000})),
        "Invalid height: 20000 is over the limit of 10000 (MAX_HEIGHT)"
    );
    assert_eq!(
        err(json!({"chart": {}, "devicePixelRatio": 11})),
        "Invalid devicePixelRatio: 11 is over the limit of 10 (MAX_DEVICE_PIXEL_RATIO)"
    );
    assert_eq!(
        err(json!({"chart": {}, "width": "wide"})),
        "Invalid width: expected a number, got \"wide\""
    );
    let msg = err(json!({"chart": {}, "width": 10000, "height": 10000, "devicePixelRatio": 1}));
    assert!(msg.contains("MAX_PIXELS"), "{msg}");
    assert!(msg.contains("100000000 pixels"), "{msg}");
    // Exactly at the limits is accepted.
    let ok = RenderOptions::from_json(&json!({
        "chart": {}, "width": MAX_WIDTH, "height": 5000, "devicePixelRatio": 1
    }))
    .unwrap();
    assert_eq!(
        u64::from(ok.bitmap_width()) * u64::from(ok.bitmap_height()),
        MAX_PIXELS
    );
    assert!(RenderOptions::from_json(&json!({
        "chart": {}, "width": 10, "height": MAX_HEIGHT, "devicePixelRatio": MAX_DEVICE_PIXEL_RATIO
    }))
    .is_ok());
}

#[test]
fn a_bitmap_under_one_pixel_is_rejected() {
    let msg = err(json!({"chart": {}, "width": 0.1, "height": 0.1, "devicePixelRatio": 1}));
    assert!(msg.starts_with("Invalid size"), "{msg}");
}

#[test]
fn format_side_limits_apply() {
    let msg = err(json!({"chart": {}, "width": 9000, "height": 100, "format": "webp"}));
    assert_eq!(
        msg,
        "Invalid size: webp images are limited to 16383 pixels per side, \
         the bitmap would be 18000x200"
    );
    assert!(RenderOptions::from_json(&json!({
        "chart": {}, "width": 9000, "height": 100, "format": "png"
    }))
    .is_ok());
}

#[test]
fn quality_range_is_checked() {
    assert_eq!(
        err(json!({"chart": {}, "quality": 101})),
        "Invalid quality: must be between 0 and 100, got 101"
    );
    assert_eq!(
        err(json!({"chart": {}, "quality": -1})),
        "Invalid quality: must be between 0 and 100, got -1"
    );
}

#[test]
fn query_pairs_are_coerced() {
    let opts = RenderOptions::from_query([
        ("chart", r#"{"type":"bar","data":{"labels":["a"]}}"#),
        ("width", "400"),
        ("height", " 300 "),
        ("devicePixelRatio", "1"),
        ("quality", "70"),
        ("format", "webp"),
        ("backgroundColor", "#ff0000"),
        ("api_key", "ignored"),
    ])
    .unwrap();
    assert_eq!(opts.width, 400.0);
    assert_eq!(opts.height, 300.0);
    assert_eq!(opts.device_pixel_ratio, 1.0);
    assert_eq!(opts.quality, 70);
    assert_eq!(opts.format, ImageFormat::Webp);
    assert_eq!(opts.background_color, "#ff0000");
    assert_eq!(opts.chart["type"], "bar");
}

#[test]
fn query_errors_name_the_problem() {
    let e = |pairs: &[(&str, &str)]| {
        RenderOptions::from_query(pairs.iter().copied())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(e(&[("width", "3")]), "Missing chart parameter");
    assert!(e(&[("chart", "{nope")]).starts_with("Invalid chart parameter: not valid JSON: "));
    assert_eq!(
        e(&[("chart", "{}"), ("width", "abc")]),
        "Invalid width: expected a number, got \"abc\""
    );
    assert_eq!(
        e(&[("chart", "{}"), ("height", "inf")]),
        "Invalid height: must be a positive finite number, got inf"
    );
    assert_eq!(
        e(&[("chart", "\"text\"")]),
        "Invalid chart parameter: expected a JSON object (a Chart.js config), got a string"
    );
}

#[test]
fn get_and_post_of_the_same_request_hash_alike() {
    let post = RenderOptions::from_json(&json!({
        "chart": {"type": "bar"}, "width": 400, "quality": 70
    }))
    .unwrap();
    let get = RenderOptions::from_query([
        ("chart", r#"{"type":"bar"}"#),
        ("width", "400.0"),
        ("quality", "70"),
    ])
    .unwrap();
    assert_eq!(post.hash(), get.hash());
}

#[test]
fn hash_is_16_lowercase_hex_and_ignores_key_order() {
    let a = RenderOptions::from_json(&json!({
        "chart": {"type": "bar", "data": {"labels": ["x"], "datasets": [{"data": [1], "label": "a"}]}},
        "width": 400
    }))
    .unwrap();
    let b = RenderOptions::from_json(&json!({
        "width": 400,
        "chart": {"data": {"datasets": [{"label": "a", "data": [1]}], "labels": ["x"]}, "type": "bar"}
    }))
    .unwrap();
    let h = a.hash();
    assert_eq!(h.len(), 16);
    assert!(h
        .chars()
        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    assert_eq!(h, b.hash());
    assert_eq!(a.canonical_json(), b.canonical_json());
}

#[test]
fn defaults_spelled_out_hash_like_defaults_omitted() {
    let a = RenderOptions::from_json(&json!({"chart": {"type": "pie"}})).unwrap();
    let b = RenderOptions::from_json(&json!({
        "chart": {"type": "pie"}, "width": 800, "height": 600, "devicePixelRatio": 2,
        "backgroundColor": "white", "format": "png", "quality": 90, "engine": "skia"
    }))
    .unwrap();
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn every_field_changes_the_hash() {
    let base = json!({"chart": {"type": "pie"}});
    let h0 = RenderOptions::from_json(&base).unwrap().hash();
    for (k, v) in [
        ("width", json!(801)),
        ("height", json!(601)),
        ("devicePixelRatio", json!(1)),
        ("backgroundColor", json!("black")),
        ("format", json!("webp")),
        ("quality", json!(80)),
        ("engine", json!("browser")),
        ("chart", json!({"type": "bar"})),
    ] {
        let mut req = base.clone();
        req[k] = v;
        let h = RenderOptions::from_json(&req).unwrap().hash();
        assert_ne!(h, h0, "{k} does not change the hash");
    }
}

#[test]
fn canonical_json_has_sorted_keys_and_every_field() {
    let opts = RenderOptions::from_json(&json!({"chart": {"type": "bar", "data": {}}})).unwrap();
    assert_eq!(
        opts.canonical_json(),
        r#"{"backgroundColor":"white","chart":{"data":{},"type":"bar"},"devicePixelRatio":2,"engine":"skia","format":"png","height":600,"quality":90,"width":800}"#
    );
}

#[test]
fn a_width_whose_floored_device_size_is_zero_is_a_client_error() {
    // floor(0.4 · 2) = 0: the rasteriser (like Chart.js's `retinaScale`) floors, so this
    // used to pass the check (which rounded to 1) and fail in the engine as a 500.
    assert_eq!(
        err(json!({"chart": {}, "width": 0.4})),
        "Invalid size: the bitmap would be 0x1200 = 0 pixels; \
         it must be between 1 and 50000000 pixels (MAX_PIXELS)"
    );
    assert_eq!(
        err(json!({"chart": {}, "height": 0.9, "devicePixelRatio": 1})),
        "Invalid size: the bitmap would be 800x0 = 0 pixels; \
         it must be between 1 and 50000000 pixels (MAX_PIXELS)"
    );
    let ok = RenderOptions::from_json(&json!({"chart": {}, "width": 0.5})).unwrap();
    assert_eq!((ok.bitmap_width(), ok.bitmap_height()), (1, 1200));
    let floored =
        RenderOptions::from_json(&json!({"chart": {}, "width": 100.7, "devicePixelRatio": 1}))
            .unwrap();
    assert_eq!(floored.bitmap_width(), 100);
}

#[test]
fn absurd_numbers_are_errors_not_panics() {
    let q = |k: &'static str, v: &str| {
        RenderOptions::from_query([("chart", "{}"), (k, v)]).map_err(|e| e.to_string())
    };
    for field in ["width", "height", "devicePixelRatio", "quality"] {
        for v in [
            "NaN",
            "-NaN",
            "inf",
            "-inf",
            "1e400",
            "-1e400",
            "",
            "  ",
            "0x10",
            "1_000",
            "--1",
            "१२",
            "1e",
            ".",
            "-",
            "+",
            "9".repeat(400).as_str(),
            "\u{0}",
        ] {
            // Never a panic; either a value within the rules or an error naming the field.
            match q(field, v) {
                Ok(o) => {
                    assert!(o.width.is_finite() && o.height.is_finite());
                    assert!(o.device_pixel_ratio.is_finite() && o.quality <= 100);
                }
                Err(e) => assert!(
                    e.contains(field) || e.starts_with("Invalid size"),
                    "{field}={v:?}: {e}"
                ),
            }
        }
    }
    assert_eq!(
        q("width", "1e400").unwrap_err(),
        "Invalid width: must be a positive finite number, got inf"
    );
    assert_eq!(
        q("width", "NaN").unwrap_err(),
        "Invalid width: must be a positive finite number, got NaN"
    );
    // 1e-400 parses as 0.
    assert_eq!(
        q("height", "1e-400").unwrap_err(),
        "Invalid height: must be a positive finite number, got 0"
    );
    assert_eq!(
        q("quality", "-0.4").unwrap_err(),
        "Invalid quality: must be between 0 and 100, got -0.4"
    );
    assert_eq!(q("quality", "99.6").unwrap().quality, 100);
    // Positive but too small for one device pixel: a size error, not a crash.
    assert!(q("width", "1e-300")
        .unwrap_err()
        .starts_with("Invalid size"));
    // JSON numbers beyond f64's range cannot be parsed at all; huge integers are over limits.
    assert!(
        RenderOptions::from_json_bytes(br#"{"chart":{},"width":1e400}"#)
            .unwrap_err()
            .to_string()
            .starts_with("Invalid JSON body: number out of range")
    );
    assert_eq!(
        err(json!({"chart": {}, "width": u64::MAX})),
        "Invalid width: 18446744073709552000 is over the limit of 10000 (MAX_WIDTH)"
    );
    assert_eq!(
        err(json!({"chart": {}, "quality": 1e300})),
        format!("Invalid quality: must be between 0 and 100, got {}", 1e300)
    );
}
