//! Element options per data index (`resolveDataElementOptions`): point, bar, line and arc,
//! looked up through the dataset's element scopes.

use super::lookup::{global_color, num_array};
use crate::color::{parse_color, Rgba};
use crate::model::{
    ArcCorners, ArcJoin, ArcOptions, BarBorderWidth, BarOptions, BarRadius, BorderSkipped,
    CapStyle, Fill, FillSpec, JoinStyle, LineOptions, PointOptions, PointStyle, SpacingMode,
    Stepped,
};
use crate::scopes::{to_number, truthy, Scopes};
use crate::values::{corners_of, to_padding, PerIndex};
use serde_json::Value;

/// One element-option lookup: `resolveNamedOptions` with prefixes `[element, '']`, taking
/// `value[index % length]` for arrays (indexable options).
pub(super) struct ElementLookup<'a> {
    pub(super) scopes: Scopes<'a>,
    prefix: &'static str,
    index: Option<usize>,
    /// Set when a lookup met an indexable (array) value, so the result depends on `index`.
    indexed: std::cell::Cell<bool>,
}

/// Resolves the options of `n` data elements. Like Chart.js's `_sharedOptions`, elements
/// share one resolution unless an option they read is indexable: resolving every element
/// through the whole scope chain made option lookup the most expensive part of a render.
pub(super) fn resolve_elements<T: Clone>(
    scopes: &Scopes<'_>,
    prefix: &'static str,
    n: usize,
    resolve: impl Fn(&ElementLookup<'_>) -> T,
) -> PerIndex<T> {
    let lookup = |i: usize| ElementLookup::new(scopes.clone(), prefix, Some(i));
    let first_lookup = lookup(0);
    let first = resolve(&first_lookup);
    // Index 0 is always resolved, even for an empty dataset (its legend item's style).
    if !first_lookup.indexed.get() {
        let rest = std::iter::repeat_n(first.clone(), n.saturating_sub(1));
        return PerIndex::with_first(first, rest);
    }
    let rest = (1..n).map(|i| resolve(&lookup(i)));
    PerIndex::with_first(first, rest)
}

impl<'a> ElementLookup<'a> {
    pub(super) fn new(scopes: Scopes<'a>, prefix: &'static str, index: Option<usize>) -> Self {
        Self {
            scopes,
            prefix,
            index,
            indexed: std::cell::Cell::new(false),
        }
    }

    pub(super) fn get(&self, name: &str) -> Option<&'a Value> {
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
    pub(super) fn num(&self, name: &str, default: f64) -> f64 {
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
    pub(super) fn color(&self, name: &str, default: Rgba) -> Rgba {
        match self.get(name) {
            Some(Value::String(s)) => parse_color(s).unwrap_or(default),
            _ => default,
        }
    }
}

pub(super) fn point_style(v: Option<&Value>) -> Option<PointStyle> {
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

pub(super) fn resolve_point(l: &ElementLookup<'_>) -> PointOptions {
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

pub(super) fn resolve_bar(l: &ElementLookup<'_>) -> BarOptions {
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
    // `parseBorderWidth` reads an object through `toTRBL`.
    let border_width = match l.get("borderWidth") {
        Some(v @ Value::Object(_)) => BarBorderWidth::Sides(to_padding(Some(v))),
        v => BarBorderWidth::All(num(v)),
    };
    let border_radius = match l.get("borderRadius") {
        Some(Value::Object(m)) => BarRadius::Corners(corners_of(m)),
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

pub(super) fn resolve_line(l: &ElementLookup<'_>, index: usize, count: usize) -> LineOptions {
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

/// `+value` (JavaScript) of a doughnut data entry; `None` for NaN.
pub(super) fn plus(v: &Value) -> Option<f64> {
    let n = to_number(v);
    (!n.is_nan()).then_some(n)
}

/// Arc element options of every data index (`resolveDataElementOptions` with the `arc`
/// element's option names).
pub(super) fn resolve_arcs(scopes: &Scopes<'_>, n: usize) -> PerIndex<ArcOptions> {
    resolve_elements(scopes, "arc", n.max(1), |l| {
        let radius = match l.get("borderRadius") {
            Some(Value::Object(m)) => {
                let g = |k: &str| {
                    m.get(k)
                        .map(to_number)
                        .filter(|v| !v.is_nan())
                        .unwrap_or(0.0)
                };
                ArcCorners {
                    outer_start: g("outerStart"),
                    outer_end: g("outerEnd"),
                    inner_start: g("innerStart"),
                    inner_end: g("innerEnd"),
                }
            }
            Some(v) => {
                let r = to_number(v);
                ArcCorners::all(if r.is_nan() { 0.0 } else { r })
            }
            None => ArcCorners::default(),
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
                Some("angular") => SpacingMode::Angular,
                Some("parallel") => SpacingMode::Parallel,
                _ => SpacingMode::Proportional,
            },
            angle: l.get("angle").map(to_number).filter(|v| v.is_finite()),
            circular: !matches!(l.get("circular"), Some(Value::Bool(false))),
            self_join: l.get("selfJoin").is_some_and(truthy),
        }
    })
}

pub(super) fn decode_fill(v: Option<&Value>, index: usize, count: usize) -> Fill {
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
