//! Annotation labels: `measureLabelSize`, `calculateLabelPosition` for line labels,
//! `resolveLabelElementProperties` for box labels, the label annotation, `drawLabel` with its
//! callout, and the doughnut-hole label.

use super::geometry::{bound_to_point, box_bounds, chart_point, point_in_curve, Bounds};
use super::shape::{draw_box, rotate_about, stroke_style};
use super::Scales;
use crate::elements::{Area, Ctx, P};
use crate::math::squared;
use crate::scene::TextBaseline;
use chart_spec::model::annotation::{Annotation, AnnotationLabel, Callout};
use chart_spec::Rgba;
use std::f64::consts::{FRAC_PI_2, PI};

/// `measureLabelSize`/`calculateLabelSize`.
pub(super) fn label_size(
    l: &AnnotationLabel,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) -> (f64, f64) {
    let sw = l.text_stroke_width;
    let mut w: f64 = 0.0;
    let mut h = sw;
    for (i, line) in l.content.iter().enumerate() {
        let Some(f) = l.fonts.get(i.min(l.fonts.len().saturating_sub(1))) else {
            break;
        };
        w = w.max(measure(f, line) + sw);
        h += f.line_height;
    }
    (w, h)
}

/// A label box ready to draw: its rectangle and rotation (degrees) about its centre.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelBox {
    /// The frame (`x, y, x2, y2`).
    pub rect: Bounds,
    /// Rotation, degrees.
    pub rotation: f64,
    /// Background colour (box labels force transparent).
    pub background: Rgba,
    /// The labelled point (`pointX`, `pointY`) a callout points to; `None` for box labels,
    /// whose callout the plugin turns off.
    pub point: Option<(f64, f64)>,
}

/// `calculateLabelPosition` for a line's label.
pub(super) fn line_label(
    l: &AnnotationLabel,
    line: &Bounds,
    cp: Option<(f64, f64)>,
    area: &Area,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) -> LabelBox {
    let (tw, th) = label_size(l, measure);
    let p = &l.padding;
    let bw = l.shape.border_width;
    let width = tw + p.left + p.right + bw;
    let height = th + p.top + p.bottom + bw;
    let rotation = match l.rotation {
        Some(deg) => deg.to_radians(),
        None => {
            let r = libm::atan2(line.y2 - line.y, line.x2 - line.x);
            if r > FRAC_PI_2 {
                r - PI
            } else if r < -FRAC_PI_2 {
                r + PI
            } else {
                r
            }
        }
    };
    let (c, s) = (libm::cos(rotation), libm::sin(rotation));
    let (sw, sh) = (
        (width * c).abs() + (height * s).abs(),
        (width * s).abs() + (height * c).abs(),
    );
    // spaceAround
    let t_ = line.y.min(line.y2) - area.top;
    let l_ = line.x.min(line.x2) - area.left;
    let b_ = area.bottom - line.y.max(line.y2);
    let r_ = area.right - line.x.max(line.x2);
    let (spx, spy) = (l_.min(r_), t_.min(b_));
    let (dx, dy) = (
        if l_ <= r_ { 1.0 } else { -1.0 },
        if t_ <= b_ { 1.0 } else { -1.0 },
    );
    let t_adjust = |lw: f64, lh: f64| {
        let (lw, lh) = (lw * dx, lh * dy);
        // `(lineW > 0) && (...)`: false counts as 0 in Math.max.
        let x = if lw > 0.0 {
            (sw / 2.0 + p.left - spx) / lw
        } else {
            0.0
        };
        let y = if lh > 0.0 {
            (sh / 2.0 + p.top - spy) / lh
        } else {
            0.0
        };
        x.max(y).clamp(0.0, 0.25)
    };
    use chart_spec::model::annotation::LabelPos;
    let t = match l.line_position {
        LabelPos::Start => t_adjust(line.x2 - line.x, line.y2 - line.y),
        LabelPos::End => 1.0 - t_adjust(line.x - line.x2, line.y - line.y2),
        other => other.relative(1.0),
    };
    let pt = match cp {
        Some(cp) => point_in_curve((line.x, line.y), cp, (line.x2, line.y2), t),
        None => (
            line.x + t * (line.x2 - line.x),
            line.y + t * (line.y2 - line.y),
        ),
    };
    let adjust = |coord: f64, size: f64, min: f64, max: f64, pad: f64| {
        let half = size / 2.0;
        if size > max - min {
            return (max + min) / 2.0;
        }
        let mut c = coord;
        if min >= c - pad - half {
            c = min + pad + half;
        }
        if max <= c + pad + half {
            c = max - pad - half;
        }
        c
    };
    let cx = adjust(pt.0, sw, area.left, area.right, p.left) + l.x_adjust;
    let cy = adjust(pt.1, sh, area.top, area.bottom, p.top) + l.y_adjust;
    LabelBox {
        rect: Bounds {
            x: cx - width / 2.0,
            y: cy - height / 2.0,
            x2: cx + width / 2.0,
            y2: cy + height / 2.0,
        },
        rotation: rotation.to_degrees(),
        background: l.shape.background_color,
        point: Some(pt),
    }
}

/// `resolveLabelElementProperties$1`: a box's (or ellipse's) label inside it.
pub(super) fn box_label(
    l: &AnnotationLabel,
    b: &Bounds,
    box_border: f64,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) -> LabelBox {
    let (tw, th) = label_size(l, measure);
    let p = &l.padding;
    let pos = |start: f64,
               end: f64,
               pad0: f64,
               pad1: f64,
               adj: f64,
               size: f64,
               at: chart_spec::model::annotation::LabelPos| {
        let avail = end - box_border - start - pad0 - pad1 - size;
        start + box_border / 2.0 + adj + at.relative(avail)
    };
    let x = pos(b.x, b.x2, p.left, p.right, l.x_adjust, tw, l.position.0);
    let y = pos(b.y, b.y2, p.top, p.bottom, l.y_adjust, th, l.position.1);
    let (w, h) = (tw + p.left + p.right, th + p.top + p.bottom);
    LabelBox {
        rect: Bounds {
            x,
            y,
            x2: x + w,
            y2: y + h,
        },
        rotation: l.rotation.unwrap_or(0.0),
        background: Rgba::TRANSPARENT,
        point: None,
    }
}

/// `measureLabelRectangle` for a `type: 'label'` annotation.
pub(super) fn label_annotation(
    a: &Annotation,
    scales: &Scales<'_>,
    area: &Area,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) -> Option<LabelBox> {
    let point = if bound_to_point(a) {
        chart_point(a, scales, area)
    } else {
        box_bounds(a, scales, area)?.center()
    };
    let l = &a.label;
    let (tw, th) = label_size(l, measure);
    let bw = l.shape.border_width;
    let p = &l.padding;
    let w = tw + p.left + p.right + bw;
    let h = th + p.top + p.bottom + bw;
    let x = point.0 - l.position.0.relative(w) + l.x_adjust;
    let y = point.1 - l.position.1.relative(h) + l.y_adjust;
    Some(LabelBox {
        rect: Bounds {
            x,
            y,
            x2: x + w,
            y2: y + h,
        },
        rotation: a.rotation,
        background: l.shape.background_color,
        point: Some(point),
    })
}

/// `LabelAnnotation.draw`: frame then text lines.
pub(super) fn draw_label(ctx: &mut Ctx<'_>, l: &AnnotationLabel, lb: &LabelBox) {
    if !l.display || l.content.is_empty() {
        return;
    }
    ctx.save();
    rotate_about(ctx, lb.rect.center(), lb.rotation);
    if let (Some(c), Some(pt)) = (&l.callout, lb.point) {
        draw_callout(ctx, c, l.shape.border_width, lb, pt);
    }
    draw_box(ctx, &lb.rect, &l.shape, lb.background);
    // getLabelSize
    let bw = l.shape.border_width;
    let p = &l.padding;
    let x0 = lb.rect.x + p.left + bw / 2.0;
    let y0 = lb.rect.y + p.top + bw / 2.0;
    let w = lb.rect.width() - p.left - p.right - bw;
    let (x, align) = crate::plugins::label_text_anchor(ctx, l.text_align, x0, w);
    let mut y = y0 + l.text_stroke_width / 2.0;
    for (i, line) in l.content.iter().enumerate() {
        let Some(f) = l.fonts.get(i.min(l.fonts.len().saturating_sub(1))) else {
            break;
        };
        let c = l
            .colors
            .get(i.min(l.colors.len().saturating_sub(1)))
            .copied()
            .unwrap_or(Rgba::rgb(0, 0, 0));
        let stroke = l
            .text_stroke_color
            .filter(|_| l.text_stroke_width > 0.0)
            .map(|sc| (l.text_stroke_width, sc));
        ctx.fill_text(
            line,
            x,
            y + f.line_height / 2.0,
            f,
            c,
            align,
            TextBaseline::Middle,
            stroke,
        );
        y += f.line_height;
    }
    ctx.restore();
}

/// Rotates `p` about `c` by `rad` (the plugin's `rotated`).
pub(super) fn rotated(p: (f64, f64), c: (f64, f64), rad: f64) -> (f64, f64) {
    let (co, si) = (libm::cos(rad), libm::sin(rad));
    (
        c.0 + co * (p.0 - c.0) - si * (p.1 - c.1),
        c.1 + si * (p.0 - c.0) + co * (p.1 - c.1),
    )
}

/// `drawCallout`: separator and stub on the label's side nearest the point, then a line
/// to the point; nothing when the point is (nearly) inside the label.
pub(super) fn draw_callout(
    ctx: &mut Ctx<'_>,
    c: &Callout,
    border_width: f64,
    lb: &LabelBox,
    pt: (f64, f64),
) {
    let r = &lb.rect;
    let (w, h) = (r.width(), r.height());
    let center = r.center();
    let rad = lb.rotation.to_radians();
    // resolveCalloutPosition: 0 left, 1 bottom, 2 top, 3 right.
    let pos = c.position.unwrap_or_else(|| {
        let (xa, ya) = (c.start.of(w), c.start.of(h));
        let xs = [r.x, r.x + xa, r.x + xa, r.x2];
        let ys = [r.y + ya, r.y2, r.y, r.y2];
        let mut best = (0, f64::INFINITY);
        for i in 0..4 {
            let q = rotated((xs[i], ys[i]), center, rad);
            let d = (squared(q.0 - pt.0) + squared(q.1 - pt.1)).sqrt();
            if d < best.1 {
                best = (i, d);
            }
        }
        best.0
    });
    // isPointInRange
    let (mut px, mut py) = pt;
    match pos {
        0 => px += c.margin,
        3 => px -= c.margin,
        2 => py += c.margin,
        _ => py -= c.margin,
    }
    let q = rotated((px, py), center, -rad);
    let hit = border_width / 2.0 + 0.001;
    if q.0 >= r.x - hit && q.0 <= r.x2 + hit && q.1 >= r.y - hit && q.1 <= r.y2 + hit {
        return;
    }
    if c.shape.border_width.is_nan() || c.shape.border_width <= 0.0 {
        return;
    }
    let adjust = c.margin + border_width / 2.0;
    let sep = match pos {
        3 => w + adjust,
        1 => h + adjust,
        _ => -adjust,
    };
    let side = if pos == 0 || pos == 2 {
        -c.side
    } else {
        c.side
    };
    let (s0, s1, k0, k1) = if pos == 0 || pos == 3 {
        let s0 = (r.x + sep, r.y);
        let k0 = (s0.0, r.y + c.start.of(h));
        (s0, (s0.0, r.y2), k0, (k0.0 + side, k0.1))
    } else {
        let s0 = (r.x, r.y + sep);
        let k0 = (s0.0 + c.start.of(w), s0.1);
        (s0, (r.x2, s0.1), k0, (k0.0, k0.1 + side))
    };
    let mut p = P::new();
    if c.margin > 0.0 || border_width == 0.0 {
        p.move_to(s0.0, s0.1);
        p.line_to(s1.0, s1.1);
    }
    p.move_to(k0.0, k0.1);
    p.line_to(k1.0, k1.1);
    let target = rotated(pt, center, -rad);
    p.line_to(target.0, target.1);
    ctx.stroke(&p, &stroke_style(&c.shape));
}

/// `DoughnutLabelAnnotation`: `getControllerMeta`, `autoFit`, `drawBackground`, then the
/// text centred in the hole.
pub(super) fn draw_doughnut_label(
    ctx: &mut Ctx<'_>,
    a: &Annotation,
    scales: &Scales<'_>,
    area: &Area,
    measure: &dyn Fn(&chart_spec::values::Font, &str) -> f64,
) {
    let l = &a.label;
    let Some((x, y, inner)) = scales.hole else {
        return;
    };
    if l.content.is_empty() {
        return;
    }
    let sq_l = (x - inner).max(area.left);
    let sq_r = (x + inner).min(area.right);
    let sq_t = (y - inner).max(area.top);
    let sq_b = (y + inner).min(area.bottom);
    let point = ((sq_l + sq_r) / 2.0, (sq_t + sq_b) / 2.0);
    let radius = inner.min((sq_r - sq_l).min(sq_b - sq_t) / 2.0);
    let (mut w, mut h) = label_size(l, measure);
    let ratio = radius * 2.0 / (w * w + h * h).sqrt();
    let mut label = l.clone();
    if a.auto_fit && ratio < 1.0 {
        // `toFonts` with `fitRatio`: floored sizes, the same line-height factor. (The plugin
        // scales the size as written, so a font without a size gets NaN and the canvas keeps
        // its previous font; the resolved size is scaled here.)
        label.fonts = l
            .fonts
            .iter()
            .map(|f| {
                // A ratio below 0 or NaN (an empty hole) shrinks to nothing.
                let size = (f.size * ratio).floor().max(0.0);
                let factor = if f.size > 0.0 {
                    f.line_height / f.size
                } else {
                    1.2
                };
                let mut g = f.clone();
                g.size = size;
                g.line_height = size * factor;
                g.spec.size = size as f32;
                g.spec.line_height = g.line_height as f32;
                g
            })
            .collect();
        w *= ratio;
        h *= ratio;
    }
    // drawBackground: the hole's circle, flattened where the chart area cuts it.
    let space = a.spacing + l.shape.border_width / 2.0;
    let r = inner - space;
    let ccw = point.1 > y;
    let side = if ccw {
        area.top + space
    } else {
        area.bottom - space
    };
    let (start, end) = hole_angles(side, x, y, r);
    let mut p = P::new();
    p.arc(x, y, r, start, end, ccw);
    p.close();
    ctx.fill(&p, l.shape.background_color);
    if l.shape.border_width > 0.0 {
        ctx.stroke(&p, &stroke_style(&l.shape));
    }
    // measureLabelRectangle without padding or border, then drawLabel on that box.
    let bx = point.0 - l.position.0.relative(w) + l.x_adjust;
    let by = point.1 - l.position.1.relative(h) + l.y_adjust;
    let lb = LabelBox {
        rect: Bounds {
            x: bx,
            y: by,
            x2: bx + w,
            y2: by + h,
        },
        rotation: a.rotation,
        background: Rgba::TRANSPARENT,
        point: None,
    };
    label.shape.border_width = 0.0;
    label.padding = chart_spec::values::Sides::all(0.0);
    label.display = true;
    draw_label(ctx, &label, &lb);
}

/// `getAngles`: where the line `y` crosses the circle, as angles (a full circle when it
/// does not).
pub(super) fn hole_angles(y: f64, cx: f64, cy: f64, r: f64) -> (f64, f64) {
    let yk2 = squared(cy - y);
    let b = cx * -2.0;
    let c = cx * cx + yk2 - r * r;
    let delta = b * b - 4.0 * c;
    if delta <= 0.0 {
        return (0.0, 2.0 * PI);
    }
    let start = (-b - delta.sqrt()) / 2.0;
    let end = (-b + delta.sqrt()) / 2.0;
    // getAngleFromPoint: in (-π/2, 3π/2].
    let angle = |px: f64| {
        let a = libm::atan2(y - cy, px - cx);
        if a < -0.5 * PI {
            a + 2.0 * PI
        } else {
            a
        }
    };
    (angle(start), angle(end))
}
