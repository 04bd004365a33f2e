//! The geometry of Chart.js's `radialLinear` scale (scale.radialLinear.js): centre and
//! drawing area (`setDimensions`, `fitWithPointLabels`, `setCenterPoint`), angles and point
//! positions, value → distance, and the placement of point labels (`buildPointLabelItems`,
//! with `display: 'auto'` hiding overlapping labels).

use crate::scene::TextAlign;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// `_normalizeAngle`: into [0, 2π).
pub fn normalize_angle(a: f64) -> f64 {
    (a % TAU + TAU) % TAU
}

/// JavaScript's `Math.round`.
fn js_round(v: f64) -> f64 {
    (v + 0.5).floor()
}

/// Width and height of a (possibly multi-line) label: `measureLabelSize`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LabelSize {
    /// Widest line.
    pub w: f64,
    /// Lines × line height.
    pub h: f64,
}

/// Where a point label is drawn (`createPointLabelItem`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointLabelItem {
    /// False when `display: 'auto'` hid it.
    pub visible: bool,
    /// Anchor x (text is aligned on it with `align`).
    pub x: f64,
    /// Top of the label box.
    pub y: f64,
    /// Horizontal alignment.
    pub align: TextAlign,
    /// Box left.
    pub left: f64,
    /// Box top.
    pub top: f64,
    /// Box right.
    pub right: f64,
    /// Box bottom.
    pub bottom: f64,
}

/// The radial scale's geometry state.
#[derive(Debug, Clone, PartialEq)]
pub struct RadialGeometry {
    /// `xCenter`.
    pub x_center: f64,
    /// `yCenter`.
    pub y_center: f64,
    /// `drawingArea`: the radius of the value axis.
    pub drawing_area: f64,
    /// Number of point labels (visible data indices).
    pub label_count: usize,
    /// `startAngle` option, degrees. Default: 0.
    pub start_angle_deg: f64,
    /// Scale minimum.
    pub min: f64,
    /// Scale maximum.
    pub max: f64,
    /// `reverse`.
    pub reverse: bool,
    /// `_padding` (uniform, half the tick backdrop height).
    pub padding: f64,
    /// Box of the scale (the chart area given to it).
    pub left: f64,
    /// Box top.
    pub top: f64,
    /// Box right.
    pub right: f64,
    /// Box bottom.
    pub bottom: f64,
}

/// `determineLimits` of scale.radialLinear.
fn determine_limits(angle: f64, pos: f64, size: f64, min: f64, max: f64) -> (f64, f64) {
    if angle == min || angle == max {
        (pos - size / 2.0, pos + size / 2.0)
    } else if angle < min || angle > max {
        (pos - size, pos)
    } else {
        (pos, pos + size)
    }
}

/// `getTextAlignForAngle`.
fn text_align_for_angle(angle: f64) -> TextAlign {
    if angle == 0.0 || angle == 180.0 {
        TextAlign::Center
    } else if angle < 180.0 {
        TextAlign::Left
    } else {
        TextAlign::Right
    }
}

/// `yForAngle`.
fn y_for_angle(y: f64, h: f64, angle: f64) -> f64 {
    if angle == 90.0 || angle == 270.0 {
        y - h / 2.0
    } else if !(90.0..=270.0).contains(&angle) {
        y - h
    } else {
        y
    }
}

impl RadialGeometry {
    /// `setDimensions`: the box `(left, top, maxWidth, maxHeight)` minus the tick backdrop
    /// padding (`tick_backdrop_height / 2` on each side).
    pub fn set_dimensions(
        left: f64,
        top: f64,
        max_width: f64,
        max_height: f64,
        tick_backdrop_height: f64,
    ) -> Self {
        let padding = tick_backdrop_height / 2.0;
        let w = max_width - 2.0 * padding;
        let h = max_height - 2.0 * padding;
        RadialGeometry {
            x_center: (left + w / 2.0 + padding).floor(),
            y_center: (top + h / 2.0 + padding).floor(),
            drawing_area: (w.min(h) / 2.0).floor(),
            label_count: 0,
            start_angle_deg: 0.0,
            min: 0.0,
            max: 0.0,
            reverse: false,
            padding,
            left,
            top,
            right: left + max_width,
            bottom: top + max_height,
        }
    }

    /// `getIndexAngle`: radians from 12 o'clock, clockwise, normalised.
    pub fn index_angle(&self, index: usize) -> f64 {
        let mult = TAU / (self.label_count.max(1) as f64);
        normalize_angle(index as f64 * mult + self.start_angle_deg.to_radians())
    }

    /// `getPointPosition`: `(x, y, angle)` at `distance` from the centre along index `index`.
    pub fn point_position(&self, index: usize, distance: f64, additional: f64) -> (f64, f64, f64) {
        let angle = self.index_angle(index) - FRAC_PI_2 + additional;
        (
            libm::cos(angle) * distance + self.x_center,
            libm::sin(angle) * distance + self.y_center,
            angle,
        )
    }

    /// `getDistanceFromCenterForValue`.
    pub fn distance_for_value(&self, value: f64) -> f64 {
        let factor = self.drawing_area / (self.max - self.min);
        if self.reverse {
            (self.max - value) * factor
        } else {
            (value - self.min) * factor
        }
    }

    /// `setCenterPoint`.
    pub fn set_center_point(&mut self, l: f64, r: f64, t: f64, b: f64) {
        self.x_center += ((l - r) / 2.0).floor();
        self.y_center += ((t - b) / 2.0).floor();
        self.drawing_area -= (self.drawing_area / 2.0).min(l.max(r).max(t).max(b));
    }

    /// `fitWithPointLabels`: moves the centre and shrinks the radius so that every point label
    /// (sizes and paddings per index) fits the box, then places the labels.
    /// `backdrop_extra` is `getTickBackdropHeight / 2`; `display_auto` hides overlapping labels.
    pub fn fit_with_point_labels(
        &mut self,
        sizes: &[LabelSize],
        paddings: &[f64],
        center_labels: bool,
        backdrop_extra: f64,
        display_auto: bool,
    ) -> Vec<PointLabelItem> {
        let orig = (
            self.left + self.padding,
            self.right - self.padding,
            self.top + self.padding,
            self.bottom - self.padding,
        );
        let (mut ll, mut lr, mut lt, mut lb) = orig;
        let n = sizes.len();
        let additional = if center_labels { PI / n as f64 } else { 0.0 };
        for (i, size) in sizes.iter().enumerate() {
            let pad = paddings.get(i).copied().unwrap_or(5.0);
            let (px, py, _) = self.point_position(i, self.drawing_area + pad, additional);
            let angle_rad = normalize_angle(self.index_angle(i) + additional);
            let angle = js_round(angle_rad.to_degrees());
            let h = determine_limits(angle, px, size.w, 0.0, 180.0);
            let v = determine_limits(angle, py, size.h, 90.0, 270.0);
            // updateLimits
            let sin = libm::sin(angle_rad).abs();
            let cos = libm::cos(angle_rad).abs();
            if h.0 < orig.0 {
                let x = (orig.0 - h.0) / sin;
                ll = ll.min(orig.0 - x);
            } else if h.1 > orig.1 {
                let x = (h.1 - orig.1) / sin;
                lr = lr.max(orig.1 + x);
            }
            if v.0 < orig.2 {
                let y = (orig.2 - v.0) / cos;
                lt = lt.min(orig.2 - y);
            } else if v.1 > orig.3 {
                let y = (v.1 - orig.3) / cos;
                lb = lb.max(orig.3 + y);
            }
        }
        self.set_center_point(orig.0 - ll, lr - orig.1, orig.2 - lt, lb - orig.3);
        self.point_label_items(sizes, paddings, additional, backdrop_extra, display_auto)
    }

    /// `buildPointLabelItems`.
    fn point_label_items(
        &self,
        sizes: &[LabelSize],
        paddings: &[f64],
        additional: f64,
        extra: f64,
        display_auto: bool,
    ) -> Vec<PointLabelItem> {
        let mut items: Vec<PointLabelItem> = Vec::with_capacity(sizes.len());
        let mut area: Option<PointLabelItem> = None;
        for (i, size) in sizes.iter().enumerate() {
            let pad = paddings.get(i).copied().unwrap_or(5.0);
            let (px, py, pangle) =
                self.point_position(i, self.drawing_area + extra + pad, additional);
            let angle = js_round(normalize_angle(pangle + FRAC_PI_2).to_degrees());
            let y = y_for_angle(py, size.h, angle);
            let align = text_align_for_angle(angle);
            let left = match align {
                TextAlign::Right => px - size.w,
                TextAlign::Center => px - size.w / 2.0,
                TextAlign::Left => px,
            };
            let mut item = PointLabelItem {
                visible: true,
                x: px,
                y,
                align,
                left,
                top: y,
                right: left + size.w,
                bottom: y + size.h,
            };
            if display_auto {
                item.visible = area.is_none_or(|a| !overlaps(&item, &a));
                if item.visible {
                    area = Some(item);
                }
            }
            items.push(item);
        }
        items
    }
}

/// `isNotOverlapped`, negated: a corner of `item` lies in `area` (`_isPointInArea` with its
/// half-pixel tolerance).
fn overlaps(item: &PointLabelItem, area: &PointLabelItem) -> bool {
    let inside = |x: f64, y: f64| {
        let eps = 0.5;
        x > area.left - eps && x < area.right + eps && y > area.top - eps && y < area.bottom + eps
    };
    inside(item.left, item.top)
        || inside(item.left, item.bottom)
        || inside(item.right, item.top)
        || inside(item.right, item.bottom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_and_radius() {
        let mut g = RadialGeometry::set_dimensions(0.0, 0.0, 512.0, 512.0, 16.0);
        assert_eq!(
            (g.x_center, g.y_center, g.drawing_area),
            (256.0, 256.0, 248.0)
        );
        g.label_count = 4;
        g.min = 0.0;
        g.max = 10.0;
        assert_eq!(g.distance_for_value(5.0), 124.0);
        let (x, y, _) = g.point_position(1, 100.0, 0.0);
        assert!((x - 356.0).abs() < 1e-9 && (y - 256.0).abs() < 1e-9);
    }

    #[test]
    fn labels_shrink_the_radius() {
        let mut g = RadialGeometry::set_dimensions(0.0, 0.0, 200.0, 200.0, 16.0);
        g.label_count = 4;
        let sizes = vec![LabelSize { w: 40.0, h: 12.0 }; 4];
        let items = g.fit_with_point_labels(&sizes, &[5.0; 4], false, 8.0, false);
        assert!(g.drawing_area < 92.0);
        assert_eq!(items[0].align, TextAlign::Center);
        assert_eq!(items[1].align, TextAlign::Left);
        assert_eq!(items[3].align, TextAlign::Right);
    }
}
