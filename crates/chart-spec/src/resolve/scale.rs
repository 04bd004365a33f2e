//! `options.scales` → [`ScaleOptions`]: the merged scale configs (`mergeScaleConfig`, axis
//! determination) and each scale's options, with the time and radial linear scales' own.

use super::lookup::{
    global_color, global_font_scopes, indexable_colors, indexable_nums, num_array, parse_align,
    text_lines, Ctx, DatasetType, Obj,
};
use crate::color::Rgba;
use crate::defaults;
use crate::intl::SignDisplay;
use crate::message::Message;
use crate::model::{
    AngleLineOptions, Axis, BorderOptions, CrossAlign, Display, Grace, GridOptions, NumberFormat,
    PointLabelOptions, Position, RadialScaleOptions, Raw, ScaleKind, ScaleOptions,
    ScaleTitleOptions, ScaleTypeOptions, Stacked, TickOptions, TimeScaleOptions, TimeSource,
};
use crate::scopes::{to_number, truthy, Reader, Scopes};
use crate::time::{parse_fixed_offset, DateAdapter, TimeUnit, TokenStyle};
use crate::values::{corners_of, padding_from_scopes, to_font, Corners, Font, Indexable};
use serde_json::Value;

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

pub(super) fn parse_position(v: Option<&Value>) -> Option<Position> {
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
pub(super) fn resolve_scales(
    ctx: &Ctx<'_>,
    datasets: &[&Obj],
    kinds: &[DatasetType],
    msgs: &mut Vec<Message>,
) -> Result<Vec<ScaleOptions>, Vec<Message>> {
    let empty = Obj::new();
    let config_scales: &Obj = match ctx.options.get("scales") {
        Some(Value::Object(s)) => s,
        _ => &empty,
    };
    let chart_index_axis = ctx.index_axis(ctx.kind);
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
            .and_then(ScaleKind::from_name)
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
    for (ds, dk) in datasets.iter().zip(kinds) {
        let index_axis = dk.index_axis;
        let Some(ds_defaults) = defaults::overrides(dk.kind)
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
            // `getAxisFromDefaultScaleID` keeps any other id as the "axis" (chartjs-chart-geo's
            // `projection`, `color`, `size`): the scale is `dataset[id + 'AxisID'] || id`.
            let named = axis_from_str(default_id).is_none()
                && !matches!(default_id.as_str(), "_index_" | "_value_");
            let key = if named {
                default_id.as_str()
            } else {
                axis.as_str()
            };
            let id = ds
                .get(&format!("{key}AxisID"))
                .and_then(Value::as_str)
                .unwrap_or(key)
                .to_string();
            let Some(d) = dflt.as_object() else { continue };
            let axis = if named {
                let conf = config_scales.get(&id).and_then(Value::as_object);
                determine_axis(&id, &[conf, Some(d)]).unwrap_or(axis)
            } else {
                axis
            };
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
            Some(Value::String(s)) => ScaleKind::from_name(s).ok_or(s),
            _ => Ok(match axis {
                Axis::X => ScaleKind::Category,
                Axis::Y => ScaleKind::Linear,
                Axis::R => ScaleKind::RadialLinear,
            }),
        };
        let kind = match kind {
            Ok(k) => k,
            Err(name) => {
                msgs.push(Message::error(format!(
                    "\"{name}\" is not a registered scale."
                )));
                return Err(std::mem::take(msgs));
            }
        };
        if let Some(t) = defaults::scale_type(kind) {
            scopes.push(t);
        }
        if let Some(s) = ctx.global.get("scale").and_then(Value::as_object) {
            scopes.push(s);
        }
        out.push(resolve_scale(&id, axis, kind, scopes, &chart_font, msgs));
    }
    Ok(out)
}

fn resolve_scale(
    id: &str,
    axis: Axis,
    kind: ScaleKind,
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
        let font = scale_font(&t.scopes, chart_font);
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
        let fonts = match t.raw("font") {
            Some(Value::Array(a)) => a.iter().map(font_entry).collect(),
            _ => Vec::new(),
        };
        let font = Indexable::from_values(fonts)
            .unwrap_or_else(|| Indexable::one(scale_font(&t.scopes, chart_font)));
        let format = {
            let f = t.scopes.child("format");
            // Intl.NumberFormat options beyond these are not reproduced; say so rather than
            // silently formatting differently.
            let style = f.get("style").and_then(Value::as_str);
            let notation = f.get("notation").and_then(Value::as_str);
            let currency = f
                .get("currency")
                .and_then(Value::as_str)
                .filter(|_| style == Some("currency"));
            let compact = notation == Some("compact") && matches!(style, None | Some("decimal"));
            let sign_display = match f.get("signDisplay").and_then(Value::as_str) {
                None | Some("auto") => Some(SignDisplay::Auto),
                Some("always") => Some(SignDisplay::Always),
                Some("exceptZero") => Some(SignDisplay::ExceptZero),
                Some("negative") => Some(SignDisplay::Negative),
                Some("never") => Some(SignDisplay::Never),
                Some(_) => None,
            };
            let significant = f.get("maximumSignificantDigits").is_some()
                || f.get("minimumSignificantDigits").is_some();
            let symbol = matches!(
                f.get("currencyDisplay").and_then(Value::as_str),
                None | Some("symbol")
            );
            if matches!(style, Some(s) if s != "percent" && s != "decimal" && s != "currency")
                || (style == Some("currency") && (currency.is_none() || !symbol))
                || notation.is_some_and(|n| n != "standard" && !compact)
                || f.get("unit").is_some()
                || f.get("roundingPriority").is_some()
                || ((significant || sign_display != Some(SignDisplay::Auto)) && !compact)
            {
                t.messages.push(Message::warn(format!(
                    "{}.format: only minimumFractionDigits, maximumFractionDigits, \
                     useGrouping, style 'percent', style 'currency' (with a currency shown \
                     by its symbol) and notation 'compact' (with compactDisplay, \
                     signDisplay and significant digits) are supported; \
                     other number format options are ignored",
                    t.path
                )));
            }
            let digits = |key: &str| f.get(key).map(crate::scopes::intl_digits);
            NumberFormat {
                min_fraction: digits("minimumFractionDigits"),
                max_fraction: digits("maximumFractionDigits"),
                percent: style == Some("percent"),
                currency: currency.map(String::from),
                grouping: f.get("useGrouping").map(truthy),
                notation: notation.map(String::from),
                compact_long: f.get("compactDisplay").and_then(Value::as_str) == Some("long"),
                min_significant: digits("minimumSignificantDigits"),
                max_significant: digits("maximumSignificantDigits"),
                sign_display: sign_display.filter(|_| compact).unwrap_or_default(),
                // Set from `options.locale` once the chart's options are read.
                locale: String::new(),
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
        kind: type_options(kind, &scopes, chart_font, r.messages),
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

fn indexable_fonts(s: &Scopes<'_>, chart_font: &Scopes<'_>) -> Indexable<Font> {
    let fonts = match s.get("font") {
        Some(Value::Array(a)) => a.iter().map(font_entry).collect(),
        _ => Vec::new(),
    };
    Indexable::from_values(fonts).unwrap_or_else(|| Indexable::one(scale_font(s, chart_font)))
}

/// The `font` of a scale's `ticks`, `pointLabels` or `title`, as Chart.js 4.5.1 resolves
/// it. When the first scope defining `font` defines an object (the user's, or a scale
/// default such as radialLinear's `pointLabels.font: {size: 10}`), the option resolver
/// makes it a sub-resolver (`createSubResolver`) over the `font` of every scope, the
/// chart's root scopes included: the root `options.font` then fills what the scale's
/// objects leave unset (its family above all) before `Chart.defaults.font` does. With no
/// such object the scale calls `toFont(undefined)`, which reads `Chart.defaults.font` alone,
/// so a root font never reaches default tick labels.
fn scale_font(parent: &Scopes<'_>, chart_font: &Scopes<'_>) -> Font {
    let fallback = match parent.get("font") {
        Some(Value::Object(_)) => chart_font.clone().chain(&global_font_scopes()),
        _ => global_font_scopes(),
    };
    to_font(&parent.child("font"), &fallback)
}

/// One entry of a `font` array: an object read over the global font, anything else the global
/// font itself.
fn font_entry(f: &Value) -> Font {
    match f.as_object() {
        Some(o) => to_font(&Scopes::new(vec![o]), &global_font_scopes()),
        None => to_font(&Scopes::default(), &global_font_scopes()),
    }
}

/// Options of the `radialLinear` scale.
fn radial_options(
    scopes: &Scopes<'_>,
    chart_font: &Scopes<'_>,
    msgs: &mut Vec<Message>,
) -> RadialScaleOptions {
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
            Some(Value::Object(m)) => corners_of(m),
            Some(v) => Corners::all(Some(to_number(v)).filter(|x| !x.is_nan()).unwrap_or(0.0)),
            None => Corners::default(),
        };
        PointLabelOptions {
            display,
            font: indexable_fonts(&pl, chart_font),
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

/// The scale's type with its type-specific options.
fn type_options(
    kind: ScaleKind,
    scopes: &Scopes<'_>,
    chart_font: &Scopes<'_>,
    msgs: &mut Vec<Message>,
) -> ScaleTypeOptions {
    match kind {
        ScaleKind::Category => ScaleTypeOptions::Category,
        ScaleKind::Linear => ScaleTypeOptions::Linear,
        ScaleKind::Logarithmic => ScaleTypeOptions::Logarithmic,
        ScaleKind::Time => ScaleTypeOptions::Time(time_options(scopes)),
        ScaleKind::TimeSeries => ScaleTypeOptions::TimeSeries(time_options(scopes)),
        ScaleKind::RadialLinear => {
            ScaleTypeOptions::RadialLinear(radial_options(scopes, chart_font, msgs))
        }
    }
}
