// Included by fuzz/src/lib.rs and by chart-raster's fuzz_regressions test (which have
// `chart_spec::Limits` in scope as `Limits`), so that a finding replays under the budgets it
// was found with.

/// The tight budgets of the render targets: far below the service's defaults, so that the
/// budget checks themselves are exercised and an execution stays cheap.
pub fn fuzz_limits() -> Limits {
    Limits {
        max_datasets: 64,
        max_points_per_dataset: 4_000,
        max_points: 8_000,
        max_labels: 4_000,
        max_text_chars: 2_000,
        max_sankey_nodes: 1_000,
        max_sankey_flows: 4_000,
        max_treemap_depth: 8,
        max_treemap_leaves: 8_000,
        max_annotations: 200,
        max_scene_items: 200_000,
        ..Limits::default()
    }
}
