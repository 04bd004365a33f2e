//! The bundled plugins drawn by the engine, checked on the scene: chartjs-plugin-datalabels
//! label positions and chartjs-plugin-annotation rectangles.

use chart_raster_skia::scene::{Item, Paint, PathCmd, Scene};
use chart_raster_skia::{Engine, Settings};
use chart_spec::Rgba;
use serde_json::{json, Value};

fn scene(cfg: Value) -> (Scene, Vec<String>) {
    let settings = Settings {
        width: 400.0,
        height: 300.0,
        device_pixel_ratio: 1.0,
        background: Rgba::WHITE,
    };
    let (s, m) = Engine::new().scene(cfg.as_object().expect("object"), &settings);
    (s, m.into_iter().map(|m| m.message).collect())
}

/// Bounding box (left, top, right, bottom) of the path end points of fills painted `color`.
fn fill_boxes(s: &Scene, color: Rgba) -> Vec<(f32, f32, f32, f32)> {
    s.items
        .iter()
        .filter_map(|i| match i {
            Item::Fill {
                path,
                paint: Paint::Solid(c),
                transform,
            } if *c == color => {
                let pts: Vec<(f32, f32)> = path
                    .cmds
                    .iter()
                    .filter_map(|c| match *c {
                        PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => Some((x, y)),
                        PathCmd::CubicTo(_, _, _, _, x, y) | PathCmd::QuadTo(_, _, x, y) => {
                            Some((x, y))
                        }
                        PathCmd::Close => None,
                    })
                    .map(|(x, y)| transform.apply(x, y))
                    .collect();
                let f = |g: fn(&(f32, f32)) -> f32, min: bool| {
                    pts.iter()
                        .map(g)
                        .fold(if min { f32::MAX } else { f32::MIN }, |a, b| {
                            if min {
                                a.min(b)
                            } else {
                                a.max(b)
                            }
                        })
                };
                Some((
                    f(|p| p.0, true),
                    f(|p| p.1, true),
                    f(|p| p.0, false),
                    f(|p| p.1, false),
                ))
            }
            _ => None,
        })
        .collect()
}

/// Scene position (after the item's transform) of every text item with this string.
fn texts(s: &Scene, text: &str) -> Vec<(f32, f32)> {
    s.items
        .iter()
        .filter_map(|i| match i {
            Item::Text(t) if t.text == text => Some(t.transform.apply(t.x, t.y)),
            _ => None,
        })
        .collect()
}

const BAR: Rgba = Rgba {
    r: 0,
    g: 0,
    b: 255,
    a: 255,
};

#[test]
fn datalabels_hidden_unless_display_is_set() {
    let cfg = |dl: Value| {
        json!({"type": "bar", "data": {"labels": ["a", "b"],
            "datasets": [{"data": [10, 5], "backgroundColor": "#00f"}]},
            "options": {"plugins": {"legend": {"display": false}, "datalabels": dl}}})
    };
    let count = |s: &Scene| {
        s.items
            .iter()
            .filter(|i| matches!(i, Item::Text(_)))
            .count()
    };
    let (off, msgs) = scene(cfg(json!({"color": "red"})));
    let (on, _) = scene(cfg(json!({"color": "red", "display": true})));
    assert_eq!(count(&on), count(&off) + 2);
    assert!(msgs.iter().all(|m| !m.contains("datalabels")), "{msgs:?}");
}

#[test]
fn datalabels_sit_above_the_bar_ends() {
    let cfg = json!({"type": "bar", "data": {"labels": ["a", "b"],
        "datasets": [{"data": [10, 4], "backgroundColor": "#00f"}]},
        "options": {"scales": {"y": {"max": 12, "ticks": {"stepSize": 3}}},
            "plugins": {"legend": {"display": false},
            "datalabels": {"display": true, "anchor": "end", "align": "end",
                "textAlign": "center"}}}});
    let (s, _) = scene(cfg);
    let bars = fill_boxes(&s, BAR);
    assert_eq!(bars.len(), 2, "{bars:?}");
    for (bar, text) in bars.iter().zip(["10", "4"]) {
        let t = texts(&s, text);
        assert_eq!(t.len(), 1, "{text}: {t:?}");
        let (x, y) = t[0];
        let bar_center = (bar.0 + bar.2) / 2.0;
        assert!(
            (x - bar_center).abs() <= 0.5,
            "{text}: x {x} vs bar {bar:?}"
        );
        // Frame height 14.4 + 2 × 4 padding: the centre is 11.2 + 4 (offset) above the top.
        let expected = bar.1 - 15.2;
        assert!((y - expected).abs() <= 0.5, "{text}: y {y} vs {expected}");
    }
}

#[test]
fn annotation_box_spans_its_values_and_widens_the_scale() {
    let cfg = json!({"type": "scatter", "data": {"datasets": [{"data": [{"x": 0, "y": 0},
        {"x": 10, "y": 10}]}]},
        "options": {"plugins": {"legend": {"display": false}, "annotation": {"annotations": {
            "all": {"type": "box", "xMin": 0, "xMax": 10, "yMin": 0, "yMax": 20,
                "backgroundColor": "#0f0", "borderWidth": 0, "drawTime": "beforeDraw"},
            "b": {"type": "box", "xMin": 2, "xMax": 4, "yMin": 1, "yMax": 3,
                "backgroundColor": "#00f", "borderWidth": 0},
            "l": {"type": "line", "scaleID": "y", "value": 20, "borderColor": "#f00"}}}}}});
    let (s, msgs) = scene(cfg);
    assert!(msgs.iter().all(|m| !m.contains("annotation")), "{msgs:?}");
    let green = Rgba {
        r: 0,
        g: 255,
        b: 0,
        a: 255,
    };
    // The line at y = 20 widens the y scale to 0..20, so "all" covers the chart area.
    let area = fill_boxes(&s, green);
    let boxes = fill_boxes(&s, BAR);
    assert_eq!((area.len(), boxes.len()), (1, 1), "{area:?} {boxes:?}");
    let (al, at, ar, ab) = area[0];
    let (w, h) = (ar - al, ab - at);
    let (l, t, r, b) = boxes[0];
    let near = |a: f32, e: f32| (a - e).abs() < 0.01;
    assert!(
        near(l, al + 0.2 * w) && near(r, al + 0.4 * w),
        "{boxes:?} in {area:?}"
    );
    assert!(
        near(b, ab - 0.05 * h) && near(t, ab - 0.15 * h),
        "{boxes:?} in {area:?}"
    );
    assert_eq!(texts(&s, "20").len(), 1, "the y axis reaches 20");
}

#[test]
fn gradient_repaints_the_dataset_colour_over_the_scale() {
    let cfg = json!({"type": "bar", "data": {"labels": ["a", "b"], "datasets": [{"data": [5, 10],
        "gradient": {"backgroundColor": {"axis": "y", "colors": {"0": "red", "10": "blue"}}}}]},
        "options": {"plugins": {"legend": {"display": false}}}});
    let (s, msgs) = scene(cfg);
    assert!(msgs.iter().all(|m| !m.contains("gradient")), "{msgs:?}");
    let grads: Vec<&Paint> = s
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Fill { paint, .. } => Some(paint),
            _ => None,
        })
        .filter(|p| matches!(p, Paint::LinearGradient { .. }))
        .collect();
    assert_eq!(grads.len(), 2, "both bars");
    let Paint::LinearGradient { y0, y1, stops, .. } = grads[0] else {
        unreachable!()
    };
    // Bottom to top of the y scale (0..10): red at the bottom, blue at the top.
    assert!(y0 > y1, "{y0} {y1}");
    assert_eq!(stops.len(), 2);
    assert_eq!((stops[0].0, stops[1].0), (0.0, 1.0));
    assert_eq!(
        stops[0].1,
        Rgba {
            r: 255,
            g: 0,
            b: 0,
            a: 255
        }
    );
}

#[test]
fn annotation_line_label_sits_at_the_end_inside_the_area() {
    let cfg = json!({"type": "line", "data": {"labels": ["a", "b", "c"],
        "datasets": [{"data": [0, 10, 5]}]},
        "options": {"plugins": {"legend": {"display": false}, "annotation": {"annotations": {
            "l": {"type": "line", "yMin": 5, "yMax": 5, "borderColor": "#00f",
                "label": {"display": true, "content": "limit", "position": "end",
                    "backgroundColor": "#0f0"}},
            "d": {"type": "arrow", "content": "x"}}}}}});
    let (s, msgs) = scene(cfg);
    assert!(
        msgs.iter().any(|m| m.contains("\"arrow\" annotation type")),
        "{msgs:?}"
    );
    let green = Rgba {
        r: 0,
        g: 255,
        b: 0,
        a: 255,
    };
    let label = fill_boxes(&s, green);
    assert_eq!(label.len(), 1, "{label:?}");
    let (l, t, r, b) = label[0];
    let text = texts(&s, "limit");
    assert_eq!(text.len(), 1);
    let (tx, ty) = text[0];
    // Centred text inside its box, the box vertically centred on the line at y = 5.
    assert!((tx - (l + r) / 2.0).abs() < 0.01, "{text:?} in {label:?}");
    assert!((ty - (t + b) / 2.0).abs() < 0.01, "{text:?} in {label:?}");
    // 'end' puts the label at the right end: 6 px padding from the chart area's right edge,
    // which is the line's end.
    let line_end = s
        .items
        .iter()
        .find_map(|i| match i {
            Item::Stroke {
                path,
                paint: Paint::Solid(c),
                transform,
                ..
            } if *c == BAR => match path.cmds.get(1) {
                Some(PathCmd::LineTo(x, y)) => Some(transform.apply(*x, *y).0),
                _ => None,
            },
            _ => None,
        })
        .expect("the annotation line");
    assert!((r - (line_end - 6.0)).abs() < 0.01, "{r} vs {line_end}");
}

#[test]
fn odd_plugin_options_render_without_panicking() {
    let odd = [
        json!({"datalabels": {"display": true, "font": "x", "padding": null, "align": "nope",
            "anchor": 5, "rotation": "a", "offset": [], "labels": [1, 2], "opacity": "0.5",
            "borderRadius": -3, "borderWidth": 1e9, "color": 7}}),
        json!({"datalabels": {"display": "auto", "rotation": 45, "clamp": true, "clip": true},
            "annotation": {"annotations": [null, 3, {"type": "line", "value": "q", "scaleID": "nope"},
                {"type": "box", "xMin": [], "yMax": {}, "borderRadius": {"topLeft": 4}},
                {"type": "label", "content": {}, "font": [], "color": [], "position": {"x": 3}},
                {"type": "polygon", "sides": -4, "radius": "big"},
                {"type": "line", "curve": true, "controlPoint": "x", "arrowHeads": {"display": true,
                    "width": 0, "length": -1}, "label": {"display": true, "content": "",
                    "callout": {"display": true, "start": "abc%"}}},
                {"type": "doughnutLabel", "content": "x", "autoFit": true}]}}),
        json!({"annotation": {"annotations": {"l": {"type": "label", "content": "c",
            "callout": {"display": true, "position": "left"}, "xValue": 1e300}}},
            "datalabels": false}),
    ];
    for plugins in odd {
        let cfg = json!({"type": "bar", "data": {"labels": ["a", "b"], "datasets": [{"data": [1, -2],
            "datalabels": {"display": true}, "gradient": {"backgroundColor": {"axis": "y",
                "colors": {"x": "red", "1e400": "blue", "0": "not a colour"}},
                "borderColor": {"axis": "r", "colors": {}}, "x": 5}}]},
            "options": {"plugins": plugins}});
        let settings = Settings {
            width: 120.0,
            height: 80.0,
            device_pixel_ratio: 1.0,
            background: Rgba::WHITE,
        };
        let out = Engine::new().render_chart(cfg.as_object().expect("object"), &settings);
        assert!(out.is_ok(), "{cfg}");
    }
}

#[test]
fn datalabels_on_unknown_elements_are_named() {
    let cfg = json!({"type": "treemap", "data": {"datasets": [{"tree": [1, 2, 3], "data": [1, 2, 3]}]},
        "options": {"plugins": {"datalabels": {"display": true}}}});
    let (_, msgs) = scene(cfg);
    let bar = json!({"type": "bar", "data": {"labels": ["a"], "datasets": [{"data": [1]}]},
        "options": {"plugins": {"datalabels": {"display": true}}}});
    let (_, bar_msgs) = scene(bar);
    assert!(
        msgs.iter()
            .any(|m| m.contains("datalabels labels on \"treemap\" elements")),
        "{msgs:?}"
    );
    assert!(
        bar_msgs.iter().all(|m| !m.contains("datalabels")),
        "{bar_msgs:?}"
    );
}

/// An annotation value is parsed only by the scale it is bound to (`retrieveScaleID`): the
/// `xValue: 'June'` of a label must not become a tick of a second, category y scale (its
/// `parse` adds unknown labels).
#[test]
fn annotation_values_are_parsed_by_their_own_scale_only() {
    let (s, _) = scene(json!({"type": "bar",
        "data": {"datasets": [{"data": [0, 0, 0, 0, 0, 0]}]},
        "options": {"scales": {
            "x": {"labels": ["January", "February", "March", "April", "May", "June"]},
            "y": {"min": 0, "max": 10},
            "y2": {"type": "category", "labels": ["ON", "OFF"], "position": "left"}},
        "plugins": {"legend": false, "annotation": {"annotations": {
            "l": {"type": "label", "xValue": "June", "content": "x"}}}}}}));
    let texts: Vec<&str> = s
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        texts.iter().filter(|t| **t == "June").count(),
        1,
        "{texts:?}"
    );
    assert!(texts.contains(&"ON") && texts.contains(&"x"), "{texts:?}");
}

/// An array legend label (Chart.js 4.5.1 plugin.legend.js): `renderText` draws one line per
/// `lineHeight`; a vertical legend sizes the item by `calculateLegendItemHeight`
/// (`lineHeight * lines` instead of the item height), so the next item moves down by
/// `2 * 14.4 - 12` at the default 12px font; a horizontal legend (`_fitRows`) keeps its
/// one-row height; a pie's array `data.labels` entry is drawn the same way.
#[test]
fn array_legend_labels_are_drawn_one_line_each() {
    let cfg = |position: &str, first: Value| {
        json!({"type": "line", "data": {"labels": ["a", "b"], "datasets": [
            {"label": first, "data": [1, 2]}, {"label": "Zeta", "data": [2, 1]}]},
            "options": {"animation": false, "plugins": {"legend":
                {"position": position, "align": "start"}}}})
    };
    let (multi, msgs) = scene(cfg("right", json!(["Alpha", "Beta"])));
    assert!(msgs.is_empty(), "{msgs:?}");
    let (single, _) = scene(cfg("right", json!("Alpha")));
    let (alpha, beta) = (texts(&multi, "Alpha"), texts(&multi, "Beta"));
    assert_eq!((alpha.len(), beta.len()), (1, 1), "{alpha:?} {beta:?}");
    assert_eq!(alpha[0].0, beta[0].0);
    assert!(
        (beta[0].1 - alpha[0].1 - 14.4).abs() < 1e-3,
        "{alpha:?} {beta:?}"
    );
    assert_eq!(alpha, texts(&single, "Alpha"));
    let (zm, zs) = (texts(&multi, "Zeta"), texts(&single, "Zeta"));
    assert_eq!((zm.len(), zs.len()), (1, 1));
    assert!((zm[0].1 - zs[0].1 - 16.8).abs() < 1e-3, "{zm:?} {zs:?}");
    assert!(texts(&multi, "Alpha,Beta").is_empty());

    let (top, _) = scene(cfg("top", json!(["Alpha", "Beta"])));
    let (alpha, beta) = (texts(&top, "Alpha"), texts(&top, "Beta"));
    assert_eq!((alpha.len(), beta.len()), (1, 1));
    assert!(
        (beta[0].1 - alpha[0].1 - 14.4).abs() < 1e-3,
        "{alpha:?} {beta:?}"
    );
    let (top_single, _) = scene(cfg("top", json!("Alpha")));
    assert_eq!(texts(&top, "Zeta")[0].1, texts(&top_single, "Zeta")[0].1);

    let (pie, _) = scene(
        json!({"type": "pie", "data": {"labels": [["Gamma", "Delta"], "Eta"],
        "datasets": [{"data": [1, 2]}]}, "options": {"animation": false}}),
    );
    let (g, d) = (texts(&pie, "Gamma"), texts(&pie, "Delta"));
    assert_eq!((g.len(), d.len()), (1, 1), "{g:?} {d:?}");
    assert!((d[0].1 - g[0].1 - 14.4).abs() < 1e-3, "{g:?} {d:?}");
}

/// The legend title under `rtl` (Chart.js 4.5.1 `Legend.drawTitle`): the alignment is
/// `rtlHelper.textAlign(_toLeftRightCenter(position))`, flipped, while the anchor `x` is not
/// mirrored.
#[test]
fn rtl_flips_the_legend_title_alignment_only() {
    use chart_raster_skia::scene::TextAlign;
    let title = |rtl: bool| {
        let (s, msgs) = scene(json!({"type": "bar", "data": {"labels": ["a"],
            "datasets": [{"label": "Omega", "data": [1]}]},
            "options": {"animation": false, "plugins": {"legend": {"rtl": rtl,
                "title": {"display": true, "text": "Heading", "position": "start"}}}}}));
        assert!(msgs.is_empty(), "{msgs:?}");
        s.items
            .iter()
            .find_map(|i| match i {
                Item::Text(t) if t.text == "Heading" => Some((t.x, t.y, t.align)),
                _ => None,
            })
            .expect("the legend title is drawn")
    };
    let (ltr, rtl) = (title(false), title(true));
    assert_eq!((ltr.0, ltr.1), (rtl.0, rtl.1));
    assert_eq!((ltr.2, rtl.2), (TextAlign::Left, TextAlign::Right));
}

/// `textDirection: 'rtl'` on the legend (Chart.js 4.5.1 `Legend._draw`): the canvas takes
/// the direction before the items are drawn, after the legend title, and keeps it
/// (`restoreTextDirection` is handed the option, not the saved style), so the title drawn
/// next and the data labels are right to left too, and a data label's default
/// `textAlign: 'start'` becomes the right side.
#[test]
fn legend_text_direction_sets_the_canvas_direction_from_its_items_on() {
    use chart_raster_skia::scene::{TextAlign, TextDirection};
    let run = |direction: &str| {
        let (s, msgs) = scene(json!({"type": "bar", "data": {"labels": ["a"],
            "datasets": [{"label": "Omega", "data": [7.25]}]},
            "options": {"animation": false, "plugins": {
                "legend": {"textDirection": direction,
                    "title": {"display": true, "text": "Heading"}},
                "title": {"display": true, "text": "Top"},
                "datalabels": {"display": true}}}}));
        assert!(msgs.is_empty(), "{msgs:?}");
        let find = |text: &str| {
            s.items
                .iter()
                .find_map(|i| match i {
                    Item::Text(t) if t.text == text => {
                        Some((t.direction, t.align, t.transform.apply(t.x, t.y).0))
                    }
                    _ => None,
                })
                .unwrap_or_else(|| panic!("{text} is drawn"))
        };
        (find("Heading"), find("Omega"), find("Top"), find("7.25"))
    };
    let (heading, item, title, label) = run("rtl");
    assert_eq!(heading.0, TextDirection::Ltr);
    assert_eq!(
        (item.0, title.0, label.0),
        (TextDirection::Rtl, TextDirection::Rtl, TextDirection::Rtl)
    );
    assert_eq!(label.1, TextAlign::Right);
    for (h, i, t, l) in [run("ltr"), run("RTL")] {
        assert_eq!(
            (h.0, i.0, t.0, l.0),
            (
                TextDirection::Ltr,
                TextDirection::Ltr,
                TextDirection::Ltr,
                TextDirection::Ltr
            )
        );
        // The same anchor (the left of the label's text box), aligned by the other side.
        assert_eq!((l.1, l.2), (TextAlign::Left, label.2));
    }
}
