//! Bubble controller (controller.bubble): points whose radius comes from the data.

use super::{parse_default, Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::dataset::{DatasetElements, PointEl};
use crate::elements::point::point_size;
use crate::scales::Scale;
use chart_spec::model::{Dataset, Datum, Elements, PointOptions, Raw};
use std::borrow::Cow;

/// `BubbleController`.
#[derive(Default)]
pub struct BubbleController {
    points: Vec<(f64, f64, bool, PointOptions)>,
}

/// `resolveDataElementOptions` of bubbles: `radius` is `parsed._custom` (the data's `r`)
/// when given, else the option.
fn bubble_options(ds: &Dataset, meta: &Meta, i: usize) -> Option<PointOptions> {
    let Elements::Point(p) = ds.kind.elements() else {
        return None;
    };
    let mut o = p.at(i).clone();
    if let Some(r) = meta.parsed.get(i).and_then(|p| p.radius) {
        o.radius = r;
    }
    Some(o)
}

impl Controller for BubbleController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], chart_labels: &[Raw]) {
        parse_default(ds, meta, scales, chart_labels);
        for (i, d) in ds.data.iter().enumerate() {
            let r = match d {
                // `item && item.r && +item.r`: falsy radii fall back to the option.
                Datum::Object { r: Raw::Num(n), .. } if *n != 0.0 && !n.is_nan() => Some(*n),
                Datum::Object { r: Raw::Str(s), .. } if !s.is_empty() => {
                    s.trim().parse::<f64>().ok()
                }
                Datum::Array(a) => match a.get(2) {
                    Some(Raw::Num(n)) => Some(*n),
                    Some(Raw::Null) => None,
                    _ => None,
                },
                _ => None,
            };
            if let Some(p) = meta.parsed.get_mut(i) {
                p.radius = r;
            }
        }
    }

    fn max_overflow(&self, ds: &Dataset, meta: &Meta) -> Option<f64> {
        let mut max: f64 = 0.0;
        for i in (0..meta.parsed.len()).rev() {
            if let Some(o) = bubble_options(ds, meta, i) {
                max = max.max(point_size(&o) / 2.0);
            }
        }
        if max > 0.0 {
            Some(max)
        } else {
            None
        }
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.points.clear();
        let (Some(i_scale), Some(v_scale)) = (cx.scale(meta.i_id()), cx.scale(meta.v_id())) else {
            return;
        };
        for (i, p) in meta.parsed.iter().enumerate() {
            if i % 4096 == 4095 && cx.cancel.is_cancelled() {
                return;
            }
            let ip = p
                .get(i_scale.core.axis())
                .map(|v| i_scale.pixel_for_value(v))
                .unwrap_or(f64::NAN);
            let vp = p
                .get(v_scale.core.axis())
                .map(|v| v_scale.pixel_for_value(v))
                .unwrap_or(f64::NAN);
            let (x, y) = if meta.index_axis == chart_spec::model::Axis::X {
                (ip, vp)
            } else {
                (vp, ip)
            };
            if let Some(o) = bubble_options(ds, meta, i) {
                self.points.push((x, y, ip.is_nan() || vp.is_nan(), o));
            }
        }
    }

    fn elements<'a>(&mut self, _ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        let points = std::mem::take(&mut self.points);
        DatasetElements::Points(
            (points.into_iter())
                .map(|(x, y, skip, o)| {
                    (!skip).then_some(PointEl {
                        x,
                        y,
                        options: Cow::Owned(o),
                    })
                })
                .collect(),
        )
    }

    fn legend_style(&self, ds: &Dataset, use_point_style: bool) -> LegendStyle {
        let mut l = LegendStyle::of_line_dataset(ds, true, true);
        let _ = use_point_style;
        l.point_style = l
            .point_style
            .or(Some(chart_spec::model::PointStyle::Circle));
        l
    }
}
