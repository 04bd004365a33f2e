//! The box model of Chart.js (core.layouts): boxes (scales, title, subtitle, legend) fitted
//! around the chart area in Chart.js's order, with the same arithmetic.

use crate::elements::Area;
use crate::text::TextEngine;
use chart_spec::model::Axis;
use chart_spec::values::Sides;
use std::collections::HashMap;

/// Where a box sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoxPos {
    /// `'left'`.
    Left,
    /// `'top'`.
    Top,
    /// `'right'`.
    Right,
    /// `'bottom'`.
    Bottom,
    /// `'chartArea'`.
    ChartArea,
    /// `'center'` or `{axis: value}`: placed by axis, not an edge.
    Dynamic,
}

/// Where everything of a chart sits after its update, in CSS px of the canvas: what the
/// drawing reads, and what the layout oracle of `cargo xtask compare` holds against the live
/// Chart.js object (`chart.chartArea`, each scale's box and `getPixelForTick`, the elements
/// of `getDatasetMeta(i).data`). Serializes to JSON with the same names.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Layout {
    /// Canvas width.
    pub width: f64,
    /// Canvas height.
    pub height: f64,
    /// `chart.chartArea`.
    pub chart_area: Area,
    /// The boxes other than scales (legend, subtitle, title), in Chart.js's plugin order.
    pub boxes: Vec<PlacedBox>,
    /// Every scale, in `options.scales` order.
    pub scales: Vec<ScaleLayout>,
    /// Every dataset, by dataset index.
    pub datasets: Vec<DatasetLayout>,
}

/// A layout box that is not a scale.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PlacedBox {
    /// `legend`, `subtitle` or `title`.
    pub kind: String,
    /// `left`, `top`, `right`, `bottom`.
    pub rect: Area,
}

/// A scale after layout and `configure()`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ScaleLayout {
    /// The scale id (`options.scales` key).
    pub id: String,
    /// `x`, `y` or `r`.
    pub axis: String,
    /// Whether the scale is drawn (`display`, or `'auto'` with a visible dataset on it).
    pub visible: bool,
    /// `left`, `top`, `right`, `bottom`.
    pub rect: Area,
    /// `scale.ticks` after auto-skip, each with `getPixelForTick(i)`.
    pub ticks: Vec<TickLayout>,
}

/// One tick of a scale.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TickLayout {
    /// `value`.
    pub value: f64,
    /// `label` (lines); `None` when the tick has none.
    pub label: Option<Vec<String>>,
    /// `getPixelForTick(i)` (NaN, serialized as `null`, where the scale has no such pixel).
    pub pixel: f64,
}

/// One dataset's elements after its controller's update.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DatasetLayout {
    /// Dataset index.
    pub index: usize,
    /// `chart.isDatasetVisible(index)`.
    pub visible: bool,
    /// The clip area (`getDatasetClipArea`); `None` when clipping is off.
    pub clip: Option<Area>,
    /// Each element's geometry by data index (`None`: skipped, or a chart type whose
    /// elements are not described yet).
    pub elements: Vec<Option<crate::elements::geometry::ElementGeometry>>,
}

/// A layout box (`layouts.addBox` item).
pub trait LayoutBox {
    /// `position`.
    fn pos(&self) -> BoxPos;
    /// `weight`.
    fn weight(&self) -> f64;
    /// `fullSize`.
    fn full_size(&self) -> bool;
    /// `isHorizontal()`.
    fn is_horizontal(&self) -> bool;
    /// `axis` (scales) for dynamic positions.
    fn axis(&self) -> Option<Axis> {
        None
    }
    /// `options.stack` / `options.stackWeight`.
    fn stack(&self) -> (Option<String>, f64) {
        (None, 1.0)
    }
    /// `options.display !== false`.
    fn displayed(&self) -> bool;
    /// `update(maxWidth, maxHeight, margins)`.
    fn update(&mut self, max_width: f64, max_height: f64, margins: Sides, text: &TextEngine);
    /// `getPadding()`, for boxes that have it (scales).
    fn padding(&self) -> Option<Sides> {
        None
    }
    /// Current width.
    fn width(&self) -> f64;
    /// Current height.
    fn height(&self) -> f64;
    /// `setBoxDims` (and `Object.assign(box, chartArea)` for chartArea boxes).
    fn set_dims(&mut self, left: f64, top: f64, width: f64, height: f64);
}

/// The geometry every Chart.js layout box element keeps, for the boxes that own it (title,
/// legend): where it is (`left`, `top`, `right`, `bottom`) and its size (`width`, `height`),
/// which the box's `update` sets before the layout places it, so the two are kept apart as
/// Chart.js keeps them (`right - left` need not be `width` to the last bit).
#[derive(Debug, Clone, Copy, Default)]
pub struct BoxRect {
    /// `left`, `top`, `right`, `bottom`.
    pub area: Area,
    /// `width`.
    pub width: f64,
    /// `height`.
    pub height: f64,
}

impl BoxRect {
    /// `setBoxDims`: places the box and derives `right` and `bottom`.
    pub fn set_dims(&mut self, left: f64, top: f64, width: f64, height: f64) {
        self.area = Area {
            left,
            top,
            right: left + width,
            bottom: top + height,
        };
        self.width = width;
        self.height = height;
    }
}

struct Wrap {
    index: usize,
    pos: BoxPos,
    horizontal: bool,
    weight: f64,
    stack: Option<String>,
    stack_weight: f64,
    width: f64,
    height: f64,
    size: f64,
    full_size: bool,
}

#[derive(Default, Clone, Debug)]
struct StackInfo {
    count: f64,
    placed: f64,
    weight: f64,
    size: f64,
    start: Option<f64>,
}

struct Params {
    outer_width: f64,
    outer_height: f64,
    padding: Sides,
    available_width: f64,
    available_height: f64,
    v_box_max_width: f64,
    h_box_max_height: f64,
}

/// The chart area being fitted (`chartArea` of `layouts.update`).
#[derive(Debug, Clone, Copy)]
struct CA {
    /// Accumulated sizes on each side (start as the padding).
    sides: Sides,
    /// `maxPadding`.
    max_padding: Sides,
    w: f64,
    h: f64,
    x: f64,
    y: f64,
}

/// The side of `s` a box at `p` sits on (bottom for the rest, as `chartArea[pos]` of the
/// boxes that reach it).
fn side(s: &Sides, p: BoxPos) -> f64 {
    match p {
        BoxPos::Left => s.left,
        BoxPos::Top => s.top,
        BoxPos::Right => s.right,
        _ => s.bottom,
    }
}

fn side_mut(s: &mut Sides, p: BoxPos) -> &mut f64 {
    match p {
        BoxPos::Left => &mut s.left,
        BoxPos::Top => &mut s.top,
        BoxPos::Right => &mut s.right,
        _ => &mut s.bottom,
    }
}

fn sort_by_weight(v: &mut [usize], wraps: &[Wrap], reverse: bool) {
    v.sort_by(|&a, &b| {
        let (v0, v1) = if reverse {
            (&wraps[b], &wraps[a])
        } else {
            (&wraps[a], &wraps[b])
        };
        if v0.weight == v1.weight {
            v0.index.cmp(&v1.index)
        } else {
            v0.weight
                .partial_cmp(&v1.weight)
                .unwrap_or(std::cmp::Ordering::Equal)
        }
    });
}

fn stack_key(w: &Wrap) -> Option<String> {
    match (w.pos, &w.stack) {
        (BoxPos::Left | BoxPos::Top | BoxPos::Right | BoxPos::Bottom, Some(s)) => {
            Some(format!("{:?}{s}", w.pos))
        }
        _ => None,
    }
}

/// Mirrors `layouts.update(chart, width, height, minPadding)`; returns the chart area.
pub fn update(
    boxes: &mut [&mut dyn LayoutBox],
    width: f64,
    height: f64,
    padding: Sides,
    min_padding: f64,
    text: &TextEngine,
) -> Area {
    let available_width = (width - padding.width()).max(0.0);
    let available_height = (height - padding.height()).max(0.0);
    let mut wraps: Vec<Wrap> = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let (stack, sw) = b.stack();
            Wrap {
                index: i,
                pos: b.pos(),
                horizontal: b.is_horizontal(),
                weight: b.weight(),
                stack,
                stack_weight: sw,
                width: 0.0,
                height: 0.0,
                size: 0.0,
                full_size: b.full_size(),
            }
        })
        .collect();
    // buildLayoutBoxes
    let all: Vec<usize> = (0..wraps.len()).collect();
    let mut full: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&i| wraps[i].full_size)
        .collect();
    sort_by_weight(&mut full, &wraps, true);
    let by =
        |p: BoxPos| -> Vec<usize> { all.iter().copied().filter(|&i| wraps[i].pos == p).collect() };
    let mut left = by(BoxPos::Left);
    sort_by_weight(&mut left, &wraps, true);
    let mut right = by(BoxPos::Right);
    sort_by_weight(&mut right, &wraps, false);
    let mut top = by(BoxPos::Top);
    sort_by_weight(&mut top, &wraps, true);
    let mut bottom = by(BoxPos::Bottom);
    sort_by_weight(&mut bottom, &wraps, false);
    let dyn_axis = |a: Axis| -> Vec<usize> {
        all.iter()
            .copied()
            .filter(|&i| wraps[i].pos == BoxPos::Dynamic && boxes[i].axis() == Some(a))
            .collect()
    };
    let center_h = dyn_axis(Axis::X);
    let center_v = dyn_axis(Axis::Y);
    let left_and_top: Vec<usize> = left.iter().chain(top.iter()).copied().collect();
    let right_and_bottom: Vec<usize> = right
        .iter()
        .chain(center_v.iter())
        .chain(bottom.iter())
        .chain(center_h.iter())
        .copied()
        .collect();
    let chart_area_boxes = by(BoxPos::ChartArea);
    let vertical: Vec<usize> = left
        .iter()
        .chain(right.iter())
        .chain(center_v.iter())
        .copied()
        .collect();
    let horizontal: Vec<usize> = top
        .iter()
        .chain(bottom.iter())
        .chain(center_h.iter())
        .copied()
        .collect();

    let visible_vertical = vertical
        .iter()
        .filter(|&&i| boxes[i].displayed())
        .count()
        .max(1);
    let params = Params {
        outer_width: width,
        outer_height: height,
        padding,
        available_width,
        available_height,
        v_box_max_width: available_width / 2.0 / visible_vertical as f64,
        h_box_max_height: available_height / 2.0,
    };
    let max_padding = Sides {
        top: padding.top.max(min_padding),
        right: padding.right.max(min_padding),
        bottom: padding.bottom.max(min_padding),
        left: padding.left.max(min_padding),
    };
    let mut ca = CA {
        sides: padding,
        max_padding,
        w: available_width,
        h: available_height,
        x: padding.left,
        y: padding.top,
    };
    // setLayoutDims
    let mut stacks: HashMap<String, StackInfo> = HashMap::new();
    for w in &wraps {
        if let Some(k) = stack_key(w) {
            let s = stacks.entry(k).or_default();
            s.count += 1.0;
            s.weight += w.stack_weight;
        }
    }
    for &i in vertical.iter().chain(horizontal.iter()) {
        let w = &mut wraps[i];
        let factor = stack_key(w)
            .and_then(|k| stacks.get(&k))
            .map(|s| w.stack_weight / s.weight);
        if w.horizontal {
            w.width = match factor {
                Some(f) if f != 0.0 => f * params.v_box_max_width,
                _ => {
                    if w.full_size {
                        params.available_width
                    } else {
                        0.0
                    }
                }
            };
            w.height = params.h_box_max_height;
        } else {
            w.width = params.v_box_max_width;
            w.height = match factor {
                Some(f) if f != 0.0 => f * params.h_box_max_height,
                _ => {
                    if w.full_size {
                        params.available_height
                    } else {
                        0.0
                    }
                }
            };
        }
    }

    // The order of `layouts.update`: full-size boxes, then vertical, then horizontal, and the
    // vertical ones again when the horizontal fit changed the chart area.
    let mut fit = |group: &[usize]| {
        fit_boxes(
            group,
            boxes,
            &mut wraps,
            &mut ca,
            &params,
            &mut stacks,
            text,
        )
    };
    fit(&full);
    fit(&vertical);
    if fit(&horizontal) {
        fit(&vertical);
    }
    // handleMaxPadding
    {
        let upd = |p: BoxPos, ca: &mut CA| {
            let change = (side(&ca.max_padding, p) - side(&ca.sides, p)).max(0.0);
            *side_mut(&mut ca.sides, p) += change;
            change
        };
        let t = upd(BoxPos::Top, &mut ca);
        ca.y += t;
        let l = upd(BoxPos::Left, &mut ca);
        ca.x += l;
        upd(BoxPos::Right, &mut ca);
        upd(BoxPos::Bottom, &mut ca);
    }
    place_boxes(&left_and_top, boxes, &wraps, &mut ca, &params, &mut stacks);
    ca.x += ca.w;
    ca.y += ca.h;
    place_boxes(
        &right_and_bottom,
        boxes,
        &wraps,
        &mut ca,
        &params,
        &mut stacks,
    );
    let area = Area {
        left: ca.sides.left,
        top: ca.sides.top,
        right: ca.sides.left + ca.w,
        bottom: ca.sides.top + ca.h,
    };
    for &i in &chart_area_boxes {
        boxes[i].set_dims(area.left, area.top, ca.w, ca.h);
        boxes[i].update(ca.w, ca.h, Sides::default(), text);
    }
    area
}

fn margins(horizontal: bool, ca: &CA) -> Sides {
    let mut m = Sides::default();
    if horizontal {
        m.left = ca.sides.left.max(ca.max_padding.left);
        m.right = ca.sides.right.max(ca.max_padding.right);
    } else {
        m.top = ca.sides.top.max(ca.max_padding.top);
        m.bottom = ca.sides.bottom.max(ca.max_padding.bottom);
    }
    m
}

/// `updateDims`: (same, other) changed.
fn update_dims(
    ca: &mut CA,
    params: &Params,
    w: &mut Wrap,
    b: &dyn LayoutBox,
    stacks: &mut HashMap<String, StackInfo>,
) -> (bool, bool) {
    if w.pos != BoxPos::Dynamic && w.pos != BoxPos::ChartArea {
        if w.size != 0.0 {
            *side_mut(&mut ca.sides, w.pos) -= w.size;
        }
        let key = stack_key(w);
        let mut tmp = StackInfo {
            count: 1.0,
            ..StackInfo::default()
        };
        let st = match key.and_then(|k| stacks.get_mut(&k)) {
            Some(s) => s,
            None => &mut tmp,
        };
        st.size = st
            .size
            .max(if w.horizontal { b.height() } else { b.width() });
        w.size = st.size / st.count;
        *side_mut(&mut ca.sides, w.pos) += w.size;
    }
    if let Some(p) = b.padding() {
        let m = &mut ca.max_padding;
        m.left = m.left.max(p.left);
        m.top = m.top.max(p.top);
        m.right = m.right.max(p.right);
        m.bottom = m.bottom.max(p.bottom);
    }
    let comb = |a: f64, a_pad: f64, c: f64, c_pad: f64| a_pad.max(a) + c_pad.max(c);
    let new_w = (params.outer_width
        - comb(
            ca.sides.left,
            ca.max_padding.left,
            ca.sides.right,
            ca.max_padding.right,
        ))
    .max(0.0);
    let new_h = (params.outer_height
        - comb(
            ca.sides.top,
            ca.max_padding.top,
            ca.sides.bottom,
            ca.max_padding.bottom,
        ))
    .max(0.0);
    let wc = new_w != ca.w;
    let hc = new_h != ca.h;
    ca.w = new_w;
    ca.h = new_h;
    if w.horizontal {
        (wc, hc)
    } else {
        (hc, wc)
    }
}

#[allow(clippy::too_many_arguments)]
fn fit_boxes(
    list: &[usize],
    boxes: &mut [&mut dyn LayoutBox],
    wraps: &mut [Wrap],
    ca: &mut CA,
    params: &Params,
    stacks: &mut HashMap<String, StackInfo>,
    text: &TextEngine,
) -> bool {
    let mut refit_boxes = Vec::new();
    let mut refit = false;
    let mut changed = false;
    for &i in list {
        let (bw, bh) = (wraps[i].width, wraps[i].height);
        let m = margins(wraps[i].horizontal, ca);
        boxes[i].update(
            if bw != 0.0 { bw } else { ca.w },
            if bh != 0.0 { bh } else { ca.h },
            m,
            text,
        );
        let (same, other) = update_dims(ca, params, &mut wraps[i], &*boxes[i], stacks);
        refit |= same && !refit_boxes.is_empty();
        changed = changed || other;
        if !boxes[i].full_size() {
            refit_boxes.push(i);
        }
    }
    (refit && fit_boxes(&refit_boxes, boxes, wraps, ca, params, stacks, text)) || changed
}

fn place_boxes(
    list: &[usize],
    boxes: &mut [&mut dyn LayoutBox],
    wraps: &[Wrap],
    ca: &mut CA,
    params: &Params,
    stacks: &mut HashMap<String, StackInfo>,
) {
    let up = params.padding;
    let (mut x, mut y) = (ca.x, ca.y);
    for &i in list {
        let w = &wraps[i];
        let key = stack_key(w);
        let mut tmp = StackInfo {
            count: 1.0,
            weight: 1.0,
            ..StackInfo::default()
        };
        let st = match key.and_then(|k| stacks.get_mut(&k)) {
            Some(s) => s,
            None => &mut tmp,
        };
        let weight = {
            let v = w.stack_weight / st.weight;
            if v == 0.0 || v.is_nan() {
                1.0
            } else {
                v
            }
        };
        let b = &mut boxes[i];
        if w.horizontal {
            let width = ca.w * weight;
            let height = if st.size != 0.0 { st.size } else { b.height() };
            if let Some(s) = st.start {
                y = s;
            }
            if b.full_size() {
                b.set_dims(up.left, y, params.outer_width - up.right - up.left, height);
            } else {
                b.set_dims(ca.sides.left + st.placed, y, width, height);
            }
            st.start = Some(y);
            st.placed += width;
            y += height;
        } else {
            let height = ca.h * weight;
            let width = if st.size != 0.0 { st.size } else { b.width() };
            if let Some(s) = st.start {
                x = s;
            }
            if b.full_size() {
                b.set_dims(x, up.top, width, params.outer_height - up.bottom - up.top);
            } else {
                b.set_dims(x, ca.sides.top + st.placed, width, height);
            }
            st.start = Some(x);
            st.placed += height;
            x += width;
        }
    }
    ca.x = x;
    ca.y = y;
}
