//! Bar controller (controller.bar): grouping, stacking, floating bars, thickness rules.

use super::bar_stacks::{Group, StackSlots};
use super::{
    parse_on, scale_labels, ChartData, Controller, FloatBar, LegendStyle, Meta, Parsed, UpdateCx,
};
use crate::elements::bar::{Bar, Skipped};
use crate::elements::dataset::DatasetElements;
use crate::scales::Scale;
use chart_spec::model::{
    Axis, BarBorderWidth, BarDatasetOptions, BarOptions, BarThickness, BorderSkipped, Dataset,
    Datum, Elements, Raw, Stacked,
};

/// `BarController`.
#[derive(Default)]
pub struct BarController {
    bars: Vec<Option<Bar>>,
}

fn sign(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        v
    }
}

/// `parseValue` / `parseFloatBar`.
fn parse_value(
    entry: &Raw,
    item: &mut Parsed,
    scales: &mut [Scale],
    vid: Option<&str>,
    vaxis: Axis,
    i: usize,
) {
    if let Raw::Array(a) = entry {
        let s = parse_on(scales, vid, a.first().unwrap_or(&Raw::Undefined), Some(i));
        let e = parse_on(scales, vid, a.get(1).unwrap_or(&Raw::Undefined), Some(i));
        // Math.min/max with null → 0.
        let (sv, ev) = (s.unwrap_or(0.0), e.unwrap_or(0.0));
        let min = sv.min(ev);
        let max = sv.max(ev);
        let (mut bs, mut be) = (min, max);
        if min.abs() > max.abs() {
            bs = max;
            be = min;
        }
        item.set(vaxis, Some(be));
        item.float_bar = Some(FloatBar {
            bar_start: bs,
            bar_end: be,
            start: sv,
            end: ev,
            min,
            max,
        });
    } else {
        item.set(vaxis, parse_on(scales, vid, entry, Some(i)));
    }
}

struct Ruler {
    min: f64,
    pixels: Vec<f64>,
    start: f64,
    end: f64,
    stack_count: usize,
    grouped: bool,
    ratio: f64,
}

impl BarController {
    /// Runs `f` on the bar slots of `meta`'s index scale and type (`_getStacks` for every
    /// dataset and data index; with `skip_null` the per-index-value walks too), computed
    /// once per chart and kept in [`ChartData::bar_stacks`].
    fn with_stacks<T>(
        meta: &Meta,
        data: &ChartData,
        i_scale: &Scale,
        skip_null: bool,
        f: impl FnOnce(&StackSlots) -> T,
    ) -> T {
        let iaxis = i_scale.core.axis();
        let group = || Group {
            members: data
                .sorted_visible
                .iter()
                .map(|&j| &data.metas[j])
                .filter(|m| {
                    m.id_for(iaxis) == Some(i_scale.core.id()) && m.kind == meta.kind && m.grouped
                })
                .collect(),
            iaxis,
            stacked: i_scale.core.opts.stacked,
        };
        let mut cache = data.bar_stacks.borrow_mut();
        let slots = cache
            .entry((i_scale.core.id().to_string(), meta.kind))
            .or_insert_with(|| StackSlots::new(&group()));
        if skip_null {
            slots.with_skip_null(&group());
        }
        f(slots)
    }

    /// `_getAxis()`: the index-axis scale ids used by all datasets.
    fn get_axis(data: &ChartData) -> Vec<String> {
        let first = data
            .scales
            .iter()
            .find(|(_, a, _)| *a == data.chart_index_axis)
            .map(|(id, _, _)| id.clone());
        let mut out: Vec<String> = Vec::new();
        for m in &data.metas {
            let id = m.given_axis_id(data.chart_index_axis).or(first.clone());
            if let Some(id) = id {
                if !out.contains(&id) {
                    out.push(id);
                }
            }
        }
        if out.is_empty() {
            out.push(String::new());
        }
        out
    }

    /// `computeMinSampleSize`.
    fn min_sample_size(meta: &Meta, data: &ChartData, i_scale: &Scale) -> f64 {
        let c = &i_scale.core;
        let key = (
            c.id().to_string(),
            meta.kind,
            [c.start_pixel, c.end_pixel, c.min, c.max].map(f64::to_bits),
        );
        if let Some(&min) = data.bar_min_size.borrow().get(&key) {
            return min;
        }
        let min = Self::compute_min_sample_size(meta, data, i_scale);
        data.bar_min_size.borrow_mut().insert(key, min);
        min
    }

    fn compute_min_sample_size(meta: &Meta, data: &ChartData, i_scale: &Scale) -> f64 {
        let iaxis = i_scale.core.axis();
        let mut values: Vec<f64> = Vec::new();
        for &j in &data.sorted_visible {
            let m = &data.metas[j];
            if m.id_for(iaxis) == Some(i_scale.core.id()) && m.kind == meta.kind {
                values.extend(
                    m.parsed
                        .iter()
                        .filter_map(|p| p.get(iaxis))
                        .filter(|v| v.is_finite()),
                );
            }
        }
        values.sort_by(|a, b| a.total_cmp(b));
        values.dedup();
        let mut min = i_scale.core.length;
        let mut prev: Option<f64> = None;
        let upd = |curr: f64, prev: &mut Option<f64>, min: &mut f64| {
            if curr == 32767.0 || curr == -32768.0 {
                return;
            }
            if let Some(p) = *prev {
                let d = (curr - p).abs();
                *min = min.min(if d == 0.0 || d.is_nan() { *min } else { d });
            }
            *prev = Some(curr);
        };
        for v in &values {
            upd(i_scale.pixel_for_value(*v), &mut prev, &mut min);
        }
        prev = None;
        for t in 0..i_scale.core.ticks.len() {
            upd(i_scale.pixel_for_tick(t), &mut prev, &mut min);
        }
        min
    }

    fn value_pixels(
        meta: &Meta,
        o: &BarDatasetOptions,
        p: &Parsed,
        data: &ChartData,
        v_scale: &Scale,
    ) -> (f64, f64, f64, f64) {
        let vaxis = v_scale.core.axis();
        let actual_base = o.base.unwrap_or(0.0);
        let floating = p.float_bar;
        let mut value = p.get(vaxis).unwrap_or(f64::NAN);
        let mut start = 0.0;
        let mut length = if meta.stacked.is_some() {
            data.apply_stack_visual(meta, p, meta.stacked == Some(Stacked::Single))
                .unwrap_or(f64::NAN)
        } else {
            value
        };
        if length != value && !(length.is_nan() && value.is_nan()) {
            start = length - value;
            length = value;
        }
        if let Some(fb) = floating {
            value = fb.bar_start;
            length = fb.bar_end - fb.bar_start;
            if value != 0.0 && sign(value) != sign(fb.bar_end) {
                start = 0.0;
            }
            start += value;
        }
        let start_value = match (o.base, floating) {
            (Some(b), None) => b,
            _ => start,
        };
        let mut base = v_scale.pixel_for_value(start_value);
        let mut head = v_scale.pixel_for_value(start + length);
        let mut size = head - base;
        if size.abs() < o.min_bar_length {
            // barSign
            let s = if size != 0.0 {
                sign(size)
            } else {
                (if v_scale.core.is_horizontal() {
                    1.0
                } else {
                    -1.0
                }) * (if v_scale.core.min >= actual_base {
                    1.0
                } else {
                    -1.0
                })
            };
            size = s * o.min_bar_length;
            if value == actual_base {
                base -= size / 2.0;
            }
            let sp = v_scale.core.pixel_for_decimal(0.0);
            let ep = v_scale.core.pixel_for_decimal(1.0);
            base = base.min(sp.max(ep)).max(sp.min(ep));
            head = base + size;
            if meta.stacked.is_some() && floating.is_none() {
                data.set_visual(
                    meta,
                    p,
                    v_scale.kind.value_for_pixel(&v_scale.core, head)
                        - v_scale.kind.value_for_pixel(&v_scale.core, base),
                );
            }
        }
        if base == v_scale.pixel_for_value(actual_base) {
            let half = sign(size) * line_width_for_value(v_scale, actual_base) / 2.0;
            base += half;
            size -= half;
        }
        (size, base, head, head + size / 2.0)
    }
}

/// `getLineWidthForValue`.
fn line_width_for_value(s: &Scale, value: f64) -> f64 {
    if !s.core.visible || !s.core.opts.grid.display {
        return 0.0;
    }
    match s.core.ticks.iter().position(|t| t.value == value) {
        Some(i) => s.core.opts.grid.line_width.at(i),
        None => 0.0,
    }
}

fn border_props(
    horizontal: bool,
    base: f64,
    x: f64,
    y: f64,
) -> (&'static str, &'static str, bool, &'static str, &'static str) {
    let (reverse, start, end) = if horizontal {
        (base > x, "left", "right")
    } else {
        (base < y, "bottom", "top")
    };
    let (top, bottom) = if reverse {
        ("end", "start")
    } else {
        ("start", "end")
    };
    (start, end, reverse, top, bottom)
}

fn parse_edge(edge: &str, a: &'static str, b: &'static str, reverse: bool) -> String {
    let start_end = |v: &str, s: &'static str, e: &'static str| -> String {
        match v {
            "start" => s.to_string(),
            "end" => e.to_string(),
            o => o.to_string(),
        }
    };
    if reverse {
        let swapped = if edge == a {
            b.to_string()
        } else if edge == b {
            a.to_string()
        } else {
            edge.to_string()
        };
        start_end(&swapped, b, a)
    } else {
        start_end(edge, a, b)
    }
}

fn set_skip(s: &mut Skipped, edge: &str) {
    match edge {
        "top" => s.top = true,
        "bottom" => s.bottom = true,
        "left" => s.left = true,
        "right" => s.right = true,
        _ => {}
    }
}

impl Controller for BarController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], chart_labels: &[Raw]) {
        let iaxis = meta.index_axis;
        let vaxis = meta.v_axis();
        let (iid, vid) = (meta.i_id().map(String::from), meta.v_id().map(String::from));
        let labels = scale_labels(scales, iid.as_deref(), chart_labels, ds.data.len());
        let single = iid == vid;
        meta.parsed.clear();
        let first_is_obj = matches!(ds.data.first(), Some(Datum::Object { .. }));
        for (i, d) in ds.data.iter().enumerate() {
            let mut p = Parsed::default();
            if !ds.parsing {
                if let Datum::Object { x, y, .. } = d {
                    p.x = parse_on(scales, meta.x_id.as_deref(), x, Some(i));
                    p.y = parse_on(scales, meta.y_id.as_deref(), y, Some(i));
                }
                meta.parsed.push(p);
                continue;
            }
            if first_is_obj {
                if let Datum::Object { x, y, .. } = d {
                    let (ir, vr) = if iaxis == Axis::X { (x, y) } else { (y, x) };
                    p.set(iaxis, parse_on(scales, iid.as_deref(), ir, Some(i)));
                    parse_value(vr, &mut p, scales, vid.as_deref(), vaxis, i);
                }
            } else {
                let entry = match d {
                    Datum::Primitive(r) => r.clone(),
                    Datum::Array(a) => Raw::Array(a.clone()),
                    Datum::Object { .. } => Raw::Object,
                };
                let label = labels.get(i).cloned().unwrap_or(Raw::Undefined);
                p.set(
                    iaxis,
                    if single {
                        Some(1.0)
                    } else {
                        parse_on(scales, iid.as_deref(), &label, Some(i))
                    },
                );
                parse_value(&entry, &mut p, scales, vid.as_deref(), vaxis, i);
            }
            meta.parsed.push(p);
        }
    }

    fn max_overflow(&self, _ds: &Dataset, _meta: &Meta) -> Option<f64> {
        Some(0.0)
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.bars.clear();
        let (Some(i_scale), Some(v_scale)) = (cx.scale(meta.i_id()), cx.scale(meta.v_id())) else {
            return;
        };
        let Some(o) = ds.kind.bar() else { return };
        let Elements::Bar(opts) = ds.kind.elements() else {
            return;
        };
        let horizontal = v_scale.core.is_horizontal();
        let iaxis = i_scale.core.axis();
        let bar_thickness_px = match o.bar_thickness {
            Some(BarThickness::Px(v)) if v != 0.0 => Some(v),
            _ => None,
        };
        // `_getStackCount` and `_getStackIndex`: the same for every point without
        // `skipNull`, else per point (each from one walk per index value, see bar_stacks).
        let per_point = o.skip_null && o.grouped;
        let (stack_count, stack_index, point_slots) =
            Self::with_stacks(meta, cx.data, i_scale, per_point, |slots| {
                let points: Vec<(usize, usize)> = if per_point {
                    (0..meta.parsed.len())
                        .map(|i| slots.point(meta, iaxis, i))
                        .collect()
                } else {
                    Vec::new()
                };
                (slots.count(), slots.index(meta), points)
            });
        let ruler = Ruler {
            min: bar_thickness_px.unwrap_or_else(|| Self::min_sample_size(meta, cx.data, i_scale)),
            pixels: meta
                .parsed
                .iter()
                .map(|p| {
                    p.get(iaxis)
                        .map(|v| i_scale.pixel_for_value(v))
                        .unwrap_or(f64::NAN)
                })
                .collect(),
            start: i_scale.core.start_pixel,
            end: i_scale.core.end_pixel,
            stack_count,
            grouped: o.grouped,
            // `barThickness ? 1 : …`: 'flex' is truthy too.
            ratio: if bar_thickness_px.is_some() || o.bar_thickness == Some(BarThickness::Flex) {
                1.0
            } else {
                o.category_percentage * o.bar_percentage
            },
        };
        let axes = Self::get_axis(cx.data);
        let axis_count = axes.len() as f64;
        let first_index_scale = cx
            .data
            .scales
            .iter()
            .find(|(_, a, _)| *a == cx.data.chart_index_axis)
            .map(|(id, _, _)| id.clone());
        let axis_number = axes
            .iter()
            .position(|a| {
                Some(a.clone())
                    == meta
                        .given_axis_id(cx.data.chart_index_axis)
                        .or(first_index_scale.clone())
            })
            .map(|p| p as f64)
            .unwrap_or(-1.0);
        for (i, p) in meta.parsed.iter().enumerate() {
            if i % 4096 == 4095 && cx.cancel.is_cancelled() {
                return;
            }
            let bopts: &BarOptions = opts.at(i);
            let (vsize, vbase, vhead) = if p.get(v_scale.core.axis()).is_none() {
                let b = v_scale.base_pixel();
                (0.0, b, b)
            } else {
                let (size, base, head, _) = Self::value_pixels(meta, o, p, cx.data, v_scale);
                (size, base, head)
            };
            // _calculateBarIndexPixels
            let max_thick = o.max_bar_thickness;
            let (center, size) = if ruler.grouped {
                let (stack_count, stack_index) = point_slots
                    .get(i)
                    .copied()
                    .unwrap_or((ruler.stack_count, stack_index));
                let stack_count = stack_count as f64 * axis_count;
                let (chunk, ratio, start) = match o.bar_thickness {
                    Some(BarThickness::Flex) => {
                        let pixels = &ruler.pixels;
                        let curr = pixels[i];
                        let mut prev = if i > 0 { Some(pixels[i - 1]) } else { None };
                        let mut next = if i + 1 < pixels.len() {
                            Some(pixels[i + 1])
                        } else {
                            None
                        };
                        let pc = o.category_percentage;
                        if prev.is_none() {
                            prev = Some(
                                curr - next.map(|n| n - curr).unwrap_or(ruler.end - ruler.start),
                            );
                        }
                        if next.is_none() {
                            next = Some(curr + curr - prev.unwrap_or(curr));
                        }
                        let (pv, nx) = (prev.unwrap_or(curr), next.unwrap_or(curr));
                        let start = curr - (curr - pv.min(nx)) / 2.0 * pc;
                        let size = (nx - pv).abs() / 2.0 * pc;
                        (size / stack_count, o.bar_percentage, start)
                    }
                    _ => {
                        let (size, ratio) = match bar_thickness_px {
                            None => (ruler.min * o.category_percentage, o.bar_percentage),
                            Some(t) => (t * stack_count, 1.0),
                        };
                        (size / stack_count, ratio, ruler.pixels[i] - size / 2.0)
                    }
                };
                let stack_index = stack_index as f64 + axis_number;
                (
                    start + chunk * stack_index + chunk / 2.0,
                    max_thick.min(chunk * ratio),
                )
            } else {
                let c = p
                    .get(iaxis)
                    .map(|v| i_scale.pixel_for_value(v))
                    .unwrap_or(f64::NAN);
                (c, max_thick.min(ruler.min * ruler.ratio))
            };
            let stack = cx
                .data
                .stack_entry(meta, p)
                .filter(|_| meta.stacked.is_some());
            let enable_border_radius = stack.is_none()
                || p.float_bar.is_some()
                || stack.is_some_and(|s| s.top == Some(meta.index) || s.bottom == Some(meta.index));
            let (x, y, height, width) = if horizontal {
                (vhead, center, size, vsize.abs())
            } else {
                (center, vhead, vsize.abs(), size)
            };
            let mut bar = Bar {
                x,
                y,
                base: vbase,
                width,
                height,
                horizontal,
                enable_border_radius,
                skipped: Skipped::default(),
                inflate_amount: 0.0,
                options: bopts.clone(),
            };
            // setBorderSkipped
            let mut edge = match bopts.border_skipped {
                BorderSkipped::None => None,
                BorderSkipped::All => {
                    bar.skipped = Skipped {
                        top: true,
                        right: true,
                        bottom: true,
                        left: true,
                    };
                    None
                }
                BorderSkipped::Start => Some("start"),
                BorderSkipped::End => Some("end"),
                BorderSkipped::Middle => Some("middle"),
                BorderSkipped::Bottom => Some("bottom"),
                BorderSkipped::Left => Some("left"),
                BorderSkipped::Top => Some("top"),
                BorderSkipped::Right => Some("right"),
            };
            if let Some(e) = edge.take() {
                let (start, end, reverse, top, bottom) =
                    border_props(horizontal, bar.base, bar.x, bar.y);
                let mut e = e;
                if e == "middle" {
                    if let Some(st) = stack {
                        bar.enable_border_radius = true;
                        if st.top.unwrap_or(0) == meta.index {
                            e = top;
                        } else if st.bottom.unwrap_or(0) == meta.index {
                            e = bottom;
                        } else {
                            set_skip(&mut bar.skipped, &parse_edge(bottom, start, end, reverse));
                            e = top;
                        }
                    }
                }
                set_skip(&mut bar.skipped, &parse_edge(e, start, end, reverse));
            }
            // setInflateAmount
            bar.inflate_amount = match bopts.inflate_amount {
                Some(v) => v,
                None => {
                    if ruler.ratio == 1.0 {
                        0.33
                    } else {
                        0.0
                    }
                }
            };
            self.bars.push(Some(bar));
        }
    }

    fn elements<'a>(&mut self, _ds: &'a Dataset, meta: &Meta) -> DatasetElements<'a> {
        // A bar whose value is null is not drawn (`_drawDatasets` skips it) and datalabels
        // see no element there.
        let vaxis = meta.v_axis();
        let has_value = |i: usize| meta.parsed.get(i).and_then(|p| p.get(vaxis)).is_some();
        let bars = std::mem::take(&mut self.bars);
        DatasetElements::Bars(
            (bars.into_iter().enumerate())
                .map(|(i, b)| b.filter(|_| has_value(i)))
                .collect(),
        )
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        let Elements::Bar(opts) = ds.kind.elements() else {
            return LegendStyle::none();
        };
        let o = opts.first();
        let lw = match o.border_width {
            BarBorderWidth::All(v) => v,
            BarBorderWidth::Sides(s) => (s.left + s.right + s.top + s.bottom) / 4.0,
        };
        LegendStyle {
            fill: o.background_color,
            stroke: o.border_color,
            line_width: lw,
            cap: crate::scene::LineCap::Butt,
            dash: Vec::new(),
            dash_offset: 0.0,
            join: crate::scene::LineJoin::Miter,
            point_style: o.point_style,
            rotation: o.rotation,
            border_radius: Some(o.border_radius),
        }
    }
}
