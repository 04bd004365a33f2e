//! What becomes of a request once its image is answered: freeing it where that does not
//! hold the answer up.

use chart_spec::RenderOptions;
use std::sync::Arc;

/// Frees a request whose image has just been handed to its waiters on tokio's blocking pool,
/// not here: a config of 10,000 points is some 40,000 allocations to free (0.7 ms of the
/// time series of `xtask bench-peers`, 6% of its request, in a profile of the service), and the
/// waiter this task has just woken sits in this worker's next-task slot, where it would wait
/// for the freeing before it writes the response. Small configs are freed here: the hand-over
/// costs a thread wake-up.
pub(super) fn free_off_the_answer(opts: Arc<RenderOptions>) {
    if Arc::strong_count(&opts) == 1 && data_points(&opts) >= MANY_POINTS {
        // Dropped with its task if the runtime is shutting down.
        drop(tokio::task::spawn_blocking(move || drop(opts)));
    }
}

/// Points from which freeing a config is worth a hand-over: 500 take some 35 µs to free,
/// several times the wake-up.
const MANY_POINTS: usize = 500;

/// The labels and the data points of a config's datasets: where nearly all of a large
/// config's values are. Bounded by the datasets' count, which the request's limits bound.
pub(super) fn data_points(opts: &RenderOptions) -> usize {
    let Some(data) = opts.chart.get("data") else {
        return 0;
    };
    let len = |v: Option<&serde_json::Value>| v.and_then(|v| v.as_array()).map_or(0, Vec::len);
    let datasets = data.get("datasets").and_then(|d| d.as_array());
    let points = datasets.map_or(0, |d| d.iter().map(|d| len(d.get("data"))).sum());
    len(data.get("labels")).saturating_add(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_points_count_the_labels_and_every_datasets_data() {
        let opts = |chart: serde_json::Value| {
            RenderOptions::from_json(&serde_json::json!({ "chart": chart })).unwrap()
        };
        let big = opts(serde_json::json!({"type": "line", "data": {
            "labels": [1, 2, 3],
            "datasets": [{"data": vec![1; 300]}, {"data": vec![serde_json::json!({"x": 1, "y": 2}); 200]}, {"label": "none"}]}}));
        assert_eq!(data_points(&big), 503);
        assert!(data_points(&big) >= MANY_POINTS);
        let odd = opts(
            serde_json::json!({"type": "bar", "data": {"labels": "abc", "datasets": {"data": [1]}}}),
        );
        assert_eq!(data_points(&odd), 0);
        assert_eq!(data_points(&opts(serde_json::json!({"type": "bar"}))), 0);
    }
}
