//! Resolution of the options in [`crate::model_extra`]: arc elements, doughnut datasets, the
//! time and radial scales' own options and the decimation plugin. A child module of
//! [`crate::resolve`], whose scope-chain helpers it uses.

use super::*;
use crate::model_extra::*;
use crate::time::{parse_fixed_offset, DateAdapter, TimeUnit, TokenStyle};

/// `+value` (JavaScript) of a doughnut data entry; `None` for NaN.
fn plus(v: &Value) -> Option<f64> {
    let n = to_number(v);
    (!n.is_nan()).then_some(n)
}

/// Arc element options of every data index (`resolveDataElementOptions` with the `arc`
/// element's option names).
pub(super) fn resolve_arcs(scopes: &Scopes<'_>, n: usize) -> Vec<ArcOptions> {
    super::resolve_elements(scopes, "arc", n.max(1), |l| {
        let radius = match l.get("borderRadius") {
            Some(Value::Object(m)) => {
                let g = |k: &str| {
                    m.get(k)
                        .map(to_number)
                        .filter(|v| !v.is_nan())
                        .unwrap_or(0.0)
                };
                [
                    g("outerStart"),
                    g("outerEnd"),
                    g("innerStart"),
                    g("innerEnd"),
                ]
            }
            Some(v) => {
                let r = to_number(v);
                [if r.is_nan() { 0.0 } else { r }; 4]
            }
            None => [0.0; 4],
        };
        ArcOptions {
            background_color: l.color("backgroundColor", global_color("backgroundColor")),
            border_color: l.color("borderColor", Rgba::WHITE),
            border_width: l.num("borderWidth", 2.0),
            border_align_inner: l.get("borderAlign").and_then(Value::as_str) == Some("inner"),
            border_join: match l.get("borderJoinStyle").and_then(Value::as_str) {
                Some("round") => Some(ArcJoin::Round),
                Some("bevel") => Some(ArcJoin::Bevel),
                Some("miter") => Some(ArcJoin::Miter),
                _ => None,
            },
            border_dash: num_array(l.get("borderDash")),
            border_dash_offset: l.num("borderDashOffset", 0.0),
            border_radius: radius,
            offset: l.num("offset", 0.0),
            // `spacing` is not indexable (DoughnutController descriptors).
            spacing: {
                let s = ElementLookup::new(scopes.clone(), "arc", None);
                let v = s.num("spacing", 0.0);
                if v.is_finite() {
                    v
                } else {
                    0.0
                }
            },
            spacing_mode: match ElementLookup::new(scopes.clone(), "arc", None)
                .get("spacingMode")
                .and_then(Value::as_str)
            {
                Some("proportional") => SpacingMode::Proportional,
                Some("parallel") => SpacingMode::Parallel,
                _ => SpacingMode::Angular,
            },
            angle: l.get("angle").map(to_number).filter(|v| v.is_finite()),
            circular: !matches!(l.get("circular"), Some(Value::Bool(false))),
            self_join: l.get("selfJoin").is_some_and(truthy),
        }
    })
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

/// The doughnut controller's own options (`this.options`) and its parsed values.
pub(super) fn arc_dataset(scopes: &Scopes<'_>, ds: &Obj, pie: bool) -> ArcDatasetOptions {
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
            a.iter()
                .map(|v| match v {
                    Value::Object(m) if objects && !matches!(parsing, Some(Value::Bool(false))) => {
                        match resolve_object_key(m, key) {
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

fn unit(v: Option<&Value>) -> Option<TimeUnit> {
    v.and_then(Value::as_str).and_then(TimeUnit::from_name)
}

/// Options of `time`/`timeseries` scales.
fn time_options(scopes: &Scopes<'_>) -> TimeScaleOptions {
    let time = scopes.child("time");
    let formats_scopes = time.child("displayFormats");
    let adapter_opts = scopes.child("adapters").child("date");
    let parser = time.get("parser").and_then(Value::as_str).map(String::from);
    let tooltip = time
        .get("tooltipFormat")
        .and_then(Value::as_str)
        .map(String::from);
    // Every displayFormats key set anywhere in the chain, first scope winning.
    let mut user_formats: Vec<(String, String)> = Vec::new();
    for key in [
        "datetime",
        "millisecond",
        "second",
        "minute",
        "hour",
        "day",
        "week",
        "month",
        "quarter",
        "year",
    ] {
        if let Some(Value::String(f)) = formats_scopes.get(key) {
            user_formats.push((key.to_string(), f.clone()));
        }
    }
    let style = adapter_opts
        .get("tokens")
        .and_then(Value::as_str)
        .and_then(TokenStyle::from_name)
        .or_else(|| {
            TokenStyle::detect(
                parser
                    .iter()
                    .chain(tooltip.iter())
                    .map(String::as_str)
                    .chain(user_formats.iter().map(|(_, f)| f.as_str())),
            )
        })
        .unwrap_or_default();
    let offset = ["zone", "timeZone"]
        .iter()
        .find_map(|k| adapter_opts.get(k).and_then(Value::as_str))
        .and_then(parse_fixed_offset)
        .unwrap_or(0);
    let adapter = DateAdapter::new(style).with_offset(offset);
    let mut display_formats = adapter.formats();
    for (k, f) in &user_formats {
        display_formats.set(k, f);
    }
    let iso_weekday = match time.get("isoWeekday") {
        Some(Value::Bool(true)) => Some(1.0),
        Some(Value::Number(n)) => n.as_f64(),
        _ => None,
    };
    TimeScaleOptions {
        adapter,
        parser,
        unit: unit(time.get("unit")),
        min_unit: unit(time.get("minUnit")).unwrap_or(TimeUnit::Millisecond),
        round: unit(time.get("round")),
        iso_weekday,
        display_formats,
        tooltip_format: tooltip,
        source: match scopes.child("ticks").get("source").and_then(Value::as_str) {
            Some("data") => TimeSource::Data,
            Some("labels") => TimeSource::Labels,
            _ => TimeSource::Auto,
        },
    }
}

fn indexable_fonts(s: &Scopes<'_>) -> Indexable<Font> {
    match s.get("font") {
        Some(Value::Array(a)) if !a.is_empty() => Indexable(
            a.iter()
                .map(|f| match f.as_object() {
                    Some(o) => to_font(&Scopes::new(vec![o]), &global_font_scopes()),
                    None => to_font(&Scopes::default(), &global_font_scopes()),
                })
                .collect(),
        ),
        _ => Indexable::one(to_font(&s.child("font"), &global_font_scopes())),
    }
}

/// Options of the `radialLinear` scale.
fn radial_options(scopes: &Scopes<'_>, msgs: &mut Vec<Message>) -> RadialScaleOptions {
    let mut r = Reader::new(scopes.clone(), "options.scales.r", msgs);
    let start_angle = r.num_or("startAngle", 0.0);
    // angleLines falls back to grid (`descriptors.angleLines._fallback`).
    let angle_lines = {
        let al = scopes.child("angleLines").chain(&scopes.child("grid"));
        let mut a = Reader::new(al, "options.scales.r.angleLines", r.messages);
        AngleLineOptions {
            display: a.bool_or("display", true),
            color: indexable_colors(&mut a, "color", global_color("borderColor")),
            line_width: indexable_nums(&mut a, "lineWidth", 1.0),
            border_dash: num_array(a.raw("borderDash")),
            border_dash_offset: a.num_or("borderDashOffset", 0.0),
        }
    };
    let point_labels = {
        let pl = scopes.child("pointLabels");
        let mut p = Reader::new(pl.clone(), "options.scales.r.pointLabels", r.messages);
        let display = match p.raw("display") {
            Some(Value::String(s)) if s == "auto" => None,
            Some(v) => Some(truthy(v)),
            None => Some(true),
        };
        let border_radius = match p.raw("borderRadius") {
            Some(Value::Object(m)) => {
                let g = |k: &str| {
                    m.get(k)
                        .map(to_number)
                        .filter(|v| !v.is_nan())
                        .unwrap_or(0.0)
                };
                [
                    g("topLeft"),
                    g("topRight"),
                    g("bottomLeft"),
                    g("bottomRight"),
                ]
            }
            Some(v) => [to_number(v); 4].map(|x| if x.is_nan() { 0.0 } else { x }),
            None => [0.0; 4],
        };
        PointLabelOptions {
            display,
            font: indexable_fonts(&pl),
            color: indexable_colors(&mut p, "color", global_color("color")),
            padding: indexable_nums(&mut p, "padding", 5.0),
            backdrop_color: p.color("backdropColor"),
            backdrop_padding: padding_from_scopes(&pl, "backdropPadding"),
            border_radius,
            center: p.bool_or("centerPointLabels", false),
        }
    };
    RadialScaleOptions {
        start_angle,
        angle_lines,
        point_labels,
    }
}

/// The type-specific options of a scale.
pub(super) fn scale_extra(kind: &str, scopes: &Scopes<'_>, msgs: &mut Vec<Message>) -> ScaleExtra {
    match kind {
        "time" | "timeseries" => ScaleExtra {
            time: Some(time_options(scopes)),
            radial: None,
        },
        "radialLinear" => ScaleExtra {
            time: None,
            radial: Some(radial_options(scopes, msgs)),
        },
        _ => ScaleExtra::default(),
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
    let num = |k: &str| {
        d.get(k)
            .map(to_number)
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    DecimationOptions {
        enabled: d.get("enabled").is_some_and(truthy),
        lttb: d.get("algorithm").and_then(Value::as_str) == Some("lttb"),
        samples: num("samples"),
        threshold: num("threshold"),
    }
}
