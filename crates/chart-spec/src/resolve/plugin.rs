//! Options of the core plugins: colors (which rewrites dataset colours before resolution),
//! title and subtitle, legend, and decimation.

use super::element::point_style;
use super::lookup::{
    global_color, global_font_scopes, parse_align, text_lines, Ctx, DatasetType, Obj,
};
use super::scale::parse_position;
use crate::color::Rgba;
use crate::message::Message;
use crate::model::{
    Align, ChartKind, DecimationAlgorithm, DecimationOptions, LegendLabelOptions, LegendOptions,
    LegendTitleOptions, Position, Raw, TextDirection, TitleOptions,
};
use crate::scopes::{to_number, truthy, Reader};
use crate::values::{padding_from_scopes, to_font};
use serde_json::Value;

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
pub(super) fn apply_colors_plugin(
    kinds: &[DatasetType],
    options: &Obj,
    opts: Option<&Obj>,
    datasets: &[&Obj],
    written: &mut [Obj],
) {
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
    let contains = datasets.iter().any(|d| has(d)) || has(options) || elements_have;
    if !force && contains {
        return;
    }
    let mut i = 0usize;
    for ((ds, w), dk) in datasets.iter().zip(written.iter_mut()).zip(kinds) {
        let t = dk.kind;
        let n = match ds.get("data") {
            Some(Value::Array(a)) => a.len(),
            _ => 0,
        };
        match t {
            ChartKind::Doughnut | ChartKind::Pie => {
                let v: Vec<Value> = (0..n)
                    .map(|k| css(BORDER_COLORS[(i + k) % 7], 1.0))
                    .collect();
                i += n;
                w.insert("backgroundColor".into(), Value::Array(v));
            }
            ChartKind::PolarArea => {
                let v: Vec<Value> = (0..n)
                    .map(|k| css(BORDER_COLORS[(i + k) % 7], 0.5))
                    .collect();
                i += n;
                w.insert("backgroundColor".into(), Value::Array(v));
            }
            _ => {
                w.insert("borderColor".into(), css(BORDER_COLORS[i % 7], 1.0));
                w.insert("backgroundColor".into(), css(BORDER_COLORS[i % 7], 0.5));
                i += 1;
            }
        }
    }
}

pub(super) fn resolve_title(ctx: &Ctx<'_>, id: &str, msgs: &mut Vec<Message>) -> TitleOptions {
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

pub(super) fn resolve_legend(
    ctx: &Ctx<'_>,
    chart_color: Rgba,
    msgs: &mut Vec<Message>,
) -> LegendOptions {
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
        // `overrideTextDirection` acts on these two strings only.
        text_direction: match r.raw("textDirection") {
            Some(Value::String(s)) if s == "ltr" => Some(TextDirection::Ltr),
            Some(Value::String(s)) if s == "rtl" => Some(TextDirection::Rtl),
            _ => None,
        },
        labels,
        title,
    }
}

/// `options.plugins.decimation`.
pub(super) fn decimation(options: &Obj) -> DecimationOptions {
    let Some(Value::Object(p)) = options.get("plugins") else {
        return DecimationOptions::default();
    };
    let Some(Value::Object(d)) = p.get("decimation") else {
        return DecimationOptions::default();
    };
    // A positive finite number, truncated to a count (a saturating cast: huge values read
    // as usize::MAX, never as an overflow).
    let count = |k: &str| {
        d.get(k)
            .map(to_number)
            .filter(|v| v.is_finite() && *v > 0.0)
            .map(|v| v as usize)
    };
    DecimationOptions {
        enabled: d.get("enabled").is_some_and(truthy),
        algorithm: if d.get("algorithm").and_then(Value::as_str) == Some("lttb") {
            DecimationAlgorithm::Lttb
        } else {
            DecimationAlgorithm::MinMax
        },
        samples: count("samples"),
        threshold: count("threshold"),
    }
}
