//! The radar controller (controller.radar.js): a closed line through one point per label,
//! placed on the radial scale's spokes.

use super::{parse_radial, Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::dataset::{DatasetElements, PointEl};
use crate::elements::line::{LineEl, LinePoint};
use crate::scales::Scale;
use chart_spec::model::{Dataset, Elements, Raw};
use std::borrow::Cow;

/// Radar datasets.
#[derive(Default)]
pub struct RadarController {
    line: Option<LineEl>,
    points: Vec<(f64, f64, bool)>,
}

impl Controller for RadarController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], _labels: &[Raw]) {
        parse_radial(ds, meta, scales);
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.points.clear();
        self.line = None;
        let Some(g) = cx.scale(meta.y_id.as_deref()).and_then(|s| s.kind.radial()) else {
            return;
        };
        let mut lps = Vec::with_capacity(meta.parsed.len());
        for (i, p) in meta.parsed.iter().enumerate() {
            // getPointPositionForValue: null gives a NaN distance, hence a skipped point.
            let d = p.y.map_or(f64::NAN, |v| g.distance_for_value(v));
            let (x, y, _) = g.point_position(i, d, 0.0);
            let skip = x.is_nan() || y.is_nan();
            self.points.push((x, y, skip));
            lps.push(LinePoint {
                x,
                y,
                skip,
                ..LinePoint::default()
            });
        }
        if let Some(lo) = ds.kind.line() {
            let mut lo = lo.clone();
            if !ds.show_line {
                lo.border_width = 0.0;
            }
            let n = lps.len();
            let mut line = LineEl::new(lps, lo);
            line.loop_ = true;
            line.full_loop = g.label_count == n;
            self.line = Some(line);
        }
    }

    fn elements<'a>(&mut self, ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        let points = match ds.kind.elements() {
            Elements::Point(opts) => (self.points.iter().enumerate())
                .map(|(i, &(x, y, skip))| {
                    (!skip).then(|| PointEl {
                        x,
                        y,
                        options: Cow::Borrowed(opts.at(i)),
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        DatasetElements::Line {
            line: self.line.take(),
            points,
        }
    }

    fn legend_style(&self, ds: &Dataset, use_point_style: bool) -> LegendStyle {
        LegendStyle::of_line_dataset(ds, false, use_point_style)
    }
}
