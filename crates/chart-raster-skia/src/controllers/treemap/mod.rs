//! Treemap controller of chartjs-chart-treemap 4.2.2: the plugin's squarify layout (rows
//! grown while the worst aspect ratio improves), grouping of object data by `groups`,
//! captions for groups and labels for leaves.
//!
//! The layout works in a value space the size of the chart area (the plugin sets both hidden
//! linear scales' max to the area's size); pixels are then snapped to device pixels as the
//! scales' `alignToPixels` does.
//!
//! Hostile data: the layout ([`layout`]) keeps to the treemap budgets without recursion, and
//! every number that becomes geometry is clamped first.

use super::{Controller, LegendStyle, Meta, UpdateCx};
use crate::elements::align_pixel;
use crate::elements::dataset::DatasetElements;
use crate::scales::Scale;
use chart_spec::model::{Dataset, Raw};
use chart_spec::model::{DatasetKind, TreemapOptions};
use chart_spec::{Cancel, Limits};

mod draw;
pub mod layout;

use draw::TreemapElements;
use layout::px_len;
pub use layout::{build_data, build_data_within, Sq, TreeData};

/// How often the loops over entries poll the render's [`Cancel`].
const CANCEL_EVERY: usize = 256;

/// A treemap element: its pixel rectangle and layout record.
#[derive(Debug, Clone)]
pub struct TreemapEl {
    /// Left, px.
    pub x: f64,
    /// Top, px.
    pub y: f64,
    /// Width, px.
    pub width: f64,
    /// Height, px.
    pub height: f64,
    /// `hidden`: spacing larger than the rectangle.
    pub hidden: bool,
    /// The layout record.
    pub sq: Sq,
}

/// `TreemapController`.
#[derive(Default)]
pub struct TreemapController {
    /// Elements after `update`.
    pub rects: Vec<TreemapEl>,
    /// The render's stop signal, kept from `update` for `draw`.
    cancel: Cancel,
    /// Messages of `parse`.
    messages: Vec<chart_spec::Message>,
    /// The render's budgets (depth and leaves), for `parse`.
    limits: Limits,
}

impl TreemapController {
    /// A controller keeping to `limits`.
    pub fn new(limits: &Limits) -> Self {
        Self {
            limits: *limits,
            ..Self::default()
        }
    }
}

fn options(ds: &Dataset) -> Option<&TreemapOptions> {
    match &ds.kind {
        DatasetKind::Treemap(t, _) => Some(t),
        _ => None,
    }
}

impl Controller for TreemapController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, _scales: &mut [Scale], _labels: &[Raw]) {
        // The data is the tree, laid out at update time; the scales see `getMinMax` only.
        meta.parsed.clear();
        let Some(o) = options(ds) else { return };
        let limits = self.limits;
        if o.groups.len() > limits.max_treemap_depth {
            self.messages.push(chart_spec::Message::warn(format!(
                "treemap: only the first {} of {} groups are used (MAX_TREEMAP_DEPTH)",
                limits.max_treemap_depth,
                o.groups.len()
            )));
        }
        if o.tree_len > limits.max_treemap_leaves {
            self.messages.push(chart_spec::Message::warn(format!(
                "treemap: only the first {} entries are laid out (MAX_TREEMAP_LEAVES)",
                limits.max_treemap_leaves
            )));
        }
    }

    fn take_messages(&mut self) -> Vec<chart_spec::Message> {
        std::mem::take(&mut self.messages)
    }

    fn update(&mut self, ds: &Dataset, _meta: &Meta, cx: &UpdateCx<'_>) {
        self.rects.clear();
        let Some(o) = options(ds) else { return };
        let a = cx.area;
        let (w, h) = (a.right - a.left, a.bottom - a.top);
        // Hidden linear scales 0..w and 0..h with alignToPixels: `_alignPixel(chart, px, 0)`.
        let px = |v: f64| align_pixel(cx.dpr, a.left + v, 0.0);
        let py = |v: f64| align_pixel(cx.dpr, a.top + v, 0.0);
        self.cancel = cx.cancel.clone();
        let sp = px_len(o.spacing);
        for sq in build_data_within(o, w, h, cx.limits, cx.cancel) {
            let x = px(sq.x);
            let y = py(sq.y);
            let ww = px(sq.x + sq.w) - x;
            let hh = py(sq.y + sq.h) - y;
            self.rects.push(TreemapEl {
                x: x + sp,
                y: y + sp,
                width: ww - 2.0 * sp,
                height: hh - 2.0 * sp,
                hidden: 2.0 * sp > ww || 2.0 * sp > hh,
                sq,
            });
        }
    }

    fn elements<'a>(&mut self, ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        match options(ds) {
            Some(options) => DatasetElements::Plugin(Box::new(TreemapElements {
                rects: std::mem::take(&mut self.rects),
                options,
                cancel: self.cancel.clone(),
            })),
            None => DatasetElements::Empty,
        }
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        LegendStyle::rect_element_box(
            options(ds).map(|o| (o.background_color, o.border_color, o.border_width)),
        )
    }
}
