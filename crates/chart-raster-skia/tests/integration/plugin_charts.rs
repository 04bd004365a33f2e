//! The chart types of the bundled chart plugins (matrix, treemap, sankey, venn), checked on
//! the scene's geometry: what the plugins' layouts promise, measured in pixels.

use chart_raster_skia::scene::{Item, Paint, PathCmd, Scene};
use chart_raster_skia::{Engine, Settings};
use chart_spec::{Level, Rgba};
use serde_json::{json, Value};

fn scene(cfg: Value, width: f32, height: f32) -> Scene {
    let settings = Settings {
        width,
        height,
        device_pixel_ratio: 1.0,
        background: Rgba::WHITE,
    };
    let (scene, msgs) = Engine::new().scene(cfg.as_object().expect("object"), &settings);
    assert!(
        msgs.iter().all(|m| m.level != Level::Error),
        "{:?}",
        msgs.iter().map(|m| &m.message).collect::<Vec<_>>()
    );
    scene
}

/// Bounding boxes (left, top, right, bottom) of the fills painted with `color`.
fn fills_of(scene: &Scene, color: Rgba) -> Vec<(f32, f32, f32, f32)> {
    scene
        .items
        .iter()
        .filter_map(|it| match it {
            Item::Fill {
                path,
                paint: Paint::Solid(c),
                ..
            } if *c == color => {
                let pts: Vec<(f32, f32)> = path
                    .cmds
                    .iter()
                    .filter_map(|c| match *c {
                        PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => Some((x, y)),
                        PathCmd::CubicTo(.., x, y) | PathCmd::QuadTo(.., x, y) => Some((x, y)),
                        PathCmd::Close => None,
                    })
                    .collect();
                let l = pts.iter().map(|p| p.0).fold(f32::INFINITY, f32::min);
                let r = pts.iter().map(|p| p.0).fold(f32::NEG_INFINITY, f32::max);
                let t = pts.iter().map(|p| p.1).fold(f32::INFINITY, f32::min);
                let b = pts.iter().map(|p| p.1).fold(f32::NEG_INFINITY, f32::max);
                Some((l, t, r, b))
            }
            _ => None,
        })
        .collect()
}

fn texts(scene: &Scene) -> Vec<String> {
    scene
        .items
        .iter()
        .filter_map(|it| match it {
            Item::Text(t) => Some(t.text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn treemap_areas_are_proportional_to_values() {
    let values = [45.0, 30.0, 22.0, 15.0, 12.0, 9.0, 6.0, 4.0, 3.0];
    let cfg = json!({
        "type": "treemap",
        "data": {"datasets": [{
            "tree": values, "backgroundColor": "rgb(10, 20, 30)", "spacing": 0,
            "labels": {"display": true}
        }]},
        "options": {"plugins": {"legend": {"display": false}}, "layout": {"padding": 0}}
    });
    let s = scene(cfg, 800.0, 500.0);
    let rects = fills_of(&s, Rgba::rgb(10, 20, 30));
    assert_eq!(rects.len(), values.len());
    let total: f64 = values.iter().sum();
    let area_total: f64 = rects
        .iter()
        .map(|r| f64::from((r.2 - r.0) * (r.3 - r.1)))
        .sum();
    // Largest first; each area its share of the whole, up to pixel snapping.
    for (r, v) in rects.iter().zip(values) {
        let a = f64::from((r.2 - r.0) * (r.3 - r.1));
        let share = a / area_total;
        assert!(
            (share - v / total).abs() < 0.01,
            "{v}: {share} vs {}",
            v / total
        );
    }
    // The rectangles tile the chart area: about 800 × 500 less the 0.5px element spacing.
    assert!(area_total > 790.0 * 490.0 && area_total <= 800.0 * 500.0);
    // Leaf labels carry the values.
    let t = texts(&s);
    assert!(
        t.contains(&"45".to_string()) && t.contains(&"3".to_string()),
        "{t:?}"
    );
}

#[test]
fn sankey_node_heights_follow_their_flows() {
    let cfg = json!({
        "type": "sankey",
        "data": {"datasets": [{
            "data": [
                {"from": "a", "to": "c", "flow": 30},
                {"from": "b", "to": "c", "flow": 10},
                {"from": "c", "to": "d", "flow": 40}
            ],
            "colorFrom": "rgb(1, 2, 3)", "colorTo": "rgb(4, 5, 6)",
            "borderWidth": 0, "nodePadding": 0
        }]}
    });
    let s = scene(cfg, 600.0, 400.0);
    // Sources are coloured by colorFrom (a, b, and c as the source of c → d); d by colorTo.
    let from = fills_of(&s, Rgba::rgb(1, 2, 3));
    let to = fills_of(&s, Rgba::rgb(4, 5, 6));
    assert_eq!(from.len(), 3, "{from:?}");
    assert_eq!(to.len(), 1, "{to:?}");
    let h = |r: &(f32, f32, f32, f32)| r.3 - r.1;
    let w = |r: &(f32, f32, f32, f32)| r.2 - r.0;
    // Nodes are nodeWidth (10) wide.
    assert!(from.iter().chain(&to).all(|r| (w(r) - 10.0).abs() < 1e-3));
    // Left column: a (30) is three times b (10); c and d carry 40 = a + b.
    let mut left: Vec<_> = from.iter().filter(|r| r.0 < 100.0).collect();
    left.sort_by(|a, b| h(b).total_cmp(&h(a)));
    assert_eq!(left.len(), 2);
    assert!((h(left[0]) / h(left[1]) - 3.0).abs() < 1e-3);
    let c = from.iter().find(|r| r.0 > 100.0).expect("node c");
    assert!((h(c) - h(left[0]) - h(left[1])).abs() < 1e-2);
    assert!((h(&to[0]) - h(c)).abs() < 1e-2);
    // Columns: a/b at the left, c in the middle, d at the right.
    assert!(c.0 > left[0].0 && to[0].0 > c.0);
    // Node labels.
    let t = texts(&s);
    for k in ["a", "b", "c", "d"] {
        assert!(t.contains(&k.to_string()), "{t:?}");
    }
}

#[test]
fn matrix_rectangles_have_the_given_size() {
    let cfg = json!({
        "type": "matrix",
        "data": {"datasets": [{
            "data": [{"x": 1, "y": 1}, {"x": 2, "y": 2}, {"x": 3, "y": 1}],
            "width": 30, "height": 20, "backgroundColor": "rgb(7, 8, 9)"
        }]},
        "options": {"plugins": {"legend": {"display": false}}}
    });
    let s = scene(cfg, 400.0, 300.0);
    let rects = fills_of(&s, Rgba::rgb(7, 8, 9));
    assert_eq!(rects.len(), 3);
    for r in &rects {
        assert!((r.2 - r.0 - 30.0).abs() < 1e-3 && (r.3 - r.1 - 20.0).abs() < 1e-3);
    }
    // The plugin's override reverses y: the larger value is lower on screen.
    assert!(rects[1].1 > rects[0].1);
    assert!(rects[2].0 > rects[1].0 && rects[1].0 > rects[0].0);
}

#[test]
fn venn_two_sets_draw_three_regions_and_labels() {
    let cfg = json!({
        "type": "venn",
        "data": {"labels": ["A", "B", "A ∩ B"], "datasets": [{
            "data": [
                {"sets": ["A"], "value": 1000},
                {"sets": ["B"], "value": 8},
                {"sets": ["A", "B"], "value": 3}
            ],
            "backgroundColor": "rgb(11, 12, 13)"
        }]},
        "options": {"plugins": {"legend": {"display": false}}}
    });
    let s = scene(cfg, 500.0, 300.0);
    let regions = fills_of(&s, Rgba::rgb(11, 12, 13));
    assert_eq!(regions.len(), 3);
    // The intersection lies between the two set regions.
    let (a, b, ab) = (regions[0], regions[1], regions[2]);
    assert!(ab.0 > a.0 && ab.2 < b.2);
    let t = texts(&s);
    for want in ["A", "B", "1,000", "8", "3"] {
        assert!(t.contains(&want.to_string()), "{t:?}");
    }
}

#[test]
fn odd_plugin_data_renders_without_panicking() {
    let cases = [
        json!({"type": "treemap", "data": {"datasets": [{"tree": []}]}}),
        json!({"type": "treemap", "data": {"datasets": [{"tree": [0, 0, "x", null, -3]}]}}),
        json!({"type": "treemap", "data": {"datasets": [{"tree": [{"a": 1}], "groups": ["a"]}]}}),
        json!({"type": "treemap", "data": {"datasets": [{"tree": {"a": {"b": 1}}, "key": "v"}]}}),
        json!({"type": "sankey", "data": {"datasets": [{"data": []}]}}),
        json!({"type": "sankey", "data": {"datasets": [{"data": [
            {"from": "a", "to": "b", "flow": 1}, {"from": "b", "to": "a", "flow": 1},
            {"from": "c", "to": "c", "flow": 2}, {"from": "d", "flow": 3}, 5
        ]}]}}),
        json!({"type": "sankey", "data": {"datasets": [{"data": [
            {"from": "a", "to": "b", "flow": 0}, {"from": "b", "to": "c", "flow": "x"}
        ], "nodePadding": {"a": {"before": 3}}, "nodeMinSize": 5, "nodePaddingMode": "even"}]}}),
        json!({"type": "matrix", "data": {"datasets": [{"data": [{"x": "a", "y": null}, 3]}]}}),
        json!({"type": "venn", "data": {"datasets": [{"data": []}]}}),
        json!({"type": "venn", "data": {"datasets": [{"data": [{"sets": ["a"]}]}]}}),
    ];
    for cfg in cases {
        let settings = Settings {
            width: 200.0,
            height: 100.0,
            device_pixel_ratio: 1.0,
            background: Rgba::WHITE,
        };
        let out = Engine::new().render_chart(cfg.as_object().expect("object"), &settings);
        assert!(out.is_ok(), "{cfg}");
    }
}

#[test]
fn tree_puts_the_root_left_and_the_leaves_right() {
    let cfg = json!({
        "type": "tree",
        "data": {"labels": ["r", "a", "b", "c"], "datasets": [{
            "data": [{}, {"parent": 0}, {"parent": "r"}, {"parent": 1}],
            "pointBackgroundColor": "rgb(21, 22, 23)", "pointRadius": 5
        }]},
        "options": {"plugins": {"legend": {"display": false}}}
    });
    let s = scene(cfg, 400.0, 300.0);
    let pts = fills_of(&s, Rgba::rgb(21, 22, 23));
    assert_eq!(pts.len(), 4, "{pts:?}");
    let cx = |r: &(f32, f32, f32, f32)| (r.0 + r.2) / 2.0;
    // Depth runs left to right over the chart area (10px layout padding, 3 levels).
    assert!(cx(&pts[0]) < cx(&pts[1]) && cx(&pts[1]) < cx(&pts[3]));
    assert!((cx(&pts[1]) - cx(&pts[2])).abs() < 1e-3);
    // Edges are strokes: one per parent link.
    let strokes = s
        .items
        .iter()
        .filter(|it| matches!(it, Item::Stroke { stroke, .. } if (stroke.width - 3.0).abs() < 1e-6))
        .count();
    assert_eq!(strokes, 3);
}

/// chartjs-chart-geo's colour scale is one scale of the chart: its range covers every
/// visible choropleth, and it draws one legend.
#[test]
fn choropleths_share_one_colour_scale_and_legend() {
    let square = |x: f64| {
        json!({"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[
            [x, 0.0], [x, 10.0], [x + 10.0, 10.0], [x + 10.0, 0.0], [x, 0.0]]]}})
    };
    let ds = |x: f64, v: f64| json!({"data": [{"feature": square(x), "value": v}]});
    let cfg = |hidden: bool| {
        let mut a = ds(0.0, 0.0);
        a["hidden"] = json!(hidden);
        json!({"type": "choropleth", "data": {"datasets": [a, ds(20.0, 1000.0)]},
            "options": {"plugins": {"legend": {"display": false}}, "scales": {
                "projection": {"axis": "x", "projection": "mercator"},
                "color": {"axis": "x", "interpolate": "blues"}}}})
    };
    let s = scene(cfg(false), 800.0, 500.0);
    // Blues at 0 and at 1 of the shared range 0..1000.
    assert_eq!(fills_of(&s, Rgba::rgb(247, 251, 255)).len(), 1);
    assert_eq!(fills_of(&s, Rgba::rgb(8, 48, 107)).len(), 1);
    let ticks = texts(&s);
    assert_eq!(ticks, ["0", "400", "800"]);
    // A hidden choropleth leaves the range: 1000 alone opens to 950..1050.
    let s = scene(cfg(true), 800.0, 500.0);
    assert!(fills_of(&s, Rgba::rgb(8, 48, 107)).is_empty());
    assert!(!texts(&s).iter().any(|t| t == "0"), "{:?}", texts(&s));
}

/// Two choropleths on one colour scale, the second drawn last (`order`), its feature over
/// the legend's corner; `color` holds extra colour scale options.
fn choropleths_drawn_out_of_index_order(color: Value) -> Value {
    let square = |x0: f64, y0: f64, x1: f64, y1: f64| {
        json!({"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[
            [x0, y0], [x0, y1], [x1, y1], [x1, y0], [x0, y0]]]}})
    };
    let outline = square(0.0, 0.0, 40.0, 30.0);
    let mut scale = json!({"axis": "x", "interpolate": "reds"});
    for (k, v) in color.as_object().into_iter().flatten() {
        scale[k] = v.clone();
    }
    json!({"type": "choropleth", "data": {"datasets": [
            {"outline": outline, "order": 1, "data": [
                {"feature": square(2.0, 2.0, 12.0, 12.0), "value": 10},
                {"feature": square(14.0, 2.0, 24.0, 12.0), "value": 30}]},
            {"outline": outline, "data": [
                {"feature": square(22.0, -20.0, 80.0, 16.0), "value": 50}]}]},
        "options": {"plugins": {"legend": {"display": false}}, "scales": {
            "projection": {"axis": "x", "projection": "equirectangular"},
            "color": scale}}})
}

/// Where in the scene the first text (the legend's tick labels: nothing else writes here)
/// and the first and last feature fills (the fills over 100 px², not the legend's 10 × 1
/// strips) sit.
fn legend_and_feature_order(s: &Scene) -> (usize, usize, usize) {
    let text = s.items.iter().position(|i| matches!(i, Item::Text(_)));
    let area = |path: &chart_raster_skia::scene::Path| {
        let pts: Vec<(f32, f32)> = (path.cmds.iter())
            .filter_map(|c| match *c {
                PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => Some((x, y)),
                _ => None,
            })
            .collect();
        let span = |f: fn(&(f32, f32)) -> f32| {
            let lo = pts.iter().map(f).fold(f32::INFINITY, f32::min);
            pts.iter().map(f).fold(f32::NEG_INFINITY, f32::max) - lo
        };
        span(|p| p.0) * span(|p| p.1)
    };
    let fills: Vec<usize> = (s.items.iter().enumerate())
        .filter(|(_, i)| matches!(i, Item::Fill { path, .. } if area(path) > 100.0))
        .map(|(k, _)| k)
        .collect();
    (
        text.expect("the legend's labels"),
        *fills.first().expect("features"),
        *fills.last().expect("features"),
    )
}

/// chartjs-chart-geo's legend is drawn by its scale (`LegendScale.draw`), one layer at
/// `ticks.z` (1) in Chart.js's draw order: after every dataset, not with the first dataset
/// on the scale. Here dataset 1 is drawn last (dataset 0 has `order: 1`) and covers the
/// legend's corner: the legend stays on top, as in Chromium (`cargo xtask compare --geo`).
#[test]
fn a_shared_geo_legend_is_drawn_at_its_scales_place() {
    let s = scene(
        choropleths_drawn_out_of_index_order(json!({})),
        600.0,
        400.0,
    );
    let (text, _, last_fill) = legend_and_feature_order(&s);
    assert!(
        text > last_fill,
        "labels at {text}, a feature at {last_fill}"
    );
    assert_eq!(texts(&s), ["10", "20", "30", "40", "50"]);
    // `ticks.z: 0` puts the legend's layer before the datasets: the map covers it.
    let s = scene(
        choropleths_drawn_out_of_index_order(json!({"ticks": {"z": 0}})),
        600.0,
        400.0,
    );
    let (text, first_fill, _) = legend_and_feature_order(&s);
    assert!(
        text < first_fill,
        "labels at {text}, a feature at {first_fill}"
    );
}

/// The colour scale's colour is only chartjs-chart-geo's default for a feature (a scriptable
/// `elements.geoFeature.backgroundColor` among the choropleth's overrides): a colour the
/// request gives (the dataset's, per feature or one for all, or `elements.geoFeature`'s)
/// comes first in Chart.js's scopes and fills the feature (Chromium: `cargo xtask compare
/// --geo`, `given-background-colors`), while the legend keeps the scale's ramp.
#[test]
fn a_given_feature_colour_replaces_the_colour_scales() {
    let big_fills = |cfg: Value| -> Vec<Rgba> {
        let s = scene(cfg, 600.0, 400.0);
        let (_, first, last) = legend_and_feature_order(&s);
        (s.items[first..=last].iter())
            .filter_map(|i| match i {
                Item::Fill {
                    paint: Paint::Solid(c),
                    path,
                    ..
                } if path.cmds.len() >= 5 => Some(*c),
                _ => None,
            })
            .collect()
    };
    let scale_colours = big_fills(choropleths_drawn_out_of_index_order(json!({})));
    let mut cfg = choropleths_drawn_out_of_index_order(json!({}));
    cfg["data"]["datasets"][0]["backgroundColor"] = json!(["#e6550d", "#31a354"]);
    cfg["options"]["elements"] = json!({"geoFeature": {"backgroundColor": "#3182bd"}});
    let given = big_fills(cfg);
    let (orange, green, blue) = (
        Rgba::rgb(0xe6, 0x55, 0x0d),
        Rgba::rgb(0x31, 0xa3, 0x54),
        Rgba::rgb(0x31, 0x82, 0xbd),
    );
    for c in [orange, green, blue] {
        assert!(given.contains(&c), "{c:?} not among {given:?}");
        assert!(!scale_colours.contains(&c), "{c:?} among {scale_colours:?}");
    }
}

/// With every choropleth hidden, the colour scale still draws its legend, over the range
/// 0..1 a linear scale takes without data (Chromium: ticks 0, 0.4 and 0.8).
#[test]
fn a_geo_legend_is_drawn_without_visible_datasets() {
    let mut cfg = choropleths_drawn_out_of_index_order(json!({}));
    for ds in cfg["data"]["datasets"].as_array_mut().into_iter().flatten() {
        ds["hidden"] = json!(true);
    }
    let s = scene(cfg, 600.0, 400.0);
    assert_eq!(texts(&s), ["0", "0.4", "0.8"]);
}
