//! What one render may cost: input budgets ([`Limits`]) and the stop signal ([`Cancel`]).
//!
//! Every engine loop over user data is bounded by a budget here, and every long loop polls a
//! [`Cancel`], so a render stops when nobody waits for it any more (its client went away, it
//! was answered 504, or the process is shutting down). Like `image::Limits`, the values live in
//! one documented place that callers can tighten or, through the environment, loosen.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

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
    /// Display-list items of one render (`MAX_SCENE_ITEMS`). Default: 2,000,000.
    pub max_scene_items: usize,
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
            max_sankey_nodes: 10_000,
            max_sankey_flows: 50_000,
            max_treemap_depth: 16,
            max_treemap_leaves: 100_000,
            max_annotations: 1_000,
            max_ticks: 1_000,
            max_scene_items: 2_000_000,
        }
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
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
