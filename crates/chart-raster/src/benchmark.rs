//! The charts of issue 13's peer benchmark: what people render (bars with borders, stacked
//! and horizontal bars, line, filled area, pie, doughnut, radar, polar area, bubble, mixed
//! bar+line, scatter with 1,000 and 10,000 points, a 10,000-point time series, datalabels and
//! annotations). One definition for `cargo xtask bench-peers` (against Chart.js on
//! @napi-rs/canvas), `cargo bench -p chart-raster --bench render` and the README's callgrind
//! table, so all three measure the same configs.

use serde_json::{json, Value};

/// One chart of the set.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Its name in the tables (`bar 12×2, borders, title, legend`).
    pub name: &'static str,
    /// The Chart.js config (`type`, `data`, `options`).
    pub config: Value,
}

impl Chart {
    /// The `/render` request body the benchmark sends for this chart: 800×600 at dpr 2, PNG.
    pub fn request(&self) -> Value {
        json!({
            "chart": self.config,
            "width": 800,
            "height": 600,
            "devicePixelRatio": 2,
            "format": "png",
        })
    }

    /// The name as a file name or benchmark id: ASCII letters and digits, the rest as `-`
    /// (`bar-12-2-borders-title-legend`).
    pub fn stem(&self) -> String {
        let mut out = String::new();
        for c in self.name.chars() {
            if c.is_ascii_alphanumeric() {
                out.push(c.to_ascii_lowercase());
            } else if !out.ends_with('-') {
                out.push('-');
            }
        }
        out.trim_matches('-').to_string()
    }
}

/// A deterministic stream of numbers in [0, 1) (a 64-bit LCG's top bits), so both servers and
/// every run draw the same data.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Rounded to 2 decimals, as data usually arrives.
    fn in_range(&mut self, lo: f64, hi: f64) -> f64 {
        ((lo + self.next() * (hi - lo)) * 100.0).round() / 100.0
    }
}

/// The category labels of the bar charts.
pub const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const BLUE: &str = "rgba(54, 162, 235, 0.6)";
const RED: &str = "rgba(255, 99, 132, 0.6)";
const GREEN: &str = "rgba(75, 192, 192, 0.6)";
const SLICES: [&str; 6] = [
    "#36a2eb", "#ff6384", "#ff9f40", "#4bc0c0", "#9966ff", "#ffcd56",
];

/// The set issue 13 lists: what people render.
pub fn charts() -> Vec<Chart> {
    let a = [12, 19, 3, 5, 2, 3, 9, 14, 7, 11, 6, 15];
    let b = [8, 11, 7, 9, 12, 5, 4, 10, 13, 6, 9, 12];
    let c = [4, 6, 9, 3, 7, 8, 5, 6, 4, 9, 7, 5];
    let title = |t: &str| json!({"title": {"display": true, "text": t}});
    let mut rng = Lcg(0x5eed);
    let mut series =
        |n: usize, lo: f64, hi: f64| -> Vec<f64> { (0..n).map(|_| rng.in_range(lo, hi)).collect() };
    let line_labels: Vec<String> = (0..50).map(|i| format!("P{i}")).collect();
    let (l1, l2, l3) = (
        series(50, 0.0, 30.0),
        series(50, 10.0, 40.0),
        series(50, 20.0, 50.0),
    );
    let (f1, f2) = (series(40, 5.0, 20.0), series(40, 5.0, 20.0));
    let mut points = |n: usize| -> Vec<Value> {
        (0..n)
            .map(|_| json!({"x": rng.in_range(-100.0, 100.0), "y": rng.in_range(-100.0, 100.0)}))
            .collect()
    };
    let (s1k, s10k) = (points(1_000), points(10_000));
    let mut bubbles = |n: usize| -> Vec<Value> {
        (0..n)
            .map(|_| {
                json!({"x": rng.in_range(0.0, 50.0), "y": rng.in_range(0.0, 50.0),
                       "r": rng.in_range(3.0, 20.0)})
            })
            .collect()
    };
    let (bub1, bub2) = (bubbles(20), bubbles(20));
    // 10,000 points a minute apart from 2026-01-01T00:00:00Z: two saw waves and noise.
    let mut wave = Lcg(7);
    let time: Vec<Value> = (0..10_000)
        .map(|i| {
            let t = f64::from(i);
            json!({"x": 1_767_225_600_000.0 + t * 60_000.0,
                   "y": (((t * 0.013).rem_euclid(7.0) + (t * 0.0007).rem_euclid(3.0)) * 100.0).round() / 100.0
                       + wave.in_range(0.0, 1.0)})
        })
        .collect();
    vec![
        Chart {
            name: "bar 12×2, borders, title, legend",
            config: json!({"type": "bar", "data": {"labels": MONTHS, "datasets": [
                {"label": "2025", "data": a, "backgroundColor": BLUE, "borderColor": "#36a2eb", "borderWidth": 2},
                {"label": "2026", "data": b, "backgroundColor": RED, "borderColor": "#ff6384", "borderWidth": 2}]},
                "options": {"plugins": title("Monthly sales")}}),
        },
        Chart {
            name: "bar 12×3 stacked",
            config: json!({"type": "bar", "data": {"labels": MONTHS, "datasets": [
                {"label": "A", "data": a, "backgroundColor": BLUE},
                {"label": "B", "data": b, "backgroundColor": RED},
                {"label": "C", "data": c, "backgroundColor": GREEN}]},
                "options": {"scales": {"x": {"stacked": true}, "y": {"stacked": true}}}}),
        },
        Chart {
            name: "bar 12×2 horizontal",
            config: json!({"type": "bar", "data": {"labels": MONTHS, "datasets": [
                {"label": "2025", "data": a, "backgroundColor": BLUE},
                {"label": "2026", "data": b, "backgroundColor": RED}]},
                "options": {"indexAxis": "y"}}),
        },
        Chart {
            name: "line 3×50, curved",
            config: json!({"type": "line", "data": {"labels": line_labels, "datasets": [
                {"label": "a", "data": l1, "borderColor": "#36a2eb", "tension": 0.4},
                {"label": "b", "data": l2, "borderColor": "#ff6384", "tension": 0.4},
                {"label": "c", "data": l3, "borderColor": "#4bc0c0", "tension": 0.4}]}}),
        },
        Chart {
            name: "area 2×40, filled",
            config: json!({"type": "line", "data": {"labels": &line_labels[..40], "datasets": [
                {"label": "a", "data": f1, "fill": "origin", "backgroundColor": BLUE, "borderColor": "#36a2eb"},
                {"label": "b", "data": f2, "fill": "-1", "backgroundColor": RED, "borderColor": "#ff6384"}]},
                "options": {"scales": {"y": {"stacked": true}}}}),
        },
        Chart {
            name: "pie 6",
            config: json!({"type": "pie", "data": {"labels": ["A", "B", "C", "D", "E", "F"],
                "datasets": [{"data": [30, 22, 18, 12, 10, 8], "backgroundColor": SLICES}]}}),
        },
        Chart {
            name: "doughnut 5",
            config: json!({"type": "doughnut", "data": {"labels": ["Rent", "Food", "Travel", "Savings", "Other"],
                "datasets": [{"data": [1200, 450, 300, 600, 150], "backgroundColor": &SLICES[..5]}]}}),
        },
        Chart {
            name: "radar 2×8, filled",
            config: json!({"type": "radar", "data": {
                "labels": ["Speed", "Power", "Range", "Comfort", "Safety", "Price", "Looks", "Tech"],
                "datasets": [
                    {"label": "A", "data": [65, 59, 90, 81, 56, 55, 40, 70], "fill": true,
                     "backgroundColor": "rgba(54, 162, 235, 0.2)", "borderColor": "#36a2eb"},
                    {"label": "B", "data": [28, 48, 40, 19, 96, 27, 100, 60], "fill": true,
                     "backgroundColor": "rgba(255, 99, 132, 0.2)", "borderColor": "#ff6384"}]}}),
        },
        Chart {
            name: "polar area 6",
            config: json!({"type": "polarArea", "data": {"labels": ["A", "B", "C", "D", "E", "F"],
                "datasets": [{"data": [11, 16, 7, 3, 14, 9], "backgroundColor": SLICES}]}}),
        },
        Chart {
            name: "bubble 2×20",
            config: json!({"type": "bubble", "data": {"datasets": [
                {"label": "A", "data": bub1, "backgroundColor": BLUE},
                {"label": "B", "data": bub2, "backgroundColor": RED}]}}),
        },
        Chart {
            name: "bar+line mixed",
            config: json!({"type": "bar", "data": {"labels": MONTHS, "datasets": [
                {"label": "sales", "data": a, "backgroundColor": BLUE},
                {"label": "trend", "data": b, "type": "line", "borderColor": "#ff6384", "tension": 0.3}]}}),
        },
        Chart {
            name: "scatter 1,000",
            config: json!({"type": "scatter", "data": {"datasets": [
                {"label": "points", "data": s1k, "backgroundColor": BLUE}]}}),
        },
        Chart {
            name: "scatter 10,000",
            config: json!({"type": "scatter", "data": {"datasets": [
                {"label": "points", "data": s10k, "backgroundColor": BLUE, "pointRadius": 2}]}}),
        },
        Chart {
            name: "time series 10,000",
            config: json!({"type": "line", "data": {"datasets": [
                {"label": "signal", "data": time, "borderColor": "#36a2eb", "borderWidth": 1, "pointRadius": 0}]},
                "options": {"parsing": false, "scales": {"x": {"type": "time"}}}}),
        },
        Chart {
            name: "bar, datalabels + annotations",
            config: json!({"type": "bar", "data": {"labels": &MONTHS[..6], "datasets": [
                {"label": "2025", "data": &a[..6], "backgroundColor": BLUE}]},
                "options": {"plugins": {
                    "datalabels": {"display": true, "anchor": "end", "align": "top", "color": "#333"},
                    "annotation": {"annotations": {
                        "target": {"type": "line", "yMin": 10, "yMax": 10, "borderColor": "#ff6384",
                                   "borderWidth": 2, "label": {"display": true, "content": "target"}},
                        "band": {"type": "box", "yMin": 4, "yMax": 8, "backgroundColor": "rgba(75, 192, 192, 0.2)"}}}}}}),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chart_has_a_distinct_name_and_the_data_is_the_same_each_time() {
        let (x, y) = (charts(), charts());
        let mut names: Vec<_> = x.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 15);
        assert_eq!(x, y);
        let mut stems: Vec<_> = x.iter().map(Chart::stem).collect();
        stems.sort_unstable();
        stems.dedup();
        assert_eq!(stems.len(), 15);
        assert_eq!(x[0].stem(), "bar-12-2-borders-title-legend");
    }
}
