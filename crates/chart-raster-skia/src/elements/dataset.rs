//! What one dataset draws after its update: its elements with their resolved options and
//! geometry, as the controller's `update` left them (Chart.js's `meta.data` and
//! `meta.dataset`). `controller.draw()` is a function of this value: the drawing asks no
//! controller, scale or parsed data.

use super::arc::{draw_arc, ArcGeometry};
use super::bar::{draw_bar, Bar};
use super::geometry::ElementGeometry;
use super::line::LineEl;
use super::point::draw_point_element;
use super::{Area, Ctx};
use chart_spec::model::{ArcOptions, PointOptions};
use std::borrow::Cow;

/// How often the element loops poll [`Ctx::stopped`].
const STOP_EVERY: usize = 1024;

/// A `PointElement` after its update: where it sits and its resolved options (borrowed from
/// the dataset's, or its own when the controller changed them: a bubble's radius).
#[derive(Debug, Clone)]
pub struct PointEl<'a> {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
    /// The resolved options.
    pub options: Cow<'a, PointOptions>,
}

/// An `ArcElement` after its update.
#[derive(Debug, Clone)]
pub struct ArcEl<'a> {
    /// Where the arc sits.
    pub geometry: ArcGeometry,
    /// Its resolved options; `None`: the arc is not drawn (no options, or the layout skipped
    /// it).
    pub options: Option<&'a ArcOptions>,
}

/// The elements of a plugin chart (matrix, treemap, sankey, venn and euler, word cloud, geo,
/// graphs), as the plugin's controller laid them out: they draw themselves as the plugin's
/// elements do.
pub trait PluginElements {
    /// `controller.draw()` within the chart `area`.
    fn draw(&self, ctx: &mut Ctx<'_>, area: &Area);
    /// Each element's geometry by data index, where the plugins read one (matrix cells).
    fn geometry(&self) -> Vec<Option<ElementGeometry>> {
        Vec::new()
    }
}

/// A dataset's elements as its draw reads them, one variant per kind of element the
/// controllers lay out. Element lists are by data index; `None` is an element that is not
/// drawn (skipped, no value, outside the drawn range), which the plugins see as absent too.
#[derive(Default)]
pub enum DatasetElements<'a> {
    /// Nothing to draw (no scale to lay the data on, a cancelled update).
    #[default]
    Empty,
    /// A plugin chart's elements.
    Plugin(Box<dyn PluginElements + 'a>),
    /// Bars (`BarController`).
    Bars(Vec<Option<Bar>>),
    /// A line with its points (line, scatter, radar): the line (`meta.dataset`, control
    /// points done) is drawn first, then the points over it.
    Line {
        /// The line element, `None` for a scatter dataset without `showLine`.
        line: Option<LineEl>,
        /// The point elements.
        points: Vec<Option<PointEl<'a>>>,
    },
    /// Points without a line (bubble).
    Points(Vec<Option<PointEl<'a>>>),
    /// Arcs (doughnut, pie, polar area).
    Arcs(Vec<ArcEl<'a>>),
}

impl DatasetElements<'_> {
    /// `controller.draw()`: the elements in data order within the chart `area` (points
    /// outside it are not drawn, `_isPointInArea`).
    pub fn draw(&self, ctx: &mut Ctx<'_>, area: &Area) {
        match self {
            Self::Empty => {}
            Self::Plugin(p) => p.draw(ctx, area),
            Self::Bars(bars) => {
                for (i, b) in bars.iter().enumerate() {
                    if i % STOP_EVERY == STOP_EVERY - 1 && ctx.stopped() {
                        return;
                    }
                    if let Some(b) = b {
                        draw_bar(ctx, b);
                    }
                }
            }
            Self::Line { line, points } => {
                if let Some(line) = line {
                    line.draw(ctx);
                }
                draw_points(ctx, points, area);
            }
            Self::Points(points) => draw_points(ctx, points, area),
            Self::Arcs(arcs) => {
                for (i, a) in arcs.iter().enumerate() {
                    if i % STOP_EVERY == STOP_EVERY - 1 && ctx.stopped() {
                        return;
                    }
                    if let Some(o) = a.options {
                        draw_arc(ctx, &a.geometry, o);
                    }
                }
            }
        }
    }

    /// At most how many display-list items [`DatasetElements::draw`] adds for the points
    /// (a fill, and a stroke with a border, for each point drawn: `radius` of 0.1 or more),
    /// to size the list once before drawing; 0 for other elements, which are few or draw
    /// an unknown number of items each.
    pub fn items_hint(&self) -> usize {
        match self {
            Self::Line { points, .. } | Self::Points(points) => (points.iter().flatten())
                .filter(|p| p.options.radius >= 0.1)
                .map(|p| 1 + usize::from(p.options.border_width > 0.0))
                .sum(),
            _ => 0,
        }
    }

    /// Each element's geometry by data index (`None`: no element or not drawn): what the
    /// plugins (datalabels, annotation) and the layout read.
    pub fn geometry(&self) -> Vec<Option<ElementGeometry>> {
        let point = |p: &Option<PointEl<'_>>| {
            p.as_ref().map(|p| ElementGeometry::Point {
                x: p.x,
                y: p.y,
                radius: p.options.radius,
            })
        };
        match self {
            Self::Empty => Vec::new(),
            Self::Plugin(p) => p.geometry(),
            Self::Bars(bars) => (bars.iter())
                .map(|b| {
                    b.as_ref().map(|b| ElementGeometry::Bar {
                        x: b.x,
                        y: b.y,
                        base: b.base,
                        horizontal: b.horizontal,
                    })
                })
                .collect(),
            Self::Line { points, .. } | Self::Points(points) => points.iter().map(point).collect(),
            Self::Arcs(arcs) => (arcs.iter())
                .map(|a| a.geometry.element_geometry())
                .collect(),
        }
    }

    /// The line element (line, scatter with `showLine`, radar): what the filler fills from.
    pub fn line(&self) -> Option<&LineEl> {
        match self {
            Self::Line { line, .. } => line.as_ref(),
            _ => None,
        }
    }

    /// The line element, to compute its control points once the chart area is known.
    pub fn line_mut(&mut self) -> Option<&mut LineEl> {
        match self {
            Self::Line { line, .. } => line.as_mut(),
            _ => None,
        }
    }
}

/// `PointElement.draw` of each drawn point, polling [`Ctx::stopped`].
fn draw_points(ctx: &mut Ctx<'_>, points: &[Option<PointEl<'_>>], area: &Area) {
    for (i, p) in points.iter().enumerate() {
        if i % STOP_EVERY == STOP_EVERY - 1 && ctx.stopped() {
            return;
        }
        if let Some(p) = p {
            draw_point_element(ctx, &p.options, p.x, p.y, area);
        }
    }
}
