//! Matrix controller of chartjs-chart-matrix 3.1.0: one rectangle per data point, centred (or
//! anchored) on the point's pixel, `width` × `height` CSS px.
//!
//! Sizes, borders and radii come from user options: they are clamped to finite pixel lengths
//! before they become geometry.

mod draw;

use self::draw::MatrixElements;
use super::{parse_default, Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::bounds::{finite_in, MAX_PX};
use crate::elements::dataset::DatasetElements;
use crate::scales::Scale;
use chart_spec::model::{Dataset, Raw};
use chart_spec::model::{DatasetKind, MatrixRect};
use chart_spec::Cancel;

/// How often the loops over data poll the render's [`Cancel`].
const CANCEL_EVERY: usize = 256;

/// A laid-out rectangle: left, top, width, height and its options.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixEl {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Options.
    pub options: MatrixRect,
}

/// `MatrixController`.
#[derive(Default)]
pub struct MatrixController {
    /// The elements after `update`.
    pub rects: Vec<MatrixEl>,
    /// The render's stop signal, kept from `update` for `draw`.
    cancel: Cancel,
}

fn options(ds: &Dataset) -> &[MatrixRect] {
    match &ds.kind {
        DatasetKind::Matrix(m, _) => &m.rects,
        _ => &[],
    }
}

/// `resolveX` of the plugin.
fn resolve_x(anchor: &str, x: f64, width: f64) -> f64 {
    match anchor {
        "left" | "start" => x,
        "right" | "end" => x - width,
        _ => x - width / 2.0,
    }
}

/// `resolveY` of the plugin.
fn resolve_y(anchor: &str, y: f64, height: f64) -> f64 {
    match anchor {
        "top" | "start" => y,
        "bottom" | "end" => y - height,
        _ => y - height / 2.0,
    }
}

impl Controller for MatrixController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], chart_labels: &[Raw]) {
        parse_default(ds, meta, scales, chart_labels);
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.rects.clear();
        let (Some(xs), Some(ys)) = (
            cx.scale(meta.x_id.as_deref()),
            cx.scale(meta.y_id.as_deref()),
        ) else {
            return;
        };
        self.cancel = cx.cancel.clone();
        let opts = options(ds);
        for (i, p) in meta.parsed.iter().enumerate() {
            if i.is_multiple_of(CANCEL_EVERY) && cx.cancel.is_cancelled() {
                return;
            }
            let Some(o) = opts.get(i) else { continue };
            let x = p.x.map(|v| xs.pixel_for_value(v)).unwrap_or(f64::NAN);
            let y = p.y.map(|v| ys.pixel_for_value(v)).unwrap_or(f64::NAN);
            let width = finite_in(o.width, -MAX_PX, MAX_PX, 20.0);
            let height = finite_in(o.height, -MAX_PX, MAX_PX, 20.0);
            self.rects.push(MatrixEl {
                x: resolve_x(&o.anchor_x, x, width),
                y: resolve_y(&o.anchor_y, y, height),
                width,
                height,
                options: o.clone(),
            });
        }
    }

    fn elements<'a>(&mut self, _ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        DatasetElements::Plugin(Box::new(MatrixElements {
            rects: std::mem::take(&mut self.rects),
            cancel: self.cancel.clone(),
        }))
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        LegendStyle::rect_element_box(
            options(ds)
                .first()
                .map(|o| (o.background_color, o.border_color, o.border_width)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_place_the_rectangle() {
        assert_eq!(resolve_x("center", 100.0, 20.0), 90.0);
        assert_eq!(resolve_x("start", 100.0, 20.0), 100.0);
        assert_eq!(resolve_x("right", 100.0, 20.0), 80.0);
        assert_eq!(resolve_y("bottom", 50.0, 10.0), 40.0);
        assert_eq!(resolve_y("top", 50.0, 10.0), 50.0);
    }
}
