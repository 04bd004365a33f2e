//! What one render may cost: input budgets ([`Limits`]) and the stop signal ([`Cancel`]).
//!
//! Every engine loop over user data is bounded by a budget here, and every long loop polls a
//! [`Cancel`], so a render stops when nobody waits for it any more (its client went away, it
//! was answered 504, or the process is shutting down). Like `image::Limits`, the values live in
//! one documented place that callers can tighten or, through the environment, loosen.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Largest accepted `width`, CSS pixels.
pub const MAX_WIDTH: f64 = 10_000.0;
/// Largest accepted `height`, CSS pixels.
pub const MAX_HEIGHT: f64 = 10_000.0;
/// Largest accepted `devicePixelRatio`.
pub const MAX_DEVICE_PIXEL_RATIO: f64 = 10.0;
/// Largest accepted bitmap, device pixels (`width·dpr × height·dpr`): 200 MB of RGBA.
pub const MAX_PIXELS: u64 = 50_000_000;
/// Largest side of a JPEG image, device pixels (the format stores sides as 16-bit numbers).
pub const MAX_JPEG_SIDE: u32 = 65_535;
/// Largest side of a WebP image, device pixels (a limit of the WebP format).
pub const MAX_WEBP_SIDE: u32 = 16_383;

/// Input budgets of one render. Defaults are generous for real charts and small enough that
/// a request at every limit at once still fits the service's memory; each can be overridden
/// by the environment variable named on its field (see [`Limits::from_vars`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Datasets in one chart (`MAX_DATASETS`). Default: 1,000.
    pub max_datasets: usize,
    /// Data points in one dataset (`MAX_POINTS_PER_DATASET`). Default: 100,000.
    pub max_points_per_dataset: usize,
    /// Data points over all datasets (`MAX_POINTS`). Default: 250,000.
    pub max_points: usize,
    /// Entries of `data.labels` (`MAX_LABELS`). Default: 100,000.
    pub max_labels: usize,
    /// Characters in one string of the config (`MAX_TEXT_CHARS`). Default: 10,000.
    pub max_text_chars: usize,
    /// Nesting depth of the config's JSON (`MAX_JSON_DEPTH`). Default: 64.
    pub max_json_depth: usize,
    /// JSON values (scalars, arrays and objects; not object keys) of one request: a request
    /// body with every field, or a chart config given alone (`MAX_JSON_VALUES`). Default:
    /// 1,200,000, what [`Limits::json_values_needed`] gives for the other defaults.
    ///
    /// Checked on the raw bytes, before serde_json builds anything
    /// ([`crate::budget::scan_json`]): a parsed value costs from about 80 bytes (a number in
    /// an array) to about 210 (objects of one key nested in each other), up to a hundred times
    /// its text, so this is what bounds the memory of parsing a request (the README's Limits
    /// section has the figures).
    /// Derived from the other budgets so that a config meeting all of them at once still
    /// parses: `max_points` points of up to 4 values each (`{x, y, r}` bubbles, `{from, to,
    /// flow}` sankey flows; `{x, y}` takes 3, a bare number 1), `max_labels` labels, and 50
    /// values of options for each of `max_datasets` datasets and `max_annotations`
    /// annotations. Richer points (financial `{x, o, h, l, c}`, box plots' sample arrays)
    /// meet it with fewer points. When `MAX_JSON_VALUES` is unset, [`Limits::from_vars`]
    /// derives it again from the budgets as set.
    pub max_json_values: usize,
    /// Sankey nodes (`MAX_SANKEY_NODES`). Default: 10,000.
    pub max_sankey_nodes: usize,
    /// Sankey flows (`MAX_SANKEY_FLOWS`). Default: 50,000.
    pub max_sankey_flows: usize,
    /// Treemap `groups` levels (`MAX_TREEMAP_DEPTH`). Default: 16.
    pub max_treemap_depth: usize,
    /// Treemap rectangles over all levels (`MAX_TREEMAP_LEAVES`). Default: 100,000.
    pub max_treemap_leaves: usize,
    /// Annotations over all annotation plugin options (`MAX_ANNOTATIONS`). Default: 1,000.
    pub max_annotations: usize,
    /// Ticks of one scale. Chart.js itself stops at 1,000 and warns
    /// (`generateTicks`: "…Limiting to 1000."); not configurable.
    pub max_ticks: usize,
    /// Ticks and labels of all the scales of one chart together (`MAX_TOTAL_TICKS`), each
    /// scale counting the larger of the labels it holds (a category, time or radial scale
    /// copies `data.labels` or its own `labels`) and the ticks it builds. Default: 250,000.
    ///
    /// `max_labels` and `max_ticks` bound one scale, but a config may declare any number of
    /// scales over the same 100,000 labels: each copied them and measured every label (about
    /// 1 s per 100,000 in a release build), so 200 scales held 1 GB and 40 took 30 s. The
    /// default lets two scales of `max_labels` labels (a matrix chart's x and y) or a time
    /// scale with one tick per point of `max_points` through.
    pub max_total_ticks: usize,
    /// The display list of one render (`MAX_SCENE_ITEMS`), in items of 128 bytes: each item
    /// counts the bytes it holds (a path by its commands, text by its string), so that the
    /// scene's memory is bounded, not only its count. Default: 2,000,000 (256 MB; 250,000
    /// scatter points need 155 MB).
    pub max_scene_items: usize,
    /// Nodes of one chartjs-chart-graph force-directed dataset that are laid out (the rest
    /// are left out with a message). Default: 5,000; not configurable.
    pub max_graph_nodes: usize,
    /// Edges of one chartjs-chart-graph dataset. Default: 20,000; not configurable.
    pub max_graph_edges: usize,
    /// Force-simulation work of one dataset: ticks × (nodes + edges). `initialIterations`
    /// beyond it run fewer ticks, with a message. Default: 1,000,000; not configurable.
    pub max_force_work: usize,
    /// Polygons over every GeoJSON object of one chartjs-chart-geo dataset. Default: 20,000;
    /// not configurable.
    pub max_geo_polygons: usize,
    /// Longitude/latitude positions over every GeoJSON object of one dataset. Default:
    /// 1,000,000; not configurable.
    pub max_geo_vertices: usize,
    /// How many times over one skia render may paint its bitmap (`MAX_OVERDRAW`): the
    /// device area of every fill's and stroke's bounds, clipped to the bitmap, in bitmaps
    /// (solid rectangles left out: they cost a store per row). The rasteriser's work grows
    /// with it. Default: 250 (the heaviest fixture, a sankey, paints 82; 250,000 scatter
    /// points at the default radius 59; a sankey whose flows form one chain of 5,000 nodes
    /// 327).
    pub max_overdraw: usize,
    /// Drawing work of one PDF page (`MAX_PDF_CONTENT`): one per item written, per path point
    /// (a move, line end or close, each control point of a curve) and per glyph shown. The
    /// PDF writer (krilla) deflates the page's content stream in one call after the render's
    /// last poll of its [`Cancel`]; this bounds how long that call can overrun a deadline.
    /// Default: 2,000,000 (about 0.4 s of deflate in a release build on a loaded machine,
    /// 0.16-0.2 s per million; the heaviest gallery PDF needs 2,066; 99,000 radar points
    /// with their point labels need 5.1 million).
    pub max_pdf_content: usize,
    /// Bytes of one SVG document (`MAX_SVG_BYTES`), checked after each display-list item is
    /// written. The other budgets bound the scene, not its text: a 2 MB request within
    /// `MAX_SCENE_ITEMS` wrote SVGs of 72 and 128 MB (hostile sweep, seeds 4 and 5), held
    /// twice over in memory while the document is assembled. Default: 64 MiB (the largest
    /// gallery SVG is 53 KB).
    pub max_svg_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_datasets: 1_000,
            max_points_per_dataset: 100_000,
            max_points: 250_000,
            max_labels: 100_000,
            max_text_chars: 10_000,
            max_json_depth: 64,
            max_json_values: 1_200_000,
            max_sankey_nodes: 10_000,
            max_sankey_flows: 50_000,
            max_treemap_depth: 16,
            max_treemap_leaves: 100_000,
            max_annotations: 1_000,
            max_ticks: 1_000,
            max_total_ticks: 250_000,
            max_scene_items: 2_000_000,
            max_graph_nodes: 5_000,
            max_graph_edges: 20_000,
            max_force_work: 1_000_000,
            max_geo_polygons: 20_000,
            max_geo_vertices: 1_000_000,
            max_overdraw: 250,
            max_pdf_content: Self::DEFAULT_MAX_PDF_CONTENT,
            max_svg_bytes: Self::DEFAULT_MAX_SVG_BYTES,
        }
    }
}

/// The largest `MAX_JSON_DEPTH` a setting may ask for: serde_json's own nesting limit. Request
/// bodies never parse deeper than this anyway, and below it the config is cloned, hashed and
/// resolved by code that recurses on the JSON's shape, so a deeper budget could only be met
/// by a config built in memory, where it would overflow the stack.
pub const JSON_DEPTH_CEILING: usize = 128;

/// A budget setting that is not usable: not a positive whole number, or (for
/// `MAX_JSON_DEPTH`) over [`JSON_DEPTH_CEILING`].
///
/// Not a [`RequestError`](crate::RequestError) variant on purpose: every `RequestError` is a
/// client's mistake answered with 400, while this is the operator's, found once at start-up.
/// Its fields are those of the service's own configuration error, so it maps onto it as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Invalid {name}={value:?}: {reason}")]
pub struct LimitsError {
    /// The environment variable, e.g. `MAX_POINTS`.
    pub name: &'static str,
    /// Its value as set.
    pub value: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl Limits {
    /// The default of [`Limits::max_pdf_content`].
    pub const DEFAULT_MAX_PDF_CONTENT: usize = 2_000_000;
    /// The default of [`Limits::max_svg_bytes`]: 64 MiB.
    pub const DEFAULT_MAX_SVG_BYTES: usize = 64 << 20;

    /// The environment variable of every configurable budget, in field order. `max_ticks` has
    /// none: it is Chart.js's own constant.
    pub const VARIABLES: [&'static str; 17] = [
        "MAX_DATASETS",
        "MAX_POINTS_PER_DATASET",
        "MAX_POINTS",
        "MAX_LABELS",
        "MAX_TEXT_CHARS",
        "MAX_JSON_DEPTH",
        "MAX_JSON_VALUES",
        "MAX_SANKEY_NODES",
        "MAX_SANKEY_FLOWS",
        "MAX_TREEMAP_DEPTH",
        "MAX_TREEMAP_LEAVES",
        "MAX_ANNOTATIONS",
        "MAX_TOTAL_TICKS",
        "MAX_SCENE_ITEMS",
        "MAX_OVERDRAW",
        "MAX_PDF_CONTENT",
        "MAX_SVG_BYTES",
    ];

    /// Each configurable budget with its environment variable (the order of [`Self::VARIABLES`]).
    fn settings_mut(&mut self) -> [(&'static str, &mut usize); 17] {
        let v = Self::VARIABLES;
        [
            (v[0], &mut self.max_datasets),
            (v[1], &mut self.max_points_per_dataset),
            (v[2], &mut self.max_points),
            (v[3], &mut self.max_labels),
            (v[4], &mut self.max_text_chars),
            (v[5], &mut self.max_json_depth),
            (v[6], &mut self.max_json_values),
            (v[7], &mut self.max_sankey_nodes),
            (v[8], &mut self.max_sankey_flows),
            (v[9], &mut self.max_treemap_depth),
            (v[10], &mut self.max_treemap_leaves),
            (v[11], &mut self.max_annotations),
            (v[12], &mut self.max_total_ticks),
            (v[13], &mut self.max_scene_items),
            (v[14], &mut self.max_overdraw),
            (v[15], &mut self.max_pdf_content),
            (v[16], &mut self.max_svg_bytes),
        ]
    }

    /// The JSON values a request needs to meet every other budget at once: 4 per data point
    /// (`max_points`), 1 per label (`max_labels`), and 50 per dataset and per annotation for
    /// their options. The default of `max_json_values`; see its documentation for why.
    pub fn json_values_needed(&self) -> usize {
        self.max_points
            .saturating_mul(4)
            .saturating_add(self.max_labels)
            .saturating_add(
                self.max_datasets
                    .saturating_add(self.max_annotations)
                    .saturating_mul(50),
            )
    }

    /// The defaults, each overridden by its environment variable read through `var` (the
    /// process environment in the binaries, a map in tests). An empty value counts as unset;
    /// a set value must be a whole number of at least 1. An unset `MAX_JSON_VALUES` follows
    /// the other budgets ([`Limits::json_values_needed`]), so raising `MAX_POINTS` alone
    /// still lets such charts parse.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Self, LimitsError> {
        let mut limits = Self::default();
        let mut values_set = false;
        for (name, slot) in limits.settings_mut() {
            let Some(value) = var(name) else { continue };
            let text = value.trim();
            if text.is_empty() {
                continue;
            }
            values_set |= name == "MAX_JSON_VALUES";
            let n: usize = text.parse().map_err(|_| LimitsError {
                name,
                value: value.clone(),
                reason: "expected a positive whole number",
            })?;
            if n == 0 {
                return Err(LimitsError {
                    name,
                    value,
                    reason: "must be at least 1",
                });
            }
            if name == "MAX_JSON_DEPTH" && n > JSON_DEPTH_CEILING {
                return Err(LimitsError {
                    name,
                    value,
                    reason: "must be at most 128 (serde_json's own nesting limit)",
                });
            }
            *slot = n;
        }
        if !values_set {
            limits.max_json_values = limits.json_values_needed();
        }
        Ok(limits)
    }
}

/// The stop signal of one render: a flag anyone holding a clone can raise, and an optional
/// deadline. Cheap to poll: long loops check it every few hundred iterations.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
}

impl Cancel {
    /// A signal that never fires by itself.
    pub fn new() -> Self {
        Self::default()
    }

    /// A signal that also fires at `deadline`.
    pub fn with_deadline(deadline: Instant) -> Self {
        Self {
            flag: Arc::default(),
            deadline: Some(deadline),
        }
    }

    /// Raises the flag: every clone sees it.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// The flag was raised or the deadline passed.
    ///
    /// The clock is read at one poll in [`CLOCK_EVERY`] of each thread, not at every one:
    /// a read costs some 30 ns on a VM, and a 10,000-point scatter polls per point (1.5–2.2%
    /// of its CPU went to the reads). A deadline is so seen a few polls late at most (a poll
    /// comes every few hundred loop iterations), and the service raises the flag itself at
    /// the deadline. Once past, the flag is raised, so every later poll, of any clone, sees
    /// it at once.
    pub fn is_cancelled(&self) -> bool {
        if self.flag.load(Ordering::Relaxed) {
            return true;
        }
        let Some(deadline) = self.deadline else {
            return false;
        };
        let due = POLLS_TO_CLOCK.with(|left| {
            let n = left.get();
            left.set(n.checked_sub(1).unwrap_or(CLOCK_EVERY - 1));
            n == 0
        });
        if due && Instant::now() >= deadline {
            self.cancel();
            return true;
        }
        false
    }
}

/// One poll in this many of a thread reads the clock ([`Cancel::is_cancelled`]).
pub const CLOCK_EVERY: u32 = 16;

thread_local! {
    /// Polls of this thread left before [`Cancel::is_cancelled`] reads the clock.
    static POLLS_TO_CLOCK: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: std::collections::HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn a_past_deadline_is_seen_within_clock_every_polls_and_then_at_once() {
        let past = Cancel::with_deadline(Instant::now());
        let polls = (0..CLOCK_EVERY).position(|_| past.is_cancelled());
        assert!(polls.is_some(), "not seen in {CLOCK_EVERY} polls");
        // Raised: every clone sees it at its next poll, whatever the thread's count.
        let clone = past.clone();
        assert!((0..CLOCK_EVERY).all(|_| clone.is_cancelled()));
        let future = Cancel::with_deadline(Instant::now() + std::time::Duration::from_secs(3600));
        assert!((0..3 * CLOCK_EVERY).all(|_| !future.is_cancelled()));
        assert!(!Cancel::new().is_cancelled());
    }

    #[test]
    fn no_variables_give_the_defaults() {
        assert_eq!(Limits::from_vars(vars(&[])), Ok(Limits::default()));
        assert_eq!(
            Limits::from_vars(vars(&[("MAX_POINTS", ""), ("MAX_DATASETS", "  ")])),
            Ok(Limits::default())
        );
    }

    #[test]
    fn every_variable_sets_its_field() {
        let pairs: Vec<(&str, String)> = Limits::VARIABLES
            .iter()
            .enumerate()
            .map(|(i, name)| (*name, (i + 1).to_string()))
            .collect();
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let l = Limits::from_vars(vars(&pairs)).unwrap();
        let got = [
            l.max_datasets,
            l.max_points_per_dataset,
            l.max_points,
            l.max_labels,
            l.max_text_chars,
            l.max_json_depth,
            l.max_json_values,
            l.max_sankey_nodes,
            l.max_sankey_flows,
            l.max_treemap_depth,
            l.max_treemap_leaves,
            l.max_annotations,
            l.max_total_ticks,
            l.max_scene_items,
            l.max_overdraw,
            l.max_pdf_content,
            l.max_svg_bytes,
        ];
        assert_eq!(
            got,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]
        );
        assert_eq!(l.max_ticks, 1_000);
    }

    #[test]
    fn the_json_value_budget_follows_the_others_unless_set() {
        let d = Limits::default();
        assert_eq!(d.max_json_values, d.json_values_needed());
        assert_eq!(d.max_json_values, 1_200_000);
        let l = Limits::from_vars(vars(&[("MAX_POINTS", "1000000"), ("MAX_LABELS", "7")])).unwrap();
        assert_eq!(l.max_json_values, 4_000_000 + 7 + 100_000);
        let l = Limits::from_vars(vars(&[
            ("MAX_POINTS", "1000000"),
            ("MAX_JSON_VALUES", "99"),
        ]))
        .unwrap();
        assert_eq!(l.max_json_values, 99);
        let huge = Limits {
            max_points: usize::MAX,
            ..Limits::default()
        };
        assert_eq!(huge.json_values_needed(), usize::MAX);
    }

    #[test]
    fn bad_values_name_the_variable() {
        let err = |k: &str, v: &str| Limits::from_vars(vars(&[(k, v)])).unwrap_err().to_string();
        assert_eq!(
            err("MAX_POINTS", "lots"),
            "Invalid MAX_POINTS=\"lots\": expected a positive whole number"
        );
        assert_eq!(
            err("MAX_DATASETS", "-3"),
            "Invalid MAX_DATASETS=\"-3\": expected a positive whole number"
        );
        assert_eq!(
            err("MAX_TEXT_CHARS", "1.5"),
            "Invalid MAX_TEXT_CHARS=\"1.5\": expected a positive whole number"
        );
        assert_eq!(
            err("MAX_LABELS", "0"),
            "Invalid MAX_LABELS=\"0\": must be at least 1"
        );
        assert_eq!(
            err("MAX_JSON_DEPTH", "129"),
            "Invalid MAX_JSON_DEPTH=\"129\": must be at most 128 (serde_json's own nesting limit)"
        );
        assert_eq!(
            Limits::from_vars(vars(&[("MAX_JSON_DEPTH", " 128 ")]))
                .unwrap()
                .max_json_depth,
            128
        );
    }

    #[test]
    fn clones_share_the_flag() {
        let a = Cancel::new();
        let b = a.clone();
        assert!(!b.is_cancelled());
        a.cancel();
        assert!(b.is_cancelled());
    }

    #[test]
    fn a_past_deadline_fires() {
        let c = Cancel::with_deadline(Instant::now());
        assert!(c.is_cancelled());
        let later = Cancel::with_deadline(Instant::now() + std::time::Duration::from_secs(60));
        assert!(!later.is_cancelled());
    }
}
