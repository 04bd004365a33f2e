//! Sankey controller of chartjs-chart-sankey 0.19.1: nodes placed in columns (`calculateX`),
//! stacked in each column (`calculateY` or by `priority`), padded (`addPadding`), then flows
//! drawn as cubic bands between the columns with a `colorFrom` → `colorTo` gradient, nodes as
//! rectangles and their labels beside them.
//!
//! The layout works in flow units: x is the column, y the cumulated flow; the hidden linear
//! scales map both to pixels.
//!
//! The data is hostile until proven otherwise: the plugin's graph walks recurse along the
//! flows (a chain of 20,000 nodes overflows any stack) and some of its loops are quadratic
//! (`nextColumn` rescans every flow per column, `flowByNodeCount` recounts reachable nodes on
//! every comparison, `fixTop` steps through every integer up to the last column). Here every
//! walk keeps an explicit stack, nodes are found by key through a map, each loop is near-linear
//! in nodes plus flows, and the input is cut at [`Limits::default`]'s sankey budgets (the
//! service rejects bigger charts before they get here). Results are the plugin's.
//!
//! [`layout`] holds the layout in flow units, `draw` the flows' and labels' drawing; this
//! module is the controller that runs them.

mod draw;
pub mod layout;

pub use self::layout::{layout, layout_within, Layout};

use self::draw::SankeyElements;
use self::layout::{node_min_size, nx, ny, or, CANCEL_EVERY};
use super::{Controller, LegendStyle, Meta, Parsed, UpdateCx};
use crate::elements::bounds::{finite_in, MAX_PX};
use crate::elements::dataset::DatasetElements;
use crate::elements::Area;
use crate::scales::Scale;
use chart_spec::model::{Dataset, Raw};
use chart_spec::model::{DatasetKind, SankeyFlow, SankeyOptions};
use chart_spec::{Cancel, Limits, Rgba};

/// One flow in pixels.
#[derive(Debug, Clone)]
pub struct FlowEl {
    /// Start x (after the source node).
    pub x: f64,
    /// Start y.
    pub y: f64,
    /// End x (before the target node).
    pub x2: f64,
    /// End y.
    pub y2: f64,
    /// Band thickness (horizontal) .
    pub height: f64,
    /// Band thickness (vertical).
    pub width: f64,
    /// The flow's options.
    pub flow: SankeyFlow,
    from: usize,
    to: usize,
}

/// `SankeyController`.
#[derive(Default)]
pub struct SankeyController {
    /// The layout after `parse`.
    pub layout: Layout,
    /// The flows after `update`.
    pub flows: Vec<FlowEl>,
    /// Node rectangles after `update`: (x, y, width, height).
    pub node_rects: Vec<(f64, f64, f64, f64)>,
    /// Per flow: (from y, to y) in flow units.
    ends: Vec<Option<(f64, f64)>>,
    column_padding: f64,
    area: Area,
    /// The render's stop signal, kept from `update` for `draw`.
    cancel: Cancel,
    /// Messages of `parse`.
    messages: Vec<chart_spec::Message>,
    /// The render's budgets (nodes and flows).
    limits: Limits,
}

impl SankeyController {
    /// A controller keeping to `limits`.
    pub fn new(limits: &Limits) -> Self {
        Self {
            limits: *limits,
            ..Self::default()
        }
    }
}

pub(super) fn options(ds: &Dataset) -> Option<&SankeyOptions> {
    match &ds.kind {
        DatasetKind::Sankey(s, _) => Some(s),
        _ => None,
    }
}

impl SankeyController {
    fn col_pixel(&self, s: &Scale, v: f64) -> f64 {
        let p = s.pixel_for_value(v);
        if self.layout.max_x != 0.0 {
            p - v / self.layout.max_x * self.column_padding
        } else {
            p
        }
    }
}

impl Controller for SankeyController {
    fn parse(&mut self, ds: &Dataset, meta: &mut Meta, scales: &mut [Scale], _labels: &[Raw]) {
        meta.parsed.clear();
        let Some(o) = options(ds) else { return };
        let (cw, ch) = scales
            .first()
            .map(|s| (s.core.chart_width, s.core.chart_height))
            .unwrap_or((0.0, 0.0));
        let limits = self.limits;
        self.layout = layout_within(o, if o.vertical { cw } else { ch }, &limits);
        if self.layout.truncated {
            self.messages.push(chart_spec::Message::warn(format!(
                "sankey: only the first {} nodes and {} flows are drawn \
                 (MAX_SANKEY_NODES, MAX_SANKEY_FLOWS)",
                limits.max_sankey_nodes, limits.max_sankey_flows
            )));
        }
        let l = &self.layout;
        self.ends = (0..o.flows.len())
            .map(|i| {
                let (fi, ti) = l.ends.get(i).copied().flatten()?;
                let (from_add, to_add) = l.add_y.get(i).copied().unwrap_or((0.0, 0.0));
                Some((ny(&l.nodes[fi]) + from_add, ny(&l.nodes[ti]) + to_add))
            })
            .collect();
        // `getMinMax`: the column scale spans 0..maxX, the other 0..maxY.
        let (cx, cy) = (l.max_x, l.max_y);
        let (x, y) = if o.vertical { (cy, cx) } else { (cx, cy) };
        meta.parsed.push(Parsed {
            x: Some(0.0),
            y: Some(0.0),
            ..Parsed::default()
        });
        meta.parsed.push(Parsed {
            x: Some(x),
            y: Some(y),
            ..Parsed::default()
        });
    }

    fn update(&mut self, ds: &Dataset, meta: &Meta, cx: &UpdateCx<'_>) {
        self.flows.clear();
        self.node_rects.clear();
        self.area = cx.area;
        self.cancel = cx.cancel.clone();
        let Some(o) = options(ds) else { return };
        let (Some(xs), Some(ys)) = (
            cx.scale(meta.x_id.as_deref()),
            cx.scale(meta.y_id.as_deref()),
        ) else {
            return;
        };
        let (chart_w, chart_h) = (xs.core.chart_width, xs.core.chart_height);
        let trailing = if o.vertical {
            chart_h - cx.area.bottom
        } else {
            chart_w - cx.area.right
        };
        let node_width = finite_in(o.node_width, -MAX_PX, MAX_PX, 10.0);
        let border_width = finite_in(o.border_width, 0.0, MAX_PX, 1.0);
        self.column_padding = (node_width + 3.0 - trailing).max(0.0);
        let border_space = if border_width != 0.0 {
            border_width / 2.0 + 0.5
        } else {
            0.0
        };
        let (cs, vs) = if o.vertical { (ys, xs) } else { (xs, ys) };
        for (i, f) in o.flows.iter().enumerate() {
            if i.is_multiple_of(CANCEL_EVERY) && cx.cancel.is_cancelled() {
                return;
            }
            let Some(Some((fy, ty))) = self.ends.get(i).copied() else {
                continue;
            };
            let Some(Some((fi, ti))) = self.layout.ends.get(i).copied() else {
                continue;
            };
            let amount = self.layout.amounts.get(i).copied().unwrap_or(0.0);
            let (fx, tx) = (nx(&self.layout.nodes[fi]), nx(&self.layout.nodes[ti]));
            let v = vs.pixel_for_value(fy);
            let thick = (vs.pixel_for_value(fy + amount) - v).abs();
            let c1 = self.col_pixel(cs, fx) + node_width + border_space;
            let c2 = self.col_pixel(cs, tx) - border_space;
            let v2 = vs.pixel_for_value(ty);
            let el = if o.vertical {
                FlowEl {
                    x: v,
                    y: c1,
                    x2: v2,
                    y2: c2,
                    height: 0.0,
                    width: thick,
                    flow: f.clone(),
                    from: fi,
                    to: ti,
                }
            } else {
                FlowEl {
                    x: c1,
                    y: v,
                    x2: c2,
                    y2: v2,
                    height: thick,
                    width: 0.0,
                    flow: f.clone(),
                    from: fi,
                    to: ti,
                }
            };
            self.flows.push(el);
        }
        for (i, n) in self.layout.nodes.iter().enumerate() {
            if i.is_multiple_of(CANCEL_EVERY) && cx.cancel.is_cancelled() {
                return;
            }
            let (a, b) = (or(n.inflow, n.outflow), or(n.outflow, n.inflow));
            let size = if o.size_min { a.min(b) } else { a.max(b) };
            let min_size = node_min_size(o, &n.key);
            let p1 = vs.pixel_for_value(ny(n));
            let p2 = vs.pixel_for_value(ny(n) + size);
            let lo = p1.min(p2);
            let natural = (p2 - p1).abs();
            let len = natural.max(min_size);
            let c = self.col_pixel(cs, nx(n));
            self.node_rects.push(if o.vertical {
                (lo - (len - natural) / 2.0, c, len, node_width)
            } else {
                (c, lo - (len - natural) / 2.0, node_width, len)
            });
        }
    }

    fn elements<'a>(&mut self, ds: &'a Dataset, _meta: &Meta) -> DatasetElements<'a> {
        let Some(options) = options(ds) else {
            return DatasetElements::Empty;
        };
        // Node colours: each flow paints its ends, later flows win.
        let mut nodes = std::mem::take(&mut self.layout.nodes);
        for n in nodes.iter_mut() {
            n.color = None;
        }
        for f in &self.flows {
            nodes[f.from].color = Some(f.flow.color_from);
            nodes[f.to].color = Some(f.flow.color_to);
        }
        DatasetElements::Plugin(Box::new(SankeyElements {
            nodes,
            node_rects: std::mem::take(&mut self.node_rects),
            flows: std::mem::take(&mut self.flows),
            area: self.area,
            options,
            cancel: self.cancel.clone(),
        }))
    }

    fn take_messages(&mut self) -> Vec<chart_spec::Message> {
        std::mem::take(&mut self.messages)
    }

    fn legend_style(&self, ds: &Dataset, _use_point_style: bool) -> LegendStyle {
        let c = options(ds)
            .and_then(|o| o.flows.first())
            .map(|f| f.color_from)
            .unwrap_or(Rgba::rgb(0, 0, 0));
        LegendStyle::plain_box(c, c, 0.0)
    }
}
