//! Options of chartjs-plugin-annotation 3.1.0 (`options.plugins.annotation`), resolved as the
//! plugin's element defaults, `common` and each annotation merge (`beforeUpdate`,
//! `resolveAnnotationOptions`). Positions stay raw values: the engine parses them against its
//! scales (`scaleValue` in the plugin).

use crate::color::{parse_color, Rgba};
use crate::message::Message;
use crate::model::{PointStyle, Raw};
use crate::plugins_model::merge_into;
use crate::scopes::{to_number, truthy, Scopes};
use crate::values::{to_font, to_padding, Font, Padding};
use serde_json::{json, Map, Value};

/// The annotation types drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnnotationKind {
    /// `'line'` (default type).
    Line,
    /// `'box'`.
    Box,
    /// `'label'`.
    Label,
    /// `'point'`.
    Point,
    /// `'ellipse'`.
    Ellipse,
    /// `'polygon'`.
    Polygon,
    /// `'doughnutLabel'`: text in the hole of the innermost doughnut.
    DoughnutLabel,
}

/// `drawTime`: the chart hook an annotation draws in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawTime {
    /// `'beforeDraw'`.
    BeforeDraw,
    /// `'beforeDatasetsDraw'`.
    BeforeDatasetsDraw,
    /// `'afterDatasetsDraw'` (default).
    AfterDatasetsDraw,
    /// `'afterDraw'`.
    AfterDraw,
    /// A dataset index: drawn before that dataset (`beforeDatasetDraw`).
    BeforeDataset(usize),
}

/// A label position along one axis: `'start'`, `'center'`, `'end'` or a percentage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LabelPos {
    /// `'start'`.
    Start,
    /// `'center'` (default).
    Center,
    /// `'end'`.
    End,
    /// `'N%'`, as a 0..=1 fraction.
    Percent(f64),
}

impl LabelPos {
    fn from(v: Option<&Value>) -> Self {
        match v.and_then(Value::as_str) {
            Some("start") => LabelPos::Start,
            Some("end") => LabelPos::End,
            Some(s) if s.ends_with('%') => LabelPos::Percent(
                (to_number(&Value::String(s.trim_end_matches('%').to_string())) / 100.0)
                    .clamp(0.0, 1.0),
            ),
            _ => LabelPos::Center,
        }
    }
    /// `getRelativePosition(size, position)`.
    pub fn relative(self, size: f64) -> f64 {
        match self {
            LabelPos::Start => 0.0,
            LabelPos::End => size,
            LabelPos::Percent(p) => p * size,
            LabelPos::Center => size / 2.0,
        }
    }
}

/// One coordinate of a line's `controlPoint`: px, a percentage of the line's length, or
/// anything else (which the plugin's `getSize` turns into the whole length).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ControlOffset {
    /// A number of px.
    Px(f64),
    /// `'N%'` as a fraction (may be negative).
    Percent(f64),
    /// Neither: the line's length.
    Length,
}

impl ControlOffset {
    fn from(v: Option<&Value>) -> Self {
        match v {
            None | Some(Value::Null) => ControlOffset::Px(0.0),
            Some(Value::Number(n)) => ControlOffset::Px(n.as_f64().unwrap_or(0.0)),
            Some(Value::String(s)) if s.ends_with('%') => ControlOffset::Percent(
                s.trim_end_matches('%')
                    .trim()
                    .parse::<f64>()
                    .unwrap_or(f64::NAN)
                    / 100.0,
            ),
            Some(_) => ControlOffset::Length,
        }
    }
    /// `getSize(size, value, false)`.
    pub fn size(self, length: f64) -> f64 {
        match self {
            ControlOffset::Px(v) => v,
            ControlOffset::Percent(p) => p * length,
            ControlOffset::Length => length,
        }
    }
}

/// Border and fill shared by every annotation shape and label box.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// `backgroundColor`. Default: `Chart.defaults.color` for box, ellipse, point, polygon.
    pub background_color: Rgba,
    /// `borderColor`. Default: `Chart.defaults.color` (`#666`).
    pub border_color: Rgba,
    /// `borderWidth`. Default: 2 (line), 1 (box, ellipse, point, polygon), 0 (labels).
    pub border_width: f64,
    /// `borderDash`. Default: `[]`.
    pub border_dash: Vec<f64>,
    /// `borderDashOffset`. Default: 0.
    pub border_dash_offset: f64,
    /// `borderRadius` (one value for every corner). Default: 0 (6 for line labels).
    pub border_radius: f64,
}

/// One arrow head of a line (`arrowHeads.start` / `arrowHeads.end`), its options falling
/// back to `arrowHeads`, then to the line's.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrowHead {
    /// `fill`: a closed, filled head. Default: false.
    pub fill: bool,
    /// `length` along the line, px. Default: 12.
    pub length: f64,
    /// `width`: half the head's opening, px. Default: 6.
    pub width: f64,
    /// `backgroundColor` (fill), else the border colour.
    pub background_color: Option<Rgba>,
    /// Border.
    pub shape: Shape,
}

/// `callout` of a label: a pointer from the label's side to the point it labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Callout {
    /// `position`: `None` is `'auto'` (the side nearest the point); else 0 left, 1 bottom,
    /// 2 top, 3 right.
    pub position: Option<usize>,
    /// `margin` between the label and the callout, px. Default: 5.
    pub margin: f64,
    /// `side`: length of the stub along the label, px. Default: 5.
    pub side: f64,
    /// `start` along the side, px or a 0..=1 fraction when a percentage. Default: `'50%'`.
    pub start: LabelSize,
    /// Stroke.
    pub shape: Shape,
}

/// A size in px or a fraction of some length (`getSize` with a positive percentage).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LabelSize {
    /// px.
    Px(f64),
    /// Fraction, clamped to 0..=1.
    Fraction(f64),
    /// Anything else: the whole length.
    Whole,
}

impl LabelSize {
    /// `getSize(size, value)`.
    pub fn of(self, size: f64) -> f64 {
        match self {
            LabelSize::Px(v) => v,
            LabelSize::Fraction(f) => f * size,
            LabelSize::Whole => size,
        }
    }
}

/// The text of a label annotation or of a line/box/ellipse's `label`.
#[derive(Debug, Clone, PartialEq)]
pub struct AnnotationLabel {
    /// `display`. Default: false for sub-labels, true for `type: 'label'`.
    pub display: bool,
    /// `content` lines (an array gives several); empty: nothing drawn.
    pub content: Vec<String>,
    /// Frame.
    pub shape: Shape,
    /// `color` per line (the last repeats). Default: `'black'` (`'#fff'` on lines).
    pub colors: Vec<Rgba>,
    /// `font` per line (the last repeats). Default weight: bold for sub-labels.
    pub fonts: Vec<Font>,
    /// `padding`. Default: 6.
    pub padding: Padding,
    /// `position` as (x, y). Default: `'center'`.
    pub position: (LabelPos, LabelPos),
    /// Raw `position` when a plain string (line labels read `'start'`/`'end'`/percent).
    pub line_position: LabelPos,
    /// `xAdjust`. Default: 0.
    pub x_adjust: f64,
    /// `yAdjust`. Default: 0.
    pub y_adjust: f64,
    /// `rotation` in degrees; `None` is `'auto'` (line labels only). Default: 0.
    pub rotation: Option<f64>,
    /// `textAlign`: -1 start/left, 0 center, 1 end/right. Default: start (center on lines
    /// and label annotations).
    pub text_align: i8,
    /// `textStrokeWidth`. Default: 0.
    pub text_stroke_width: f64,
    /// `textStrokeColor`. Default: none.
    pub text_stroke_color: Option<Rgba>,
    /// `callout`, when displayed (label annotations and line labels).
    pub callout: Option<Callout>,
    /// `drawTime`, falling back to the annotation's.
    pub draw_time: DrawTime,
    /// `z`, falling back to the annotation's.
    pub z: f64,
}

/// One annotation, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// `id` (key in `annotations`) when given as an object.
    pub id: Option<String>,
    /// `type`.
    pub kind: AnnotationKind,
    /// `drawTime`. Default: `'afterDatasetsDraw'`.
    pub draw_time: DrawTime,
    /// `z`. Default: 0.
    pub z: f64,
    /// `adjustScaleRange`. Default: true.
    pub adjust_scale_range: bool,
    /// `scaleID` (lines).
    pub scale_id: Option<String>,
    /// `value` (lines).
    pub value: Raw,
    /// `endValue` (lines).
    pub end_value: Raw,
    /// `xScaleID`.
    pub x_scale_id: Option<String>,
    /// `yScaleID`.
    pub y_scale_id: Option<String>,
    /// `xMin`.
    pub x_min: Raw,
    /// `xMax`.
    pub x_max: Raw,
    /// `yMin`.
    pub y_min: Raw,
    /// `yMax`.
    pub y_max: Raw,
    /// `xValue` (label, point, polygon).
    pub x_value: Raw,
    /// `yValue`.
    pub y_value: Raw,
    /// `xAdjust` (label, point, polygon). Default: 0.
    pub x_adjust: f64,
    /// `yAdjust`. Default: 0.
    pub y_adjust: f64,
    /// `radius` (point, polygon). Default: 10.
    pub radius: f64,
    /// `pointStyle` (point). Default: `'circle'`.
    pub point_style: PointStyle,
    /// `autoFit` (doughnutLabel): shrink the text to fit the hole. Default: true.
    pub auto_fit: bool,
    /// `spacing` (doughnutLabel) between the hole's edge and the background. Default: 1.
    pub spacing: f64,
    /// `sides` (polygon). Default: 3.
    pub sides: usize,
    /// `rotation`, degrees. Default: 0.
    pub rotation: f64,
    /// Fill and border.
    pub shape: Shape,
    /// `curve` (lines): a quadratic curve through `controlPoint`. Default: false.
    pub curve: bool,
    /// `controlPoint` as (x, y) offsets from the line's centre, before rotation to the
    /// line. Default: `{y: '-50%'}`.
    pub control_point: (ControlOffset, ControlOffset),
    /// Line arrow heads at the start and the end, when displayed.
    pub arrow_heads: [Option<ArrowHead>; 2],
    /// The label: the annotation itself for `type: 'label'`, else `label`.
    pub label: AnnotationLabel,
}

/// chartjs-plugin-annotation, resolved.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Annotations {
    /// `clip`: clip to the chart area. Default: true.
    pub clip: bool,
    /// The displayed annotations, in config order.
    pub list: Vec<Annotation>,
}

fn type_defaults(kind: AnnotationKind) -> Value {
    let box_label = json!({"backgroundColor": "transparent", "borderWidth": 0, "color": "black",
        "display": false, "font": {"weight": "bold"}, "padding": 6, "position": "center",
        "textAlign": "start", "textStrokeWidth": 0, "xAdjust": 0, "yAdjust": 0,
        "borderRadius": 0, "borderDash": [], "borderDashOffset": 0});
    match kind {
        AnnotationKind::Line => json!({"adjustScaleRange": true, "borderDash": [],
            "arrowHeads": {"display": false, "fill": false, "length": 12, "width": 6},
            "curve": false, "controlPoint": {"y": "-50%"},
            "borderDashOffset": 0, "borderWidth": 2, "display": true, "z": 0,
            "label": {"backgroundColor": "rgba(0,0,0,0.8)", "borderColor": "black",
                "borderDash": [], "borderDashOffset": 0, "borderRadius": 6, "borderWidth": 0,
                "color": "#fff", "display": false, "font": {"weight": "bold"}, "padding": 6,
                "position": "center", "rotation": 0, "textAlign": "center",
                "textStrokeWidth": 0, "xAdjust": 0, "yAdjust": 0}}),
        AnnotationKind::Box => json!({"adjustScaleRange": true, "borderDash": [],
            "borderDashOffset": 0, "borderRadius": 0, "borderWidth": 1, "display": true,
            "rotation": 0, "z": 0, "label": box_label}),
        AnnotationKind::Ellipse => json!({"adjustScaleRange": true, "borderDash": [],
            "borderDashOffset": 0, "borderWidth": 1, "display": true, "rotation": 0, "z": 0,
            "label": box_label}),
        AnnotationKind::Label => json!({"adjustScaleRange": true, "backgroundColor": "transparent",
            "borderDash": [], "borderDashOffset": 0, "borderRadius": 0, "borderWidth": 0,
            "color": "black", "display": true, "padding": 6, "position": "center",
            "rotation": 0, "textAlign": "center", "textStrokeWidth": 0, "xAdjust": 0,
            "yAdjust": 0, "z": 0}),
        AnnotationKind::Point => json!({"adjustScaleRange": true, "borderDash": [],
            "borderDashOffset": 0, "borderWidth": 1, "display": true, "pointStyle": "circle",
            "radius": 10, "rotation": 0, "xAdjust": 0, "yAdjust": 0, "z": 0}),
        AnnotationKind::DoughnutLabel => json!({"autoFit": true, "autoHide": true,
            "backgroundColor": "transparent", "borderColor": "transparent", "borderDash": [],
            "borderDashOffset": 0, "borderWidth": 0, "color": "black", "display": true,
            "position": "center", "rotation": 0, "spacing": 1, "textAlign": "center",
            "textStrokeWidth": 0, "xAdjust": 0, "yAdjust": 0, "adjustScaleRange": false,
            "padding": 0}),
        AnnotationKind::Polygon => json!({"adjustScaleRange": true, "borderDash": [],
            "borderDashOffset": 0, "borderWidth": 1, "display": true, "radius": 10,
            "rotation": 0, "sides": 3, "xAdjust": 0, "yAdjust": 0, "z": 0}),
    }
}

fn draw_time(v: Option<&Value>) -> Option<DrawTime> {
    Some(match v? {
        Value::String(s) => match s.as_str() {
            "beforeDraw" => DrawTime::BeforeDraw,
            "beforeDatasetsDraw" => DrawTime::BeforeDatasetsDraw,
            "afterDatasetsDraw" => DrawTime::AfterDatasetsDraw,
            "afterDraw" => DrawTime::AfterDraw,
            _ => return None,
        },
        Value::Number(n) => DrawTime::BeforeDataset(n.as_u64()? as usize),
        _ => return None,
    })
}

fn color(v: Option<&Value>) -> Option<Rgba> {
    v.and_then(Value::as_str).and_then(parse_color)
}

fn num(m: &Map<String, Value>, k: &str, d: f64) -> f64 {
    match m.get(k) {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(d),
        // A per-corner object: its first corner stands for all (and a message says so).
        Some(Value::Object(o)) => o.values().find_map(Value::as_f64).unwrap_or(d),
        _ => d,
    }
}

fn raw(m: &Map<String, Value>, k: &str) -> Raw {
    m.get(k).map_or(Raw::Undefined, Raw::from_json)
}

fn shape(m: &Map<String, Value>, default_color: Rgba, routed_bg: bool) -> Shape {
    Shape {
        background_color: color(m.get("backgroundColor")).unwrap_or(if routed_bg {
            default_color
        } else {
            Rgba::TRANSPARENT
        }),
        border_color: color(m.get("borderColor")).unwrap_or(default_color),
        border_width: num(m, "borderWidth", 0.0),
        border_dash: m
            .get("borderDash")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default(),
        border_dash_offset: num(m, "borderDashOffset", 0.0),
        border_radius: num(m, "borderRadius", 0.0),
    }
}

/// `arrowHeads.<end>` through its fallbacks (`arrowHeads`, then the line).
fn arrow_head(m: &Map<String, Value>, end: &str, default_color: Rgba) -> Option<ArrowHead> {
    let empty = Map::new();
    let heads = m
        .get("arrowHeads")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let own = heads.get(end).and_then(Value::as_object).unwrap_or(&empty);
    let mut merged = m.clone();
    merge_into(&mut merged, heads);
    merge_into(&mut merged, own);
    if !merged.get("display").is_some_and(truthy) {
        return None;
    }
    Some(ArrowHead {
        fill: merged.get("fill") == Some(&Value::Bool(true)),
        length: num(&merged, "length", 12.0),
        width: num(&merged, "width", 6.0),
        background_color: color(merged.get("backgroundColor")),
        shape: shape(&merged, default_color, false),
    })
}

fn content_lines(v: Option<&Value>) -> Vec<String> {
    let one = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => crate::values::js_number(n.as_f64().unwrap_or(f64::NAN)),
        other => Raw::from_json(other).to_js_string(),
    };
    match v {
        None | Some(Value::Null) => Vec::new(),
        Some(v) if !truthy(v) => Vec::new(),
        Some(Value::Array(a)) => a.iter().map(one).collect(),
        Some(v) => vec![one(v)],
    }
}

fn label(
    m: &Map<String, Value>,
    parent_time: DrawTime,
    parent_z: f64,
    parent_rotation: f64,
    default_color: Rgba,
) -> AnnotationLabel {
    let empty = Map::new();
    let global_font = crate::defaults::global()
        .get("font")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let fonts: Vec<Font> = match m.get("font") {
        Some(Value::Array(a)) if !a.is_empty() => a
            .iter()
            .map(|f| {
                let f = f.as_object().unwrap_or(&empty);
                to_font(&Scopes::new(vec![f]), &Scopes::new(vec![global_font]))
            })
            .collect(),
        other => {
            let f = other.and_then(Value::as_object).unwrap_or(&empty);
            vec![to_font(
                &Scopes::new(vec![f]),
                &Scopes::new(vec![global_font]),
            )]
        }
    };
    let colors: Vec<Rgba> = match m.get("color") {
        Some(Value::Array(a)) if !a.is_empty() => a
            .iter()
            .map(|c| color(Some(c)).unwrap_or(Rgba::TRANSPARENT))
            .collect(),
        other => vec![color(other).unwrap_or(Rgba::TRANSPARENT)],
    };
    let position = match m.get("position") {
        Some(Value::Object(p)) => (LabelPos::from(p.get("x")), LabelPos::from(p.get("y"))),
        v => (LabelPos::from(v), LabelPos::from(v)),
    };
    AnnotationLabel {
        display: m.get("display").is_some_and(truthy),
        content: content_lines(m.get("content")),
        shape: shape(m, default_color, false),
        colors,
        fonts,
        padding: to_padding(m.get("padding")),
        position,
        line_position: LabelPos::from(m.get("position")),
        x_adjust: num(m, "xAdjust", 0.0),
        y_adjust: num(m, "yAdjust", 0.0),
        rotation: match m.get("rotation") {
            Some(Value::String(s)) if s == "auto" => None,
            Some(Value::Number(n)) => Some(n.as_f64().unwrap_or(0.0)),
            _ => Some(parent_rotation),
        },
        text_align: match m.get("textAlign").and_then(Value::as_str) {
            Some("center") => 0,
            Some("end" | "right") => 1,
            _ => -1,
        },
        text_stroke_width: num(m, "textStrokeWidth", 0.0),
        text_stroke_color: color(m.get("textStrokeColor")),
        callout: m
            .get("callout")
            .and_then(Value::as_object)
            .filter(|c| c.get("display").is_some_and(truthy))
            .map(|c| {
                let mut cs = shape(c, default_color, false);
                // An unset callout colour falls back to the label's border colour.
                if c.get("borderColor").is_none() {
                    cs.border_color = color(m.get("borderColor")).unwrap_or(default_color);
                }
                if c.get("borderWidth").is_none() {
                    cs.border_width = 1.0;
                }
                Callout {
                    position: match c.get("position").and_then(Value::as_str) {
                        Some("left") => Some(0),
                        Some("bottom") => Some(1),
                        Some("top") => Some(2),
                        Some("right") => Some(3),
                        _ => None,
                    },
                    margin: num(c, "margin", 5.0),
                    side: num(c, "side", 5.0),
                    start: match c.get("start") {
                        None => LabelSize::Fraction(0.5),
                        Some(Value::Number(n)) => LabelSize::Px(n.as_f64().unwrap_or(0.0)),
                        Some(Value::String(s)) if s.ends_with('%') => LabelSize::Fraction(
                            (s.trim_end_matches('%')
                                .trim()
                                .parse::<f64>()
                                .unwrap_or(f64::NAN)
                                / 100.0)
                                .clamp(0.0, 1.0),
                        ),
                        Some(_) => LabelSize::Whole,
                    },
                    shape: cs,
                }
            }),
        draw_time: draw_time(m.get("drawTime")).unwrap_or(parent_time),
        z: num(m, "z", parent_z),
    }
}

/// Resolves `options.plugins.annotation`; `None` when the plugin is off or has nothing to
/// draw. Unsupported parts (other types, point styles other than circle, curves, arrow
/// heads, callouts, shadows) are named in `messages`.
pub fn resolve_annotations(
    config: &Map<String, Value>,
    messages: &mut Vec<Message>,
) -> Option<Annotations> {
    let opts = config
        .get("options")?
        .get("plugins")?
        .as_object()?
        .get("annotation")?
        .as_object()?;
    let common = opts.get("common").and_then(Value::as_object);
    let list: Vec<(Option<String>, &Map<String, Value>)> = match opts.get("annotations") {
        Some(Value::Object(m)) => m
            .iter()
            .filter_map(|(k, v)| v.as_object().map(|o| (Some(k.clone()), o)))
            .collect(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|v| v.as_object().map(|o| (None, o)))
            .collect(),
        _ => Vec::new(),
    };
    let default_color = crate::defaults::global()
        .get("color")
        .and_then(Value::as_str)
        .and_then(parse_color)
        .unwrap_or(Rgba::TRANSPARENT);
    let mut out = Annotations {
        clip: opts.get("clip").is_none_or(truthy),
        list: Vec::new(),
    };
    let mut unsupported: Vec<String> = Vec::new();
    let mut note = |s: String| {
        if !unsupported.contains(&s) {
            unsupported.push(s);
        }
    };
    for (id, a) in list {
        let kind = match a.get("type").and_then(Value::as_str).unwrap_or("line") {
            "line" => AnnotationKind::Line,
            "box" => AnnotationKind::Box,
            "label" => AnnotationKind::Label,
            "point" => AnnotationKind::Point,
            "ellipse" => AnnotationKind::Ellipse,
            "polygon" => AnnotationKind::Polygon,
            "doughnutLabel" => AnnotationKind::DoughnutLabel,
            other => {
                note(format!("the \"{other}\" annotation type"));
                continue;
            }
        };
        let mut m = match type_defaults(kind) {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        if let Some(c) = common {
            merge_into(&mut m, c);
        }
        merge_into(&mut m, a);
        if !m.get("display").is_some_and(truthy) {
            continue;
        }
        let corner_radius = |v: Option<&Value>| v.is_some_and(Value::is_object);
        if corner_radius(m.get("borderRadius"))
            || corner_radius(m.get("label").and_then(|l| l.get("borderRadius")))
        {
            note("per-corner borderRadius (one radius is used)".into());
        }
        let shadowed = |o: &Map<String, Value>| {
            ["shadowBlur", "shadowOffsetX", "shadowOffsetY"]
                .iter()
                .any(|k| num(o, k, 0.0) != 0.0)
        };
        let label_obj = m.get("label").and_then(Value::as_object);
        if shadowed(&m) || label_obj.is_some_and(shadowed) {
            note("annotation shadows".into());
        }
        let point_style = match m.get("pointStyle").and_then(Value::as_str) {
            None | Some("circle") => PointStyle::Circle,
            Some("cross") => PointStyle::Cross,
            Some("crossRot") => PointStyle::CrossRot,
            Some("dash") => PointStyle::Dash,
            Some("line") => PointStyle::Line,
            Some("rect") => PointStyle::Rect,
            Some("rectRounded") => PointStyle::RectRounded,
            Some("rectRot") => PointStyle::RectRot,
            Some("star") => PointStyle::Star,
            Some("triangle") => PointStyle::Triangle,
            Some(_) => PointStyle::Other,
        };
        let dt = draw_time(m.get("drawTime")).unwrap_or(DrawTime::AfterDatasetsDraw);
        let z = num(&m, "z", 0.0);
        let rotation = num(&m, "rotation", 0.0);
        let label_map = if matches!(kind, AnnotationKind::Label | AnnotationKind::DoughnutLabel) {
            m.clone()
        } else {
            m.get("label")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let routed_bg = !matches!(
            kind,
            AnnotationKind::Line | AnnotationKind::Label | AnnotationKind::DoughnutLabel
        );
        let id_of = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
        out.list.push(Annotation {
            id,
            kind,
            draw_time: dt,
            z,
            adjust_scale_range: m.get("adjustScaleRange").is_none_or(truthy),
            scale_id: id_of("scaleID"),
            value: raw(&m, "value"),
            end_value: raw(&m, "endValue"),
            x_scale_id: id_of("xScaleID"),
            y_scale_id: id_of("yScaleID"),
            x_min: raw(&m, "xMin"),
            x_max: raw(&m, "xMax"),
            y_min: raw(&m, "yMin"),
            y_max: raw(&m, "yMax"),
            x_value: raw(&m, "xValue"),
            y_value: raw(&m, "yValue"),
            x_adjust: num(&m, "xAdjust", 0.0),
            y_adjust: num(&m, "yAdjust", 0.0),
            radius: num(&m, "radius", 10.0),
            point_style,
            auto_fit: m.get("autoFit").is_none_or(truthy),
            spacing: num(&m, "spacing", 1.0),
            sides: num(&m, "sides", 3.0).max(0.0) as usize,
            rotation,
            shape: shape(&m, default_color, routed_bg),
            curve: kind == AnnotationKind::Line && m.get("curve").is_some_and(truthy),
            control_point: match m.get("controlPoint") {
                Some(Value::Object(c)) => (
                    ControlOffset::from(c.get("x")),
                    ControlOffset::from(c.get("y")),
                ),
                v => (ControlOffset::from(v), ControlOffset::from(v)),
            },
            arrow_heads: if kind == AnnotationKind::Line {
                [
                    arrow_head(&m, "start", default_color),
                    arrow_head(&m, "end", default_color),
                ]
            } else {
                [None, None]
            },
            label: label(&label_map, dt, z, rotation, default_color),
        });
    }
    for u in unsupported {
        messages.push(Message::warn(format!(
            "the skia engine does not draw {u} of chartjs-plugin-annotation yet; render with \
             engine \"browser\" for it"
        )));
    }
    if out.list.is_empty() {
        None
    } else {
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(v: Value) -> (Option<Annotations>, Vec<Message>) {
        let Value::Object(m) = v else {
            panic!("object expected")
        };
        let mut msgs = Vec::new();
        (resolve_annotations(&m, &mut msgs), msgs)
    }

    #[test]
    fn defaults_and_common() {
        let (a, msgs) = resolve(json!({"options": {"plugins": {"annotation": {
        "common": {"drawTime": "beforeDraw"},
        "annotations": {
            "l": {"type": "line", "yMin": 5, "yMax": 5, "label": {"display": true,
                "content": ["a", "b"]}},
            "b": {"type": "box", "xMin": 1, "xMax": 2, "drawTime": "afterDraw"},
            "h": {"type": "box", "display": false},
            "s": {"type": "star"}
        }}}}}));
        let a = a.expect("annotations");
        assert_eq!(a.list.len(), 2);
        let l = &a.list[0];
        assert_eq!(
            (l.kind, l.draw_time),
            (AnnotationKind::Line, DrawTime::BeforeDraw)
        );
        assert_eq!(l.shape.border_width, 2.0);
        assert_eq!(l.y_min, Raw::Num(5.0));
        assert_eq!(l.label.content, vec!["a".to_string(), "b".to_string()]);
        assert_eq!(l.label.shape.border_radius, 6.0);
        assert_eq!(l.label.draw_time, DrawTime::BeforeDraw);
        let b = &a.list[1];
        assert_eq!(b.draw_time, DrawTime::AfterDraw);
        assert_eq!(b.shape.background_color, parse_color("#666").unwrap());
        assert!(!b.label.display);
        assert_eq!(msgs.len(), 1);
        assert!(msgs[0].message.contains("\"star\" annotation type"));
    }
}
