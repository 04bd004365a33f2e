//! Random but realistic Chart.js configs for `cargo xtask compare --random N --seed S`.
//!
//! Each case is a request body (`{chart, width, height, devicePixelRatio}`) whose chart is
//! plain JSON that Chart.js 4.5.1 and the bundled plugins accept, shaped like what users
//! send: the eight core chart types and bar/line mixes, category, linear, logarithmic, time
//! and timeseries scales, horizontal and stacked bars, legends, titles and subtitles on every
//! side, datalabels, annotations, root fonts, typical canvas sizes and both common pixel
//! ratios. Options are drawn from the values the Chart.js docs and samples use, so a
//! mismatch points at a real difference and not at an absurd config.
//!
//! Case `i` of seed `s` depends on `(s, i)` only ([`case`]): any case of a campaign can be
//! rebuilt alone, and campaigns can run in batches (`--from`).

use serde_json::{json, Map, Value};

/// splitmix64: small, fast and good enough to pick options (no dependency needed).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// The generator of case `index` of campaign `seed`.
    pub fn for_case(seed: u64, index: u64) -> Self {
        let mut r = Rng(seed ^ 0x9e37_79b9_7f4a_7c15);
        let s = r.next_u64() ^ index.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        Rng(s)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform integer in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo + 1).max(1) as u64;
        lo + (self.next_u64() % span) as i64
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        let i = (self.next_u64() % items.len().max(1) as u64) as usize;
        items[i.min(items.len() - 1)].clone()
    }

    /// An element chosen by weight (`(weight, value)`; weights need not sum to 1).
    pub fn weighted<T: Clone>(&mut self, items: &[(u32, T)]) -> T {
        let total: u32 = items.iter().map(|(w, _)| w).sum();
        let mut r = (self.next_u64() % u64::from(total.max(1))) as u32;
        for (w, v) in items {
            if r < *w {
                return v.clone();
            }
            r -= w;
        }
        items[items.len() - 1].1.clone()
    }
}

/// The chart types the generator draws, each with its weight.
pub const CHART_KINDS: &[(u32, &str)] = &[
    (18, "bar"),
    (18, "line"),
    (8, "pie"),
    (8, "doughnut"),
    (6, "polarArea"),
    (8, "radar"),
    (8, "scatter"),
    (6, "bubble"),
    (6, "mixed"),
];

/// One generated case.
#[derive(Debug, Clone)]
pub struct RandomCase {
    /// `r<seed>-<index>`: unique within a campaign, a valid file name.
    pub name: String,
    /// What was drawn, in a few words (chart kind, scales, plugins).
    pub title: String,
    /// The kind from [`CHART_KINDS`].
    pub kind: &'static str,
    /// The request body.
    pub body: Value,
}

/// Chart.js's sample palette (`Utils.CHART_COLORS`) and a few CSS names users write.
const COLORS: &[(u8, u8, u8)] = &[
    (255, 99, 132),
    (255, 159, 64),
    (255, 205, 86),
    (75, 192, 192),
    (54, 162, 235),
    (153, 102, 255),
    (201, 203, 207),
    (46, 204, 113),
    (231, 76, 60),
    (52, 73, 94),
];

const LABEL_WORDS: &[&str] = &[
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

const SHORT_LABELS: &[&str] = &[
    "Red", "Blue", "Yellow", "Green", "Purple", "Orange", "North", "South", "East", "West", "Q1",
    "Q2", "Q3", "Q4", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun",
];

const SIDES: &[&str] = &["top", "bottom", "left", "right"];

fn rgba(c: (u8, u8, u8), a: f64) -> Value {
    if a >= 1.0 {
        json!(format!("rgb({}, {}, {})", c.0, c.1, c.2))
    } else {
        json!(format!("rgba({}, {}, {}, {a})", c.0, c.1, c.2))
    }
}

/// Builds case `index` of campaign `seed`.
pub fn case(seed: u64, index: u64) -> RandomCase {
    let mut rng = Rng::for_case(seed, index);
    let kind = rng.weighted(CHART_KINDS);
    let mut g = Gen {
        rng,
        notes: vec![kind.to_string()],
    };
    let mut chart = g.chart(kind);
    // Slips that make Chart.js print a warning, from a stream of their own so that adding
    // them left every other option of every case as it was.
    let mut slips = Gen {
        rng: Rng::for_case(seed ^ 0x5eed_5117, index),
        notes: Vec::new(),
    };
    slips.slips(&mut chart);
    g.notes.append(&mut slips.notes);
    let (width, height) = g.rng.pick(&[
        (400, 300),
        (500, 300),
        (600, 400),
        (640, 360),
        (800, 400),
        (800, 600),
        (300, 300),
        (500, 500),
        (700, 350),
    ]);
    let dpr = if g.rng.chance(0.75) { 1 } else { 2 };
    let body = json!({
        "chart": chart,
        "width": width,
        "height": height,
        "devicePixelRatio": dpr,
    });
    RandomCase {
        name: format!("r{seed}-{index:05}"),
        title: g.notes.join(" · "),
        kind,
        body,
    }
}

struct Gen {
    rng: Rng,
    /// What the case contains, for its title.
    notes: Vec<String>,
}

/// How the values of a dataset look.
#[derive(Clone, Copy)]
struct ValueShape {
    /// Typical magnitude.
    scale: f64,
    /// Whether values may be negative.
    negative: bool,
    /// Decimals kept.
    decimals: i32,
}

impl Gen {
    fn note(&mut self, s: impl Into<String>) {
        self.notes.push(s.into());
    }

    fn value_shape(&mut self, positive: bool) -> ValueShape {
        ValueShape {
            scale: self.rng.pick(&[1.0, 10.0, 50.0, 100.0, 1000.0, 25_000.0]),
            negative: !positive && self.rng.chance(0.2),
            decimals: self.rng.pick(&[0, 0, 0, 1, 2]),
        }
    }

    fn value(&mut self, s: ValueShape) -> f64 {
        let lo = if s.negative { -s.scale } else { s.scale * 0.05 };
        let v = lo + self.rng.unit() * (s.scale - lo);
        let p = [1.0, 10.0, 100.0][s.decimals.clamp(0, 2) as usize];
        (v * p).round() / p
    }

    fn values(&mut self, n: usize, s: ValueShape) -> Vec<Value> {
        (0..n).map(|_| json!(self.value(s))).collect()
    }

    fn labels(&mut self, n: usize) -> Vec<Value> {
        let words = if n <= 12 && self.rng.chance(0.5) {
            LABEL_WORDS
        } else {
            SHORT_LABELS
        };
        let start = self.rng.int(0, (words.len() - n.min(words.len())) as i64) as usize;
        (0..n)
            .map(|i| match words.get(start + i) {
                Some(w) => json!(w),
                None => json!(format!("Item {}", i + 1)),
            })
            .collect()
    }

    fn chart(&mut self, kind: &'static str) -> Value {
        let mut options = Map::new();
        let (ty, data) = match kind {
            "pie" | "doughnut" => ("pie_like", self.arc_data(kind, &mut options)),
            "polarArea" => ("polarArea", self.polar_data(&mut options)),
            "radar" => ("radar", self.radar_data(&mut options)),
            "scatter" | "bubble" => ("xy", self.xy_data(kind, &mut options)),
            _ => ("cartesian", self.cartesian_data(kind, &mut options)),
        };
        self.plugins(ty, &mut options);
        if self.rng.chance(0.15) {
            let size = self.rng.pick(&[10, 11, 13, 14, 16]);
            let mut font = json!({ "size": size });
            if self.rng.chance(0.3) {
                font["family"] = json!(self.rng.pick(&["Arial", "sans-serif", "Verdana"]));
            }
            self.note(format!("root font {font}"));
            options.insert("font".into(), font);
        }
        let chart_type = match kind {
            "mixed" => "bar",
            k => k,
        };
        json!({ "type": chart_type, "data": data, "options": options })
    }

    /// Mistakes users make that Chart.js warns about: a weight written as a font style, a
    /// `stepSize` far too small for the range (Chart.js limits the ticks to 1000), `fill`
    /// with the Filler plugin turned off.
    fn slips(&mut self, chart: &mut Value) {
        let Some(options) = chart.get_mut("options").and_then(Value::as_object_mut) else {
            return;
        };
        if self.rng.chance(0.02) {
            if let Some(Value::Object(title)) =
                options.get_mut("plugins").and_then(|p| p.get_mut("title"))
            {
                title.insert("font".into(), json!({"style": "bold", "size": 16}));
                self.note("title style bold");
            }
        }
        if self.rng.chance(0.02) {
            if let Some(Value::Object(y)) = options.get_mut("scales").and_then(|s| s.get_mut("y")) {
                if y.get("type").is_none() {
                    y.insert("ticks".into(), json!({"stepSize": 0.0001}));
                    self.note("stepSize 0.0001");
                }
            }
        }
        let line = chart.get("type").and_then(Value::as_str) == Some("line");
        if line && self.rng.chance(0.02) {
            if let Some(d) = chart
                .get_mut("data")
                .and_then(|d| d.get_mut("datasets"))
                .and_then(|d| d.get_mut(0))
            {
                d["fill"] = json!(true);
            }
            if let Some(o) = chart.get_mut("options").and_then(Value::as_object_mut) {
                let plugins = o.entry("plugins").or_insert_with(|| json!({}));
                plugins["filler"] = json!(false);
                self.note("fill without Filler");
            }
        }
    }

    fn border_width(&mut self) -> Value {
        json!(self.rng.pick(&[0, 1, 2, 2, 3]))
    }

    fn arc_data(&mut self, kind: &str, options: &mut Map<String, Value>) -> Value {
        let n = self.rng.int(2, 8) as usize;
        let datasets = if kind == "doughnut" && self.rng.chance(0.25) {
            2
        } else {
            1
        };
        let shape = self.value_shape(true);
        let mut sets = Vec::new();
        for d in 0..datasets {
            let colors: Vec<Value> = (0..n)
                .map(|i| rgba(COLORS[(i + d) % COLORS.len()], 1.0))
                .collect();
            let mut set = json!({
                "label": format!("Dataset {}", d + 1),
                "data": self.values(n, shape),
                "backgroundColor": colors,
            });
            if self.rng.chance(0.3) {
                set["borderWidth"] = self.border_width();
            }
            if self.rng.chance(0.2) {
                let o = self.rng.pick(&[4, 10, 20]);
                set["offset"] = json!(o);
                self.note(format!("offset {o}"));
            }
            if self.rng.chance(0.15) {
                set["borderRadius"] = json!(self.rng.pick(&[4, 8]));
                self.note("borderRadius");
            }
            sets.push(set);
        }
        if self.rng.chance(0.25) {
            let s = self.rng.pick(&[2, 4, 8]);
            options.insert("spacing".into(), json!(s));
            self.note(format!("spacing {s}"));
        }
        if kind == "doughnut" && self.rng.chance(0.3) {
            options.insert(
                "cutout".into(),
                json!(self.rng.pick(&["30%", "70%", "80%"])),
            );
        }
        if self.rng.chance(0.15) {
            options.insert("rotation".into(), json!(-90));
            options.insert("circumference".into(), json!(180));
            self.note("half");
        }
        json!({ "labels": self.labels(n), "datasets": sets })
    }

    fn polar_data(&mut self, options: &mut Map<String, Value>) -> Value {
        let n = self.rng.int(3, 8) as usize;
        let shape = self.value_shape(true);
        let colors: Vec<Value> = (0..n)
            .map(|i| rgba(COLORS[i % COLORS.len()], 0.6))
            .collect();
        let set =
            json!({"label": "Dataset 1", "data": self.values(n, shape), "backgroundColor": colors});
        self.radial_scale(options);
        json!({ "labels": self.labels(n), "datasets": [set] })
    }

    fn radar_data(&mut self, options: &mut Map<String, Value>) -> Value {
        let n = self.rng.int(3, 9) as usize;
        let shape = self.value_shape(true);
        let sets: Vec<Value> = (0..self.rng.int(1, 3) as usize)
            .map(|d| {
                let c = COLORS[d % COLORS.len()];
                let mut set = json!({
                    "label": format!("Dataset {}", d + 1),
                    "data": self.values(n, shape),
                    "borderColor": rgba(c, 1.0),
                    "backgroundColor": rgba(c, 0.2),
                });
                if self.rng.chance(0.5) {
                    set["fill"] = json!(true);
                }
                set
            })
            .collect();
        self.radial_scale(options);
        json!({ "labels": self.labels(n), "datasets": sets })
    }

    fn radial_scale(&mut self, options: &mut Map<String, Value>) {
        let mut r = Map::new();
        if self.rng.chance(0.5) {
            r.insert("beginAtZero".into(), json!(true));
        }
        if self.rng.chance(0.2) {
            r.insert("ticks".into(), json!({"display": false}));
        }
        if self.rng.chance(0.2) {
            r.insert("pointLabels".into(), json!({"font": {"size": 14}}));
        }
        if !r.is_empty() {
            options.insert("scales".into(), json!({ "r": r }));
        }
    }

    fn xy_data(&mut self, kind: &str, options: &mut Map<String, Value>) -> Value {
        let n = self.rng.int(5, 30) as usize;
        let xs = self.value_shape(false);
        let ys = self.value_shape(false);
        let sets: Vec<Value> = (0..self.rng.int(1, 3) as usize)
            .map(|d| {
                let points: Vec<Value> = (0..n)
                    .map(|_| {
                        let mut p = json!({"x": self.value(xs), "y": self.value(ys)});
                        if kind == "bubble" {
                            p["r"] = json!(self.rng.int(3, 20));
                        }
                        p
                    })
                    .collect();
                let c = COLORS[(d * 3) % COLORS.len()];
                json!({
                    "label": format!("Series {}", d + 1),
                    "data": points,
                    "borderColor": rgba(c, 1.0),
                    "backgroundColor": rgba(c, 0.5),
                })
            })
            .collect();
        let mut scales = Map::new();
        for axis in ["x", "y"] {
            let mut s = Map::new();
            self.linear_options(&mut s, axis);
            if !s.is_empty() {
                scales.insert(axis.into(), Value::Object(s));
            }
        }
        if !scales.is_empty() {
            options.insert("scales".into(), Value::Object(scales));
        }
        json!({ "datasets": sets })
    }

    /// Options of a value axis: zero, bounds, steps, grid, title.
    fn linear_options(&mut self, s: &mut Map<String, Value>, axis: &str) {
        if self.rng.chance(0.3) {
            s.insert("beginAtZero".into(), json!(true));
        }
        if self.rng.chance(0.1) {
            s.insert("grid".into(), json!({"display": false}));
        }
        if self.rng.chance(0.15) {
            s.insert(
                "title".into(),
                json!({"display": true, "text": format!("{axis} value")}),
            );
        }
        if self.rng.chance(0.1) {
            s.insert(
                "position".into(),
                json!(if axis == "x" { "top" } else { "right" }),
            );
        }
    }

    fn cartesian_data(&mut self, kind: &str, options: &mut Map<String, Value>) -> Value {
        let horizontal = kind == "bar" && self.rng.chance(0.25);
        let (index, value) = if horizontal { ("y", "x") } else { ("x", "y") };
        if horizontal {
            options.insert("indexAxis".into(), json!("y"));
            self.note("horizontal");
        }
        let time = !horizontal && self.rng.chance(0.3);
        let n = if time {
            self.rng.int(5, 40) as usize
        } else {
            self.rng.int(3, 14) as usize
        };
        let log = self.rng.chance(0.1);
        let shape = self.value_shape(log);
        let stacked = self.rng.chance(0.2);
        let datasets = self.rng.int(1, 3) as usize;
        let mut sets = Vec::new();
        for d in 0..datasets {
            let c = COLORS[(d * 2 + 4) % COLORS.len()];
            let ty = match kind {
                "mixed" if d % 2 == 1 => "line",
                "mixed" | "bar" => "bar",
                _ => "line",
            };
            let mut set = json!({
                "label": format!("Dataset {}", d + 1),
                "data": self.values(n, shape),
                "borderColor": rgba(c, 1.0),
                "backgroundColor": rgba(c, if ty == "bar" { 0.7 } else { 0.3 }),
            });
            if kind == "mixed" {
                set["type"] = json!(ty);
            }
            if ty == "line" {
                self.line_style(&mut set);
            } else {
                if self.rng.chance(0.3) {
                    set["borderWidth"] = self.border_width();
                }
                if self.rng.chance(0.15) {
                    set["borderRadius"] = json!(self.rng.pick(&[4, 6, 10]));
                }
            }
            sets.push(set);
        }
        let mut scales = Map::new();
        let mut index_scale = Map::new();
        let labels = if time {
            self.time_scale(&mut index_scale, n)
        } else {
            let labels = self.labels(n);
            if self.rng.chance(0.15) {
                index_scale.insert(
                    "ticks".into(),
                    json!({"maxRotation": 90, "minRotation": 45}),
                );
            }
            labels
        };
        let mut value_scale = Map::new();
        if log {
            value_scale.insert("type".into(), json!("logarithmic"));
            self.note("log");
        } else if self.rng.chance(0.15) {
            let step = self
                .rng
                .pick(&[shape.scale / 10.0, shape.scale / 4.0, shape.scale / 5.0]);
            value_scale.insert("ticks".into(), json!({ "stepSize": step }));
            self.note("stepSize");
        }
        self.linear_options(&mut value_scale, value);
        if stacked {
            index_scale.insert("stacked".into(), json!(true));
            value_scale.insert("stacked".into(), json!(true));
            self.note("stacked");
        }
        if !index_scale.is_empty() {
            scales.insert(index.into(), Value::Object(index_scale));
        }
        if !value_scale.is_empty() {
            scales.insert(value.into(), Value::Object(value_scale));
        }
        if !scales.is_empty() {
            options.insert("scales".into(), Value::Object(scales));
        }
        json!({ "labels": labels, "datasets": sets })
    }

    fn line_style(&mut self, set: &mut Value) {
        if self.rng.chance(0.4) {
            set["tension"] = json!(self.rng.pick(&[0.2, 0.4]));
        }
        if self.rng.chance(0.25) {
            set["fill"] = json!(self.rng.pick(&["origin", "start"]));
            self.note("fill");
        }
        if self.rng.chance(0.1) {
            set["stepped"] = json!(true);
        }
        if self.rng.chance(0.2) {
            set["pointStyle"] = json!(self.rng.pick(&["rect", "triangle", "star", "crossRot"]));
            set["pointRadius"] = json!(self.rng.pick(&[4, 6]));
        }
        if self.rng.chance(0.1) {
            set["borderDash"] = json!([5, 5]);
        }
    }

    /// A time or timeseries index scale; returns the labels (ISO dates).
    fn time_scale(&mut self, s: &mut Map<String, Value>, n: usize) -> Vec<Value> {
        let ty = if self.rng.chance(0.25) {
            "timeseries"
        } else {
            "time"
        };
        s.insert("type".into(), json!(ty));
        // (step in hours, label format: date only or date and time)
        let (step_hours, with_time) = self.rng.pick(&[
            (1_i64, true),
            (6, true),
            (24, false),
            (24 * 7, false),
            (24 * 30, false),
        ]);
        let start_day = self.rng.int(0, 300);
        let labels = (0..n)
            .map(|i| {
                let hours = start_day * 24 + step_hours * i as i64;
                let (days, hour) = (hours.div_euclid(24), hours.rem_euclid(24));
                let (y, m, d) = civil(2024, days);
                if with_time {
                    json!(format!("{y:04}-{m:02}-{d:02}T{hour:02}:00:00"))
                } else {
                    json!(format!("{y:04}-{m:02}-{d:02}"))
                }
            })
            .collect();
        let mut time = Map::new();
        if self.rng.chance(0.4) {
            let unit = match step_hours {
                1 | 6 => "hour",
                24 => self.rng.pick(&["day", "week"]),
                168 => self.rng.pick(&["week", "month"]),
                _ => "month",
            };
            time.insert("unit".into(), json!(unit));
        }
        let mut ticks = Map::new();
        if self.rng.chance(0.2) {
            ticks.insert("source".into(), json!("data"));
        }
        if self.rng.chance(0.15) {
            ticks.insert("autoSkip".into(), json!(false));
        }
        self.note(format!(
            "{ty} {step_hours}h{}{}",
            time.get("unit")
                .map(|u| format!(" unit {}", u.as_str().unwrap_or("")))
                .unwrap_or_default(),
            ticks
                .iter()
                .map(|(k, v)| format!(" {k}={v}"))
                .collect::<String>()
        ));
        if !time.is_empty() {
            s.insert("time".into(), Value::Object(time));
        }
        if !ticks.is_empty() {
            s.insert("ticks".into(), Value::Object(ticks));
        }
        labels
    }

    fn plugins(&mut self, ty: &str, options: &mut Map<String, Value>) {
        let mut plugins = Map::new();
        // Legend: shown by default; sometimes moved, aligned or hidden.
        let mut legend = Map::new();
        if self.rng.chance(0.15) {
            legend.insert("display".into(), json!(false));
        } else if self.rng.chance(0.5) {
            let side = self.rng.pick(SIDES);
            legend.insert("position".into(), json!(side));
            if self.rng.chance(0.3) {
                legend.insert("align".into(), json!(self.rng.pick(&["start", "end"])));
            }
            if self.rng.chance(0.2) {
                legend.insert("labels".into(), json!({"usePointStyle": true}));
            }
            self.note(format!("legend {side}"));
        }
        if !legend.is_empty() {
            plugins.insert("legend".into(), Value::Object(legend));
        }
        for (key, p) in [("title", 0.35), ("subtitle", 0.15)] {
            if self.rng.chance(p) {
                let side =
                    self.rng
                        .weighted(&[(6, "top"), (2, "bottom"), (1, "left"), (1, "right")]);
                let text = self.rng.pick(&[
                    "Monthly revenue",
                    "Sales by region",
                    "Custom Chart Title",
                    "Visitors per day (thousands)",
                ]);
                let mut t = json!({"display": true, "text": text, "position": side});
                if self.rng.chance(0.3) {
                    t["align"] = json!(self.rng.pick(&["start", "end"]));
                }
                if key == "title" && self.rng.chance(0.3) {
                    t["font"] = json!({"size": 18});
                }
                self.note(format!("{key} {side}"));
                plugins.insert(key.into(), t);
            }
        }
        if self.rng.chance(0.2) {
            let mut dl = json!({"display": true});
            if ty == "cartesian" || ty == "xy" {
                dl["anchor"] = json!(self.rng.pick(&["center", "end", "start"]));
                dl["align"] = json!(self.rng.pick(&["center", "end", "top"]));
            } else {
                dl["color"] = json!("#fff");
            }
            if self.rng.chance(0.3) {
                dl["font"] = json!({"weight": "bold"});
            }
            self.note("datalabels");
            plugins.insert("datalabels".into(), dl);
        }
        if (ty == "cartesian" || ty == "xy") && self.rng.chance(0.15) {
            plugins.insert("annotation".into(), self.annotations());
            self.note("annotation");
        }
        if !plugins.is_empty() {
            options.insert("plugins".into(), Value::Object(plugins));
        }
    }

    fn annotations(&mut self) -> Value {
        let mut list = Map::new();
        list.insert(
            "line1".into(),
            json!({
                "type": "line",
                "yScaleID": "y",
                "yMin": 10,
                "yMax": 10,
                "borderColor": "rgb(255, 99, 132)",
                "borderWidth": 2,
            }),
        );
        if self.rng.chance(0.5) {
            list.insert(
                "box1".into(),
                json!({
                    "type": "box",
                    "xMin": 1,
                    "xMax": 2,
                    "backgroundColor": "rgba(255, 99, 132, 0.25)",
                }),
            );
        }
        if self.rng.chance(0.3) {
            list.insert(
                "label1".into(),
                json!({
                    "type": "label",
                    "xValue": 1,
                    "yValue": 10,
                    "content": "Target",
                    "backgroundColor": "rgba(245, 245, 245, 0.8)",
                }),
            );
        }
        json!({ "annotations": list })
    }
}

/// (year, month, day) of `days` days after January 1 of `year` (proleptic Gregorian).
fn civil(year: i64, days: i64) -> (i64, i64, i64) {
    let (mut y, mut d) = (year, days);
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    loop {
        let len = if leap(y) { 366 } else { 365 };
        if d < len {
            break;
        }
        d -= len;
        y += 1;
    }
    let months = [
        31,
        if leap(y) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut m = 0;
    while m < 11 && d >= months[m] {
        d -= months[m];
        m += 1;
    }
    (y, m as i64 + 1, d + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chart_spec::RenderOptions;

    #[test]
    fn a_seed_gives_the_same_cases() {
        for i in 0..50 {
            assert_eq!(case(7, i).body, case(7, i).body);
        }
        let differ = (0..50)
            .filter(|&i| case(7, i).body != case(8, i).body)
            .count();
        assert!(
            differ > 40,
            "seeds 7 and 8 share {} of 50 cases",
            50 - differ
        );
    }

    #[test]
    fn cases_are_valid_requests_and_cover_every_kind() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..400 {
            let c = case(1, i);
            let text = serde_json::to_string(&c.body).unwrap();
            let back: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(back, c.body, "{}: JSON round trip", c.name);
            let opts = RenderOptions::from_json(&c.body)
                .unwrap_or_else(|e| panic!("{}: not a valid request: {e}", c.name));
            assert!(opts.width >= 300.0 && opts.height >= 200.0);
            let ty = opts.chart.get("type").and_then(Value::as_str).unwrap();
            assert!(
                [
                    "bar",
                    "line",
                    "pie",
                    "doughnut",
                    "polarArea",
                    "radar",
                    "scatter",
                    "bubble"
                ]
                .contains(&ty),
                "{ty}"
            );
            seen.insert(c.kind);
        }
        let kinds: std::collections::BTreeSet<&str> = CHART_KINDS.iter().map(|k| k.1).collect();
        assert_eq!(seen, kinds, "400 cases cover every chart kind");
    }

    #[test]
    fn cases_cover_every_scale_type_and_plugin() {
        let all: String = (0..400)
            .map(|i| serde_json::to_string(&case(3, i).body).unwrap())
            .collect();
        for needle in [
            "\"type\":\"time\"",
            "\"type\":\"timeseries\"",
            "\"type\":\"logarithmic\"",
            "\"datalabels\"",
            "\"annotation\"",
            "\"subtitle\"",
            "\"position\":\"left\"",
            "\"indexAxis\":\"y\"",
            "\"spacing\"",
            "\"autoSkip\":false",
            "\"source\":\"data\"",
        ] {
            assert!(all.contains(needle), "no case has {needle}");
        }
    }

    #[test]
    fn some_cases_make_chartjs_warn() {
        let all: String = (0..2000)
            .map(|i| serde_json::to_string(&case(3, i).body).unwrap())
            .collect();
        for needle in [
            "\"style\":\"bold\"",
            "\"stepSize\":0.0001",
            "\"filler\":false",
        ] {
            assert!(all.contains(needle), "no case has {needle}");
        }
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil(2024, 0), (2024, 1, 1));
        assert_eq!(civil(2024, 59), (2024, 2, 29));
        assert_eq!(civil(2024, 366), (2025, 1, 1));
    }

    #[test]
    fn weighted_and_pick_stay_in_range() {
        let mut r = Rng::for_case(0, 0);
        for _ in 0..1000 {
            assert!((3..=5).contains(&r.int(3, 5)));
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
