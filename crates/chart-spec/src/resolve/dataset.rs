//! `data.datasets[i]` → [`Dataset`]: parsing keys, controller options (bar sizing, doughnut
//! and pie values) and the dataset's element options ([`super::element`]).

use super::element::{
    plus, resolve_arcs, resolve_bar, resolve_elements, resolve_line, resolve_point, ElementLookup,
};
use super::geo::resolve_geo;
use super::lookup::{num_array, Ctx, DatasetType, Obj};
use super::plugin_chart::{
    element_type, resolve_graph, resolve_matrix, resolve_sankey, resolve_treemap, resolve_venn,
};
use super::word_cloud::resolve_word_cloud;
use crate::color::{parse_color, Rgba};
use crate::defaults;
use crate::fields::field;
use crate::message::Message;
use crate::model::{
    ArcDatasetOptions, Axis, BarDatasetOptions, BarThickness, ChartKind, Clip, Dataset,
    DatasetKind, Datum, Dim, LineOptions, Raw,
};
use crate::scopes::{to_number, truthy, Reader, Scopes};
use crate::values::Sides;
use serde_json::Value;

fn read_datum(v: &Value, xk: &ObjectKey<'_>, yk: &ObjectKey<'_>, rk: &ObjectKey<'_>) -> Datum {
    match v {
        Value::Array(a) => Datum::Array(a.iter().map(Raw::from_json).collect()),
        Value::Object(m) => Datum::Object {
            x: resolve_object_key(m, xk),
            y: resolve_object_key(m, yk),
            r: resolve_object_key(m, rk),
        },
        other => Datum::Primitive(Raw::from_json(other)),
    }
}

/// A parsing key (`xAxisKey`, `yAxisKey`, `rAxisKey`), looked at once for the data points
/// it reads: whether it is a dotted path is not asked again of every point (a scatter's
/// `r` key, absent from its points, was searched for a dot 10,000 times).
struct ObjectKey<'k> {
    key: &'k str,
    /// The key holds a `.`: a path into nested objects when the key itself is absent.
    dotted: bool,
}

impl<'k> ObjectKey<'k> {
    fn new(key: &'k str) -> Self {
        Self {
            key,
            dotted: key.contains('.'),
        }
    }
}

/// `resolveObjectKey`: dotted paths into nested objects.
fn resolve_object_key(m: &Obj, key: &ObjectKey<'_>) -> Raw {
    if let Some(v) = point_field(m, key.key) {
        return Raw::from_json(v);
    }
    // A key without a dot names nothing more than the lookup above.
    if !key.dotted {
        return Raw::Undefined;
    }
    let Some((first, rest)) = key.key.split_once('.') else {
        return Raw::Undefined;
    };
    let mut cur: &Value = match field(m, first) {
        Some(v) => v,
        None => return Raw::Undefined,
    };
    for part in rest.split('.') {
        match cur.get(part) {
            Some(v) => cur = v,
            None => return Raw::Undefined,
        }
    }
    Raw::from_json(cur)
}

/// Objects of at most this many keys are searched key by key (as [`field`] does).
const SMALL_POINT: usize = 8;

/// [`field`] for a data point's object, whose keys are short (`x`, `y`): each key is
/// compared byte by byte in place ([`same_key`]).
fn point_field<'a>(m: &'a Obj, key: &str) -> Option<&'a Value> {
    if m.len() > SMALL_POINT {
        return m.get(key);
    }
    m.iter()
        .find_map(|(k, v)| same_key(k.as_bytes(), key).then_some(v))
}

/// `a == b` for a data point's keys, without a call to the C library's `memcmp` for two
/// strings of one byte, three times per point.
fn same_key(a: &[u8], b: &str) -> bool {
    let b = b.as_bytes();
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

pub(super) fn resolve_dataset(
    ctx: &Ctx<'_>,
    index: usize,
    (ds, written): (&Obj, &Obj),
    dk: &DatasetType,
    count: usize,
    msgs: &mut Vec<Message>,
) -> Dataset {
    let kind = dk.kind;
    let index_axis = dk.index_axis;
    let ds_keys = vec![format!("datasets.{kind}"), String::new()];
    let ds_scopes = ctx.dataset_scopes(ds, written, &ds_keys);
    // The dataset-defaults table is a scope too (`defaults.datasets[type]`).
    let mut ds_scopes = ds_scopes;
    if let Some(d) = defaults::dataset_type(kind) {
        ds_scopes.push(d);
    }
    let mut r = Reader::new(ds_scopes.clone(), format!("data.datasets[{index}]"), msgs);

    let parsing_v = r.raw("parsing");
    let parsing = !matches!(parsing_v, Some(Value::Bool(false)));
    let (xk, yk, rk) = match parsing_v {
        Some(Value::Object(p)) => (
            p.get("xAxisKey")
                .and_then(Value::as_str)
                .unwrap_or("x")
                .to_string(),
            p.get("yAxisKey")
                .and_then(Value::as_str)
                .unwrap_or("y")
                .to_string(),
            p.get("rAxisKey")
                .and_then(Value::as_str)
                .unwrap_or("r")
                .to_string(),
        ),
        _ => ("x".into(), "y".into(), "r".into()),
    };
    let data: Vec<Datum> = match ds.get("data") {
        Some(Value::Array(a)) => {
            let (xk, yk, rk) = (
                ObjectKey::new(&xk),
                ObjectKey::new(&yk),
                ObjectKey::new(&rk),
            );
            a.iter().map(|v| read_datum(v, &xk, &yk, &rk)).collect()
        }
        Some(Value::Object(m)) => {
            // convertObjectDataToArray: keys are index values, values the data.
            let (ik, vk) = if index_axis == Axis::X {
                ("x", "y")
            } else {
                ("y", "x")
            };
            m.iter()
                .map(|(k, v)| {
                    let kr = Raw::Str(k.clone());
                    let vr = Raw::from_json(v);
                    let (x, y) = if ik == "x" { (kr, vr) } else { (vr, kr) };
                    let _ = vk;
                    Datum::Object {
                        x,
                        y,
                        r: Raw::Undefined,
                    }
                })
                .collect()
        }
        _ => Vec::new(),
    };

    let label_raw = ds.get("label").map(Raw::from_json);
    let label = label_raw.as_ref().map(Raw::to_js_string);
    let label_lines = match &label_raw {
        Some(r @ Raw::Array(_)) => Some(r.lines()),
        _ => None,
    };
    let order = ds
        .get("order")
        .map(to_number)
        .filter(|n| n.is_finite())
        .unwrap_or(0.0);
    let hidden = ds.get("hidden").is_some_and(truthy);
    let stack = ds.get("stack").map(|v| Raw::from_json(v).to_js_string());
    let x_axis_id = ds.get("xAxisID").and_then(Value::as_str).map(String::from);
    let y_axis_id = ds.get("yAxisID").and_then(Value::as_str).map(String::from);
    let show_line = r.bool_or("showLine", true);
    let clip = match r.raw("clip") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(false)) => Some(Clip::Disabled),
        Some(Value::Object(m)) => {
            let n = |k: &str| m.get(k).map(to_number).unwrap_or(0.0);
            Some(Clip::Sides(Sides {
                top: n("top"),
                right: n("right"),
                bottom: n("bottom"),
                left: n("left"),
            }))
        }
        Some(v) => {
            let n = to_number(v);
            Some(Clip::Sides(Sides {
                top: n,
                right: n,
                bottom: n,
                left: n,
            }))
        }
    };
    let draw_active_on_top = r.bool_or("drawActiveElementsOnTop", true);

    let element_keys = |el: &str| {
        vec![
            format!("datasets.{kind}.elements.{el}"),
            format!("datasets.{kind}"),
            format!("elements.{el}"),
            String::new(),
        ]
    };
    let element_scopes = |el: &str| {
        let mut s = ctx.dataset_scopes(ds, written, &element_keys(el));
        // Chart.js registers controller defaults under `defaults.datasets[type]`, which the
        // `datasets.<type>` key of the defaults root already reached; elements likewise.
        if let Some(d) = defaults::dataset_type(kind) {
            s.push(d);
        }
        s
    };
    // The options of the `dataElementType` (bar, arc, or a point for every other type), one
    // per index.
    let n = data.len().max(1);
    let bars = || resolve_elements(&element_scopes("bar"), "bar", n, resolve_bar);
    let arcs = || resolve_arcs(&element_scopes("arc"), data.len());
    let points = || resolve_elements(&element_scopes("point"), "point", n, resolve_point);
    let line = |r: &mut Reader<'_, '_>| {
        line_options(
            element_scopes("line"),
            &ds_scopes,
            r,
            !show_line && kind != ChartKind::Scatter,
            index,
            count,
        )
    };
    let plugin_scopes = || element_scopes(element_type(kind));
    let chart_font = || ctx.chart_scopes().child("font");
    let n_data = data.len();
    let graph = || Box::new(resolve_graph(ds, &plugin_scopes(), kind));
    let kind = match kind {
        ChartKind::Bar => DatasetKind::Bar(bar_options(&mut r), bars()),
        ChartKind::Line => DatasetKind::Line(line(&mut r), points()),
        ChartKind::Scatter => DatasetKind::Scatter(line(&mut r), points()),
        ChartKind::Radar => DatasetKind::Radar(line(&mut r), points()),
        ChartKind::Bubble => DatasetKind::Bubble(points()),
        ChartKind::Doughnut => DatasetKind::Doughnut(arc_dataset(&ds_scopes, ds, false), arcs()),
        ChartKind::Pie => DatasetKind::Pie(arc_dataset(&ds_scopes, ds, true), arcs()),
        ChartKind::PolarArea => DatasetKind::PolarArea(arcs()),
        ChartKind::Matrix => {
            DatasetKind::Matrix(resolve_matrix(&plugin_scopes(), n_data), points())
        }
        ChartKind::Treemap => DatasetKind::Treemap(
            Box::new(resolve_treemap(
                ds,
                &plugin_scopes(),
                &chart_font(),
                ctx.limits,
            )),
            points(),
        ),
        ChartKind::Sankey => DatasetKind::Sankey(
            Box::new(resolve_sankey(ds, &plugin_scopes(), &chart_font())),
            points(),
        ),
        ChartKind::Venn => DatasetKind::Venn(resolve_venn(ds, &plugin_scopes(), n_data), points()),
        ChartKind::Euler => {
            DatasetKind::Euler(resolve_venn(ds, &plugin_scopes(), n_data), points())
        }
        ChartKind::WordCloud => DatasetKind::WordCloud(
            Box::new(resolve_word_cloud(
                ds,
                &plugin_scopes(),
                n_data,
                Rgba::rgb(102, 102, 102),
                crate::font::DEFAULT_FAMILY,
            )),
            points(),
        ),
        ChartKind::Choropleth | ChartKind::BubbleMap => {
            let geo = Box::new(resolve_geo(
                kind,
                ds,
                &plugin_scopes(),
                &ctx.given_dataset_scopes(ds, written, &element_keys(element_type(kind))),
                n_data,
                ctx.limits,
                r.messages,
            ));
            if kind == ChartKind::Choropleth {
                DatasetKind::Choropleth(geo, points())
            } else {
                DatasetKind::BubbleMap(geo, points())
            }
        }
        ChartKind::Tree => DatasetKind::Tree(graph(), points()),
        ChartKind::Dendrogram => DatasetKind::Dendrogram(graph(), points()),
        ChartKind::Dendogram => DatasetKind::Dendogram(graph(), points()),
        ChartKind::Graph => DatasetKind::Graph(graph(), points()),
        ChartKind::ForceDirectedGraph => DatasetKind::ForceDirectedGraph(graph(), points()),
    };
    Dataset {
        index,
        kind,
        label,
        label_lines,
        order,
        hidden,
        stack,
        x_axis_id,
        y_axis_id,
        index_axis,
        parsing,
        data,
        show_line,
        clip,
        draw_active_on_top,
    }
}

fn dim(v: Option<&Value>, default: Dim) -> Dim {
    match v {
        Some(Value::String(s)) if s.trim_end().ends_with('%') => {
            let p = s.trim_end().trim_end_matches('%').trim();
            // parseFloat: leading number.
            let end = p
                .char_indices()
                .find(|(i, c)| {
                    !(c.is_ascii_digit() || *c == '.' || (*i == 0 && (*c == '-' || *c == '+')))
                })
                .map_or(p.len(), |(i, _)| i);
            Dim::Percent(p[..end].parse().unwrap_or(f64::NAN))
        }
        Some(v) => Dim::Px(to_number(v)),
        None => default,
    }
}

/// The line element of a line, scatter or radar dataset: `scopes` are its element scopes;
/// `hidden` when the line is not drawn (`showLine: false` outside scatter), which zeroes its
/// border width as `LineController.update` does.
fn line_options(
    scopes: Scopes<'_>,
    ds_scopes: &Scopes<'_>,
    r: &mut Reader<'_, '_>,
    hidden: bool,
    index: usize,
    count: usize,
) -> LineOptions {
    let mut lo = resolve_line(&ElementLookup::new(scopes, "line", None), index, count);
    // LineController.update: `if (!this.options.showLine) options.borderWidth = 0`.
    if hidden {
        lo.border_width = 0.0;
    }
    // `segment` styles: functions in JavaScript, so in JSON every segment gets the same
    // style; `setStyle(ctx, options, segment.style)` and the filler's
    // `segment.style.backgroundColor` then override the line's own values.
    let seg_scopes = ds_scopes.child("segment");
    if !seg_scopes.is_empty() {
        let col = |k: &str| {
            seg_scopes
                .get(k)
                .and_then(Value::as_str)
                .and_then(parse_color)
        };
        if let Some(c) = col("borderColor") {
            lo.border_color = c;
        }
        if let Some(w) = seg_scopes.get("borderWidth").and_then(Value::as_f64) {
            lo.border_width = w;
        }
        if let Some(Value::Array(_)) = seg_scopes.get("borderDash") {
            lo.border_dash = num_array(seg_scopes.get("borderDash"));
        }
        if let Some(o) = seg_scopes.get("borderDashOffset").and_then(Value::as_f64) {
            lo.border_dash_offset = o;
        }
        if let Some(c) = col("backgroundColor") {
            lo.fill.above = Some(c);
            lo.fill.below = Some(c);
        }
    }
    // The controller's own `spanGaps` option (dataset scopes) drives gap handling.
    if let Some(v) = r.raw("spanGaps") {
        lo.span_gaps = match v {
            Value::Number(n) => n.as_f64(),
            v if truthy(v) => Some(f64::INFINITY),
            _ => None,
        };
    }
    lo
}

/// The bar controller's own options (`this.options`).
fn bar_options(r: &mut Reader<'_, '_>) -> BarDatasetOptions {
    BarDatasetOptions {
        bar_percentage: r.num_or("barPercentage", 0.9),
        category_percentage: r.num_or("categoryPercentage", 0.8),
        bar_thickness: match r.raw("barThickness") {
            Some(Value::String(s)) if s == "flex" => Some(BarThickness::Flex),
            Some(v) => {
                let n = to_number(v);
                if n.is_finite() {
                    Some(BarThickness::Px(n))
                } else {
                    None
                }
            }
            None => None,
        },
        max_bar_thickness: r.num("maxBarThickness").unwrap_or(f64::INFINITY),
        min_bar_length: r.num_or("minBarLength", 0.0),
        grouped: r.bool_or("grouped", true),
        skip_null: r.bool_or("skipNull", false),
        base: r.num("base"),
    }
}

/// The doughnut controller's own options (`this.options`) and its parsed values.
fn arc_dataset(scopes: &Scopes<'_>, ds: &Obj, pie: bool) -> ArcDatasetOptions {
    let num = |k: &str, d: f64| {
        scopes
            .get(k)
            .map(to_number)
            .filter(|v| v.is_finite())
            .unwrap_or(d)
    };
    let parsing = scopes.get("parsing");
    let key = match parsing {
        Some(Value::Object(p)) => p.get("key").and_then(Value::as_str).unwrap_or("value"),
        _ => "value",
    };
    let values = match ds.get("data") {
        Some(Value::Array(a)) => {
            let objects = a.first().is_some_and(Value::is_object);
            let key = ObjectKey::new(key);
            a.iter()
                .map(|v| match v {
                    Value::Object(m) if objects && !matches!(parsing, Some(Value::Bool(false))) => {
                        match resolve_object_key(m, &key) {
                            Raw::Num(n) => Some(n).filter(|n| !n.is_nan()),
                            Raw::Null => Some(0.0),
                            Raw::Str(s) => plus(&Value::String(s)),
                            Raw::Bool(b) => Some(f64::from(u8::from(b))),
                            _ => None,
                        }
                    }
                    other => plus(other),
                })
                .collect()
        }
        _ => Vec::new(),
    };
    ArcDatasetOptions {
        cutout: dim(
            scopes.get("cutout"),
            if pie {
                Dim::Px(0.0)
            } else {
                Dim::Percent(50.0)
            },
        ),
        radius: dim(scopes.get("radius"), Dim::Percent(100.0)),
        rotation: num("rotation", 0.0),
        circumference: num("circumference", 360.0),
        spacing: num("spacing", 0.0),
        weight: ds
            .get("weight")
            .map(to_number)
            .filter(|v| !v.is_nan())
            .unwrap_or(1.0),
        values,
    }
}
