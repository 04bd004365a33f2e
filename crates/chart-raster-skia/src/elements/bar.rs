//! Bar element: `BarElement.draw` with `boundingRects`, per-side borders, per-corner radii
//! (`addRoundedRectPath`) and `inflateAmount`.

use super::{Ctx, P};
use crate::scene::PathCmd;
use chart_spec::model::{BarBorderWidth, BarOptions, BarRadius};
use chart_spec::values::Corners;
use std::f64::consts::{FRAC_PI_2, PI};

/// Which sides `borderSkipped` resolved to.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Skipped {
    /// Top side.
    pub top: bool,
    /// Right side.
    pub right: bool,
    /// Bottom side.
    pub bottom: bool,
    /// Left side.
    pub left: bool,
}

/// A positioned bar, as the bar controller leaves it.
#[derive(Debug, Clone)]
pub struct Bar {
    /// Centre x (vertical bars) or value end (horizontal).
    pub x: f64,
    /// Value end (vertical) or centre y (horizontal).
    pub y: f64,
    /// The base pixel.
    pub base: f64,
    /// Width (vertical bars).
    pub width: f64,
    /// Height (horizontal bars).
    pub height: f64,
    /// Horizontal bar.
    pub horizontal: bool,
    /// `enableBorderRadius`.
    pub enable_border_radius: bool,
    /// Resolved `borderSkipped`.
    pub skipped: Skipped,
    /// `inflateAmount` after `'auto'` resolution.
    pub inflate_amount: f64,
    /// Options.
    pub options: BarOptions,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    r: Corners,
}

fn limit(skip: bool, v: f64, min: f64, max: f64) -> f64 {
    if skip {
        0.0
    } else {
        v.max(min).min(max)
    }
}

impl Bar {
    /// `getBarBounds`: left, top, right, bottom.
    pub fn bounds(&self) -> (f64, f64, f64, f64) {
        if self.horizontal {
            let half = self.height / 2.0;
            (
                self.x.min(self.base),
                self.y - half,
                self.x.max(self.base),
                self.y + half,
            )
        } else {
            let half = self.width / 2.0;
            (
                self.x - half,
                self.y.min(self.base),
                self.x + half,
                self.y.max(self.base),
            )
        }
    }

    fn rects(&self) -> (Rect, Rect) {
        let (l, t, r, b) = self.bounds();
        let (width, height) = (r - l, b - t);
        let (max_w, max_h) = (width / 2.0, height / 2.0);
        let s = self.skipped;
        let bw = match self.options.border_width {
            BarBorderWidth::All(v) => (v, v, v, v),
            BarBorderWidth::Sides(sd) => (sd.top, sd.right, sd.bottom, sd.left),
        };
        let (bt, br, bb, bl) = (
            limit(s.top, bw.0, 0.0, max_h),
            limit(s.right, bw.1, 0.0, max_w),
            limit(s.bottom, bw.2, 0.0, max_h),
            limit(s.left, bw.3, 0.0, max_w),
        );
        let (is_obj, c) = match self.options.border_radius {
            BarRadius::All(v) => (false, (v, v, v, v)),
            BarRadius::Corners(c) => (
                true,
                (c.top_left, c.top_right, c.bottom_left, c.bottom_right),
            ),
        };
        let max_r = max_w.min(max_h);
        let en = self.enable_border_radius || is_obj;
        let radius = Corners {
            top_left: limit(!en || s.top || s.left, c.0, 0.0, max_r),
            top_right: limit(!en || s.top || s.right, c.1, 0.0, max_r),
            bottom_left: limit(!en || s.bottom || s.left, c.2, 0.0, max_r),
            bottom_right: limit(!en || s.bottom || s.right, c.3, 0.0, max_r),
        };
        let outer = Rect {
            x: l,
            y: t,
            w: width,
            h: height,
            r: radius,
        };
        let inner = Rect {
            x: l + bl,
            y: t + bt,
            w: width - bl - br,
            h: height - bt - bb,
            r: Corners {
                top_left: (radius.top_left - bt.max(bl)).max(0.0),
                top_right: (radius.top_right - bt.max(br)).max(0.0),
                bottom_left: (radius.bottom_left - bb.max(bl)).max(0.0),
                bottom_right: (radius.bottom_right - bb.max(br)).max(0.0),
            },
        };
        (outer, inner)
    }
}

fn has_radius(r: &Corners) -> bool {
    r.top_left != 0.0 || r.top_right != 0.0 || r.bottom_left != 0.0 || r.bottom_right != 0.0
}

/// `inflateRect(rect, amount, refRect)`.
fn inflate(rect: Rect, amount: f64, refr: Option<Rect>) -> Rect {
    let (x, y, w, h) = match refr {
        Some(rf) => {
            let x = if rect.x != rf.x { -amount } else { 0.0 };
            let y = if rect.y != rf.y { -amount } else { 0.0 };
            let w = (if rect.x + rect.w != rf.x + rf.w {
                amount
            } else {
                0.0
            }) - x;
            let h = (if rect.y + rect.h != rf.y + rf.h {
                amount
            } else {
                0.0
            }) - y;
            (x, y, w, h)
        }
        // refRect = {}: every comparison with undefined is "different".
        None => (-amount, -amount, 2.0 * amount, 2.0 * amount),
    };
    Rect {
        x: rect.x + x,
        y: rect.y + y,
        w: rect.w + w,
        h: rect.h + h,
        r: rect.r,
    }
}

fn add_rect_path(p: &mut P, r: &Rect, rounded: bool) {
    if !rounded {
        p.rect(r.x, r.y, r.w, r.h);
        return;
    }
    let c = &r.r;
    add_rounded_rect_path(
        p,
        r.x,
        r.y,
        r.w,
        r.h,
        c.top_left,
        c.top_right,
        c.bottom_left,
        c.bottom_right,
    );
}

/// Mirrors `addRoundedRectPath` in helpers.canvas.
#[allow(clippy::too_many_arguments)]
pub fn add_rounded_rect_path(
    p: &mut P,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    tl: f64,
    tr: f64,
    bl: f64,
    br: f64,
) {
    p.arc(x + tl, y + tl, tl, 1.5 * PI, PI, true);
    p.line_to(x, y + h - bl);
    p.arc(x + bl, y + h - bl, bl, PI, FRAC_PI_2, true);
    p.line_to(x + w - br, y + h);
    p.arc(x + w - br, y + h - br, br, FRAC_PI_2, 0.0, true);
    p.line_to(x + w, y + tr);
    p.arc(x + w - tr, y + tr, tr, 0.0, -FRAC_PI_2, true);
    p.line_to(x + tl, y);
}

/// Reverses every subpath of a path, so that with the non-zero rule it cuts a hole into a
/// path of the other direction: how we express canvas's `fill('evenodd')` of two nested
/// rectangles.
fn reversed(p: P) -> P {
    let cmds = p.into_path().cmds;
    let mut out = P::new();
    let mut sub: Vec<PathCmd> = Vec::new();
    let flush = |sub: &mut Vec<PathCmd>, out: &mut P| {
        if sub.is_empty() {
            return;
        }
        // Collect points with the segment that ends at each.
        let mut start = (0.0f32, 0.0f32);
        let mut segs: Vec<((f32, f32), PathCmd)> = Vec::new();
        let mut cur = (0.0f32, 0.0f32);
        let mut closed = false;
        for c in sub.iter() {
            match *c {
                PathCmd::MoveTo(x, y) => {
                    start = (x, y);
                    cur = (x, y);
                }
                PathCmd::Close => closed = true,
                c => {
                    segs.push((cur, c));
                    cur = match c {
                        PathCmd::LineTo(x, y) | PathCmd::QuadTo(_, _, x, y) => (x, y),
                        PathCmd::CubicTo(_, _, _, _, x, y) => (x, y),
                        _ => cur,
                    };
                }
            }
        }
        out.move_to(f64::from(cur.0), f64::from(cur.1));
        for (from, c) in segs.iter().rev() {
            match *c {
                PathCmd::LineTo(..) => out.line_to(f64::from(from.0), f64::from(from.1)),
                PathCmd::QuadTo(cx, cy, ..) => {
                    out.cubic_to(
                        f64::from(cx),
                        f64::from(cy),
                        f64::from(cx),
                        f64::from(cy),
                        f64::from(from.0),
                        f64::from(from.1),
                    );
                }
                PathCmd::CubicTo(a, b, c2, d, ..) => out.cubic_to(
                    f64::from(c2),
                    f64::from(d),
                    f64::from(a),
                    f64::from(b),
                    f64::from(from.0),
                    f64::from(from.1),
                ),
                _ => {}
            }
        }
        let _ = start;
        if closed {
            out.close();
        }
        sub.clear();
    };
    for c in cmds {
        if matches!(c, PathCmd::MoveTo(..)) {
            flush(&mut sub, &mut out);
        }
        sub.push(c);
    }
    flush(&mut sub, &mut out);
    out
}

/// `BarElement.draw`.
pub fn draw_bar(ctx: &mut Ctx<'_>, bar: &Bar) {
    let (outer, inner) = bar.rects();
    let rounded = has_radius(&outer.r);
    let amount = bar.inflate_amount;
    ctx.save();
    if outer.w != inner.w || outer.h != inner.h {
        let mut clip = P::new();
        add_rect_path(&mut clip, &inflate(outer, amount, Some(inner)), rounded);
        let mut ring = clip.clone();
        ctx.clip(clip);
        let mut hole = P::new();
        add_rect_path(&mut hole, &inflate(inner, -amount, Some(outer)), rounded);
        // Append the reversed inner path: outer + hole with non-zero = even-odd ring.
        for c in reversed(hole).into_path().cmds {
            match c {
                PathCmd::MoveTo(x, y) => ring.move_to(f64::from(x), f64::from(y)),
                PathCmd::LineTo(x, y) => ring.line_to(f64::from(x), f64::from(y)),
                PathCmd::CubicTo(a, b, c2, d, x, y) => ring.cubic_to(
                    f64::from(a),
                    f64::from(b),
                    f64::from(c2),
                    f64::from(d),
                    f64::from(x),
                    f64::from(y),
                ),
                PathCmd::QuadTo(a, b, x, y) => ring.cubic_to(
                    f64::from(a),
                    f64::from(b),
                    f64::from(a),
                    f64::from(b),
                    f64::from(x),
                    f64::from(y),
                ),
                PathCmd::Close => ring.close(),
            }
        }
        ctx.fill(&ring, bar.options.border_color);
    }
    let mut body = P::new();
    add_rect_path(&mut body, &inflate(inner, amount, None), rounded);
    ctx.fill(&body, bar.options.background_color);
    ctx.restore();
}
