//! The scene's memory budget: `MAX_SCENE_ITEMS` × `ItemList::BYTES_PER_ITEM` bytes of display
//! list, counted by what each item holds, so that no render's scene passes it.

use crate::hostile_core::settings;
use chart_raster_skia::scene::ItemList;
use chart_raster_skia::{Engine, Error};
use chart_spec::{Cancel, Limits};
use serde_json::{json, Value};

/// A radar of `labels` labels whose scale has 1,000 ticks: a grid polygon of `labels`
/// points per tick.
fn radar_grid(labels: usize) -> Value {
    let labels: Vec<usize> = (0..labels).collect();
    json!({"type": "radar", "data": {"labels": labels, "datasets": [{"data": [1, 2]}]},
        "options": {"scales": {"r": {"ticks": {"count": 1000}, "pointLabels": {"display": false}}}}})
}

/// Counting one item more per 8 path commands let 16 million commands (450 MB; release
/// CLI peak RSS 459 MB on a radar of 15,800 labels with 1,000 ticks) through the default
/// budget. Scaled down: 1,000 polygons of 1,500 points counted 189,500 items, within a
/// budget of 200,000, and held 42 MB of commands where the budget's bytes are 25.6 MB. The
/// scene now stops within those bytes and the render is refused for it, not for its
/// overdraw afterwards.
#[test]
fn a_scene_within_the_item_count_but_over_its_bytes_is_refused() {
    let max = 200_000;
    let engine = Engine::new().with_limits(Limits {
        max_scene_items: max,
        ..Limits::default()
    });
    let cfg = radar_grid(1_500);
    let config = cfg.as_object().expect("object");
    let (scene, _) = engine.scene(config, &settings());
    let budget = max * ItemList::BYTES_PER_ITEM;
    assert!(scene.bytes() <= budget, "{} > {budget}", scene.bytes());
    assert!(scene.bytes() > budget / 2, "{}", scene.bytes());
    let err = engine
        .render_chart_with(config, &settings(), &Cancel::new())
        .map(|o| o.messages)
        .expect_err("a limit error");
    assert_eq!(
        err.to_string(),
        "the chart needs more display-list items than the limit of 200000 (MAX_SCENE_ITEMS)"
    );
    assert!(matches!(err, Error::Limit { max: 200_000, .. }), "{err:?}");
}

/// The same grid, a quarter the size, fits the budget: the budget measures the scene, it
/// does not refuse radial grids.
#[test]
fn a_scene_within_its_bytes_is_drawn() {
    let engine = Engine::new().with_limits(Limits {
        max_scene_items: 200_000,
        ..Limits::default()
    });
    let cfg = json!({"type": "radar", "data": {"labels": (0..375).collect::<Vec<_>>(),
        "datasets": [{"data": [1, 2]}]},
        "options": {"scales": {"r": {"ticks": {"count": 100}, "pointLabels": {"display": false}}}}});
    let config = cfg.as_object().expect("object");
    let (scene, _) = engine.scene(config, &settings());
    assert!(scene.bytes() < 200_000 * ItemList::BYTES_PER_ITEM / 4);
    assert!(engine
        .render_chart_with(config, &settings(), &Cancel::new())
        .is_ok());
}

/// `MAX_POINTS` scatter points at the default radius, the largest scene of an ordinary
/// chart (two items a point), are drawn within the default budget.
#[test]
fn the_largest_scatter_fits_the_default_scene_budget() {
    let datasets: Vec<Value> = [100_000, 100_000, 50_000]
        .iter()
        .enumerate()
        .map(|(d, &n)| {
            let data: Vec<Value> = (0..n)
                .map(|i| json!({"x": (i * 7919 + d) % 1000, "y": (i * 104_729) % 997}))
                .collect();
            json!({"data": data})
        })
        .collect();
    let cfg = json!({"type": "scatter", "data": {"datasets": datasets}});
    let engine = Engine::new();
    let config = cfg.as_object().expect("object");
    let (scene, _) = engine.scene(config, &settings());
    assert!(scene.items.len() > 500_000, "{}", scene.items.len());
    let budget = Limits::default().max_scene_items * ItemList::BYTES_PER_ITEM;
    assert!(
        scene.bytes() <= budget * 3 / 4,
        "{} of {budget}",
        scene.bytes()
    );
}

/// A measuring aid: `SCENE_CONFIG=chart.json cargo test --release -p chart-raster-skia --test
/// integration scene_bytes_of -- --ignored --nocapture` prints the items and bytes of a
/// chart's scene at 800×600, dpr 2, without a budget.
#[test]
#[ignore = "measuring aid"]
fn scene_bytes_of() {
    let path = std::env::var("SCENE_CONFIG").expect("SCENE_CONFIG");
    let text = std::fs::read_to_string(&path).expect("readable");
    let cfg: Value = serde_json::from_str(&text).expect("json");
    let engine = Engine::new().with_limits(Limits {
        max_scene_items: usize::MAX / ItemList::BYTES_PER_ITEM,
        ..Limits::default()
    });
    let (scene, _) = engine.scene(cfg.as_object().expect("object"), &settings());
    eprintln!(
        "{path}: {} items, {} bytes ({:.1} MB), {:.2} of the default budget",
        scene.items.len(),
        scene.bytes(),
        scene.bytes() as f64 / 1e6,
        scene.bytes() as f64
            / (Limits::default().max_scene_items * ItemList::BYTES_PER_ITEM) as f64
    );
}
