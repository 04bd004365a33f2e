//! chartjs-plugin-annotation 3.1.0: `options.plugins.annotation` resolved as the plugin's
//! element defaults ([`crate::defaults`]), `common` and each annotation merge (`beforeUpdate`,
//! `resolveAnnotationOptions`).

use super::lookup::{color_of, merge_into};
use crate::color::{parse_color, Rgba};
use crate::defaults;
use crate::message::Message;
use crate::model::annotation::{
    Annotation, AnnotationKind, AnnotationLabel, Annotations, ArrowHead, Callout, ControlOffset,
    DrawTime, LabelPos, LabelSize, Shape, ShapeShadow,
};
use crate::model::{LabelTextAlign, PointStyle, Raw};
use crate::scopes::{to_number, truthy, Scopes};
use crate::values::{to_font, to_padding, Font};
use serde_json::{Map, Value};

pub(super) fn draw_time(v: Option<&Value>) -> Option<DrawTime> {
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

pub(super) fn num(m: &Map<String, Value>, k: &str, d: f64) -> f64 {
    match m.get(k) {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(d),
        // A per-corner object: its first corner stands for all (and a message says so).
        Some(Value::Object(o)) => o.values().find_map(Value::as_f64).unwrap_or(d),
        _ => d,
    }
}

pub(super) fn raw(m: &Map<String, Value>, k: &str) -> Raw {
    m.get(k).map_or(Raw::Undefined, Raw::from_json)
}

pub(super) fn shape(m: &Map<String, Value>, default_color: Rgba, routed_bg: bool) -> Shape {
    Shape {
        background_color: color_of(m.get("backgroundColor")).unwrap_or(if routed_bg {
            default_color
        } else {
            Rgba::TRANSPARENT
        }),
        border_color: color_of(m.get("borderColor")).unwrap_or(default_color),
        border_width: num(m, "borderWidth", 0.0),
        border_dash: m
            .get("borderDash")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default(),
        border_dash_offset: num(m, "borderDashOffset", 0.0),
        border_radius: num(m, "borderRadius", 0.0),
        shadow: ShapeShadow {
            background_color: color_of(m.get("backgroundShadowColor")).unwrap_or(Rgba::TRANSPARENT),
            border_color: color_of(m.get("borderShadowColor")).unwrap_or(Rgba::TRANSPARENT),
            blur: num(m, "shadowBlur", 0.0),
            offset_x: num(m, "shadowOffsetX", 0.0),
            offset_y: num(m, "shadowOffsetY", 0.0),
        },
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
        background_color: color_of(merged.get("backgroundColor")),
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

pub(super) fn label(
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
            .map(|c| color_of(Some(c)).unwrap_or(Rgba::TRANSPARENT))
            .collect(),
        other => vec![color_of(other).unwrap_or(Rgba::TRANSPARENT)],
    };
    let position = match m.get("position") {
        Some(Value::Object(p)) => (label_pos(p.get("x")), label_pos(p.get("y"))),
        v => (label_pos(v), label_pos(v)),
    };
    AnnotationLabel {
        display: m.get("display").is_some_and(truthy),
        content: content_lines(m.get("content")),
        shape: shape(m, default_color, false),
        colors,
        fonts,
        padding: to_padding(m.get("padding")),
        position,
        line_position: label_pos(m.get("position")),
        x_adjust: num(m, "xAdjust", 0.0),
        y_adjust: num(m, "yAdjust", 0.0),
        rotation: match m.get("rotation") {
            Some(Value::String(s)) if s == "auto" => None,
            Some(Value::Number(n)) => Some(n.as_f64().unwrap_or(0.0)),
            _ => Some(parent_rotation),
        },
        text_align: LabelTextAlign::parse(m.get("textAlign").and_then(Value::as_str)),
        text_stroke_width: num(m, "textStrokeWidth", 0.0),
        text_stroke_color: color_of(m.get("textStrokeColor")),
        callout: m
            .get("callout")
            .and_then(Value::as_object)
            .filter(|c| c.get("display").is_some_and(truthy))
            .map(|c| {
                // An unset callout colour is not the label's: the callout's scopes end in
                // the plugin's fallback scope `elements.<type>Annotation`, whose
                // `borderColor` is routed to `Chart.defaults.color` (`defaultRoutes`).
                let mut cs = shape(c, default_color, false);
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
/// heads, callouts) are named in `messages`.
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
    let elements = config
        .get("options")
        .and_then(|o| o.get("elements"))
        .and_then(Value::as_object);
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
        let ty = a.get("type").and_then(Value::as_str).unwrap_or("line");
        let kind = match ty {
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
        // The plugin's `annotations` scope falls back to `elements.<type>Annotation` (the
        // chart's options, then Chart.js's defaults, where the type's `static defaults`
        // are), which falls back to `plugins.annotation.common`: `common` only reaches what
        // the type's defaults leave unset, and never a `defaultRoutes` colour (a route
        // makes the default defined: Chart.js's `defaults.route`).
        let mut m = common.cloned().unwrap_or_default();
        if kind != AnnotationKind::DoughnutLabel {
            m.remove("borderColor");
        }
        if routed_bg(kind) {
            m.remove("backgroundColor");
        }
        if let Value::Object(d) = defaults::annotation::type_defaults(kind) {
            merge_into(&mut m, &d);
        }
        if let Some(e) = elements.and_then(|e| e.get(&format!("{ty}Annotation"))) {
            if let Some(e) = e.as_object() {
                merge_into(&mut m, e);
            }
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
        let routed_bg = routed_bg(kind);
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
            // The plugin loops `for (i = 0; i < sides; i++)`: JS comparison turns a string
            // into its number and anything not a number (`'wrong'`, NaN) draws no vertex.
            sides: m.get("sides").map_or(3.0, to_number),
            rotation,
            shape: shape(&m, default_color, routed_bg),
            curve: kind == AnnotationKind::Line && m.get("curve").is_some_and(truthy),
            control_point: match m.get("controlPoint") {
                Some(Value::Object(c)) => (control_offset(c.get("x")), control_offset(c.get("y"))),
                v => (control_offset(v), control_offset(v)),
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

/// Whether the type routes `backgroundColor` to the chart's `color` (its `defaultRoutes`).
fn routed_bg(kind: AnnotationKind) -> bool {
    !matches!(
        kind,
        AnnotationKind::Line | AnnotationKind::Label | AnnotationKind::DoughnutLabel
    )
}

/// A label `position` (`'start'`, `'center'`, `'end'` or `'N%'`).
fn label_pos(v: Option<&Value>) -> LabelPos {
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

/// One coordinate of a line's `controlPoint`.
fn control_offset(v: Option<&Value>) -> ControlOffset {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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

    /// `options.elements.<type>Annotation` sits between the annotation and `common`, per
    /// type, label options included.
    #[test]
    fn chart_element_options_of_each_type() {
        let (a, _) = resolve(json!({"options": {
        "elements": {"lineAnnotation": {"borderColor": "red", "borderDash": [4, 2],
            "drawTime": "afterDraw", "label": {"color": "blue"}},
            "boxAnnotation": {"borderWidth": 5}, "line": {"borderColor": "green"}},
        "plugins": {"annotation": {
        "common": {"drawTime": "beforeDraw", "borderColor": "black"},
        "annotations": {
            "l": {"type": "line", "yMin": 5, "yMax": 5, "label": {"display": true,
                "content": "a"}},
            "m": {"yMin": 5, "yMax": 5, "borderColor": "lime"},
            "b": {"type": "box", "xMin": 1, "xMax": 2}
        }}}}}));
        let a = a.expect("annotations");
        let red = parse_color("red").unwrap();
        let (l, m, b) = (&a.list[0], &a.list[1], &a.list[2]);
        assert_eq!(l.shape.border_color, red);
        assert_eq!(l.shape.border_dash, vec![4.0, 2.0]);
        assert_eq!(l.draw_time, DrawTime::AfterDraw);
        assert_eq!(l.label.colors, vec![parse_color("blue").unwrap()]);
        // The annotation's own option wins; `type` defaults to line.
        assert_eq!(m.shape.border_color, parse_color("lime").unwrap());
        assert_eq!(m.shape.border_dash, vec![4.0, 2.0]);
        // Another type's element options do not reach it; `common` does where the type's
        // defaults leave a key unset, but not over a routed colour.
        assert_eq!(
            (b.shape.border_width, b.draw_time),
            (5.0, DrawTime::BeforeDraw)
        );
        assert_eq!(b.shape.border_color, parse_color("#666").unwrap());
    }

    /// `common` sits under each type's defaults (the plugin's `elements.<type>Annotation`
    /// fallback): it cannot change a default the type sets, nor a routed colour.
    #[test]
    fn common_is_under_the_type_defaults() {
        let (a, _) = resolve(json!({"options": {"plugins": {"annotation": {
        "common": {"borderWidth": 8, "borderColor": "red", "backgroundColor": "red",
            "borderDash": [6, 3], "label": {"color": "yellow", "padding": 1}},
        "annotations": {
            "l": {"type": "line", "yMin": 5, "yMax": 5},
            "b": {"type": "box", "xMin": 1, "xMax": 2}
        }}}}}));
        let a = a.expect("annotations");
        let (l, b) = (&a.list[0], &a.list[1]);
        let grey = parse_color("#666").unwrap();
        assert_eq!((l.shape.border_width, l.shape.border_color), (2.0, grey));
        // The line's defaults set borderDash and its label's colour.
        assert!(l.shape.border_dash.is_empty());
        assert_eq!(l.label.colors, vec![parse_color("#fff").unwrap()]);
        assert_eq!(
            (b.shape.border_color, b.shape.background_color),
            (grey, grey)
        );
    }

    /// Shadow options are read for the shape, its label and its arrow heads (which fall
    /// back to the line's), and no longer reported as unsupported.
    #[test]
    fn shadows_are_resolved() {
        let (a, msgs) = resolve(json!({"options": {"plugins": {"annotation": {
        "annotations": {
            "l": {"type": "line", "yMin": 5, "yMax": 5, "shadowBlur": 8, "shadowOffsetX": 3,
                "borderShadowColor": "red", "arrowHeads": {"end": {"display": true,
                "shadowOffsetY": 2}},
                "label": {"display": true, "content": "a", "backgroundShadowColor": "blue",
                "shadowBlur": 4}}
        }}}}}));
        let l = &a.expect("annotations").list[0];
        assert!(msgs.is_empty(), "{msgs:?}");
        let sh = l.shape.shadow;
        assert_eq!((sh.blur, sh.offset_x, sh.offset_y), (8.0, 3.0, 0.0));
        assert_eq!(sh.border_color, parse_color("red").unwrap());
        assert_eq!(sh.background_color, Rgba::TRANSPARENT);
        let head = l.arrow_heads[1].as_ref().expect("end head").shape.shadow;
        assert_eq!((head.blur, head.offset_x, head.offset_y), (8.0, 3.0, 2.0));
        assert_eq!(l.label.shape.shadow.blur, 4.0);
        assert_eq!(
            l.label.shape.shadow.background_color,
            parse_color("blue").unwrap()
        );
    }

    /// A callout without its own `borderColor` takes `Chart.defaults.color` (the routed
    /// `borderColor` of `elements.<type>Annotation`, the last scope of the callout), not
    /// the colour of the label it belongs to; its own colour still wins.
    #[test]
    fn callout_colour_is_not_the_labels() {
        let (a, _) = resolve(json!({"options": {"plugins": {"annotation": {
        "annotations": {
            "t": {"type": "label", "xValue": 1, "yValue": 1, "content": "a",
                "borderColor": "blue", "callout": {"display": true}},
            "l": {"type": "line", "yMin": 5, "yMax": 5, "label": {"display": true,
                "content": "a", "borderColor": "blue",
                "callout": {"display": true, "borderColor": "red"}}}
        }}}}}));
        let a = a.expect("annotations");
        let colour = |i: usize| &a.list[i].label.callout.as_ref().expect("callout").shape;
        assert_eq!(colour(0).border_color, parse_color("#666").unwrap());
        assert_eq!(colour(0).border_width, 1.0);
        assert_eq!(colour(1).border_color, parse_color("red").unwrap());
    }
}
