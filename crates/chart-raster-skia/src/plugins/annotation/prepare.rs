//! What chartjs-plugin-annotation asks of the update's objects: the values each scale
//! parses and the range it widens to (`adjustScaleRange`), the values' pixels once the
//! scales are laid out, and the doughnut hole a `doughnutLabel` sits in. The drawing
//! ([`super::draw`]) reads only these and the laid-out scales.

use super::{value_on, Parsed, Pixels};
use crate::controllers::ChartData;
use crate::elements::dataset::DatasetElements;
use crate::elements::geometry::ElementGeometry;
use crate::scales::{DataLimits, Scale};
use chart_spec::model::annotation::Annotations;
use chart_spec::model::{Axis, ChartKind, Raw};
use std::collections::HashMap;

/// `scale.parse(value)` for an annotation value (`None`: not a finite number).
fn parse(scale: &mut Scale, v: &Raw) -> Option<f64> {
    if v.is_null_or_undef() {
        return None;
    }
    let s = &mut *scale;
    s.kind.parse(&s.core, v, None).filter(|f| f.is_finite())
}

/// What the scales compute for the annotations when they are built.
#[derive(Debug, Default)]
pub struct Prepared {
    /// Per scale id, the (min, max) `adjustScaleRange` adds to its data limits.
    pub extents: HashMap<String, (f64, f64)>,
    /// Non-numeric annotation values parsed by each scale.
    pub parsed: Parsed,
    /// The values' pixels once the scales are laid out ([`pixels`]).
    pub pixels: Pixels,
    /// The doughnut hole of `doughnutLabel` annotations ([`doughnut_hole`]).
    pub hole: Option<(f64, f64, f64)>,
}

/// Parses the annotation values with the scales (`scale.parse`) and computes
/// `adjustScaleRange` (`afterDataLimits`): per scale id, the (min, max) of the values bound
/// to it. Sides the user fixed (`min`/`suggestedMin`, `max`/`suggestedMax`) are left alone.
pub fn prepare(anns: &Annotations, scales: &mut [Scale]) -> Prepared {
    let mut out = Prepared::default();
    // Each value is parsed only by the scale it is bound to (`retrieveScaleID`): a category
    // scale's `parse` adds an unknown label, so a value of another axis would show up there
    // as a tick.
    let first_ids: Vec<Option<String>> = [Axis::X, Axis::Y]
        .iter()
        .map(|&ax| {
            scales
                .iter()
                .find(|s| s.core.axis() == ax)
                .map(|s| s.core.id().to_string())
        })
        .collect();
    for s in scales.iter_mut() {
        let id = s.core.id().to_string();
        for a in &anns.list {
            let bound = |own: &Option<String>, first: &Option<String>| {
                own.as_ref().or(first.as_ref()).is_some_and(|b| *b == id)
            };
            let mut values: Vec<&Raw> = Vec::new();
            if a.scale_id.as_deref() == Some(id.as_str()) {
                values.extend([&a.value, &a.end_value]);
            }
            if bound(&a.x_scale_id, &first_ids[0]) {
                values.extend([&a.x_min, &a.x_max, &a.x_value]);
            }
            if bound(&a.y_scale_id, &first_ids[1]) {
                values.extend([&a.y_min, &a.y_max, &a.y_value]);
            }
            for v in values {
                if matches!(v, Raw::Str(_) | Raw::Bool(_) | Raw::Array(_)) {
                    if let Some(p) = parse(s, v) {
                        out.parsed.insert((id.clone(), v.to_js_string()), p);
                    }
                }
            }
        }
    }
    for si in 0..scales.len() {
        let (id, axis) = (scales[si].core.id().to_string(), scales[si].core.axis());
        let first_of_axis = scales
            .iter()
            .find(|s| s.core.axis() == axis)
            .map(|s| s.core.id().to_string());
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for a in anns.list.iter().filter(|a| a.adjust_scale_range) {
            let values: Vec<&Raw> = if a.scale_id.as_deref() == Some(id.as_str()) {
                vec![&a.value, &a.end_value]
            } else {
                let sid = if axis == Axis::X {
                    a.x_scale_id.clone()
                } else {
                    a.y_scale_id.clone()
                }
                .or_else(|| first_of_axis.clone());
                if sid.as_deref() != Some(id.as_str()) {
                    continue;
                }
                if axis == Axis::X {
                    vec![&a.x_min, &a.x_max, &a.x_value]
                } else {
                    vec![&a.y_min, &a.y_max, &a.y_value]
                }
            };
            for v in values {
                let p = match v {
                    Raw::Num(n) => Some(*n).filter(|f| f.is_finite()),
                    other => out.parsed.get(&(id.clone(), other.to_js_string())).copied(),
                };
                if let Some(p) = p {
                    lo = lo.min(p);
                    hi = hi.max(p);
                }
            }
        }
        let o = &scales[si].core.opts;
        if !matches!(o.min, Raw::Undefined) || !matches!(o.suggested_min, Raw::Undefined) {
            lo = f64::INFINITY;
        }
        if !matches!(o.max, Raw::Undefined) || !matches!(o.suggested_max, Raw::Undefined) {
            hi = f64::NEG_INFINITY;
        }
        if lo.is_finite() || hi.is_finite() {
            out.extents.insert(id, (lo, hi));
        }
    }
    out
}

/// The datasets' limits widened by [`Prepared::extents`].
pub struct Widened<'a> {
    /// The datasets' limits.
    pub inner: &'a dyn DataLimits,
    /// Per scale id, the annotation (min, max).
    pub extents: &'a HashMap<String, (f64, f64)>,
}

impl DataLimits for Widened<'_> {
    fn min_max(&self, scale_id: &str, axis: Axis, can_stack: bool) -> (f64, f64) {
        let (min, max) = self.inner.min_max(scale_id, axis, can_stack);
        match self.extents.get(scale_id) {
            Some(&(lo, hi)) => (min.min(lo), max.max(hi)),
            None => (min, max),
        }
    }
    fn all_values(&self, scale_id: &str, axis: Axis) -> Vec<f64> {
        self.inner.all_values(scale_id, axis)
    }
    fn datasets_min_max(&self, scale_id: &str, axis: Axis, can_stack: bool) -> (f64, f64) {
        self.inner.min_max(scale_id, axis, can_stack)
    }
    fn after_data_limits(&self, scale_id: &str) -> Option<(f64, f64)> {
        self.extents.get(scale_id).copied()
    }
}

/// The pixel of every annotation value on the scale it is bound to (`retrieveScaleID`: the
/// line's `scaleID`, else the option of its axis or the axis's first scale), for the first
/// `max_annotations` annotations (those drawn).
pub fn pixels(
    anns: &Annotations,
    scales: &[Scale],
    parsed: &Parsed,
    max_annotations: usize,
) -> Pixels {
    let mut out = Pixels::new();
    let by_id = |id: &str| scales.iter().find(|s| s.core.id() == id);
    let first_of = |axis: Axis| scales.iter().find(|s| s.core.axis() == axis);
    let bound = |id: Option<&str>, axis: Axis| match id {
        Some(id) => by_id(id),
        None => first_of(axis),
    };
    for a in anns.list.iter().take(max_annotations) {
        let groups = [
            (
                a.scale_id.as_deref().and_then(by_id),
                [&a.value, &a.end_value, &Raw::Undefined],
            ),
            (
                bound(a.x_scale_id.as_deref(), Axis::X),
                [&a.x_min, &a.x_max, &a.x_value],
            ),
            (
                bound(a.y_scale_id.as_deref(), Axis::Y),
                [&a.y_min, &a.y_max, &a.y_value],
            ),
        ];
        for (scale, values) in groups {
            let Some(s) = scale else { continue };
            for v in values {
                if let Some(p) = value_on(parsed, s.core.id(), v) {
                    (out.entry(s.core.id().to_string()).or_default())
                        .insert(p.to_bits(), s.pixel_for_value(p));
                }
            }
        }
    }
    out
}

/// The hole for doughnutLabel annotations (`getDatasetMeta` in the plugin): among the
/// visible doughnut and pie datasets drawn over at least 90°, the one with the smallest
/// inner radius, as (centre x, centre y, inner radius) of its first arc.
pub fn doughnut_hole(
    elements: &[DatasetElements<'_>],
    data: &ChartData,
    datasets: &[chart_spec::model::Dataset],
) -> Option<(f64, f64, f64)> {
    let mut best: Option<(f64, f64, f64)> = None;
    for &i in &data.sorted_visible {
        let (meta, ds) = (&data.metas[i], &datasets[i]);
        if !matches!(meta.kind, ChartKind::Doughnut | ChartKind::Pie)
            || ds.kind.arc().is_none_or(|a| a.circumference < 90.0)
        {
            continue;
        }
        let Some(els) = elements.get(i) else { continue };
        let hole = (els.geometry().into_iter())
            .flatten()
            .find_map(|e| match e {
                ElementGeometry::Arc {
                    x, y, inner_radius, ..
                } => Some((x, y, inner_radius)),
                _ => None,
            });
        if let Some(h) = hole {
            if best.is_none_or(|b| h.2 < b.2) {
                best = Some(h);
            }
        }
    }
    best
}
