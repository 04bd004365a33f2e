//! chartjs-plugin-datalabels 2.2.0: a text label on every bar, point and arc, drawn after
//! the datasets (`afterDatasetsDraw`).
//!
//! Mirrors the plugin's `positioners` (anchor point on the element), `coordinates` (align and
//! offset outside the label's box), `layout.compute`/`collide` (`display: 'auto'` hides a
//! label that overlaps one with a higher priority) and `Label.draw` (frame, then text lines).
//! Options come resolved from [`chart_spec::resolve::resolve_datalabels`].
//!
//! Hostile options: every size and offset is clamped to a finite pixel length before it
//! becomes geometry ([`bounded_options`]), fonts to [`crate::elements::bounds::MAX_FONT_PX`], and the plugin's
//! quadratic `collide` pass takes at most [`COLLIDE_BUDGET`] overlap tests.

use crate::elements::bounds::{bounded_font, finite_in, MAX_PX};
use crate::elements::geometry::ElementGeometry;
use crate::elements::{js_round, Area, Ctx, StrokeStyle, P};
use crate::scales::LaidOutScale;
use crate::scene::{LineJoin, TextBaseline};
use chart_spec::model::LabelOptions;
use chart_spec::model::{ChartKind, DataLabel, DataLabels, LabelAlign, LabelAnchor, LabelDisplay};
use chart_spec::Rgba;
use std::borrow::Cow;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// Overlap tests `collide` may run: the plugin compares every label with every label before
/// it. Past the budget (only a hostile chart gets there) the remaining labels stay visible.
const COLLIDE_BUDGET: usize = 5_000_000;

/// The label options with every number that becomes geometry finite and bounded.
fn bounded_options(o: &mut LabelOptions) {
    let px = |v: f64| finite_in(v, -MAX_PX, MAX_PX, 0.0);
    o.border_radius = px(o.border_radius);
    o.border_width = px(o.border_width);
    o.offset = px(o.offset);
    o.padding.top = px(o.padding.top);
    o.padding.right = px(o.padding.right);
    o.padding.bottom = px(o.padding.bottom);
    o.padding.left = px(o.padding.left);
    // A turn more or less draws the same; a huge angle loses all precision.
    o.rotation = if o.rotation.is_finite() {
        o.rotation % TAU
    } else {
        0.0
    };
    o.text_stroke_width = finite_in(o.text_stroke_width, 0.0, MAX_PX, 0.0);
    if let Cow::Owned(f) = bounded_font(&o.font) {
        o.font = f;
    }
}

/// `getScaleOrigin`: the value scale's centre (radial scales) or base pixel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Origin {
    /// No value scale (doughnut, pie): only arcs, which ignore the origin.
    None,
    /// A radial scale's `(xCenter, yCenter)`.
    Center(f64, f64),
    /// `{x: null, y: basePixel}`: labels point up.
    Vertical,
    /// `{x: basePixel, y: null}` (horizontal bars): labels point right.
    Horizontal,
}

/// One label's anchor and direction (`compute$1` then `aligned`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Anchored {
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
}

/// `orient(point, origin)`.
fn orient(x: f64, y: f64, origin: Origin) -> (f64, f64) {
    match origin {
        Origin::Vertical | Origin::None => (0.0, -1.0),
        Origin::Horizontal => (1.0, 0.0),
        Origin::Center(x0, y0) => {
            let (dx, dy) = (x - x0, y - y0);
            let ln = (dx * dx + dy * dy).sqrt();
            if ln != 0.0 {
                (dx / ln, dy / ln)
            } else {
                (0.0, -1.0)
            }
        }
    }
}

/// The Cohen–Sutherland clipping of `clipped()` for `clamp: true`.
fn clip_segment(mut s: [f64; 4], area: &Area) -> [f64; 4] {
    const LEFT: u8 = 1;
    const RIGHT: u8 = 2;
    const BOTTOM: u8 = 4;
    const TOP: u8 = 8;
    let region = |x: f64, y: f64| {
        let mut r = 0;
        if x < area.left {
            r |= LEFT;
        } else if x > area.right {
            r |= RIGHT;
        }
        if y < area.top {
            r |= TOP;
        } else if y > area.bottom {
            r |= BOTTOM;
        }
        r
    };
    let [mut x0, mut y0, mut x1, mut y1] = s;
    let mut r0 = region(x0, y0);
    let mut r1 = region(x1, y1);
    // Each pass moves one end onto an edge; four passes at most per end.
    for _ in 0..16 {
        if (r0 | r1) == 0 || (r0 & r1) != 0 {
            break;
        }
        let r = if r0 != 0 { r0 } else { r1 };
        let (x, y) = if r & TOP != 0 {
            (x0 + (x1 - x0) * (area.top - y0) / (y1 - y0), area.top)
        } else if r & BOTTOM != 0 {
            (x0 + (x1 - x0) * (area.bottom - y0) / (y1 - y0), area.bottom)
        } else if r & RIGHT != 0 {
            (area.right, y0 + (y1 - y0) * (area.right - x0) / (x1 - x0))
        } else {
            (area.left, y0 + (y1 - y0) * (area.left - x0) / (x1 - x0))
        };
        if r == r0 {
            (x0, y0) = (x, y);
            r0 = region(x0, y0);
        } else {
            (x1, y1) = (x, y);
            r1 = region(x1, y1);
        }
    }
    s = [x0, y0, x1, y1];
    s
}

/// `positioners[type](el, config)`: the anchor point and the natural direction.
fn position(el: &ElementGeometry, origin: Origin, l: &DataLabel, area: &Area) -> Anchored {
    let (seg, vx, vy) = match *el {
        ElementGeometry::Arc {
            x,
            y,
            start_angle,
            end_angle,
            inner_radius,
            outer_radius,
        } => {
            let angle = (start_angle + end_angle) / 2.0;
            let (vx, vy) = (libm::cos(angle), libm::sin(angle));
            (
                [
                    x + vx * inner_radius,
                    y + vy * inner_radius,
                    x + vx * outer_radius,
                    y + vy * outer_radius,
                ],
                vx,
                vy,
            )
        }
        ElementGeometry::Point { x, y, radius } => {
            let (vx, vy) = orient(x, y, origin);
            let (rx, ry) = (vx * radius, vy * radius);
            ([x - rx, y - ry, x + rx, y + ry], vx, vy)
        }
        ElementGeometry::Rect {
            x,
            y,
            width,
            height,
        } => {
            let (vx, vy) = orient(x, y, origin);
            ([x, y, x + width, y + height], vx, vy)
        }
        ElementGeometry::Bar {
            x,
            y,
            base,
            horizontal,
        } => {
            let (vx, vy) = orient(x, y, origin);
            let (mut bx, mut by, mut sx, mut sy) = (x, y, 0.0, 0.0);
            if horizontal {
                bx = x.min(base);
                sx = (base - x).abs();
            } else {
                by = y.min(base);
                sy = (base - y).abs();
            }
            ([bx, by + sy, bx + sx, by], vx, vy)
        }
    };
    let o = &l.options;
    let s = if o.clamp {
        clip_segment(seg, area)
    } else {
        seg
    };
    let (x, y) = match o.anchor {
        LabelAnchor::Start => (s[0], s[1]),
        LabelAnchor::End => (s[2], s[3]),
        LabelAnchor::Center => ((s[0] + s[2]) / 2.0, (s[1] + s[3]) / 2.0),
    };
    let (vx, vy) = match o.align {
        LabelAlign::Center => (0.0, 0.0),
        LabelAlign::Bottom => (0.0, 1.0),
        LabelAlign::Right => (1.0, 0.0),
        LabelAlign::Left => (-1.0, 0.0),
        LabelAlign::Top => (0.0, -1.0),
        LabelAlign::Start => (-vx, -vy),
        LabelAlign::End => (vx, vy),
        LabelAlign::Angle(deg) => {
            let a = deg * (PI / 180.0);
            (libm::cos(a), libm::sin(a))
        }
    };
    Anchored { x, y, vx, vy }
}

/// A label's frame relative to its centre (`boundingRects(model).frame`) and text box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

/// `coordinates(el, model, geometry)`: the label centre, pushed outside the anchor along the
/// align direction by half the (rotated) frame plus `offset`.
fn coordinates(a: Anchored, frame: &Rect, rotation: f64, offset: f64) -> (f64, f64) {
    // `!vx && !vy`: NaN counts as zero too.
    let zero = |v: f64| v == 0.0 || v.is_nan();
    if zero(a.vx) && zero(a.vy) {
        return (a.x, a.y);
    }
    let (w, h) = (frame.w, frame.h);
    let (c, s) = (libm::cos(rotation), libm::sin(rotation));
    let mut dx = (w / 2.0 * c).abs() + (h / 2.0 * s).abs();
    let mut dy = (w / 2.0 * s).abs() + (h / 2.0 * c).abs();
    let vs = 1.0 / a.vx.abs().max(a.vy.abs());
    dx *= a.vx * vs;
    dy *= a.vy * vs;
    dx += offset * a.vx;
    dy += offset * a.vy;
    (a.x + dx, a.y + dy)
}

/// A placed label: what `layout.draw` needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// The label.
    pub label: DataLabel,
    /// Centre, before rasterising.
    pub center: (f64, f64),
    /// Frame relative to the centre.
    pub frame: Rect,
    /// Text box relative to the centre.
    pub text: Rect,
    /// Drawn (false when `display: 'auto'` hid it or `opacity` is 0).
    pub visible: bool,
}

/// `HitBox._points()`: the frame's corners rotated about its centre.
fn corners(p: &Placed) -> [(f64, f64); 4] {
    let (cx, cy) = p.center;
    let (x, y, w, h) = (cx + p.frame.x, cy + p.frame.y, p.frame.w, p.frame.h);
    let (mx, my) = (x + w / 2.0, y + h / 2.0);
    let (c, s) = (
        libm::cos(p.label.options.rotation),
        libm::sin(p.label.options.rotation),
    );
    let rot = |px: f64, py: f64| {
        (
            mx + c * (px - mx) - s * (py - my),
            my + s * (px - mx) + c * (py - my),
        )
    };
    [rot(x, y), rot(x + w, y), rot(x + w, y + h), rot(x, y + h)]
}

/// `HitBox.intersects`: separating axis test on the frames' edges.
fn intersects(a: &Placed, b: &Placed) -> bool {
    let r0 = corners(a);
    let r1 = corners(b);
    let axis = |p0: (f64, f64), p1: (f64, f64)| {
        let (vx, vy) = (p1.0 - p0.0, p1.1 - p0.1);
        let ln = (vx * vx + vy * vy).sqrt();
        (vx / ln, vy / ln, p0)
    };
    let mut axes = vec![axis(r0[0], r0[1]), axis(r0[0], r0[3])];
    if a.label.options.rotation != b.label.options.rotation {
        axes.push(axis(r1[0], r1[1]));
        axes.push(axis(r1[0], r1[3]));
    }
    let project = |pts: &[(f64, f64); 4], (vx, vy, o): (f64, f64, (f64, f64))| {
        pts.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
            let d = vx * (p.0 - o.0) + vy * (p.1 - o.1);
            (lo.min(d), hi.max(d))
        })
    };
    axes.into_iter().all(|ax| {
        let (min0, max0) = project(&r0, ax);
        let (min1, max1) = project(&r1, ax);
        !(max0 < min1 || max1 < min0)
    })
}

/// Places every label (`afterDatasetUpdate` + `layout.prepare`): labels of hidden datasets
/// and skipped elements are dropped, the rest sorted by data index then dataset, highest
/// first, and `display: 'auto'` collisions resolved. `elements[d]` are dataset `d`'s
/// elements by data index (`None`: no element or skipped), `origins[d]` its value scale
/// origin.
pub fn place(
    labels: &DataLabels,
    elements: &[Option<Vec<Option<ElementGeometry>>>],
    origins: &[Origin],
    area: &Area,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) -> Vec<Placed> {
    let mut out: Vec<Placed> = Vec::new();
    for l in &labels.labels {
        let Some(Some(el)) = elements
            .get(l.dataset)
            .and_then(Option::as_ref)
            .and_then(|e| e.get(l.index))
        else {
            continue;
        };
        let mut label = l.clone();
        bounded_options(&mut label.options);
        let l = &label;
        let o = &l.options;
        // utils.textSize
        let tw = l
            .lines
            .iter()
            .map(|s| measure(&o.font, s))
            .fold(0.0, f64::max);
        let th = l.lines.len() as f64 * o.font.line_height;
        let (tx, ty) = (-tw / 2.0, -th / 2.0);
        let bw = o.border_width;
        let frame = Rect {
            x: tx - o.padding.left - bw,
            y: ty - o.padding.top - bw,
            w: tw + o.padding.left + o.padding.right + bw * 2.0,
            h: th + o.padding.top + o.padding.bottom + bw * 2.0,
        };
        let origin = origins.get(l.dataset).copied().unwrap_or(Origin::None);
        let a = position(el, origin, l, area);
        let center = coordinates(a, &frame, o.rotation, o.offset);
        // `visible()`: `model.opacity` truthy.
        let visible = o.opacity != 0.0 && !o.opacity.is_nan();
        out.push(Placed {
            label,
            center,
            frame,
            text: Rect {
                x: tx,
                y: ty,
                w: tw,
                h: th,
            },
            visible,
        });
    }
    // `labels.sort`: same index → higher dataset first; else higher index first. The sort
    // is stable, so named labels of one element keep their order.
    out.sort_by(|a, b| {
        if a.label.index == b.label.index {
            b.label.dataset.cmp(&a.label.dataset)
        } else {
            b.label.index.cmp(&a.label.index)
        }
    });
    collide(&mut out, COLLIDE_BUDGET);
    out
}

/// `collide`: later labels have priority; an overlapped hidable label is hidden. Runs only
/// when some label is hidable (`display: 'auto'`), and stops after `budget` overlap tests.
fn collide(out: &mut [Placed], mut budget: usize) {
    if !out
        .iter()
        .any(|p| p.label.options.display == LabelDisplay::Auto)
    {
        return;
    }
    for i in (0..out.len()).rev() {
        let mut j = i;
        while j > 0 && out[i].visible {
            j -= 1;
            if budget == 0 {
                return;
            }
            budget -= 1;
            if !out[j].visible || !intersects(&out[i], &out[j]) {
                continue;
            }
            let h0 = out[i].label.options.display == LabelDisplay::Auto;
            let h1 = out[j].label.options.display == LabelDisplay::Auto;
            if h1 {
                out[j].visible = false;
            } else if h0 {
                out[i].visible = false;
            }
        }
    }
}

/// `utils.rasterize` with the page's `window.devicePixelRatio` of 1.
fn rasterize(v: f64) -> f64 {
    js_round(v)
}

/// `drawRoundedRect`.
fn rounded_rect(p: &mut P, x: f64, y: f64, w: f64, h: f64, radius: f64) {
    if radius != 0.0 && !radius.is_nan() {
        let r = radius.min(h / 2.0).min(w / 2.0);
        let (left, top, right, bottom) = (x + r, y + r, x + w - r, y + h - r);
        p.move_to(x, top);
        if left < right && top < bottom {
            p.arc(left, top, r, -PI, -FRAC_PI_2, false);
            p.arc(right, top, r, -FRAC_PI_2, 0.0, false);
            p.arc(right, bottom, r, 0.0, FRAC_PI_2, false);
            p.arc(left, bottom, r, FRAC_PI_2, PI, false);
        } else if left < right {
            p.move_to(left, y);
            p.arc(right, top, r, -FRAC_PI_2, FRAC_PI_2, false);
            p.arc(left, top, r, FRAC_PI_2, PI + FRAC_PI_2, false);
        } else if top < bottom {
            p.arc(left, top, r, -PI, 0.0, false);
            p.arc(left, bottom, r, 0.0, PI, false);
        } else {
            p.arc(left, top, r, -PI, PI, false);
        }
        p.close();
        p.move_to(x, y);
    } else {
        p.rect(x, y, w, h);
    }
}

/// `Label.draw`: clip, opacity, translate/rotate, `drawFrame`, `drawText`.
pub fn draw(ctx: &mut Ctx<'_>, placed: &[Placed], area: &Area) {
    for p in placed.iter().filter(|p| p.visible) {
        let o = &p.label.options;
        let alpha = o.opacity.clamp(0.0, 1.0) as f32;
        let fade = |c: Rgba| c.with_alpha_factor(alpha);
        ctx.save();
        if o.clip {
            let mut c = P::new();
            c.rect(area.left, area.top, area.width(), area.height());
            ctx.clip(c);
        }
        ctx.translate(rasterize(p.center.0), rasterize(p.center.1));
        ctx.rotate(o.rotation);
        // drawFrame
        let bw = o.border_width;
        let stroke = o.border_color.filter(|_| bw != 0.0 && !bw.is_nan());
        if o.background_color.is_some() || stroke.is_some() {
            let f = &p.frame;
            let mut path = P::new();
            rounded_rect(
                &mut path,
                rasterize(f.x) + bw / 2.0,
                rasterize(f.y) + bw / 2.0,
                rasterize(f.w) - bw,
                rasterize(f.h) - bw,
                o.border_radius,
            );
            path.close();
            if let Some(bg) = o.background_color {
                ctx.fill(&path, fade(bg));
            }
            if let Some(c) = stroke {
                let mut s = StrokeStyle::new(bw, fade(c));
                s.join = LineJoin::Miter;
                ctx.stroke(&path, &s);
            }
        }
        // drawText (textGeometry)
        let stroked = o
            .text_stroke_color
            .filter(|_| o.text_stroke_width != 0.0 && !o.text_stroke_width.is_nan());
        if !p.label.lines.is_empty() && (o.color.is_some() || stroked.is_some()) {
            let t = &p.text;
            let h = o.font.line_height;
            let (x, align) = super::label_text_anchor(ctx, o.text_align, t.x, t.w);
            let fill = o.color.map_or(Rgba::TRANSPARENT, fade);
            for (i, line) in p.label.lines.iter().enumerate() {
                let y = t.y + h / 2.0 + h * i as f64;
                ctx.fill_text(
                    line,
                    rasterize(x),
                    rasterize(y),
                    &o.font,
                    fill,
                    align,
                    TextBaseline::Middle,
                    stroked.map(|c| (o.text_stroke_width, fade(c))),
                );
            }
        }
        ctx.restore();
    }
}

/// Messages for labels this engine cannot place: datasets whose elements it does not know
/// (chart types of other bundled plugins).
pub fn undrawn(
    labels: &DataLabels,
    elements: &[Option<Vec<Option<ElementGeometry>>>],
    datasets: &[chart_spec::model::Dataset],
) -> Vec<chart_spec::Message> {
    let mut kinds: Vec<ChartKind> = Vec::new();
    for l in &labels.labels {
        let known = match elements.get(l.dataset) {
            Some(Some(e)) => !e.is_empty(),
            // Hidden dataset: Chart.js draws no labels either.
            Some(None) => true,
            None => false,
        };
        if let Some(ds) = datasets.get(l.dataset).filter(|_| !known) {
            if !kinds.contains(&ds.kind.chart_kind()) {
                kinds.push(ds.kind.chart_kind());
            }
        }
    }
    kinds
        .into_iter()
        .map(|k| {
            chart_spec::Message::warn(format!(
                "the skia engine does not draw chartjs-plugin-datalabels labels on \"{k}\" \
                 elements yet; render with engine \"browser\" for them"
            ))
        })
        .collect()
}

/// `getScaleOrigin` of a dataset from its laid-out value scale (`None`: the dataset has
/// none); `horizontal_bar`: a bar dataset with `indexAxis: 'y'`, whose labels point right.
pub fn origin(value_scale: Option<&LaidOutScale>, horizontal_bar: bool) -> Origin {
    match value_scale {
        None => Origin::None,
        Some(s) => match s.radial_center() {
            Some((x, y)) => Origin::Center(x, y),
            None if horizontal_bar => Origin::Horizontal,
            None => Origin::Vertical,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chart_spec::resolve::resolve_datalabels;
    use serde_json::{json, Value};

    fn labels(v: Value) -> DataLabels {
        let Value::Object(m) = v else {
            panic!("object expected")
        };
        resolve_datalabels(&m, &mut Vec::new()).expect("labels")
    }

    const AREA: Area = Area {
        left: 0.0,
        top: 0.0,
        right: 200.0,
        bottom: 100.0,
    };

    fn width(_: &chart_spec::values::Font, s: &str) -> f64 {
        s.chars().count() as f64 * 6.0
    }

    #[test]
    fn collide_stops_at_its_budget() {
        // Three hidable labels on one spot: the last placed hides the other two, in two
        // overlap tests; with a budget of one, the second stays.
        let l = labels(json!({"data": {"datasets": [{"data": [10, 10, 10]}]},
            "options": {"plugins": {"datalabels": {"display": "auto"}}}}));
        let el = ElementGeometry::Point {
            x: 50.0,
            y: 50.0,
            radius: 3.0,
        };
        let placed = || {
            place(
                &l,
                &[Some(vec![Some(el); 3])],
                &[Origin::Vertical],
                &AREA,
                &width,
            )
        };
        let all = placed();
        assert_eq!(all.iter().filter(|p| p.visible).count(), 1);
        let mut cut = placed();
        cut.iter_mut().for_each(|p| p.visible = true);
        collide(&mut cut, 1);
        assert_eq!(cut.iter().filter(|p| p.visible).count(), 2);
    }

    #[test]
    fn bar_end_top_sits_above_the_bar() {
        let l = labels(json!({"data": {"datasets": [{"data": [10]}]},
            "options": {"plugins": {"datalabels": {"display": true, "anchor": "end",
                "align": "top"}}}}));
        let el = ElementGeometry::Bar {
            x: 50.0,
            y: 40.0,
            base: 100.0,
            horizontal: false,
        };
        let p = place(
            &l,
            &[Some(vec![Some(el)])],
            &[Origin::Vertical],
            &AREA,
            &width,
        );
        assert_eq!(p.len(), 1);
        // Text "10": 12 wide, 14.4 high; frame 20 × 22.4; centre 11.2 + 4 above y = 40.
        assert!((p[0].center.0 - 50.0).abs() < 1e-9);
        assert!((p[0].center.1 - (40.0 - 11.2 - 4.0)).abs() < 1e-9, "{p:?}");
        assert!((p[0].frame.w - 20.0).abs() < 1e-9);
    }

    #[test]
    fn arc_label_at_mid_radius() {
        let l = labels(json!({"data": {"datasets": [{"data": [1],
            "datalabels": {"display": true}}]}}));
        let el = ElementGeometry::Arc {
            x: 100.0,
            y: 50.0,
            start_angle: 0.0,
            end_angle: 0.0,
            inner_radius: 10.0,
            outer_radius: 30.0,
        };
        let p = place(&l, &[Some(vec![Some(el)])], &[Origin::None], &AREA, &width);
        assert!((p[0].center.0 - 120.0).abs() < 1e-9 && (p[0].center.1 - 50.0).abs() < 1e-9);
    }

    #[test]
    fn auto_hides_overlapping_lower_priority_labels() {
        let l = labels(json!({"data": {"datasets": [{"data": [1, 2, 3]}]},
            "options": {"plugins": {"datalabels": {"display": "auto"}}}}));
        let pt = |x: f64| {
            Some(ElementGeometry::Point {
                x,
                y: 50.0,
                radius: 3.0,
            })
        };
        // Points 0 and 1 overlap; 2 stands apart. The list is sorted highest index first and
        // its end has priority, so index 0 wins over index 1.
        let els = vec![Some(vec![pt(10.0), pt(15.0), pt(150.0)])];
        let p = place(&l, &els, &[Origin::Vertical], &AREA, &width);
        let vis: Vec<(usize, bool)> = p.iter().map(|p| (p.label.index, p.visible)).collect();
        assert_eq!(vis, vec![(2, true), (1, false), (0, true)]);
    }

    #[test]
    fn clamp_keeps_the_anchor_in_the_area() {
        let l = labels(json!({"data": {"datasets": [{"data": [1]}]},
            "options": {"plugins": {"datalabels": {"display": true, "anchor": "end",
                "align": "center", "clamp": true}}}}));
        let el = ElementGeometry::Bar {
            x: 50.0,
            y: -40.0,
            base: 100.0,
            horizontal: false,
        };
        let p = place(
            &l,
            &[Some(vec![Some(el)])],
            &[Origin::Vertical],
            &AREA,
            &width,
        );
        assert!((p[0].center.1 - 0.0).abs() < 1e-9, "{p:?}");
    }
}
