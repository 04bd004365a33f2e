//! chartjs-chart-geo's datasets typed: GeoJSON read into [`GeoShape`]s with an explicit stack
//! (GeoJSON nesting is input: no recursion on it), every position checked for finiteness and
//! counted against the polygon and vertex budgets; the projection, colour and size scale
//! options as the plugin's defaults fill them.

use super::lookup::global_font_scopes;
use crate::color::{parse_color, Rgba};
use crate::limits::Limits;
use crate::message::Message;
use crate::model::{
    ChartKind, GeoOptions, GeoShape, LegendAlign, LegendPlace, LegendScale, GEO_INTERPOLATORS,
};
use crate::scopes::{to_number, truthy, Scopes};
use crate::values::{to_font, Sides};
use serde_json::{Map, Value};

/// What is left of the polygon and vertex budgets while reading one dataset.
struct Budget {
    polygons: usize,
    vertices: usize,
}

/// A GeoJSON object's polygons (`Feature`, `FeatureCollection`, `GeometryCollection`,
/// `Polygon`, `MultiPolygon`; `Sphere`), within `budget`. Points and lines fill nothing and
/// are left out.
fn shape_of(v: &Value, budget: &mut Budget) -> GeoShape {
    let mut shape = GeoShape::default();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        let Some(o) = v.as_object() else { continue };
        match o.get("type").and_then(Value::as_str) {
            Some("Sphere") => shape.sphere = true,
            Some("Feature") => stack.extend(o.get("geometry")),
            Some("FeatureCollection") => {
                if let Some(Value::Array(a)) = o.get("features") {
                    stack.extend(a.iter().rev());
                }
            }
            Some("GeometryCollection") => {
                if let Some(Value::Array(a)) = o.get("geometries") {
                    stack.extend(a.iter().rev());
                }
            }
            Some("Polygon") => {
                if let Some(p) = o.get("coordinates").and_then(|c| polygon(c, budget)) {
                    shape.polygons.push(p);
                }
            }
            Some("MultiPolygon") => {
                if let Some(Value::Array(ps)) = o.get("coordinates") {
                    for c in ps {
                        if let Some(p) = polygon(c, budget) {
                            shape.polygons.push(p);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    shape
}

/// One polygon's rings (`[[lon, lat], …]` each), while the budget lasts.
fn polygon(c: &Value, budget: &mut Budget) -> Option<Vec<Vec<(f64, f64)>>> {
    let rings = c.as_array()?;
    if budget.polygons == 0 {
        return None;
    }
    budget.polygons -= 1;
    let mut out = Vec::new();
    for ring in rings {
        let Some(points) = ring.as_array() else {
            continue;
        };
        let mut r = Vec::new();
        for p in points {
            if budget.vertices == 0 {
                break;
            }
            budget.vertices -= 1;
            let (Some(x), Some(y)) = (
                p.get(0).and_then(Value::as_f64),
                p.get(1).and_then(Value::as_f64),
            ) else {
                continue;
            };
            if x.is_finite() && y.is_finite() {
                r.push((x, y));
            }
        }
        if !r.is_empty() {
            out.push(r);
        }
    }
    (!out.is_empty()).then_some(out)
}

fn color(v: Option<&Value>, index: Option<usize>) -> Option<Rgba> {
    match (v?, index) {
        (Value::String(s), _) => parse_color(s),
        (Value::Array(a), Some(i)) if !a.is_empty() => color(a.get(i % a.len()), None),
        _ => None,
    }
}

/// The options of a `choropleth` or `bubbleMap` dataset; `scopes` are its element scopes
/// (which end at the chart options, where `scales` are), `given` the same without the
/// overrides and defaults (a feature's `backgroundColor` from there replaces the colour
/// scale's, the plugin's scriptable override for `elements.geoFeature`).
pub fn resolve_geo(
    kind: ChartKind,
    ds: &Map<String, Value>,
    scopes: &Scopes<'_>,
    given: &Scopes<'_>,
    count: usize,
    limits: &Limits,
    messages: &mut Vec<Message>,
) -> GeoOptions {
    let bubble = kind == ChartKind::BubbleMap;
    let mut budget = Budget {
        polygons: limits.max_geo_polygons,
        vertices: limits.max_geo_vertices,
    };
    let data = match ds.get("data") {
        Some(Value::Array(a)) => a.as_slice(),
        _ => &[],
    };
    let data = &data[..data.len().min(count)];
    let outline = match ds.get("outline") {
        // An array of features is a FeatureCollection (`resolveOutline`).
        Some(Value::Array(a)) => {
            let mut s = GeoShape::default();
            for f in a {
                let part = shape_of(f, &mut budget);
                s.sphere |= part.sphere;
                s.polygons.extend(part.polygons);
            }
            s
        }
        Some(v) if truthy(v) => shape_of(v, &mut budget),
        _ => GeoShape {
            sphere: true,
            polygons: Vec::new(),
        },
    };
    let features = data
        .iter()
        .map(|d| (!bubble).then(|| d.get("feature").map(|f| shape_of(f, &mut budget)))?)
        .collect();
    let num = |v: Option<&Value>| v.filter(|v| !v.is_null()).map(to_number);
    let points = data
        .iter()
        .map(|d| {
            let x = num(d.get("longitude")).or_else(|| num(d.get("x")))?;
            let y = num(d.get("latitude")).or_else(|| num(d.get("y")))?;
            (bubble && x.is_finite() && y.is_finite()).then_some((x, y))
        })
        .collect();
    let values = data
        .iter()
        .map(|d| num(d.get("value")).unwrap_or(f64::NAN))
        .collect();
    let scales = scopes.child("scales");
    let projection = scales.child("projection");
    let color_scale = scales.child("color");
    let size_scale = scales.child("size");
    let finite = |v: Option<&Value>, d: f64| num(v).filter(|n| n.is_finite()).unwrap_or(d);
    let padding = match projection.get("padding") {
        Some(Value::Object(p)) => {
            let n = |k: &str| finite(p.get(k), 0.0);
            Sides {
                top: n("top"),
                right: n("right"),
                bottom: n("bottom"),
                left: n("left"),
            }
        }
        v => Sides::all(finite(v, 0.0)),
    };
    let pair = |v: Option<&Value>, d: (f64, f64)| match v {
        Some(Value::Array(a)) => (finite(a.first(), d.0), finite(a.get(1), d.1)),
        _ => d,
    };
    let default_border = Rgba {
        r: 0,
        g: 0,
        b: 0,
        a: 26,
    };
    let border_color = color(scopes.get("borderColor"), Some(0)).unwrap_or(default_border);
    let show_outline = ds
        .get("showOutline")
        .or_else(|| scopes.get("showOutline"))
        .map_or(bubble, truthy);
    GeoOptions {
        features,
        points,
        values,
        outline,
        show_outline,
        clip_map: !matches!(
            ds.get("clipMap").or_else(|| scopes.get("clipMap")),
            Some(Value::Bool(false))
        ),
        projection: projection
            .get("projection")
            .and_then(Value::as_str)
            .unwrap_or("albersUsa")
            .to_string(),
        projection_scale: finite(projection.get("projectionScale"), 1.0),
        projection_offset: pair(projection.get("projectionOffset"), (0.0, 0.0)),
        padding,
        quantize: finite(color_scale.get("quantize"), 0.0),
        interpolate: interpolator(color_scale.get("interpolate"), messages),
        missing_color: color(color_scale.get("missing"), None).unwrap_or(Rgba {
            r: 0,
            g: 0,
            b: 0,
            a: 0,
        }),
        color_legend: legend_scale(&color_scale, (LegendAlign::Right, 100.0, 50.0, 10.0)),
        size_legend: legend_scale(&size_scale, (LegendAlign::Bottom, 90.0, 70.0, 42.0)),
        size_range: pair(size_scale.get("range"), (2.0, 20.0)),
        size_area: size_scale.get("mode").and_then(Value::as_str) != Some("range"),
        missing_size: finite(size_scale.get("missing"), 1.0),
        background_color: (0..data.len())
            .map(|i| color(given.get("backgroundColor"), Some(i)))
            .collect(),
        border_color,
        border_width: finite(scopes.get("borderWidth"), 0.0),
        outline_background: color(scopes.get("outlineBackgroundColor"), None),
        outline_border_color: color(scopes.get("outlineBorderColor"), None).unwrap_or(border_color),
        outline_border_width: finite(scopes.get("outlineBorderWidth"), 0.0),
    }
}

/// `ColorScale.interpolate`'s lookup of a name: the plugin's table holds each
/// d3-scale-chromatic `interpolate<Name>` under that key, under `<Name>` and under `<name>`
/// with the first letter lowercased (`'ylOrRd'`, `'cubehelixDefault'`), case-sensitively.
/// Any other value (a function cannot come in JSON) makes the plugin colour with `blues`
/// without a word; so does this, with a warning so that the fallback is not silent.
fn interpolator(v: Option<&Value>, messages: &mut Vec<Message>) -> String {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return "Blues".to_string();
    };
    let known = v.as_str().and_then(|s| {
        GEO_INTERPOLATORS.into_iter().find(|n| {
            let mut rest = n.chars();
            let first = rest.next().map(|f| f.to_ascii_lowercase());
            *n == s
                || s.strip_prefix("interpolate") == Some(n)
                || first.into_iter().chain(rest).eq(s.chars())
        })
    });
    match known {
        Some(name) => name.to_string(),
        None => {
            messages.push(Message::warn(format!(
                "chartjs-chart-geo: scales.color.interpolate {v} is not a d3-scale-chromatic \
                 interpolator; the colour scale uses 'blues', as the plugin does"
            )));
            "Blues".to_string()
        }
    }
}

/// A legend scale's options, with the scale's own defaults: `(align, length, width,
/// indicatorWidth)` (chartjs-chart-geo 4.3.6's `baseDefaults.legend`, which `SizeScale`
/// overrides with `align: 'bottom'`, 90, 70 and 42).
fn legend_scale(
    scale: &Scopes<'_>,
    (align, length, width, indicator): (LegendAlign, f64, f64, f64),
) -> LegendScale {
    let legend = scale.child("legend");
    let ticks = scale.child("ticks");
    // Sizes must be positive and finite before they become a tick count.
    let size = |v: Option<&Value>, d: f64| {
        v.filter(|v| !v.is_null())
            .map(to_number)
            .filter(|n| n.is_finite() && *n >= 0.0)
            .unwrap_or(d)
    };
    let finite = |v: Option<&Value>| v.map(to_number).filter(|n| n.is_finite());
    // A scale's tick font falls back to `Chart.defaults.font` (not `options.font`), as the
    // cartesian scales' do in Chart.js 4.5.1.
    let font = to_font(&ticks.child("font"), &global_font_scopes());
    // `margin`: a number for every side, else the object's sides (`margin.left`, ...).
    let margin = match legend.get("margin") {
        Some(Value::Object(m)) => {
            let side = |k: &str| finite(m.get(k)).unwrap_or(0.0);
            Sides {
                top: side("top"),
                right: side("right"),
                bottom: side("bottom"),
                left: side("left"),
            }
        }
        v => Sides::all(finite(v).unwrap_or(8.0)),
    };
    let position = match legend.get("position") {
        Some(Value::Object(p)) => match (finite(p.get("x")), finite(p.get("y"))) {
            (Some(x), Some(y)) => LegendPlace::At(x, y),
            // `ctx.translate` ignores a non-finite offset.
            _ => LegendPlace::At(0.0, 0.0),
        },
        Some(Value::String(s)) => match s.as_str() {
            "top-left" => LegendPlace::TopLeft,
            "top" => LegendPlace::Top,
            "left" => LegendPlace::Left,
            "top-right" => LegendPlace::TopRight,
            "bottom-right" => LegendPlace::BottomRight,
            "bottom" => LegendPlace::Bottom,
            "bottom-left" => LegendPlace::BottomLeft,
            _ => LegendPlace::Right,
        },
        _ => LegendPlace::BottomRight,
    };
    LegendScale {
        // The chart's value scale is hidden from the layout by chart-raster's own override
        // (`display: false` in `defaults::plugin_chart::geo_overrides`: the controller draws
        // the legend), the last scope that sets `display`; the legend's `display` is an
        // earlier (the user's) one, else the plugin's default true.
        display: match scale.all("display").as_slice() {
            [user, _, ..] => truthy(user),
            _ => true,
        },
        align: match legend.get("align").and_then(Value::as_str) {
            Some("left") => LegendAlign::Left,
            Some("top") => LegendAlign::Top,
            Some("bottom") => LegendAlign::Bottom,
            // Any other string draws as `'right'` (the `default` branches).
            Some(_) => LegendAlign::Right,
            None => align,
        },
        position,
        margin,
        length: size(legend.get("length"), length),
        width: size(legend.get("width"), width),
        indicator_width: size(legend.get("indicatorWidth"), indicator),
        tick_line_height: font.line_height,
        min_rotation: finite(ticks.get("minRotation")).unwrap_or(0.0),
        max_ticks_limit: finite(ticks.get("maxTicksLimit"))
            .filter(|m| *m != 0.0)
            .unwrap_or(11.0),
        min: finite(scale.get("min")),
        max: finite(scale.get("max")),
        // `ticks.z || 0` (a user's `null` included), the plugin's 1 when not given.
        z: match ticks.get("z") {
            None => 1.0,
            v => finite(v).unwrap_or(0.0),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn interpolate_names_are_looked_up_as_the_plugin_keys_them() {
        let name = |v: Value| {
            let mut messages = Vec::new();
            let n = interpolator(Some(&v), &mut messages);
            (n, messages.len())
        };
        let known = |n: &str| (n.to_string(), 0);
        assert_eq!(name(json!("blues")), known("Blues"));
        assert_eq!(name(json!("YlOrRd")), known("YlOrRd"));
        assert_eq!(name(json!("ylOrRd")), known("YlOrRd"));
        assert_eq!(name(json!("interpolateRdBu")), known("RdBu"));
        assert_eq!(name(json!("cubehelixDefault")), known("CubehelixDefault"));
        assert_eq!(name(json!("pRGn")), known("PRGn"));
        assert_eq!(interpolator(None, &mut Vec::new()), "Blues");
        // Keys the plugin's table does not hold: Blues, and a warning.
        for v in [
            json!("interpolateblues"),
            json!("ylorrd"),
            json!("BLUES"),
            json!("turbo2"),
            json!(3),
        ] {
            assert_eq!(name(v.clone()), ("Blues".to_string(), 1), "{v}");
        }
    }

    #[test]
    fn deep_geojson_is_read_without_recursion_and_within_budgets() {
        // 120 nested GeometryCollections (serde_json's limit is 128) around one polygon: a stack, not recursion.
        let mut v = json!({"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]});
        for _ in 0..120 {
            v = json!({"type": "GeometryCollection", "geometries": [v]});
        }
        let mut budget = Budget {
            polygons: 10,
            vertices: 3,
        };
        let s = shape_of(&v, &mut budget);
        assert_eq!(
            s.polygons,
            vec![vec![vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]]]
        );
        // Non-finite and malformed positions are left out.
        let bad =
            json!({"type": "MultiPolygon", "coordinates": [[[[0, "x"], [null, 0], [2, 2]]], 5]});
        let mut budget = Budget {
            polygons: 10,
            vertices: 100,
        };
        assert_eq!(
            shape_of(&bad, &mut budget).polygons,
            vec![vec![vec![(2.0, 2.0)]]]
        );
    }

    fn legends(options: Value) -> (LegendScale, LegendScale) {
        let cfg = json!({"type": "choropleth", "data": {"datasets": [{"data": []}]},
            "options": options});
        let (chart, _) = crate::resolve::resolve_chart(cfg.as_object().unwrap()).unwrap();
        let geo = chart.datasets[0].kind.geo().expect("geo options");
        (geo.color_legend.clone(), geo.size_legend.clone())
    }

    /// The legends' options with the plugin's defaults; `display` is the user's (chart-raster's
    /// own override hides the chart's value scale, not the legend).
    #[test]
    fn legend_options_and_display() {
        let (color, size) = legends(json!({}));
        assert!(color.display && size.display);
        assert_eq!(
            (color.align, size.align),
            (LegendAlign::Right, LegendAlign::Bottom)
        );
        assert_eq!(color.position, LegendPlace::BottomRight);
        assert_eq!(color.margin, Sides::all(8.0));
        let (color, _) = legends(
            json!({"scales": {"color": {"axis": "x", "display": false, "legend": {
            "align": "top", "position": {"x": 5, "y": 6}, "margin": {"left": 3}}}}}),
        );
        assert!(!color.display);
        assert!(color.horizontal());
        assert_eq!(color.position, LegendPlace::At(5.0, 6.0));
        assert_eq!((color.margin.left, color.margin.top), (3.0, 0.0));
        let (color, _) = legends(json!({"scales": {"color": {"axis": "x", "display": true,
            "legend": {"position": "somewhere", "align": "middle"}}}}));
        assert!(color.display);
        assert_eq!(
            (color.position, color.align),
            (LegendPlace::Right, LegendAlign::Right)
        );
        // `ticks.z`: the plugin's 1, the user's number, `|| 0` for the rest.
        assert_eq!((color.z, legends(json!({})).1.z), (1.0, 1.0));
        let z = |v: Value| {
            legends(json!({"scales": {"color": {"axis": "x", "ticks": {"z": v}}}}))
                .0
                .z
        };
        assert_eq!(
            (z(json!(-2)), z(json!(null)), z(json!("a"))),
            (-2.0, 0.0, 0.0)
        );
    }
}
