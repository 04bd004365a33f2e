//! Config JSON → resolved [`Chart`]: parsing without panics and option resolution through
//! Chart.js's scope chains (`getOptionScopes`, `datasetScopeKeys`,
//! `datasetElementScopeKeys`, `mergeScaleConfig` in core.config.js).

use crate::color::{parse_color, Rgba};
use crate::defaults;
use crate::message::Message;
use crate::model::*;
use crate::scopes::{to_number, truthy, Reader, Scopes};
use crate::values::{padding_from_scopes, to_font, to_padding, Font, Indexable, Padding};
use serde_json::{Map, Value};

type Obj = Map<String, Value>;

#[path = "resolve_extra.rs"]
mod extra;

/// Resolves a Chart.js config. `Err` holds the messages when the chart cannot be built at all
/// (Chart.js would throw in `new Chart()`); the caller draws a blank canvas then.
pub fn resolve_chart(config: &Obj) -> Result<(Chart, Vec<Message>), Vec<Message>> {
    let mut msgs = Vec::new();
    let kind = match config.get("type") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            msgs.push(Message::error(format!(
                "\"{}\" is not a registered controller.",
                crate::model::Raw::from_json(other).to_js_string()
            )));
            return Err(msgs);
        }
        // No chart type: Chart.js still builds the chart when every dataset names its own
        // `type` (config.type is only a fallback for datasets).
        None => String::new(),
    };
    let empty = Obj::new();
    let options: &Obj = match config.get("options") {
        Some(Value::Object(o)) => o,
        None | Some(Value::Null) => &empty,
        Some(other) => {
            msgs.push(Message::warn(format!(
                "options: expected an object, got {other}; ignored"
            )));
            &empty
        }
    };
    let data: &Obj = match config.get("data") {
        Some(Value::Object(o)) => o,
        _ => &empty,
    };
    let raw_datasets: Vec<&Obj> = match data.get("datasets") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_object).collect(),
        _ => Vec::new(),
    };
    // Chart.js throws on the first unknown controller, chart type first.
    let every_dataset_typed = !raw_datasets.is_empty()
        && raw_datasets
            .iter()
            .all(|d| matches!(d.get("type"), Some(Value::String(_))));
    if kind.is_empty() && !every_dataset_typed {
        msgs.push(Message::error(
            "\"undefined\" is not a registered controller.",
        ));
        return Err(msgs);
    }
    if !kind.is_empty() && !defaults::is_registered_controller(&kind) {
        msgs.push(Message::error(format!(
            "\"{kind}\" is not a registered controller."
        )));
        return Err(msgs);
    }
    for ds in &raw_datasets {
        if let Some(Value::String(t)) = ds.get("type") {
            if !defaults::is_registered_controller(t) {
                msgs.push(Message::error(format!(
                    "\"{t}\" is not a registered controller."
                )));
                return Err(msgs);
            }
        }
    }

    let plugins_enabled = !matches!(options.get("plugins"), Some(Value::Bool(false)));
    let plugin_opts = |id: &str| -> Option<&Obj> {
        match options.get("plugins") {
            Some(Value::Object(p)) => p.get(id).and_then(Value::as_object),
            _ => None,
        }
    };
    let plugin_enabled = |id: &str| -> bool {
        if !plugins_enabled {
            return false;
        }
        match options.get("plugins") {
            Some(Value::Object(p)) => !matches!(p.get(id), Some(Value::Bool(false))),
            _ => true,
        }
    };

    // Colors plugin: runs before elements resolve their options (beforeLayout), writing
    // palette colours into the datasets themselves.
    let mut datasets_owned: Vec<Obj> = raw_datasets.iter().map(|d| (*d).clone()).collect();
    if plugin_enabled("colors") {
        apply_colors_plugin(&kind, options, plugin_opts("colors"), &mut datasets_owned);
    }
    // chartjs-plugin-gradient: stand-in colours the engine repaints (plugins_model).
    crate::plugins_model::apply_gradient_sentinels(config, &mut datasets_owned);

    let ctx = Ctx {
        kind: kind.clone(),
        options,
        overrides: defaults::overrides(&kind).unwrap_or(&empty),
        global: defaults::global(),
    };

    let labels = read_labels(data.get("labels"));
    let x_labels = data.get("xLabels").map(|v| read_labels(Some(v)));
    let y_labels = data.get("yLabels").map(|v| read_labels(Some(v)));

    let scales = resolve_scales(&ctx, &datasets_owned, &mut msgs)?;

    let mut datasets = Vec::new();
    for (i, ds) in datasets_owned.iter().enumerate() {
        datasets.push(resolve_dataset(
            &ctx,
            i,
            ds,
            datasets_owned.len(),
            &mut msgs,
        ));
    }

    let chart_scopes = ctx.chart_scopes();
    let mut r = Reader::new(chart_scopes.clone(), "options", &mut msgs);
    let layout = r.scopes.child("layout");
    let layout_padding = padding_from_scopes(&layout, "padding");
    let auto_padding = layout.get("autoPadding").map(truthy).unwrap_or(true);
    let color = r.color("color").unwrap_or(Rgba::rgb(0x66, 0x66, 0x66));
    let locale = r.str("locale").unwrap_or("en-US").to_string();
    let r_index_axis = chart_scopes.get("indexAxis").and_then(Value::as_str);
    let device_pixel_ratio = options.get("devicePixelRatio").and_then(Value::as_f64);
    let font = to_font(&chart_scopes.child("font"), &Scopes::default());

    let title = if plugin_enabled("title") {
        Some(resolve_title(&ctx, "title", &mut msgs))
    } else {
        None
    };
    let subtitle = if plugin_enabled("subtitle") {
        Some(resolve_title(&ctx, "subtitle", &mut msgs))
    } else {
        None
    };
    let legend = if plugin_enabled("legend") {
        Some(resolve_legend(&ctx, color, &mut msgs))
    } else {
        None
    };
    let filler = if plugin_enabled("filler") {
        let s = ctx.plugin_scopes("filler");
        let draw_time = match s.get("drawTime").and_then(Value::as_str) {
            Some("beforeDraw") => FillDrawTime::BeforeDraw,
            Some("beforeDatasetsDraw") => FillDrawTime::BeforeDatasetsDraw,
            _ => FillDrawTime::BeforeDatasetDraw,
        };
        Some(FillerOptions {
            propagate: s.get("propagate").map(truthy).unwrap_or(true),
            draw_time,
        })
    } else {
        None
    };

    Ok((
        Chart {
            kind,
            labels,
            x_labels,
            y_labels,
            datasets,
            index_axis: match r_index_axis {
                Some("y") => Axis::Y,
                _ => Axis::X,
            },
            scales,
            layout_padding,
            auto_padding,
            font,
            color,
            locale,
            title,
            subtitle,
            legend,
            filler,
            device_pixel_ratio,
            decimation: extra::decimation(options),
        },
        msgs,
    ))
}

impl Raw {
    /// A raw scalar from JSON.
    pub fn from_json(v: &Value) -> Raw {
        match v {
            Value::Null => Raw::Null,
            Value::Bool(b) => Raw::Bool(*b),
            Value::Number(n) => Raw::Num(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => Raw::Str(s.clone()),
            Value::Array(a) => Raw::Array(a.iter().map(Raw::from_json).collect()),
            Value::Object(_) => Raw::Object,
        }
    }
    fn from_opt(v: Option<&Value>) -> Raw {
        v.map(Raw::from_json).unwrap_or(Raw::Undefined)
    }
}

fn read_labels(v: Option<&Value>) -> Vec<Raw> {
    match v {
        Some(Value::Array(a)) => a.iter().map(Raw::from_json).collect(),
        _ => Vec::new(),
    }
}

struct Ctx<'a> {
    kind: String,
    options: &'a Obj,
    overrides: &'a Obj,
    global: &'a Obj,
}

impl<'a> Ctx<'a> {
    /// `chartOptionScopes()`: options, overrides[type], defaults.datasets[type], defaults.
    fn chart_scopes(&self) -> Scopes<'a> {
        let mut s = Scopes::new(vec![self.options, self.overrides]);
        if let Some(d) = defaults::dataset_type(&self.kind) {
            s.push(d);
        }
        s.push(self.global);
        s
    }

    /// `pluginScopeKeys`: `plugins.<id>` in options, overrides and defaults.
    fn plugin_scopes(&self, id: &str) -> Scopes<'a> {
        let mut s = Scopes::default();
        let key = format!("plugins.{id}");
        s.push_key(self.options, &key);
        s.push_key(self.overrides, &key);
        s.push_key(self.global, &key);
        s
    }

    /// `getOptionScopes(dataset, keys)` for a list of dotted keys.
    fn dataset_scopes(&self, dataset: &'a Obj, keys: &[String]) -> Scopes<'a> {
        let mut s = Scopes::new(vec![dataset]);
        for k in keys {
            s.push_key(dataset, k);
        }
        for root in [self.options, self.overrides, self.global] {
            for k in keys {
                s.push_key(root, k);
            }
        }
        s
    }

    /// `getIndexAxis(type, options)`.
    fn index_axis(&self, kind: &str) -> Axis {
        let pick = |v: Option<&Value>| match v.and_then(Value::as_str) {
            Some("y") => Some(Axis::Y),
            Some("x") => Some(Axis::X),
            _ => None,
        };
        let ds_opt = self
            .options
            .get("datasets")
            .and_then(|d| d.get(kind))
            .and_then(|d| d.get("indexAxis"));
        pick(ds_opt)
            .or_else(|| pick(self.options.get("indexAxis")))
            .or_else(|| pick(defaults::dataset_type(kind).and_then(|d| d.get("indexAxis"))))
            .unwrap_or(Axis::X)
    }
}

const BORDER_COLORS: [Rgba; 7] = [
    Rgba::rgb(54, 162, 235),
    Rgba::rgb(255, 99, 132),
    Rgba::rgb(255, 159, 64),
    Rgba::rgb(255, 205, 86),
    Rgba::rgb(75, 192, 192),
    Rgba::rgb(153, 102, 255),
    Rgba::rgb(201, 203, 207),
];

fn css(c: Rgba, alpha: f64) -> Value {
    Value::String(format!("rgba({}, {}, {}, {alpha})", c.r, c.g, c.b))
}

/// Mirrors plugin.colors `beforeLayout`: when no colour is configured anywhere (or
/// `forceOverride`), datasets get the default palette in order.
fn apply_colors_plugin(kind: &str, options: &Obj, opts: Option<&Obj>, datasets: &mut [Obj]) {
    let get = |k: &str| opts.and_then(|o| o.get(k));
    if !get("enabled").map(truthy).unwrap_or(true) {
        return;
    }
    let force = get("forceOverride").map(truthy).unwrap_or(false);
    let has = |o: &Obj| {
        o.get("borderColor").is_some_and(truthy) || o.get("backgroundColor").is_some_and(truthy)
    };
    let elements_have = options
        .get("elements")
        .and_then(Value::as_object)
        .is_some_and(|e| e.values().filter_map(Value::as_object).any(has));
    let contains = datasets.iter().any(has) || has(options) || elements_have;
    if !force && contains {
        return;
    }
    let mut i = 0usize;
    for ds in datasets.iter_mut() {
        let t = ds
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or(kind)
            .to_string();
        let n = match ds.get("data") {
            Some(Value::Array(a)) => a.len(),
            _ => 0,
        };
        match t.as_str() {
            "doughnut" | "pie" => {
                let v: Vec<Value> = (0..n)
                    .map(|k| css(BORDER_COLORS[(i + k) % 7], 1.0))
                    .collect();
                i += n;
                ds.insert("backgroundColor".into(), Value::Array(v));
            }
            "polarArea" => {
                let v: Vec<Value> = (0..n)
                    .map(|k| css(BORDER_COLORS[(i + k) % 7], 0.5))
                    .collect();
                i += n;
                ds.insert("backgroundColor".into(), Value::Array(v));
            }
            _ => {
                ds.insert("borderColor".into(), css(BORDER_COLORS[i % 7], 1.0));
                ds.insert("backgroundColor".into(), css(BORDER_COLORS[i % 7], 0.5));
                i += 1;
            }
        }
    }
}

fn axis_from_str(s: &str) -> Option<Axis> {
    match s {
        "x" => Some(Axis::X),
        "y" => Some(Axis::Y),
        "r" => Some(Axis::R),
        _ => None,
    }
}

fn axis_from_position(p: Option<&Value>) -> Option<Axis> {
    match p.and_then(Value::as_str) {
        Some("top") | Some("bottom") => Some(Axis::X),
        Some("left") | Some("right") => Some(Axis::Y),
        _ => None,
    }
}

/// `determineAxis(id, ...scaleOptions)`.
fn determine_axis(id: &str, confs: &[Option<&Obj>]) -> Option<Axis> {
    if let Some(a) = axis_from_str(id) {
        return Some(a);
    }
    for c in confs.iter().flatten() {
        let a = c
            .get("axis")
            .and_then(Value::as_str)
            .and_then(axis_from_str)
            .or_else(|| axis_from_position(c.get("position")))
            .or_else(|| {
                if id.chars().count() > 1 {
                    id.chars()
                        .next()
                        .and_then(|ch| axis_from_str(&ch.to_lowercase().to_string()))
                } else {
                    None
                }
            });
        if a.is_some() {
            return a;
        }
    }
    None
}

fn position_is_horizontal(p: &Position, axis: Axis) -> bool {
    match p {
        Position::Top | Position::Bottom => true,
        Position::Left | Position::Right => false,
        _ => axis == Axis::X,
    }
}

fn parse_position(v: Option<&Value>) -> Option<Position> {
    match v? {
        Value::String(s) => match s.as_str() {
            "top" => Some(Position::Top),
            "bottom" => Some(Position::Bottom),
            "left" => Some(Position::Left),
            "right" => Some(Position::Right),
            "center" => Some(Position::Center),
            "chartArea" => Some(Position::ChartArea),
            _ => None,
        },
        Value::Object(m) => {
            let (k, v) = m.iter().next()?;
            Some(Position::AtValue(k.clone(), to_number(v)))
        }
        _ => None,
    }
}

/// `mergeScaleConfig` + `buildOrUpdateScales`: the scales of the chart with their scopes.
fn resolve_scales(
    ctx: &Ctx<'_>,
    datasets: &[Obj],
    msgs: &mut Vec<Message>,
) -> Result<Vec<ScaleOptions>, Vec<Message>> {
    let empty = Obj::new();
    let config_scales: &Obj = match ctx.options.get("scales") {
        Some(Value::Object(s)) => s,
        _ => &empty,
    };
    let chart_index_axis = ctx.index_axis(&ctx.kind);
    let chart_default_scales = ctx
        .overrides
        .get("scales")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    // id → (axis, scopes in mergeIf order)
    let mut order: Vec<(String, Axis, Vec<&Obj>)> = Vec::new();
    for (id, conf) in config_scales {
        let Some(conf) = conf.as_object() else {
            msgs.push(Message::error(format!(
                "Invalid scale configuration for scale: {id}"
            )));
            continue;
        };
        // retrieveAxisFromDatasets
        let mut from_ds: Option<Axis> = None;
        if let Some(d) = datasets.iter().find(|d| {
            d.get("xAxisID").and_then(Value::as_str) == Some(id)
                || d.get("yAxisID").and_then(Value::as_str) == Some(id)
        }) {
            if d.get("xAxisID").and_then(Value::as_str) == Some(id) {
                from_ds = Some(Axis::X);
            } else {
                from_ds = Some(Axis::Y);
            }
        }
        let type_defaults = conf
            .get("type")
            .and_then(Value::as_str)
            .and_then(defaults::scale_type);
        let axis = match determine_axis(id, &[Some(conf)])
            .or(from_ds)
            .or_else(|| determine_axis(id, &[type_defaults]))
        {
            Some(a) => a,
            None => {
                msgs.push(Message::error(format!(
                    "Cannot determine type of '{id}' axis. Please provide 'axis' or 'position' option."
                )));
                return Err(std::mem::take(msgs));
            }
        };
        let default_id = if axis == chart_index_axis {
            "_index_"
        } else {
            "_value_"
        };
        let mut list = vec![conf];
        if let Some(o) = chart_default_scales
            .get(axis.as_str())
            .and_then(Value::as_object)
        {
            list.push(o);
        }
        if let Some(o) = chart_default_scales
            .get(default_id)
            .and_then(Value::as_object)
        {
            list.push(o);
        }
        order.push((id.clone(), axis, list));
    }
    for ds in datasets {
        let t = ds
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or(&ctx.kind)
            .to_string();
        let index_axis = match ds.get("indexAxis").and_then(Value::as_str) {
            Some("y") => Axis::Y,
            Some("x") => Axis::X,
            _ => ctx.index_axis(&t),
        };
        let Some(ds_defaults) = defaults::overrides(&t)
            .and_then(|o| o.get("scales"))
            .and_then(Value::as_object)
        else {
            continue;
        };
        for (default_id, dflt) in ds_defaults {
            let axis = match default_id.as_str() {
                "_index_" => index_axis,
                "_value_" => {
                    if index_axis == Axis::X {
                        Axis::Y
                    } else {
                        Axis::X
                    }
                }
                other => axis_from_str(other).unwrap_or(Axis::X),
            };
            let id = ds
                .get(&format!("{}AxisID", axis.as_str()))
                .and_then(Value::as_str)
                .unwrap_or(axis.as_str())
                .to_string();
            let Some(d) = dflt.as_object() else { continue };
            match order.iter_mut().find(|(i, _, _)| *i == id) {
                Some((_, _, list)) => list.push(d),
                None => {
                    let mut list = Vec::new();
                    if let Some(c) = config_scales.get(&id).and_then(Value::as_object) {
                        list.push(c);
                    }
                    list.push(d);
                    order.push((id, axis, list));
                }
            }
        }
    }

    let chart_font = ctx.chart_scopes().child("font");
    let mut out = Vec::new();
    for (id, axis, list) in order {
        let mut scopes = Scopes::new(list);
        // The scale type: merged `type`, else the default for the axis.
        let kind = match scopes.get("type") {
            Some(Value::String(s)) => s.clone(),
            _ => match axis {
                Axis::X => "category".to_string(),
                Axis::Y => "linear".to_string(),
                Axis::R => "radialLinear".to_string(),
            },
        };
        if !defaults::is_registered_scale(&kind) {
            msgs.push(Message::error(format!(
                "\"{kind}\" is not a registered scale."
            )));
            return Err(std::mem::take(msgs));
        }
        if let Some(t) = defaults::scale_type(&kind) {
            scopes.push(t);
        }
        if let Some(s) = ctx.global.get("scale").and_then(Value::as_object) {
            scopes.push(s);
        }
        out.push(resolve_scale(&id, axis, kind, scopes, &chart_font, msgs));
    }
    Ok(out)
}

fn global_color(key: &str) -> Rgba {
    defaults::global()
        .get(key)
        .and_then(Value::as_str)
        .and_then(parse_color)
        .unwrap_or(Rgba::TRANSPARENT)
}

fn indexable_colors(r: &mut Reader<'_, '_>, key: &str, fallback: Rgba) -> Indexable<Rgba> {
    match r.raw(key) {
        Some(Value::Array(a)) if !a.is_empty() => Indexable(
            a.iter()
                .map(|v| v.as_str().and_then(parse_color).unwrap_or(fallback))
                .collect(),
        ),
        _ => Indexable::one(r.color(key).unwrap_or(fallback)),
    }
}

fn indexable_nums(r: &mut Reader<'_, '_>, key: &str, fallback: f64) -> Indexable<f64> {
    match r.raw(key) {
        Some(Value::Array(a)) if !a.is_empty() => Indexable(
            a.iter()
                .map(|v| {
                    let n = to_number(v);
                    if n.is_nan() {
                        fallback
                    } else {
                        n
                    }
                })
                .collect(),
        ),
        _ => Indexable::one(r.num(key).unwrap_or(fallback)),
    }
}

fn num_array(v: Option<&Value>) -> Vec<f64> {
    match v {
        Some(Value::Array(a)) => a.iter().map(to_number).filter(|n| n.is_finite()).collect(),
        _ => Vec::new(),
    }
}

fn text_lines(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a.iter().map(|x| Raw::from_json(x).to_js_string()).collect(),
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Null) | None => vec![String::new()],
        Some(other) => vec![Raw::from_json(other).to_js_string()],
    }
}

fn parse_align(v: Option<&Value>) -> Align {
    match v.and_then(Value::as_str) {
        Some("start") => Align::Start,
        Some("end") => Align::End,
        Some("inner") => Align::Inner,
        _ => Align::Center,
    }
}

fn global_font_scopes() -> Scopes<'static> {
    let mut s = Scopes::default();
    if let Some(f) = defaults::global().get("font").and_then(Value::as_object) {
        s.push(f);
    }
    s
}

fn resolve_scale(
    id: &str,
    axis: Axis,
    kind: String,
    scopes: Scopes<'_>,
    chart_font: &Scopes<'_>,
    msgs: &mut Vec<Message>,
) -> ScaleOptions {
    let dposition = match axis {
        Axis::X => Position::Bottom,
        Axis::Y => Position::Left,
        Axis::R => Position::ChartArea,
    };
    let position = match parse_position(scopes.get("position")) {
        Some(p) if position_is_horizontal(&p, axis) == position_is_horizontal(&dposition, axis) => {
            p
        }
        _ => dposition,
    };
    let kind_for_extra = kind.clone();
    let mut r = Reader::new(scopes.clone(), format!("options.scales.{id}"), msgs);
    let display = match r.raw("display") {
        Some(Value::String(s)) if s == "auto" => Display::Auto,
        Some(v) => {
            if truthy(v) {
                Display::Yes
            } else {
                Display::No
            }
        }
        None => Display::Yes,
    };
    let grace = match r.raw("grace") {
        Some(Value::String(s)) if s.trim_end().ends_with('%') => Grace::Percent(
            s.trim_end()
                .trim_end_matches('%')
                .trim()
                .parse::<f64>()
                .unwrap_or(0.0)
                / 100.0,
        ),
        Some(v) => Grace::Value({
            let n = to_number(v);
            if n.is_nan() {
                0.0
            } else {
                n
            }
        }),
        None => Grace::Value(0.0),
    };
    let stacked = match r.raw("stacked") {
        None => None,
        Some(Value::String(s)) if s == "single" => Some(Stacked::Single),
        Some(v) => Some(if truthy(v) { Stacked::Yes } else { Stacked::No }),
    };
    let labels = match r.raw("labels") {
        Some(Value::Array(a)) => Some(a.iter().map(Raw::from_json).collect()),
        _ => None,
    };
    let border_color_default = global_color("borderColor");
    let color_default = global_color("color");

    let grid = {
        let mut g = r.child("grid");
        let color = indexable_colors(&mut g, "color", border_color_default);
        let line_width = indexable_nums(&mut g, "lineWidth", 1.0);
        let tick_width = match g.raw("tickWidth") {
            Some(_) => indexable_nums(&mut g, "tickWidth", 1.0),
            None => line_width.clone(),
        };
        let tick_color = match g.raw("tickColor") {
            Some(_) => indexable_colors(&mut g, "tickColor", border_color_default),
            None => color.clone(),
        };
        GridOptions {
            display: g.bool_or("display", true),
            color,
            line_width,
            draw_on_chart_area: g.bool_or("drawOnChartArea", true),
            draw_ticks: g.bool_or("drawTicks", true),
            tick_length: g.num_or("tickLength", 8.0),
            tick_width,
            tick_color,
            tick_border_dash: num_array(g.raw("tickBorderDash")),
            tick_border_dash_offset: g.num_or("tickBorderDashOffset", 0.0),
            offset: g.bool_or("offset", false),
            z: g.num_or("z", -1.0),
            circular: g.bool_or("circular", false),
        }
    };
    let border = {
        let mut b = r.child("border");
        BorderOptions {
            display: b.bool_or("display", true),
            color: b.color("color").unwrap_or(border_color_default),
            width: b.num_or("width", 1.0),
            dash: num_array(b.raw("dash")),
            dash_offset: b.num_or("dashOffset", 0.0),
            z: b.num_or("z", 0.0),
        }
    };
    let title = {
        let mut t = r.child("title");
        let font = to_font(&t.scopes.child("font"), &global_font_scopes());
        ScaleTitleOptions {
            display: t.bool_or("display", false),
            text: text_lines(t.raw("text")),
            align: parse_align(t.raw("align")),
            color: t.color("color").unwrap_or(color_default),
            // getTitleHeight(title, chart.options.font): the chart's font is the fallback.
            fit_font: to_font(
                &t.scopes.child("font"),
                &chart_font.clone().chain(&global_font_scopes()),
            ),
            font,
            padding: padding_from_scopes(&t.scopes, "padding"),
        }
    };
    let ticks = {
        let mut t = r.child("ticks");
        let font = match t.raw("font") {
            Some(Value::Array(a)) if !a.is_empty() => Indexable(
                a.iter()
                    .map(|f| match f.as_object() {
                        Some(o) => to_font(&Scopes::new(vec![o]), &global_font_scopes()),
                        None => to_font(&Scopes::default(), &global_font_scopes()),
                    })
                    .collect(),
            ),
            _ => Indexable::one(to_font(&t.scopes.child("font"), &global_font_scopes())),
        };
        let format = {
            let f = t.scopes.child("format");
            // Intl.NumberFormat options beyond fraction digits, percent and grouping are not
            // reproduced; say so rather than silently formatting differently.
            let style = f.get("style").and_then(Value::as_str);
            if matches!(style, Some(s) if s != "percent" && s != "decimal")
                || f.get("notation")
                    .and_then(Value::as_str)
                    .is_some_and(|n| n != "standard")
                || f.get("currency").is_some()
                || f.get("unit").is_some()
                || f.get("maximumSignificantDigits").is_some()
                || f.get("minimumSignificantDigits").is_some()
            {
                t.messages.push(Message::warn(format!(
                    "{}.format: only minimumFractionDigits, maximumFractionDigits, \
                     useGrouping and style 'percent' are supported; other number format \
                     options are ignored",
                    t.path
                )));
            }
            NumberFormat {
                min_fraction: f
                    .get("minimumFractionDigits")
                    .and_then(Value::as_u64)
                    .map(|v| v as u32),
                max_fraction: f
                    .get("maximumFractionDigits")
                    .and_then(Value::as_u64)
                    .map(|v| v as u32),
                percent: f.get("style").and_then(Value::as_str) == Some("percent"),
                grouping: f.get("useGrouping").map(truthy),
                notation: f.get("notation").and_then(Value::as_str).map(String::from),
            }
        };
        let opt_num = |t: &mut Reader<'_, '_>, k: &str| -> Option<f64> {
            match t.num(k) {
                Some(v) if v.is_finite() => Some(v),
                _ => None,
            }
        };
        TickOptions {
            display: t.bool_or("display", true),
            color: indexable_colors(&mut t, "color", color_default),
            font,
            padding: t.num_or("padding", 3.0),
            min_rotation: t.num_or("minRotation", 0.0),
            max_rotation: t.num_or("maxRotation", 50.0),
            mirror: t.bool_or("mirror", false),
            auto_skip: t.bool_or("autoSkip", true),
            auto_skip_padding: t.num_or("autoSkipPadding", 3.0),
            label_offset: t.num_or("labelOffset", 0.0),
            align: parse_align(t.raw("align")),
            cross_align: match t.raw("crossAlign").and_then(Value::as_str) {
                Some("center") => CrossAlign::Center,
                Some("far") => CrossAlign::Far,
                _ => CrossAlign::Near,
            },
            max_ticks_limit: opt_num(&mut t, "maxTicksLimit"),
            step_size: opt_num(&mut t, "stepSize"),
            count: opt_num(&mut t, "count"),
            precision: opt_num(&mut t, "precision"),
            include_bounds: !matches!(t.raw("includeBounds"), Some(Value::Bool(false))),
            sample_size: opt_num(&mut t, "sampleSize"),
            major_enabled: t.scopes.child("major").get("enabled").is_some_and(truthy),
            text_stroke_color: t.color("textStrokeColor"),
            text_stroke_width: t.num_or("textStrokeWidth", 0.0),
            show_label_backdrop: t.bool_or("showLabelBackdrop", false),
            backdrop_color: t.color("backdropColor").unwrap_or(Rgba {
                r: 255,
                g: 255,
                b: 255,
                a: 191,
            }),
            backdrop_padding: padding_from_scopes(&t.scopes, "backdropPadding"),
            format,
            z: t.num_or("z", 0.0),
        }
    };
    ScaleOptions {
        id: id.to_string(),
        axis,
        kind,
        position,
        display,
        offset: r.bool_or("offset", false),
        reverse: r.bool_or("reverse", false),
        begin_at_zero: r.bool_or("beginAtZero", false),
        bounds_ticks: r.str("bounds") != Some("data"),
        grace,
        min: Raw::from_opt(r.raw("min")),
        max: Raw::from_opt(r.raw("max")),
        suggested_min: Raw::from_opt(r.raw("suggestedMin")),
        suggested_max: Raw::from_opt(r.raw("suggestedMax")),
        stacked,
        weight: r.num_or("weight", 0.0),
        stack: r.str("stack").map(String::from),
        stack_weight: r.num_or("stackWeight", 1.0),
        full_size: r.bool_or("fullSize", false),
        labels,
        background_color: r.color("backgroundColor"),
        align_to_pixels: r.bool_or("alignToPixels", false),
        clip: r.bool_or("clip", true),
        grid,
        border,
        title,
        ticks,
        extra: extra::scale_extra(&kind_for_extra, &scopes, r.messages),
    }
}

/// One element-option lookup: `resolveNamedOptions` with prefixes `[element, '']`, taking
/// `value[index % length]` for arrays (indexable options).
struct ElementLookup<'a> {
    scopes: Scopes<'a>,
    prefix: &'static str,
    index: Option<usize>,
    /// Set when a lookup met an indexable (array) value, so the result depends on `index`.
    indexed: std::cell::Cell<bool>,
}

/// Resolves the options of `n` data elements. Like Chart.js's `_sharedOptions`, elements
/// share one resolution unless an option they read is indexable: resolving every element
/// through the whole scope chain made option lookup the most expensive part of a render.
fn resolve_elements<T: Clone>(
    scopes: &Scopes<'_>,
    prefix: &'static str,
    n: usize,
    resolve: impl Fn(&ElementLookup<'_>) -> T,
) -> Vec<T> {
    let lookup = |i: usize| ElementLookup::new(scopes.clone(), prefix, Some(i));
    let first_lookup = lookup(0);
    let first = resolve(&first_lookup);
    if !first_lookup.indexed.get() {
        return vec![first; n];
    }
    std::iter::once(first)
        .chain((1..n).map(|i| resolve(&lookup(i))))
        .collect()
}

impl<'a> ElementLookup<'a> {
    fn new(scopes: Scopes<'a>, prefix: &'static str, index: Option<usize>) -> Self {
        Self {
            scopes,
            prefix,
            index,
            indexed: std::cell::Cell::new(false),
        }
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        let mut prefixed = String::new();
        if !self.prefix.is_empty() {
            prefixed.push_str(self.prefix);
            let mut cs = name.chars();
            if let Some(c) = cs.next() {
                prefixed.extend(c.to_uppercase());
                prefixed.push_str(cs.as_str());
            }
        }
        let v = (if prefixed.is_empty() {
            None
        } else {
            self.scopes.get(&prefixed)
        })
        .or_else(|| self.scopes.get(name))?;
        match (v, self.index) {
            (Value::Array(a), Some(i)) if !a.is_empty() && name != "borderDash" => {
                self.indexed.set(true);
                Some(&a[i % a.len()])
            }
            (v, _) => Some(v),
        }
    }
    fn num(&self, name: &str, default: f64) -> f64 {
        match self.get(name) {
            Some(v) => {
                let n = to_number(v);
                if n.is_nan() || matches!(v, Value::Null) {
                    default
                } else {
                    n
                }
            }
            None => default,
        }
    }
    fn color(&self, name: &str, default: Rgba) -> Rgba {
        match self.get(name) {
            Some(Value::String(s)) => parse_color(s).unwrap_or(default),
            _ => default,
        }
    }
}

fn point_style(v: Option<&Value>) -> Option<PointStyle> {
    Some(match v? {
        Value::Bool(false) => PointStyle::None,
        Value::String(s) => match s.as_str() {
            "circle" => PointStyle::Circle,
            "cross" => PointStyle::Cross,
            "crossRot" => PointStyle::CrossRot,
            "dash" => PointStyle::Dash,
            "line" => PointStyle::Line,
            "rect" => PointStyle::Rect,
            "rectRounded" => PointStyle::RectRounded,
            "rectRot" => PointStyle::RectRot,
            "star" => PointStyle::Star,
            "triangle" => PointStyle::Triangle,
            _ => PointStyle::Other,
        },
        Value::Null => return None,
        _ => PointStyle::Other,
    })
}

fn resolve_point(l: &ElementLookup<'_>) -> PointOptions {
    PointOptions {
        radius: l.num("radius", 3.0),
        point_style: point_style(l.get("pointStyle")).unwrap_or(PointStyle::Circle),
        rotation: l.num("rotation", 0.0),
        border_width: l.num("borderWidth", 1.0),
        background_color: l.color("backgroundColor", global_color("backgroundColor")),
        border_color: l.color("borderColor", global_color("borderColor")),
        hit_radius: l.num("hitRadius", 1.0),
        hover_radius: l.num("hoverRadius", 4.0),
    }
}

fn resolve_bar(l: &ElementLookup<'_>) -> BarOptions {
    let num = |v: Option<&Value>| {
        v.map(|v| {
            let n = to_number(v);
            if n.is_nan() {
                0.0
            } else {
                n
            }
        })
        .unwrap_or(0.0)
    };
    let border_width = match l.get("borderWidth") {
        Some(Value::Object(m)) => BarBorderWidth::Sides(Sides {
            top: num(m.get("top")),
            right: num(m.get("right")),
            bottom: num(m.get("bottom")),
            left: num(m.get("left")),
        }),
        v => BarBorderWidth::All(num(v)),
    };
    let border_radius = match l.get("borderRadius") {
        Some(Value::Object(m)) => BarRadius::Corners {
            top_left: num(m.get("topLeft")),
            top_right: num(m.get("topRight")),
            bottom_left: num(m.get("bottomLeft")),
            bottom_right: num(m.get("bottomRight")),
        },
        v => BarRadius::All(num(v)),
    };
    let border_skipped = match l.get("borderSkipped") {
        Some(Value::Bool(true)) => BorderSkipped::All,
        Some(Value::String(s)) => match s.as_str() {
            "start" => BorderSkipped::Start,
            "end" => BorderSkipped::End,
            "middle" => BorderSkipped::Middle,
            "bottom" => BorderSkipped::Bottom,
            "left" => BorderSkipped::Left,
            "top" => BorderSkipped::Top,
            "right" => BorderSkipped::Right,
            "" => BorderSkipped::None,
            _ => BorderSkipped::Start,
        },
        Some(v) if !truthy(v) => BorderSkipped::None,
        _ => BorderSkipped::Start,
    };
    BarOptions {
        background_color: l.color("backgroundColor", global_color("backgroundColor")),
        border_color: l.color("borderColor", global_color("borderColor")),
        border_width,
        border_radius,
        border_skipped,
        inflate_amount: match l.get("inflateAmount") {
            Some(Value::Number(n)) => n.as_f64(),
            _ => None,
        },
        point_style: point_style(l.get("pointStyle")),
        rotation: l.num("rotation", 0.0),
    }
}

fn decode_fill(v: Option<&Value>, index: usize, count: usize) -> Fill {
    // Mirrors `_decodeFill` / `decodeTargetIndex` in plugin.filler.
    let Some(v) = v else { return Fill::None };
    match v {
        Value::Object(m) => match m.get("value").map(to_number) {
            Some(n) if n.is_finite() => Fill::Value(n),
            _ => decode_fill(m.get("target"), index, count),
        },
        Value::Number(n) => {
            let t = n.as_f64().unwrap_or(f64::NAN);
            if t.fract() == 0.0 && t >= 0.0 && (t as usize) < count && t as usize != index {
                Fill::Dataset(t as usize)
            } else {
                Fill::None
            }
        }
        Value::Bool(true) => Fill::Origin,
        Value::String(s) => {
            let first = s.chars().next();
            if matches!(first, Some('-') | Some('+')) {
                let t = s.parse::<f64>().unwrap_or(f64::NAN);
                let target = index as f64 + t;
                if t.is_finite()
                    && target != index as f64
                    && target >= 0.0
                    && (target as usize) < count
                    && target.fract() == 0.0
                {
                    return Fill::Dataset(target as usize);
                }
                return Fill::None;
            }
            match s.as_str() {
                "origin" => Fill::Origin,
                "start" => Fill::Start,
                "end" => Fill::End,
                "stack" => Fill::Stack,
                "shape" => Fill::Shape,
                "false" | "" => Fill::None,
                _ => match s.parse::<f64>() {
                    Ok(t)
                        if t.fract() == 0.0
                            && t >= 0.0
                            && (t as usize) < count
                            && t as usize != index =>
                    {
                        Fill::Dataset(t as usize)
                    }
                    _ => Fill::None,
                },
            }
        }
        _ => Fill::None,
    }
}

fn resolve_line(l: &ElementLookup<'_>, index: usize, count: usize) -> LineOptions {
    let background_color = l.color("backgroundColor", global_color("backgroundColor"));
    let fill_v = l.get("fill");
    let (above, below) = match fill_v {
        Some(Value::Object(m)) => (
            m.get("above").and_then(Value::as_str).and_then(parse_color),
            m.get("below").and_then(Value::as_str).and_then(parse_color),
        ),
        _ => (None, None),
    };
    let span_gaps = match l.get("spanGaps") {
        Some(Value::Number(n)) => n.as_f64(),
        Some(v) if truthy(v) => Some(f64::INFINITY),
        _ => None,
    };
    LineOptions {
        background_color,
        border_color: l.color("borderColor", global_color("borderColor")),
        border_width: l.num("borderWidth", 3.0),
        border_dash: num_array(l.get("borderDash")),
        border_dash_offset: l.num("borderDashOffset", 0.0),
        cap: match l.get("borderCapStyle").and_then(Value::as_str) {
            Some("round") => CapStyle::Round,
            Some("square") => CapStyle::Square,
            _ => CapStyle::Butt,
        },
        join: match l.get("borderJoinStyle").and_then(Value::as_str) {
            Some("round") => JoinStyle::Round,
            Some("bevel") => JoinStyle::Bevel,
            _ => JoinStyle::Miter,
        },
        tension: l.num("tension", 0.0),
        monotone: l.get("cubicInterpolationMode").and_then(Value::as_str) == Some("monotone"),
        cap_bezier_points: l.get("capBezierPoints").map(truthy).unwrap_or(true),
        stepped: match l.get("stepped") {
            Some(Value::String(s)) if s == "after" => Stepped::After,
            Some(Value::String(s)) if s == "middle" => Stepped::Middle,
            Some(v) if truthy(v) => Stepped::Before,
            _ => Stepped::No,
        },
        span_gaps,
        fill: FillSpec {
            target: decode_fill(fill_v, index, count),
            above,
            below,
        },
    }
}

fn read_datum(v: &Value, xk: &str, yk: &str, rk: &str) -> Datum {
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

/// `resolveObjectKey`: dotted paths into nested objects.
fn resolve_object_key(m: &Obj, key: &str) -> Raw {
    if let Some(v) = m.get(key) {
        return Raw::from_json(v);
    }
    let mut cur: &Value = match m.get(key.split('.').next().unwrap_or(key)) {
        Some(v) => v,
        None => return Raw::Undefined,
    };
    for part in key.split('.').skip(1) {
        match cur.get(part) {
            Some(v) => cur = v,
            None => return Raw::Undefined,
        }
    }
    Raw::from_json(cur)
}

fn resolve_dataset(
    ctx: &Ctx<'_>,
    index: usize,
    ds: &Obj,
    count: usize,
    msgs: &mut Vec<Message>,
) -> Dataset {
    let kind = ds
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or(&ctx.kind)
        .to_string();
    let index_axis = match ds.get("indexAxis").and_then(Value::as_str) {
        Some("y") => Axis::Y,
        Some("x") => Axis::X,
        _ => ctx.index_axis(&kind),
    };
    let ds_keys = vec![format!("datasets.{kind}"), String::new()];
    let ds_scopes = ctx.dataset_scopes(ds, &ds_keys);
    // The dataset-defaults table is a scope too (`defaults.datasets[type]`).
    let mut ds_scopes = ds_scopes;
    if let Some(d) = defaults::dataset_type(&kind) {
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
        Some(Value::Array(a)) => a.iter().map(|v| read_datum(v, &xk, &yk, &rk)).collect(),
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

    let label = ds.get("label").map(|v| Raw::from_json(v).to_js_string());
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
    let bar = if kind == "bar" {
        Some(BarDatasetOptions {
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
        })
    } else {
        None
    };

    let element_scopes = |el: &str| {
        let keys = vec![
            format!("datasets.{kind}.elements.{el}"),
            format!("datasets.{kind}"),
            format!("elements.{el}"),
            String::new(),
        ];
        let mut s = ctx.dataset_scopes(ds, &keys);
        // Chart.js registers controller defaults under `defaults.datasets[type]`, which the
        // `datasets.<type>` key of the defaults root already reached; elements likewise.
        if let Some(d) = defaults::dataset_type(&kind) {
            s.push(d);
        }
        s
    };
    let data_element = defaults::dataset_type(&kind)
        .and_then(|d| d.get("dataElementType"))
        .and_then(Value::as_str)
        .unwrap_or("point");
    let n = data.len().max(1);
    let elements = if data_element == "arc" {
        Elements::Arc(extra::resolve_arcs(&element_scopes("arc"), data.len()))
    } else if data_element == "bar" {
        Elements::Bar(resolve_elements(
            &element_scopes("bar"),
            "bar",
            n,
            resolve_bar,
        ))
    } else {
        Elements::Point(resolve_elements(
            &element_scopes("point"),
            "point",
            n,
            resolve_point,
        ))
    };
    let has_line = defaults::dataset_type(&kind)
        .and_then(|d| d.get("datasetElementType"))
        .and_then(Value::as_str)
        == Some("line")
        || (kind == "scatter");
    let line = if has_line {
        let mut lo = resolve_line(
            &ElementLookup::new(element_scopes("line"), "line", None),
            index,
            count,
        );
        // LineController.update: `if (!this.options.showLine) options.borderWidth = 0`.
        if !show_line && kind != "scatter" {
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
        Some(lo)
    } else {
        None
    };
    let _ = &mut r;
    let arc = matches!(kind.as_str(), "doughnut" | "pie")
        .then(|| extra::arc_dataset(&ds_scopes, ds, kind == "pie"));
    let plugin = crate::charts_model::resolve(
        &kind,
        ds,
        &element_scopes(crate::charts_model::element_type(&kind)),
        &ctx.chart_scopes().child("font"),
        data.len(),
    );
    Dataset {
        index,
        kind,
        label,
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
        bar,
        line,
        elements,
        arc,
        plugin,
    }
}

fn resolve_title(ctx: &Ctx<'_>, id: &str, msgs: &mut Vec<Message>) -> TitleOptions {
    let scopes = ctx.plugin_scopes(id);
    let mut r = Reader::new(scopes.clone(), format!("options.plugins.{id}"), msgs);
    let font = to_font(&scopes.child("font"), &global_font_scopes());
    TitleOptions {
        display: r.bool_or("display", false),
        text: text_lines(r.raw("text")),
        align: parse_align(r.raw("align")),
        position: parse_position(r.raw("position")).unwrap_or(Position::Top),
        // defaultRoutes: color → Chart.defaults.color.
        color: r.color("color").unwrap_or_else(|| global_color("color")),
        font,
        padding: padding_from_scopes(&scopes, "padding"),
        full_size: r.bool_or("fullSize", true),
        weight: r.num_or("weight", if id == "title" { 2000.0 } else { 1500.0 }),
    }
}

fn resolve_legend(ctx: &Ctx<'_>, chart_color: Rgba, msgs: &mut Vec<Message>) -> LegendOptions {
    let scopes = ctx.plugin_scopes("legend");
    let mut r = Reader::new(scopes.clone(), "options.plugins.legend", msgs);
    let labels = {
        let mut l = r.child("labels");
        let font = to_font(&l.scopes.child("font"), &global_font_scopes());
        LegendLabelOptions {
            box_width: l.num_or("boxWidth", 40.0),
            box_height: l.num("boxHeight"),
            color: l.color("color").unwrap_or(chart_color),
            font,
            padding: l.num_or("padding", 10.0),
            point_style: point_style(l.raw("pointStyle")),
            point_style_width: l.num("pointStyleWidth"),
            use_point_style: l.bool_or("usePointStyle", false),
            use_border_radius: l.bool_or("useBorderRadius", false),
            border_radius: l.num("borderRadius"),
            text_align: l.raw("textAlign").and_then(Value::as_str).map(|s| match s {
                "center" => Align::Center,
                "right" | "end" => Align::End,
                _ => Align::Start,
            }),
        }
    };
    let title = {
        let mut t = r.child("title");
        let font = to_font(&t.scopes.child("font"), &global_font_scopes());
        LegendTitleOptions {
            display: t.bool_or("display", false),
            text: t
                .raw("text")
                .map(|v| Raw::from_json(v).to_js_string())
                .unwrap_or_default(),
            color: t.color("color").unwrap_or(chart_color),
            font,
            padding: padding_from_scopes(&t.scopes, "padding"),
            position: parse_align(t.raw("position")),
        }
    };
    let position = match r.raw("position") {
        Some(Value::String(s)) if s == "chartArea" => Position::ChartArea,
        v => parse_position(v).unwrap_or(Position::Top),
    };
    LegendOptions {
        display: r.bool_or("display", true),
        position,
        align: parse_align(r.raw("align")),
        full_size: r.bool_or("fullSize", true),
        reverse: r.bool_or("reverse", false),
        weight: r.num_or("weight", 1000.0),
        max_width: r.num("maxWidth"),
        max_height: r.num("maxHeight"),
        rtl: r.bool_or("rtl", false),
        labels,
        title,
    }
}

/// Shorthand for tests and engines: the padding of a raw value.
pub fn padding_of(v: &Value) -> Padding {
    to_padding(Some(v))
}

/// A default font (Chart.js `defaults.font`).
pub fn default_font() -> Font {
    to_font(&Scopes::default(), &global_font_scopes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn chart(v: Value) -> Chart {
        resolve_chart(v.as_object().unwrap()).unwrap().0
    }

    #[test]
    fn unknown_type_is_an_error() {
        let e = resolve_chart(json!({"type": "nope"}).as_object().unwrap()).unwrap_err();
        assert_eq!(e[0].message, "\"nope\" is not a registered controller.");
    }

    #[test]
    fn bar_scales_come_from_overrides() {
        let c =
            chart(json!({"type": "bar", "data": {"labels": ["a"], "datasets": [{"data": [1]}]}}));
        assert_eq!(c.scales.len(), 2);
        let x = &c.scales[0];
        assert_eq!(
            (x.id.as_str(), x.kind.as_str(), x.offset),
            ("x", "category", true)
        );
        assert!(x.grid.offset);
        let y = &c.scales[1];
        assert_eq!((y.kind.as_str(), y.begin_at_zero), ("linear", true));
        assert_eq!(y.position, Position::Left);
    }

    #[test]
    fn horizontal_bar_swaps_axes() {
        let c = chart(json!({"type": "bar", "options": {"indexAxis": "y"},
            "data": {"datasets": [{"data": [1]}]}}));
        let y = c.scales.iter().find(|s| s.id == "y").unwrap();
        assert_eq!(y.kind, "category");
        let x = c.scales.iter().find(|s| s.id == "x").unwrap();
        assert!(x.begin_at_zero);
    }

    #[test]
    fn element_options_chain_and_indexable() {
        let c = chart(json!({"type": "line",
            "data": {"datasets": [{"data": [1, 2, 3], "pointBackgroundColor": ["#ff0000", "#00ff00"],
                "borderColor": "#0000ff"}]},
            "options": {"elements": {"point": {"radius": 7}}}}));
        let Elements::Point(p) = &c.datasets[0].elements else {
            panic!()
        };
        assert_eq!(p[0].background_color, Rgba::rgb(255, 0, 0));
        assert_eq!(p[2].background_color, Rgba::rgb(255, 0, 0));
        assert_eq!(p[1].background_color, Rgba::rgb(0, 255, 0));
        assert_eq!(p[1].radius, 7.0);
        assert_eq!(p[0].border_color, Rgba::rgb(0, 0, 255));
        assert_eq!(c.datasets[0].line.as_ref().unwrap().border_width, 3.0);
    }

    #[test]
    fn colors_plugin_fills_palette() {
        let c = chart(json!({"type": "bar", "data": {"datasets": [{"data": [1]}, {"data": [2]}]}}));
        let Elements::Bar(b) = &c.datasets[1].elements else {
            panic!()
        };
        assert_eq!(b[0].border_color, Rgba::rgb(255, 99, 132));
        assert_eq!(b[0].background_color.a, 128);
    }

    #[test]
    fn garbage_does_not_panic() {
        for v in [
            json!({"type": "line", "data": 5}),
            json!({"type": "bar", "data": {"datasets": [5, {"data": "x"}]},
            "options": {"scales": {"x": 3, "y": {"ticks": {"font": {"size": "big"}}}}}}),
        ] {
            let _ = resolve_chart(v.as_object().unwrap());
        }
    }
}
