//! The scope-chain lookups every resolver shares: the chart's root scopes ([`Ctx`]), indexable
//! option readers, raw values from JSON and the deep merge plugins use for their option
//! layers.

use crate::color::{parse_color, Rgba};
use crate::defaults;
use crate::limits::Limits;
use crate::model::{Align, Axis, ChartKind, Raw};
use crate::scopes::{to_number, Reader, Scopes};
use crate::values::{to_font, to_padding, Font, Indexable, Sides};
use serde_json::{Map, Value};

/// Chart.js `merge`: objects merge key by key, anything else replaces.
pub fn merge_into(target: &mut Map<String, Value>, src: &Map<String, Value>) {
    for (k, v) in src {
        match (target.get_mut(k), v) {
            (Some(Value::Object(t)), Value::Object(s)) => merge_into(t, s),
            _ => {
                target.insert(k.clone(), v.clone());
            }
        }
    }
}

pub(super) type Obj = Map<String, Value>;

impl Raw {
    /// A raw scalar from JSON.
    pub fn from_json(v: &Value) -> Raw {
        match v {
            Value::Null => Raw::Null,
            Value::Bool(b) => Raw::Bool(*b),
            Value::Number(n) => Raw::Num(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => Raw::Str(s.clone()),
            Value::Array(a) => Raw::Array(a.iter().map(Raw::from_json).collect()),
            Value::Object(_) => Raw::Object,
        }
    }
    pub(crate) fn from_opt(v: Option<&Value>) -> Raw {
        v.map(Raw::from_json).unwrap_or(Raw::Undefined)
    }
}

/// A dataset's type and index axis ([`Ctx::dataset_type`]).
pub(super) struct DatasetType {
    /// `dataset.type || config.type`.
    pub(super) kind: ChartKind,
    /// The dataset's `indexAxis`, else `getIndexAxis(type, options)`.
    pub(super) index_axis: Axis,
}

pub(super) struct Ctx<'a> {
    /// `config.type`, if given.
    pub(super) kind: Option<ChartKind>,
    pub(super) options: &'a Obj,
    pub(super) overrides: &'a Obj,
    pub(super) global: &'a Obj,
    /// The render's budgets (what resolution copies out of the config is bounded by them).
    pub(super) limits: &'a Limits,
}

impl<'a> Ctx<'a> {
    /// `chartOptionScopes()`: options, overrides[type], defaults.datasets[type], defaults.
    pub(super) fn chart_scopes(&self) -> Scopes<'a> {
        let mut s = Scopes::new(vec![self.options, self.overrides]);
        if let Some(d) = self.kind.and_then(defaults::dataset_type) {
            s.push(d);
        }
        s.push(self.global);
        s
    }

    /// `pluginScopeKeys`: `plugins.<id>` in options, overrides and defaults.
    pub(super) fn plugin_scopes(&self, id: &str) -> Scopes<'a> {
        let mut s = Scopes::default();
        let key = format!("plugins.{id}");
        s.push_key(self.options, &key);
        s.push_key(self.overrides, &key);
        s.push_key(self.global, &key);
        s
    }

    /// `getOptionScopes(dataset, keys)` for a list of dotted keys. `written` holds what the
    /// colors and gradient plugins wrote into the dataset (often nothing): it comes first,
    /// as those keys of the dataset itself would.
    pub(super) fn dataset_scopes(
        &self,
        dataset: &'a Obj,
        written: &'a Obj,
        keys: &[String],
    ) -> Scopes<'a> {
        self.dataset_scopes_from(
            dataset,
            written,
            keys,
            &[self.options, self.overrides, self.global],
        )
    }

    /// [`Self::dataset_scopes`] without the type overrides and the defaults: what the
    /// request itself gives (and plugins wrote). Where a plugin's override is a scriptable
    /// function we compute instead (chartjs-chart-geo's `elements.geoFeature`
    /// `backgroundColor`), a value here comes before it in Chart.js and one in the defaults
    /// after it.
    pub(super) fn given_dataset_scopes(
        &self,
        dataset: &'a Obj,
        written: &'a Obj,
        keys: &[String],
    ) -> Scopes<'a> {
        self.dataset_scopes_from(dataset, written, keys, &[self.options])
    }

    fn dataset_scopes_from(
        &self,
        dataset: &'a Obj,
        written: &'a Obj,
        keys: &[String],
        roots: &[&'a Obj],
    ) -> Scopes<'a> {
        let mut s = Scopes::default();
        if !written.is_empty() {
            s.push(written);
        }
        s.push(dataset);
        for k in keys {
            s.push_key(dataset, k);
        }
        for root in roots {
            for k in keys {
                s.push_key(root, k);
            }
        }
        s
    }

    /// A dataset's index axis (its own `indexAxis`, else `getIndexAxis`) next to its type
    /// (`dataset.type || config.type`, already parsed), worked out once per dataset for every
    /// resolver that needs them.
    pub(super) fn dataset_type(&self, ds: &Obj, kind: ChartKind) -> DatasetType {
        let index_axis = match ds.get("indexAxis").and_then(Value::as_str) {
            Some("y") => Axis::Y,
            Some("x") => Axis::X,
            _ => self.index_axis(Some(kind)),
        };
        DatasetType { kind, index_axis }
    }

    /// `getIndexAxis(type, options)`; `None`: the chart has no type (`options.datasets['']`
    /// is then what Chart.js reads).
    pub(super) fn index_axis(&self, kind: Option<ChartKind>) -> Axis {
        let pick = |v: Option<&Value>| match v.and_then(Value::as_str) {
            Some("y") => Some(Axis::Y),
            Some("x") => Some(Axis::X),
            _ => None,
        };
        let ds_opt = self
            .options
            .get("datasets")
            .and_then(|d| d.get(kind.map_or("", ChartKind::name)))
            .and_then(|d| d.get("indexAxis"));
        pick(ds_opt)
            .or_else(|| pick(self.options.get("indexAxis")))
            .or_else(|| {
                pick(
                    kind.and_then(defaults::dataset_type)
                        .and_then(|d| d.get("indexAxis")),
                )
            })
            .unwrap_or(Axis::X)
    }
}

pub(super) fn global_color(key: &str) -> Rgba {
    defaults::global()
        .get(key)
        .and_then(Value::as_str)
        .and_then(parse_color)
        .unwrap_or(Rgba::TRANSPARENT)
}

pub(super) fn indexable_colors(
    r: &mut Reader<'_, '_>,
    key: &str,
    fallback: Rgba,
) -> Indexable<Rgba> {
    let values = match r.raw(key) {
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| v.as_str().and_then(parse_color).unwrap_or(fallback))
            .collect(),
        _ => Vec::new(),
    };
    Indexable::from_values(values)
        .unwrap_or_else(|| Indexable::one(r.color(key).unwrap_or(fallback)))
}

pub(super) fn indexable_nums(r: &mut Reader<'_, '_>, key: &str, fallback: f64) -> Indexable<f64> {
    let values = match r.raw(key) {
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                let n = to_number(v);
                if n.is_nan() {
                    fallback
                } else {
                    n
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    Indexable::from_values(values).unwrap_or_else(|| Indexable::one(r.num(key).unwrap_or(fallback)))
}

pub(super) fn num_array(v: Option<&Value>) -> Vec<f64> {
    match v {
        Some(Value::Array(a)) => a.iter().map(to_number).filter(|n| n.is_finite()).collect(),
        _ => Vec::new(),
    }
}

pub(super) fn text_lines(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a.iter().map(|x| Raw::from_json(x).to_js_string()).collect(),
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Null) | None => vec![String::new()],
        Some(other) => vec![Raw::from_json(other).to_js_string()],
    }
}

pub(super) fn parse_align(v: Option<&Value>) -> Align {
    match v.and_then(Value::as_str) {
        Some("start") => Align::Start,
        Some("end") => Align::End,
        Some("inner") => Align::Inner,
        _ => Align::Center,
    }
}

pub(super) fn global_font_scopes() -> Scopes<'static> {
    let mut s = Scopes::default();
    if let Some(f) = defaults::global().get("font").and_then(Value::as_object) {
        s.push(f);
    }
    s
}

/// Shorthand for tests and engines: the padding of a raw value.
pub fn padding_of(v: &Value) -> Sides {
    to_padding(Some(v))
}

/// A default font (Chart.js `defaults.font`).
pub fn default_font() -> Font {
    to_font(&Scopes::default(), &global_font_scopes())
}

/// `options.plugins.<key>` when plugins and that plugin are not disabled.
pub(super) fn plugin_options<'a>(config: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    let plugins = config.get("options")?.get("plugins")?;
    plugins.as_object()?.get(key)
}

/// The datasets array of the config.
pub(super) fn raw_datasets(config: &Map<String, Value>) -> &[Value] {
    config
        .get("data")
        .and_then(|d| d.get("datasets"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

pub(super) fn color_of(v: Option<&Value>) -> Option<Rgba> {
    match v {
        Some(Value::String(s)) => parse_color(s),
        _ => None,
    }
}
