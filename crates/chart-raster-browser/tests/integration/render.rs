//! What a render produces: sizes, pixels, plugins, messages, injection safety.

use crate::{bar_chart, engine, has_colour, ink, options};
use chart_spec::Level;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bar_chart_renders_at_the_requested_size() {
    let Some(engine) = engine("bar_chart_renders_at_the_requested_size") else {
        return;
    };
    let out = engine
        .render(&options(bar_chart("rgb(255, 0, 0)"), 400.0, 300.0, 1.5))
        .await
        .unwrap();
    assert_eq!((out.bitmap.width, out.bitmap.height), (600, 450));
    assert!(out.messages.is_empty(), "{:?}", out.messages);
    assert!(has_colour(&out.bitmap, [255, 0, 0, 255]), "the red bars");
    // Background painted under the chart: the top-left corner is opaque white.
    assert_eq!(&out.bitmap.data[..4], &[255, 255, 255, 255]);
    assert!(engine.status().connected);
    engine.shutdown().await;
    assert!(!engine.status().connected);
}

/// One config per bundled plugin or chart type, each of which fails with a message when the
/// plugin is missing (unknown controller, unknown scale, unknown adapter).
fn plugin_charts() -> Vec<(&'static str, Value)> {
    let square = json!({
        "type": "Feature",
        "properties": { "name": "square" },
        "geometry": { "type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]] }
    });
    vec![
        (
            "datalabels",
            json!({
                "type": "bar",
                "data": { "labels": ["a", "b"], "datasets": [{ "data": [1, 2] }] },
                "options": { "plugins": { "datalabels": { "display": true, "color": "black" } } }
            }),
        ),
        (
            "annotation",
            json!({
                "type": "line",
                "data": { "labels": ["a", "b", "c"], "datasets": [{ "data": [1, 3, 2] }] },
                "options": { "plugins": { "annotation": { "annotations": {
                    "box": { "type": "box", "xMin": 0, "xMax": 1, "yMin": 1, "yMax": 2,
                             "backgroundColor": "rgba(0, 0, 255, 0.5)" }
                } } } }
            }),
        ),
        (
            "zoom",
            json!({
                "type": "line",
                "data": { "labels": ["a", "b", "c"], "datasets": [{ "data": [1, 3, 2] }] },
                "options": { "plugins": { "zoom": { "zoom": { "wheel": { "enabled": true } },
                                                    "limits": { "y": { "min": 0, "max": 10 } } } } }
            }),
        ),
        (
            "gradient",
            json!({
                "type": "line",
                "data": { "labels": ["a", "b", "c"], "datasets": [{ "data": [1, 3, 2], "fill": true,
                    "gradient": { "backgroundColor": { "axis": "y", "colors": { "0": "red", "3": "blue" } } } }] }
            }),
        ),
        (
            "matrix",
            json!({
                "type": "matrix",
                "data": { "datasets": [{ "data": [{ "x": 1, "y": 1, "v": 1 }, { "x": 2, "y": 2, "v": 2 }],
                    "backgroundColor": "green", "width": 40, "height": 40 }] },
                "options": { "scales": { "x": { "type": "linear", "min": 0, "max": 3 },
                                         "y": { "type": "linear", "min": 0, "max": 3 } } }
            }),
        ),
        (
            "sankey",
            json!({
                "type": "sankey",
                "data": { "datasets": [{ "data": [{ "from": "a", "to": "b", "flow": 10 },
                                                   { "from": "a", "to": "c", "flow": 5 }] }] }
            }),
        ),
        (
            "treemap",
            json!({
                "type": "treemap",
                "data": { "datasets": [{ "tree": [6, 4, 3, 2], "backgroundColor": "teal" }] }
            }),
        ),
        (
            "wordcloud",
            json!({
                "type": "wordCloud",
                "data": { "labels": ["chart", "raster", "browser"], "datasets": [{ "data": [40, 30, 20] }] }
            }),
        ),
        (
            "geo",
            json!({
                "type": "choropleth",
                "data": { "labels": ["square"], "datasets": [{ "outline": [square],
                    "data": [{ "feature": square, "value": 5 }] }] },
                "options": { "scales": { "projection": { "axis": "x", "projection": "equirectangular" } } }
            }),
        ),
        // chartjs-chart-graph lays out in a later animation frame: without waiting for it
        // the nodes are missing.
        (
            "graph (tree)",
            json!({
                "type": "tree",
                "data": { "labels": ["root", "a", "b"], "datasets": [{ "data": [{}, { "parent": 0 }, { "parent": 0 }],
                    "pointBackgroundColor": "rgb(255, 0, 0)", "pointRadius": 10 }] },
                "options": { "plugins": { "legend": { "display": false } } }
            }),
        ),
        (
            "graph (force)",
            json!({
                "type": "forceDirectedGraph",
                "data": { "labels": ["a", "b", "c"], "datasets": [{ "data": [{}, {}, {}],
                    "edges": [{ "source": 0, "target": 1 }, { "source": 1, "target": 2 }],
                    "pointBackgroundColor": "rgb(255, 0, 0)", "pointRadius": 10 }] },
                "options": { "plugins": { "legend": { "display": false } } }
            }),
        ),
        (
            "venn",
            json!({
                "type": "venn",
                "data": { "labels": ["A", "B", "A ∩ B"], "datasets": [{ "label": "sets", "data": [
                    { "sets": ["A"], "value": 4 }, { "sets": ["B"], "value": 3 }, { "sets": ["A", "B"], "value": 1 }
                ] }] }
            }),
        ),
        (
            "date-fns adapter",
            json!({
                "type": "line",
                "data": { "datasets": [{ "data": [{ "x": "2024-01-01", "y": 1 }, { "x": "2024-03-01", "y": 3 }] }] },
                "options": { "scales": { "x": { "type": "time", "time": { "unit": "month" } } } }
            }),
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_plugin_renders() {
    let Some(engine) = engine("every_plugin_renders") else {
        return;
    };
    for (name, chart) in plugin_charts() {
        let out = engine
            .render(&options(chart, 320.0, 240.0, 2.0))
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((out.bitmap.width, out.bitmap.height), (640, 480), "{name}");
        assert!(
            out.messages.iter().all(|m| m.level != Level::Error),
            "{name}: {:?}",
            out.messages
        );
        let share = ink(&out.bitmap);
        eprintln!("{name}: {share:.4} of the pixels inked");
        assert!(share > 0.002, "{name} looks blank ({share})");
        if name.starts_with("graph") {
            assert!(
                has_colour(&out.bitmap, [255, 0, 0, 255]),
                "{name}: the nodes"
            );
        }
    }
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn datalabels_are_hidden_unless_turned_on() {
    let Some(engine) = engine("datalabels_are_hidden_unless_turned_on") else {
        return;
    };
    let chart = |display: bool| {
        json!({
            "type": "bar",
            "data": { "labels": ["a"], "datasets": [{ "data": [5], "backgroundColor": "white" }] },
            "options": {
                "plugins": { "legend": { "display": false },
                             "datalabels": { "display": display, "color": "red" } },
                "scales": { "x": { "display": false }, "y": { "display": false, "min": 0 } }
            }
        })
    };
    let off = engine
        .render(&options(chart(false), 200.0, 200.0, 1.0))
        .await
        .unwrap();
    let on = engine
        .render(&options(chart(true), 200.0, 200.0, 1.0))
        .await
        .unwrap();
    assert_eq!(ink(&off.bitmap), 0.0, "nothing but white without labels");
    assert!(has_colour(&on.bitmap, [255, 0, 0, 255]), "the red label");
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_type_is_a_message() {
    let Some(engine) = engine("unknown_type_is_a_message") else {
        return;
    };
    let chart = json!({ "type": "foo", "data": { "datasets": [{ "data": [1] }] } });
    let out = engine
        .render(&options(chart, 200.0, 100.0, 1.0))
        .await
        .unwrap();
    assert_eq!((out.bitmap.width, out.bitmap.height), (200, 100));
    assert!(
        out.messages
            .iter()
            .any(|m| m.level == Level::Error
                && m.message == "\"foo\" is not a registered controller."),
        "{:?}",
        out.messages
    );
    // The failed chart left nothing behind: the next render is clean.
    let next = engine
        .render(&options(crate::bar_chart("blue"), 200.0, 100.0, 1.0))
        .await
        .unwrap();
    assert!(next.messages.is_empty(), "{:?}", next.messages);
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_warnings_become_messages() {
    let Some(engine) = engine("console_warnings_become_messages") else {
        return;
    };
    // Chart.js warns (console.warn, once per layout pass) when a scale would need more ticks
    // than it allows.
    let chart = json!({
        "type": "line",
        "data": { "labels": ["a", "b"], "datasets": [{ "data": [0, 1000000] }] },
        "options": { "scales": { "y": { "ticks": { "stepSize": 0.001 } } } }
    });
    let out = engine
        .render(&options(chart, 200.0, 200.0, 1.0))
        .await
        .unwrap();
    assert!(
        out.messages.iter().any(|m| m.level == Level::Warn
            && m.message
                == "scales.y.ticks.stepSize: 0.001 would result generating up to \
                                 1000000001 ticks. Limiting to 1000."),
        "{:?}",
        out.messages
    );
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn injection_attempts_are_plain_text() {
    let Some(engine) = engine("injection_attempts_are_plain_text") else {
        return;
    };
    let hostile = [
        "</script><script>window.__pwned = 1</script>",
        "<!-- <script>",
        "\u{2028}window.__pwned = 1;\u{2029}",
        "\"'); window.__pwned = 1; ('",
        "`${window.__pwned = 1}`",
        "<img src=\"http://127.0.0.1:1/x\" onerror=\"window.__pwned = 1\">",
    ];
    for text in hostile {
        let chart = json!({
            "type": "bar",
            "data": { "labels": [text, "b"], "datasets": [{ "label": text, "data": [1, 2] }] },
            "options": { "plugins": { "title": { "display": true, "text": text } } },
            text: text
        });
        let out = engine
            .render(&options(chart, 300.0, 200.0, 1.0))
            .await
            .unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!((out.bitmap.width, out.bitmap.height), (300, 200));
        assert!(out.messages.is_empty(), "{text:?}: {:?}", out.messages);
        assert!(ink(&out.bitmap) > 0.01, "{text:?}: the chart is drawn");
    }
    // Nothing ran: no global was set and no script element was added to the page.
    for page in engine.leaks().await.unwrap() {
        // (Some bundles leak globals of their own on first use; none may come from a config.)
        assert!(!page.new_globals.iter().any(|g| g == "__pwned"), "{page:?}");
        assert_eq!(
            page.scripts,
            chart_raster_browser::assets::manifest().assets.len()
        );
        assert_eq!(page.canvases, 0);
    }
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_config_gives_the_same_pixels() {
    let Some(engine) = engine("the_same_config_gives_the_same_pixels") else {
        return;
    };
    // The word cloud places words with Math.random: seeded per render, so repeatable.
    let words = [
        "chart", "raster", "browser", "skia", "canvas", "pixel", "legend", "axis",
    ];
    let chart = json!({
        "type": "wordCloud",
        "data": { "labels": words, "datasets": [{ "data": [60, 50, 40, 35, 30, 25, 20, 15] }] }
    });
    let opts = options(chart, 400.0, 300.0, 1.0);
    let first = engine.render(&opts).await.unwrap();
    // Something else in between, so nothing is carried over by accident.
    engine
        .render(&options(bar_chart("blue"), 100.0, 100.0, 1.0))
        .await
        .unwrap();
    let second = engine.render(&opts).await.unwrap();
    assert!(ink(&first.bitmap) > 0.01);
    assert!(first.bitmap == second.bitmap, "the two word clouds differ");
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_cannot_reach_the_network() {
    let Some(engine) = engine("the_page_cannot_reach_the_network") else {
        return;
    };
    engine
        .render(&options(bar_chart("red"), 100.0, 100.0, 1.0))
        .await
        .unwrap();
    // A server the page could reach if anything let it: loopback, answering every request.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let reached = engine
        .probe_network(&format!("http://127.0.0.1:{port}/x.png"))
        .await
        .unwrap();
    assert!(
        reached.is_empty(),
        "the page reached the server by {reached:?}"
    );
    assert!(
        listener.accept().is_err(),
        "a connection came in from the page"
    );
    let reached = engine.probe_network("https://example.com/").await.unwrap();
    assert!(
        reached.is_empty(),
        "the page reached example.com by {reached:?}"
    );
    engine.shutdown().await;
}

/// The layout oracle reads the live chart: the chart area inside the canvas, the category
/// scale's three ticks, and each bar at its tick's pixel; a plain render reads none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_layout_of_the_live_chart_is_read() {
    let Some(engine) = engine("the_layout_of_the_live_chart_is_read") else {
        return;
    };
    let opts = options(bar_chart("rgb(255, 0, 0)"), 400.0, 300.0, 2.0);
    let (rendered, layout) = engine.render_with_layout(&opts).await.unwrap();
    assert_eq!((rendered.bitmap.width, rendered.bitmap.height), (800, 600));
    let layout = layout.expect("a layout");
    let area = layout.chart_area;
    let (l, t, r, b) = (
        area.left.unwrap(),
        area.top.unwrap(),
        area.right.unwrap(),
        area.bottom.unwrap(),
    );
    assert!(
        0.0 < l && l < r && r <= 400.0 && 0.0 < t && t < b && b < 300.0,
        "{area:?}"
    );
    let x = layout.scales.iter().find(|s| s.id == "x").expect("x scale");
    assert_eq!(x.axis, "x");
    assert_eq!(x.rect.top, Some(b), "the x scale sits under the chart area");
    assert_eq!(x.ticks.len(), 3);
    let bars = &layout.datasets[0].elements;
    assert_eq!(bars.len(), 3);
    for (bar, tick) in bars.iter().zip(&x.ticks) {
        assert_eq!(bar.expect("a bar").x, tick.pixel);
    }
    // The tallest bar (5) is highest on the canvas.
    let y = |i: usize| bars[i].and_then(|p| p.y).unwrap();
    assert!(y(1) < y(0) && y(0) < y(2));
    engine.shutdown().await;
}
