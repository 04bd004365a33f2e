//! Element geometry as the rest of the chart reads it: where an element sits after its
//! controller's update, independent of how it is drawn.

/// The geometry of one element after its controller's `update`: what chartjs-plugin-datalabels'
/// positioners and the annotation plugin read, and what the layout oracle compares with the
/// live Chart.js element (`getDatasetMeta(i).data[j]`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ElementGeometry {
    /// An `ArcElement`.
    Arc {
        /// Centre x.
        x: f64,
        /// Centre y.
        y: f64,
        /// `startAngle`.
        start_angle: f64,
        /// `endAngle`.
        end_angle: f64,
        /// `innerRadius`.
        inner_radius: f64,
        /// `outerRadius`.
        outer_radius: f64,
    },
    /// A `PointElement`.
    Point {
        /// x.
        x: f64,
        /// y.
        y: f64,
        /// `options.radius`.
        radius: f64,
    },
    /// Any other element with a box (`positioners.fallback`): matrix cells.
    Rect {
        /// Left (`x`).
        x: f64,
        /// Top (`y`).
        y: f64,
        /// `width`.
        width: f64,
        /// `height`.
        height: f64,
    },
    /// A `BarElement`.
    Bar {
        /// x.
        x: f64,
        /// y.
        y: f64,
        /// `base`.
        base: f64,
        /// `horizontal`.
        horizontal: bool,
    },
}
