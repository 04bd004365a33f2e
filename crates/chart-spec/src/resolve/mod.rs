//! Config JSON → resolved [`Chart`]: parsing without panics and option
//! resolution through Chart.js's scope chains (`getOptionScopes`, `datasetScopeKeys`,
//! `datasetElementScopeKeys`, `mergeScaleConfig` in core.config.js).
//!
//! [`resolve_for_render`] is the entry point of a render (an engine calls it once and draws
//! the [`Chart`] it returns); [`resolve_chart`] is the same without the render's settings.
//! One file per concept resolves its part of the model: `scale`s, `dataset`s and their
//! `element` options, the core `plugin`s (title, legend, colors, decimation), the bundled
//! `plugin_chart` types, `datalabels`, `gradient`s and `annotation`s; `support` names what the
//! skia engine leaves out. `lookup` holds the scope-chain helpers they share; it depends on
//! none of them.

mod annotation;
mod datalabels;
mod dataset;
mod element;
mod geo;
mod gradient;
mod lookup;
mod plugin;
mod plugin_chart;
mod scale;
mod support;
mod word_cloud;

use self::gradient::gradient_sentinels;
pub use annotation::resolve_annotations;
pub use datalabels::resolve_datalabels;
pub use gradient::{apply_gradient_sentinels, resolve_gradients};
pub use lookup::{default_font, padding_of};

use self::dataset::resolve_dataset;
use self::lookup::{Ctx, DatasetType, Obj};
use self::plugin::{apply_colors_plugin, decimation, resolve_legend, resolve_title};
use self::scale::resolve_scales;
use crate::color::Rgba;
use crate::defaults;
use crate::limits::Limits;
use crate::message::Message;
use crate::model::{Axis, Chart, ChartKind, FillDrawTime, FillerOptions, Raw};
use crate::scopes::{truthy, Reader, Scopes};
use crate::values::{padding_from_scopes, to_font};
use serde_json::Value;

/// A chart resolved for one render ([`resolve_for_render`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ForRender {
    /// The chart; `None` when it cannot be built at all (Chart.js would throw in
    /// `new Chart()`): the engine draws a blank canvas then.
    pub chart: Option<Chart>,
    /// The resolution's messages: the core options', the device pixel ratio's, then the
    /// bundled plugins'.
    pub messages: Vec<Message>,
    /// What the skia engine leaves out of this config (bundled plugin chart types it does not
    /// draw), which it says after its own messages.
    pub left_out: Vec<Message>,
}

/// Resolves a Chart.js config for one render at `device_pixel_ratio` within `limits`: every
/// option, the bundled plugins' included. An engine calls this once and draws the result.
pub fn resolve_for_render(config: &Obj, device_pixel_ratio: f32, limits: &Limits) -> ForRender {
    let (chart, messages) = match resolve_core(config, limits) {
        Ok((mut chart, mut messages)) => {
            // The request's device pixel ratio sets the bitmap size, in both engines (the
            // browser engine overwrites `options.devicePixelRatio` too): letting the config
            // choose it would step around the service's bitmap-size limits.
            if let Some(dpr) = chart.device_pixel_ratio {
                if dpr != f64::from(device_pixel_ratio) {
                    messages.push(Message::info(format!(
                        "options.devicePixelRatio ({dpr}) is ignored: the render's devicePixelRatio ({device_pixel_ratio}) applies"
                    )));
                }
            }
            resolve_bundled(config, &mut chart, &mut messages);
            messages.extend(crate::message::console_warnings(config));
            (Some(chart), messages)
        }
        Err(messages) => (None, messages),
    };
    ForRender {
        chart,
        messages,
        left_out: support::unsupported(config),
    }
}

/// Resolves a Chart.js config within the default budgets, the bundled plugins' options
/// included. `Err` holds the messages when the chart cannot be built at all (Chart.js would
/// throw in `new Chart()`).
pub fn resolve_chart(config: &Obj) -> Result<(Chart, Vec<Message>), Vec<Message>> {
    resolve_chart_within(config, &Limits::default())
}

/// [`resolve_chart`] within `limits`.
pub fn resolve_chart_within(
    config: &Obj,
    limits: &Limits,
) -> Result<(Chart, Vec<Message>), Vec<Message>> {
    let (mut chart, mut messages) = resolve_core(config, limits)?;
    resolve_bundled(config, &mut chart, &mut messages);
    Ok((chart, messages))
}

/// The bundled plugins (chartjs-plugin-datalabels, -annotation, -gradient) read their options
/// from the config themselves, after the chart exists.
fn resolve_bundled(config: &Obj, chart: &mut Chart, messages: &mut Vec<Message>) {
    chart.datalabels = resolve_datalabels(config, messages);
    chart.annotation = resolve_annotations(config, messages);
    chart.gradients = resolve_gradients(config);
}

/// The chart and its core options (no bundled plugin).
fn resolve_core(config: &Obj, limits: &Limits) -> Result<(Chart, Vec<Message>), Vec<Message>> {
    let mut msgs = Vec::new();
    let kind = match config.get("type") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            msgs.push(Message::error(format!(
                "\"{}\" is not a registered controller.",
                Raw::from_json(other).to_js_string()
            )));
            return Err(msgs);
        }
        // No chart type: Chart.js still builds the chart when every dataset names its own
        // `type` (config.type is only a fallback for datasets).
        None => String::new(),
    };
    let empty = Obj::new();
    let options: &Obj = match config.get("options") {
        Some(Value::Object(o)) => o,
        None | Some(Value::Null) => &empty,
        Some(other) => {
            msgs.push(Message::warn(format!(
                "options: expected an object, got {other}; ignored"
            )));
            &empty
        }
    };
    let data: &Obj = match config.get("data") {
        Some(Value::Object(o)) => o,
        _ => &empty,
    };
    let raw_datasets: Vec<&Obj> = match data.get("datasets") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_object).collect(),
        _ => Vec::new(),
    };
    // Chart.js throws on the first unknown controller, chart type first; the names are
    // parsed into `ChartKind`s here, once.
    let every_dataset_typed = !raw_datasets.is_empty()
        && raw_datasets
            .iter()
            .all(|d| matches!(d.get("type"), Some(Value::String(_))));
    let unregistered =
        |name: &str| Message::error(format!("\"{name}\" is not a registered controller."));
    if kind.is_empty() && !every_dataset_typed {
        msgs.push(unregistered("undefined"));
        return Err(msgs);
    }
    let kind = if kind.is_empty() {
        None
    } else {
        match ChartKind::from_name(&kind) {
            Some(k) => Some(k),
            None => {
                msgs.push(unregistered(&kind));
                return Err(msgs);
            }
        }
    };
    let mut dataset_kinds = Vec::with_capacity(raw_datasets.len());
    for ds in &raw_datasets {
        let k = match ds.get("type") {
            Some(Value::String(t)) => ChartKind::from_name(t).ok_or_else(|| unregistered(t)),
            // `dataset.type || config.type`; a chart without a type has typed datasets only.
            _ => kind.ok_or_else(|| unregistered("undefined")),
        };
        match k {
            Ok(k) => dataset_kinds.push(k),
            Err(m) => {
                msgs.push(m);
                return Err(msgs);
            }
        }
    }

    let plugins_enabled = !matches!(options.get("plugins"), Some(Value::Bool(false)));
    let plugin_opts = |id: &str| -> Option<&Obj> {
        match options.get("plugins") {
            Some(Value::Object(p)) => p.get(id).and_then(Value::as_object),
            _ => None,
        }
    };
    let plugin_enabled = |id: &str| -> bool {
        if !plugins_enabled {
            return false;
        }
        match options.get("plugins") {
            Some(Value::Object(p)) => !matches!(p.get(id), Some(Value::Bool(false))),
            _ => true,
        }
    };

    let ctx = Ctx {
        kind,
        options,
        overrides: kind.and_then(defaults::overrides).unwrap_or(&empty),
        global: defaults::global(),
        limits,
    };
    // Each dataset's type and index axis, once (the plugins below change neither).
    let kinds: Vec<DatasetType> = raw_datasets
        .iter()
        .zip(dataset_kinds)
        .map(|(d, k)| ctx.dataset_type(d, k))
        .collect();

    // Colors plugin: runs before elements resolve their options (beforeLayout), writing
    // palette colours into the datasets themselves. What it and the gradient plugin write is
    // kept beside each dataset, as a scope in front of it, rather than in a copy of it: a
    // copy of 10,000 points costs about what parsing them did.
    let mut written: Vec<Obj> = vec![Obj::new(); raw_datasets.len()];
    // `plugins.colors.enabled` may come from the type's overrides too (chartjs-chart-geo's
    // choropleth turns the plugin off there).
    let colors_on = ctx
        .plugin_scopes("colors")
        .get("enabled")
        .is_none_or(truthy);
    if plugin_enabled("colors") && colors_on {
        apply_colors_plugin(
            &kinds,
            options,
            plugin_opts("colors"),
            &raw_datasets,
            &mut written,
        );
    }
    // chartjs-plugin-gradient: stand-in colours the engine repaints ([`gradient`]).
    for (index, key, colour) in gradient_sentinels(config) {
        if let Some(w) = written.get_mut(index) {
            w.insert(key, colour);
        }
    }

    let labels = read_labels(data.get("labels"));
    let x_labels = data.get("xLabels").map(|v| read_labels(Some(v)));
    let y_labels = data.get("yLabels").map(|v| read_labels(Some(v)));

    let mut scales = resolve_scales(&ctx, &raw_datasets, &kinds, &mut msgs)?;

    let mut datasets = Vec::new();
    for (i, ((ds, w), dk)) in raw_datasets.iter().zip(&written).zip(&kinds).enumerate() {
        datasets.push(resolve_dataset(
            &ctx,
            i,
            (ds, w),
            dk,
            raw_datasets.len(),
            &mut msgs,
        ));
    }

    let chart_scopes = ctx.chart_scopes();
    let mut r = Reader::new(chart_scopes.clone(), "options", &mut msgs);
    let layout = r.scopes.child("layout");
    let layout_padding = padding_from_scopes(&layout, "padding");
    let auto_padding = layout.get("autoPadding").map(truthy).unwrap_or(true);
    let color = r.color("color").unwrap_or(Rgba::rgb(0x66, 0x66, 0x66));
    let locale = r.str("locale").unwrap_or("en-US").to_string();
    // Tick labels are formatted with `Intl.NumberFormat(chart.options.locale, …)`.
    for scale in &mut scales {
        scale.ticks.format.locale.clone_from(&locale);
    }
    let r_index_axis = chart_scopes.get("indexAxis").and_then(Value::as_str);
    let device_pixel_ratio = options.get("devicePixelRatio").and_then(Value::as_f64);
    let font = to_font(&chart_scopes.child("font"), &Scopes::default());

    let title = if plugin_enabled("title") {
        Some(resolve_title(&ctx, "title", &mut msgs))
    } else {
        None
    };
    let subtitle = if plugin_enabled("subtitle") {
        Some(resolve_title(&ctx, "subtitle", &mut msgs))
    } else {
        None
    };
    let legend = if plugin_enabled("legend") {
        Some(resolve_legend(&ctx, color, &mut msgs))
    } else {
        None
    };
    let filler = if plugin_enabled("filler") {
        let s = ctx.plugin_scopes("filler");
        let draw_time = match s.get("drawTime").and_then(Value::as_str) {
            Some("beforeDraw") => FillDrawTime::BeforeDraw,
            Some("beforeDatasetsDraw") => FillDrawTime::BeforeDatasetsDraw,
            _ => FillDrawTime::BeforeDatasetDraw,
        };
        Some(FillerOptions {
            propagate: s.get("propagate").map(truthy).unwrap_or(true),
            draw_time,
        })
    } else {
        None
    };

    Ok((
        Chart {
            kind,
            labels,
            x_labels,
            y_labels,
            datasets,
            index_axis: match r_index_axis {
                Some("y") => Axis::Y,
                _ => Axis::X,
            },
            scales,
            layout_padding,
            auto_padding,
            font,
            color,
            locale,
            title,
            subtitle,
            legend,
            filler,
            device_pixel_ratio,
            decimation: decimation(options),
            datalabels: None,
            annotation: None,
            gradients: Vec::new(),
        },
        msgs,
    ))
}

fn read_labels(v: Option<&Value>) -> Vec<Raw> {
    match v {
        Some(Value::Array(a)) => a.iter().map(Raw::from_json).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Elements, Position, ScaleKind, ScaleTypeOptions};
    use serde_json::json;

    fn chart(v: Value) -> Chart {
        resolve_chart(v.as_object().unwrap()).unwrap().0
    }

    #[test]
    fn empty_option_arrays_read_as_unset() {
        // Chart.js's `_resolveArray` never sees `[]` as a value: the scalar default applies.
        let with = |scale: Value| {
            chart(
                json!({"type": "line", "data": {"labels": ["a"], "datasets": [{"data": [1]}]},
                "options": {"scales": {"x": scale}}}),
            )
            .scales
        };
        let empty = with(json!({"grid": {"color": [], "lineWidth": []},
            "ticks": {"color": [], "font": []}}));
        assert_eq!(empty, with(json!({})));
    }

    /// Issue 17: a root `options.font` reaches a scale's font only through a `font` object
    /// (Chart.js's sub-resolver over the root scopes): radialLinear's default
    /// `pointLabels.font: {size: 10}` and a user's `ticks.font` or `title.font` take the
    /// root family, default tick labels and a title without a font keep `defaults.font`.
    #[test]
    fn root_font_reaches_scale_font_objects() {
        let family = |f: &crate::values::Font| f.spec.family.clone();
        let root = json!({"size": 13, "family": "Verdana", "weight": "bold"});
        let radar = chart(json!({"type": "radar",
            "data": {"labels": ["a"], "datasets": [{"data": [1]}]},
            "options": {"font": root}}));
        let r = &radar.scales[0];
        let ScaleTypeOptions::RadialLinear(radial) = &r.kind else {
            panic!("{:?}", r.kind);
        };
        let label = radial.point_labels.font.first();
        // size from the scale default, family and weight from the root.
        assert_eq!(
            (family(&label), label.size, label.spec.weight),
            ("Verdana".into(), 10.0, 700)
        );
        assert_eq!(family(&r.ticks.font.first()), crate::font::DEFAULT_FAMILY);
        assert_eq!(r.ticks.font.first().size, 12.0);

        let bar = chart(json!({"type": "bar",
            "data": {"labels": ["a"], "datasets": [{"data": [1]}]},
            "options": {"font": root, "scales": {
                "x": {"ticks": {"font": {"size": 15}}, "title": {"font": {"size": 9}}},
                "y": {"ticks": {"font": null}}}}}));
        let (x, y) = (&bar.scales[0], &bar.scales[1]);
        let tick = x.ticks.font.first();
        assert_eq!((family(&tick), tick.size), ("Verdana".into(), 15.0));
        assert_eq!(family(&x.title.font), "Verdana");
        assert_eq!(family(&y.ticks.font.first()), crate::font::DEFAULT_FAMILY);
        assert_eq!(family(&y.title.font), crate::font::DEFAULT_FAMILY);
        // `fit` measures the title over the root font whether or not it has a font object.
        assert_eq!(family(&y.title.fit_font), "Verdana");
    }

    #[test]
    fn unknown_type_is_an_error() {
        let e = resolve_chart(json!({"type": "nope"}).as_object().unwrap()).unwrap_err();
        assert_eq!(e[0].message, "\"nope\" is not a registered controller.");
    }

    #[test]
    fn bar_scales_come_from_overrides() {
        let c =
            chart(json!({"type": "bar", "data": {"labels": ["a"], "datasets": [{"data": [1]}]}}));
        assert_eq!(c.scales.len(), 2);
        let x = &c.scales[0];
        assert_eq!(
            (x.id.as_str(), x.kind.scale_kind().name(), x.offset),
            ("x", "category", true)
        );
        assert!(x.grid.offset);
        let y = &c.scales[1];
        assert_eq!(
            (y.kind.scale_kind().name(), y.begin_at_zero),
            ("linear", true)
        );
        assert_eq!(y.position, Position::Left);
    }

    #[test]
    fn horizontal_bar_swaps_axes() {
        let c = chart(json!({"type": "bar", "options": {"indexAxis": "y"},
            "data": {"datasets": [{"data": [1]}]}}));
        let y = c.scales.iter().find(|s| s.id == "y").unwrap();
        assert_eq!(y.kind.scale_kind(), ScaleKind::Category);
        let x = c.scales.iter().find(|s| s.id == "x").unwrap();
        assert!(x.begin_at_zero);
    }

    #[test]
    fn element_options_chain_and_indexable() {
        let c = chart(json!({"type": "line",
            "data": {"datasets": [{"data": [1, 2, 3], "pointBackgroundColor": ["#ff0000", "#00ff00"],
                "borderColor": "#0000ff"}]},
            "options": {"elements": {"point": {"radius": 7}}}}));
        let Elements::Point(p) = c.datasets[0].kind.elements() else {
            panic!()
        };
        assert_eq!(p.at(0).background_color, Rgba::rgb(255, 0, 0));
        assert_eq!(p.at(2).background_color, Rgba::rgb(255, 0, 0));
        assert_eq!(p.at(1).background_color, Rgba::rgb(0, 255, 0));
        assert_eq!(p.at(1).radius, 7.0);
        assert_eq!(p.at(0).border_color, Rgba::rgb(0, 0, 255));
        assert_eq!(c.datasets[0].kind.line().map(|l| l.border_width), Some(3.0));
    }

    #[test]
    fn colors_plugin_fills_palette() {
        let c = chart(json!({"type": "bar", "data": {"datasets": [{"data": [1]}, {"data": [2]}]}}));
        let Elements::Bar(b) = c.datasets[1].kind.elements() else {
            panic!()
        };
        assert_eq!(b.at(0).border_color, Rgba::rgb(255, 99, 132));
        assert_eq!(b.at(0).background_color.a, 128);
    }

    #[test]
    fn garbage_does_not_panic() {
        for v in [
            json!({"type": "line", "data": 5}),
            json!({"type": "bar", "data": {"datasets": [5, {"data": "x"}]},
            "options": {"scales": {"x": 3, "y": {"ticks": {"font": {"size": "big"}}}}}}),
        ] {
            let _ = resolve_chart(v.as_object().unwrap());
        }
    }
}
