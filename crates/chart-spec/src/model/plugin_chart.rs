//! Dataset options of the bundled plugin chart types (chartjs-chart-matrix 3.1.0,
//! chartjs-chart-treemap 4.2.2, chartjs-chart-sankey 0.19.1, chartjs-chart-venn 4.3.7 and
//! chartjs-chart-graph's tree types), resolved through the same scope chain as the core types.
//!
//! Defaults documented on fields are Chart.js 4.5.1's (or the named plugin's).

use super::raw::Raw;
use crate::color::Rgba;
use crate::values::{Corners, Font, Sides};
use std::collections::BTreeMap;

/// chartjs-chart-graph tree and dendrogram options, with the edges and their style.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphOptions {
    /// `tree.mode`: `'tree'` (d3 `tree()`) or `'dendrogram'` (d3 `cluster()`).
    pub tidy_tree: bool,
    /// `tree.orientation`: `horizontal`, `vertical` or `radial`. Default: `'horizontal'`.
    pub orientation: String,
    /// Edges (source, target): from `edges` or from each node's `parent`.
    pub edges: Vec<(NodeRef, NodeRef)>,
    /// Edges derived from `parent` (the root is then the first node without one).
    pub derived_edges: bool,
    /// Edge `borderColor`. Default: `Chart.defaults.borderColor`.
    pub edge_color: Rgba,
    /// Edge `borderWidth`. Default: 3.
    pub edge_width: f64,
    /// Edge `tension`. Default: 0.4 (the controller's).
    pub tension: f64,
    /// Edge `borderDash`. Default: none.
    pub edge_dash: Vec<f64>,
    /// Edge `directed`: an arrow head at the target. Default: false.
    pub directed: bool,
    /// `arrowHeadSize`. Default: 15.
    pub arrow_size: f64,
    /// `arrowHeadOffset`. Default: 5.
    pub arrow_offset: f64,
    /// `simulation` of a `forceDirectedGraph` (d3-force); `None` for the other graph types.
    pub simulation: Option<Box<ForceSimulation>>,
}

/// chartjs-chart-graph's `simulation` options: d3-force's forces as configured by the plugin
/// (each force's option object calls the d3 setter of the same name). Functions are not
/// expressible in JSON, so every accessor is a constant.
#[derive(Debug, Clone, PartialEq)]
pub struct ForceSimulation {
    /// `initialIterations`: ticks run at once before the first layout. Default: 0 (the
    /// browser engine's page runs 300 unless the config says otherwise).
    pub initial_iterations: f64,
    /// `autoRestart`: the simulation keeps ticking after the initial ones. Default: true.
    pub auto_restart: bool,
    /// `forces.center`. Default: on.
    pub center: Option<CenterForce>,
    /// `forces.collide`. Default: off.
    pub collide: Option<CollideForce>,
    /// `forces.link`. Default: on.
    pub link: Option<LinkForce>,
    /// `forces.manyBody`. Default: on.
    pub many_body: Option<ManyBodyForce>,
    /// `forces.x`. Default: off.
    pub x: Option<PositionForce>,
    /// `forces.y`. Default: off.
    pub y: Option<PositionForce>,
    /// `forces.radial`. Default: off.
    pub radial: Option<RadialForce>,
}

/// d3 `forceCenter`.
#[derive(Debug, Clone, PartialEq)]
pub struct CenterForce {
    /// `x`. Default: 0.
    pub x: f64,
    /// `y`. Default: 0.
    pub y: f64,
    /// `strength`. Default: 1.
    pub strength: f64,
}

/// d3 `forceCollide`.
#[derive(Debug, Clone, PartialEq)]
pub struct CollideForce {
    /// `radius`. Default: 1.
    pub radius: f64,
    /// `strength`. Default: 1.
    pub strength: f64,
    /// `iterations`. Default: 1.
    pub iterations: f64,
}

/// d3 `forceLink`.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkForce {
    /// `distance`. Default: 30.
    pub distance: f64,
    /// `strength`; `None` is d3's default (`1 / min(count(source), count(target))`).
    pub strength: Option<f64>,
    /// `iterations`. Default: 1.
    pub iterations: f64,
}

/// d3 `forceManyBody`.
#[derive(Debug, Clone, PartialEq)]
pub struct ManyBodyForce {
    /// `strength`. Default: -30.
    pub strength: f64,
    /// `theta` (Barnes–Hut). Default: 0.9.
    pub theta: f64,
    /// `distanceMin`. Default: 1.
    pub distance_min: f64,
    /// `distanceMax`. Default: infinity.
    pub distance_max: f64,
}

/// d3 `forceX` / `forceY`.
#[derive(Debug, Clone, PartialEq)]
pub struct PositionForce {
    /// `x` (or `y`): the target position. Default: 0.
    pub position: f64,
    /// `strength`. Default: 0.1.
    pub strength: f64,
}

/// d3 `forceRadial`.
#[derive(Debug, Clone, PartialEq)]
pub struct RadialForce {
    /// `radius`. Default: undefined (`NaN`: the plugin calls `forceRadial()` bare).
    pub radius: f64,
    /// `x`. Default: 0.
    pub x: f64,
    /// `y`. Default: 0.
    pub y: f64,
    /// `strength`. Default: 0.1.
    pub strength: f64,
}

/// One region of a venn diagram (`ArcSlice` options at an index) and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct VennSlice {
    /// `value` of the data entry (`NaN` when missing).
    pub value: f64,
    /// `sets` of the data entry (names as strings), what `euler` lays out.
    pub sets: Vec<String>,
    /// `backgroundColor`. Default: `'#efefef'`.
    pub background_color: Option<Rgba>,
    /// `borderColor`. Default: `Chart.defaults.borderColor`.
    pub border_color: Option<Rgba>,
    /// `borderWidth`. Default: 0 (which a canvas ignores, keeping 1).
    pub border_width: f64,
}

/// One of chartjs-chart-venn's fixed layouts (`venn0` to `venn5`), in template units: the
/// plugin scales it into the chart area rather than computing a layout (circles up to three
/// sets, ellipses for four and five).
#[derive(Debug, Clone, PartialEq)]
pub struct VennTemplate {
    /// `bb`: the template's bounding box (x, y, width, height).
    pub bb: (f64, f64, f64, f64),
    /// `sets`: one circle per set.
    pub circles: Vec<VennTemplateCircle>,
    /// `intersections`: one region per data entry.
    pub regions: Vec<VennTemplateRegion>,
}

/// A set's circle in a [`VennTemplate`].
#[derive(Debug, Clone, PartialEq)]
pub struct VennTemplateCircle {
    /// `cx`.
    pub cx: f64,
    /// `cy`.
    pub cy: f64,
    /// `r`.
    pub r: f64,
    /// `rx`, `ry` and `rotation` (degrees) of an ellipse (four and five sets).
    pub ellipse: Option<(f64, f64, f64)>,
    /// `text`: where the set's name goes.
    pub text: (f64, f64),
    /// `align`: `start`, `end` or `middle`. Default: `'start'`.
    pub align: String,
    /// `verticalAlign`: `top`, `bottom` or `middle`. Default: `'alphabetic'`.
    pub vertical_align: String,
}

/// A region (an intersection of sets) in a [`VennTemplate`]: a path of circle arcs.
#[derive(Debug, Clone, PartialEq)]
pub struct VennTemplateRegion {
    /// `x1`, `y1`: the start point.
    pub start: (f64, f64),
    /// `arcs`: the outline.
    pub arcs: Vec<VennTemplateArc>,
    /// `text`: where the value goes.
    pub text: (f64, f64),
}

/// One arc of a region's outline: along circle `circle` to `(x2, y2)`.
#[derive(Debug, Clone, PartialEq)]
pub struct VennTemplateArc {
    /// `ref`: index into the template's circles.
    pub circle: usize,
    /// `x2`.
    pub x2: f64,
    /// `y2`.
    pub y2: f64,
    /// `sweep`: SVG sweep flag (increasing angles).
    pub sweep: bool,
    /// `large`: SVG large-arc flag.
    pub large: bool,
}

/// chartjs-chart-venn dataset options: one slice per data entry.
#[derive(Debug, Clone, PartialEq)]
pub struct VennOptions {
    /// Per data index.
    pub slices: Vec<VennSlice>,
}

/// One flow of a sankey chart, with its element options.
#[derive(Debug, Clone, PartialEq)]
pub struct SankeyFlow {
    /// `from` node key (`String(from)`).
    pub from: String,
    /// `to` node key.
    pub to: String,
    /// `flow` amount.
    pub flow: f64,
    /// `colorFrom`. Default: `'red'`.
    pub color_from: Rgba,
    /// `colorTo`. Default: `'green'`.
    pub color_to: Rgba,
    /// `colorMode`: `gradient`, `from` or `to`. Default: `'gradient'`.
    pub color_mode: String,
    /// `alpha` applied to the flow colours. Default: 0.5.
    pub alpha: f64,
    /// `flowColor`: one colour for the flow. Default: null.
    pub flow_color: Option<Rgba>,
    /// `flowLabels.display`. Default: false.
    pub label_display: bool,
    /// `flowLabels.color`. Default: black.
    pub label_color: Rgba,
    /// `flowLabels.padding`. Default: 4.
    pub label_padding: f64,
    /// `flowLabels.position`. Default: `'center'`.
    pub label_position: String,
    /// `flowLabels.backgroundColor`. Default: none.
    pub label_background: Option<Rgba>,
    /// `flowLabels.borderRadius`. Default: 0.
    pub label_border_radius: f64,
    /// `flowLabels.font`. Default: `Chart.defaults.font`.
    pub label_font: Font,
}

/// A sankey option given once for every node or per node key (`resolveNodeOption`: an object
/// maps node keys to values).
#[derive(Debug, Clone, PartialEq)]
pub enum PerNode<T> {
    /// Not given (or `null`).
    Unset,
    /// One value for every node.
    All(T),
    /// Node key → value.
    ByKey(BTreeMap<String, T>),
}

impl<T> PerNode<T> {
    /// The value of the node `key`.
    pub fn get(&self, key: &str) -> Option<&T> {
        match self {
            PerNode::Unset => None,
            PerNode::All(v) => Some(v),
            PerNode::ByKey(m) => m.get(key),
        }
    }
}

/// `nodePadding` of a node (`resolveNodeGap`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NodeGap {
    /// A number: the gap before and after.
    Both(f64),
    /// `{before, after}` (`+value` each; the default gap where absent).
    Sides {
        /// `before`.
        before: Option<f64>,
        /// `after`.
        after: Option<f64>,
    },
    /// Anything else: the default gap.
    Default,
}

/// `nodeLabels` of a sankey chart, each option once or per node key.
#[derive(Debug, Clone, PartialEq)]
pub struct SankeyNodeLabels {
    /// `display` (truthiness). Default: true.
    pub display: PerNode<bool>,
    /// `color` when it is a CSS colour. Default: the dataset's `color`.
    pub color: PerNode<Option<Rgba>>,
    /// `backgroundColor` when it is a CSS colour. Default: none.
    pub background_color: PerNode<Option<Rgba>>,
    /// `position` when it is a string. Default: `'auto'`.
    pub position: PerNode<Option<String>>,
    /// `padding` (`+value`). Default: 4.
    pub padding: Option<f64>,
    /// `borderRadius` (`+value`). Default: 0.
    pub border_radius: Option<f64>,
}

/// chartjs-chart-sankey dataset options.
#[derive(Debug, Clone, PartialEq)]
pub struct SankeyOptions {
    /// The flows, in data order (entries without from/to are left out).
    pub flows: Vec<SankeyFlow>,
    /// `size`: `'max'` or `'min'`. Default: `'max'`.
    pub size_min: bool,
    /// `priority`: node key → order in its column (`+value`).
    pub priority: Option<BTreeMap<String, f64>>,
    /// `column`: node key → column (`+value`).
    pub column: Option<BTreeMap<String, f64>>,
    /// `nodePadding`: a number, or per node key (a number or `{before, after}`). Default: 10.
    pub node_padding: PerNode<NodeGap>,
    /// `nodePaddingMode`: `auto` or `even`. Default: `'auto'`.
    pub node_padding_mode: String,
    /// `nodeMinSize`: a number, or per node key (`+value`). Default: 0.
    pub node_min_size: PerNode<f64>,
    /// `nodeWidth`. Default: 10.
    pub node_width: f64,
    /// `modeX`: `edge` or `even`. Default: `'edge'`.
    pub mode_x: String,
    /// `orientation`: `horizontal` or `vertical`. Default: `'horizontal'`.
    pub vertical: bool,
    /// `borderColor` of nodes. Default: `'black'`.
    pub border_color: Option<Rgba>,
    /// `borderWidth` of nodes. Default: 1.
    pub border_width: f64,
    /// `color`: node label colour. Default: `'black'`.
    pub color: Rgba,
    /// `labels`: node key → the label's lines (`toTextLines`); a node without one shows its key.
    pub labels: Option<BTreeMap<String, Vec<String>>>,
    /// `nodeLabels`.
    pub node_labels: SankeyNodeLabels,
    /// `nodeLabels.font`, else `font`, else the chart font.
    pub font: Font,
    /// `padding`: the line offset of multi-line labels. Default: half the line height.
    pub padding: Option<f64>,
}

/// One matrix rectangle's options (`MatrixElement` options resolved at an index).
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixRect {
    /// `width`. Default: 20 (functions are not expressible in JSON).
    pub width: f64,
    /// `height`. Default: 20.
    pub height: f64,
    /// `anchorX`: `'left'|'start'`, `'right'|'end'` or centre. Default: `'center'`.
    pub anchor_x: String,
    /// `anchorY`: `'top'|'start'`, `'bottom'|'end'` or centre. Default: `'center'`.
    pub anchor_y: String,
    /// `backgroundColor`. Default: `Chart.defaults.backgroundColor` (`rgba(0,0,0,0.1)`).
    pub background_color: Rgba,
    /// `borderColor`. Default: `Chart.defaults.borderColor` (`rgba(0,0,0,0.1)`).
    pub border_color: Rgba,
    /// `borderWidth` per side. Default: undefined (0).
    pub border_width: Sides,
    /// `borderRadius` per corner. Default: 0.
    pub border_radius: Corners,
}

/// chartjs-chart-matrix dataset options: one entry per data index.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixOptions {
    /// Per data index.
    pub rects: Vec<MatrixRect>,
}

/// Treemap caption or label text options.
#[derive(Debug, Clone, PartialEq)]
pub struct TreemapText {
    /// `display`. Default: captions true, labels false.
    pub display: bool,
    /// `color` (labels accept one per line). Default: `'black'`.
    pub colors: Vec<Rgba>,
    /// `font` (labels accept one per line). Default: `Chart.defaults.font`.
    pub fonts: Vec<Font>,
    /// `padding`. Default: 3.
    pub padding: f64,
    /// `align`: `left`, `center` or `right`. Default: labels `'center'`, captions left.
    pub align: Option<String>,
    /// `position` (labels): `top`, `middle` or `bottom`. Default: `'middle'`.
    pub position: String,
    /// `overflow` (labels): `cut`, `hidden` or `fit`. Default: `'cut'`.
    pub overflow: String,
    /// `formatter` given as a string (a constant text).
    pub text: Option<Vec<String>>,
}

/// One entry of a treemap's `tree`, read the way `buildData` reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum TreemapEntry {
    /// Not an object (a number, string, array…): `index()` reads it as `+value`.
    Value(f64),
    /// An object.
    Object {
        /// `+object[key]` (`NaN` when absent), with the dataset's `key` (`''` when unset).
        value: f64,
        /// `label` when it is a string.
        label: Option<String>,
        /// Its fields as raw scalars, for the grouping by `groups` and `treeLeafKey`.
        fields: BTreeMap<String, Raw>,
    },
}

/// chartjs-chart-treemap dataset options.
#[derive(Debug, Clone, PartialEq)]
pub struct TreemapOptions {
    /// `tree` (or `data`) as the entries `buildData` lays out: an array's first
    /// `MAX_TREEMAP_LEAVES` entries, or a nested object flattened by `normalizeTreeToArray`.
    pub tree: Vec<TreemapEntry>,
    /// How many entries `tree` gave as an array (0 for a nested object), to say when some
    /// were left out.
    pub tree_len: usize,
    /// `key`: the value key of object data. Default: undefined.
    pub key: Option<String>,
    /// `groups`: keys grouping object data, outermost first.
    pub groups: Vec<String>,
    /// `treeLeafKey`. Default: `'_leaf'`.
    pub tree_leaf_key: String,
    /// `spacing` as `buildData` reads it from the dataset. Default: 0 there, 0.5 for drawing.
    pub layout_spacing: f64,
    /// `borderWidth` as `buildData` reads it from the dataset (t, r, b, l).
    pub layout_border_width: Sides,
    /// `displayMode`: `containerBoxes` or `headerBoxes`. Default: `'containerBoxes'`.
    pub display_mode: String,
    /// `rtl`. Default: false.
    pub rtl: bool,
    /// `unsorted`. Default: false.
    pub unsorted: bool,
    /// Element `spacing`. Default: 0.5.
    pub spacing: f64,
    /// Element `borderWidth`. Default: 0.
    pub border_width: Sides,
    /// Element `borderRadius`. Default: 0.
    pub border_radius: Corners,
    /// `backgroundColor`. Default: `rgba(0,0,0,0.1)`.
    pub background_color: Rgba,
    /// `borderColor`. Default: `rgba(0,0,0,0.1)`.
    pub border_color: Rgba,
    /// `captions`.
    pub captions: TreemapText,
    /// `labels`.
    pub labels: TreemapText,
    /// `dividers.display`. Default: false.
    pub dividers: bool,
    /// `dividers.lineColor`. Default: black.
    pub divider_color: Rgba,
    /// `dividers.lineWidth`. Default: 1.
    pub divider_width: f64,
    /// `dividers.lineDash`. Default: `[]`.
    pub divider_dash: Vec<f64>,
    /// `dividers.lineDashOffset`. Default: 0.
    pub divider_dash_offset: f64,
    /// `dividers.lineCapStyle`. Default: butt.
    pub divider_cap: super::element::CapStyle,
}

/// A node reference of an edge or a `parent`: an index, or a chart label (`resolveNodeIndex`).
#[derive(Debug, Clone, PartialEq)]
pub enum NodeRef {
    /// A node index.
    Index(usize),
    /// A chart label, looked up in `data.labels`.
    Label(String),
}
