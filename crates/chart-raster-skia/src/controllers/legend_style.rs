//! The legend box style of a dataset (`getStyle()` of its controller), shared by the
//! controllers whose elements draw alike (line, scatter, bubble, radar, graph nodes).

use super::{arc_options, point_options};
use crate::scene::{LineCap, LineJoin};
use chart_spec::model::{ArcJoin, CapStyle, Dataset, JoinStyle};
use chart_spec::Rgba;

/// The legend box style of a dataset (`getStyle(usePointStyle ? 0 : undefined)`).
#[derive(Debug, Clone)]
pub struct LegendStyle {
    /// `fillStyle`.
    pub fill: chart_spec::Rgba,
    /// `strokeStyle`.
    pub stroke: chart_spec::Rgba,
    /// `lineWidth` (already `(width + height) / 4` of the border).
    pub line_width: f64,
    /// `lineCap`.
    pub cap: crate::scene::LineCap,
    /// `lineDash`.
    pub dash: Vec<f64>,
    /// `lineDashOffset`.
    pub dash_offset: f64,
    /// `lineJoin`.
    pub join: crate::scene::LineJoin,
    /// `pointStyle`.
    pub point_style: Option<chart_spec::model::PointStyle>,
    /// `rotation`.
    pub rotation: f64,
    /// Bar `borderRadius` (for `useBorderRadius`).
    pub border_radius: Option<chart_spec::model::BarRadius>,
}

impl LegendStyle {
    /// The legend style of a dataset without elements: nothing visible.
    pub fn none() -> Self {
        Self::plain_box(Rgba::TRANSPARENT, Rgba::TRANSPARENT, 0.0)
    }

    /// A plain legend box: butt caps, miter joins, no dash, no point style, no rotation and
    /// square corners, which is what `getStyle()` yields for the plugin controllers whose
    /// elements set only colours and a border width.
    pub fn plain_box(fill: chart_spec::Rgba, stroke: chart_spec::Rgba, line_width: f64) -> Self {
        Self {
            fill,
            stroke,
            line_width,
            cap: crate::scene::LineCap::Butt,
            dash: Vec::new(),
            dash_offset: 0.0,
            join: crate::scene::LineJoin::Miter,
            point_style: None,
            rotation: 0.0,
            border_radius: None,
        }
    }

    /// The plain box of a rectangle element with per-side border widths (matrix, treemap),
    /// or of a dataset without such options: Chart.js's default `rgba(0,0,0,0.1)` colours
    /// and no border. The legend's line width is `(toPadding(borderWidth).width + height) / 4`.
    pub fn rect_element_box(
        element: Option<(
            chart_spec::Rgba,
            chart_spec::Rgba,
            chart_spec::values::Sides,
        )>,
    ) -> Self {
        let default = chart_spec::Rgba {
            r: 0,
            g: 0,
            b: 0,
            a: 26,
        };
        match element {
            Some((fill, stroke, sides)) => {
                Self::plain_box(fill, stroke, sides.to_array().iter().sum::<f64>() / 4.0)
            }
            None => Self::plain_box(default, default, 0.0),
        }
    }

    /// The legend box of a line or scatter dataset (`scatter`): the line's style unless
    /// `usePointStyle` or a scatter without `showLine`, else the first point's, else none.
    pub fn of_line_dataset(ds: &Dataset, scatter: bool, use_point_style: bool) -> LegendStyle {
        if !use_point_style && (!scatter || ds.show_line) {
            if let Some(l) = ds.kind.line() {
                let mut lw = l.border_width;
                if !ds.show_line && !scatter {
                    lw = 0.0;
                }
                return LegendStyle {
                    fill: l.background_color,
                    stroke: l.border_color,
                    line_width: lw,
                    cap: match l.cap {
                        CapStyle::Butt => LineCap::Butt,
                        CapStyle::Round => LineCap::Round,
                        CapStyle::Square => LineCap::Square,
                    },
                    dash: l.border_dash.clone(),
                    dash_offset: l.border_dash_offset,
                    join: match l.join {
                        JoinStyle::Miter => LineJoin::Miter,
                        JoinStyle::Round => LineJoin::Round,
                        JoinStyle::Bevel => LineJoin::Bevel,
                    },
                    point_style: None,
                    rotation: 0.0,
                    border_radius: None,
                };
            }
        }
        match point_options(ds, 0) {
            Some(o) => LegendStyle {
                fill: o.background_color,
                stroke: o.border_color,
                line_width: o.border_width,
                cap: LineCap::Butt,
                dash: Vec::new(),
                dash_offset: 0.0,
                join: LineJoin::Miter,
                point_style: Some(o.point_style),
                rotation: o.rotation,
                border_radius: None,
            },
            None => LegendStyle::none(),
        }
    }

    /// The legend box style of arc element `i` (`getStyle(i)`).
    pub fn of_arc(ds: &Dataset, i: usize) -> LegendStyle {
        let o = arc_options(ds, i);
        LegendStyle {
            fill: o.map_or(chart_spec::Rgba::TRANSPARENT, |o| o.background_color),
            stroke: o.map_or(chart_spec::Rgba::WHITE, |o| o.border_color),
            line_width: o.map_or(2.0, |o| o.border_width),
            cap: LineCap::Butt,
            dash: o.map(|o| o.border_dash.clone()).unwrap_or_default(),
            dash_offset: o.map_or(0.0, |o| o.border_dash_offset),
            join: match o.and_then(|o| o.border_join) {
                Some(ArcJoin::Round) => LineJoin::Round,
                Some(ArcJoin::Miter) => LineJoin::Miter,
                _ => LineJoin::Bevel,
            },
            point_style: None,
            rotation: 0.0,
            border_radius: None,
        }
    }
}
