//! The native engine: draws a Chart.js config the way Chart.js 4.5 does, without a browser.
//!
//! The stages stay apart, each in its own module:
//! config → resolved options (`chart_spec::resolve_for_render`, once, at the entry: the
//! stages after draw the typed `chart_spec::Chart`) → layout (the `layout` and `scales`
//! modules; [`Engine::layout`] returns the boxes as a [`layout::Layout`]) → scene
//! ([`scene`], a display list built by the `chart` module: [`Engine::scene`]) → pixels
//! (`raster`, the only module that knows tiny-skia) → straight-alpha [`Bitmap`], or
//! vector output ([`vector`]).
//!
//! The public surface is the [`Engine`], what it takes and returns ([`Settings`],
//! [`Error`], [`scene`], [`layout`], the [`text`] backends); the stages are private.
#![warn(missing_docs)]

mod chart;
mod controllers;
mod elements;
pub mod layout;
mod math;
mod plugins;
mod raster;
mod scales;
pub mod scene;
pub mod text;
pub mod vector;

pub use elements::geometry::ElementGeometry;
pub use elements::Area;

/// Stages that the crate's own integration tests drive directly with hostile input: a scene
/// straight to the rasteriser, the sankey and treemap layouts alone. Not part of the API:
/// hidden from the documentation, no stability promise.
#[doc(hidden)]
pub mod internals {
    pub use crate::controllers::sankey::layout as sankey_layout;
    pub use crate::controllers::treemap::{
        build_data as treemap_data, build_data_within as treemap_data_within,
    };
    pub use crate::raster::{rasterize, rasterize_bands, rasterize_on, Reuse, Threads};
}

pub use raster::{BandPixels, Drawn};

use chart_spec::{Bitmap, Cancel, ChartConfig, Limits, Message, RenderOptions, Rendered, Rgba};

/// Why a render could not produce an image at all. Config problems are not errors: they are
/// [`Message`]s returned with the image.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The bitmap size is zero or too large to allocate.
    #[error("cannot allocate a {width}x{height} bitmap")]
    BitmapSize {
        /// Device pixels.
        width: u32,
        /// Device pixels.
        height: u32,
    },
    /// The chart needs more than a budget of [`chart_spec::Limits`] allows (a client error:
    /// the service answers 400 with this message).
    #[error("the chart needs more {what} than the limit of {max} ({variable})")]
    Limit {
        /// What ran out, e.g. `display-list items`.
        what: &'static str,
        /// The budget.
        max: usize,
        /// The environment variable that sets it, e.g. `MAX_SCENE_ITEMS`.
        variable: &'static str,
    },
    /// The render was stopped through its [`Cancel`]: nobody waits for it any more.
    #[error("render cancelled")]
    Cancelled,
    /// A vector writer failed (the PDF library refused the document).
    #[error("{0}")]
    Vector(String),
}

/// Canvas settings of one render.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Canvas width in CSS px.
    pub width: f32,
    /// Canvas height in CSS px.
    pub height: f32,
    /// Device pixel ratio: the bitmap is `width·dpr × height·dpr`.
    pub device_pixel_ratio: f32,
    /// Painted over the whole canvas before the chart; transparent leaves it clear.
    pub background: Rgba,
}

/// The skia engine. Fonts are discovered once, in [`Engine::new`]; renders share them, and
/// the pixel buffers that [`Engine::recycle`] hands back.
pub struct Engine {
    text: text::TextEngine,
    reuse: raster::Reuse,
    limits: Limits,
    second_core: SecondCore,
    /// Split every bitmap large enough on two threads, whether it pays or not.
    split_always: bool,
}

/// Asked just before a render's pixels are drawn, when the bitmap is large enough to split
/// (256 rows or more, at most 32 MB), whether a second thread may draw half of them now:
/// `Some` lends one, which is dropped when the drawing is done (and with it what it holds:
/// a count of busy threads, say). The pixels are the same either way; the caller decides
/// what the machine can spare (the service: an idle core). Default: never.
pub type SecondCore = fn() -> Option<Box<dyn SecondThread>>;

/// A thread lent to one render by its [`SecondCore`] (a long-lived one: starting a thread
/// per render costs more than the drawing it would share on a small chart).
pub trait SecondThread {
    /// Runs `there` on the lent thread while `here` runs on this one, and returns once both
    /// are done; a panic in `there` is this thread's again.
    fn join(&self, there: &mut (dyn FnMut() + Send), here: &mut dyn FnMut());
}

/// A request's scene, built by [`Engine::prepare`] for [`Engine::render_bands_prepared`]:
/// the part of a render that comes before its pixels, with the render's messages so far.
pub struct Prepared {
    scene: scene::Scene,
    messages: Vec<Message>,
}

/// The next stage of a render that takes the bitmap's rows band by band
/// ([`Engine::render_bands_with`]): each band on the thread that drew it, as soon as it is
/// drawn, so that the stage's work on it runs on that thread too (the PNG encoder deflates
/// each band there as one part of its stream).
pub trait BandConsumer: Sync {
    /// What the stage makes of a band.
    type Part: Send;

    /// Takes one band's rows. Called once for the top band and once for the bottom one,
    /// on either thread and in either order; the bands are the same whichever thread drew
    /// them.
    fn band(&self, band: Band<'_>) -> Self::Part;
}

/// One band of a bitmap's rows, handed to a [`BandConsumer`].
pub struct Band<'a> {
    /// The bitmap's width in device pixels.
    pub width: u32,
    /// The bitmap's height in device pixels.
    pub height: u32,
    /// The band's rows.
    pub rows: std::ops::Range<u32>,
    /// Straight-alpha RGBA pixels of rows `rows.start.saturating_sub(1)..rows.end`: the
    /// band's rows after the row above them, unless the band is the top one (the bottom
    /// band's painter draws that row too, the same pixels as the top one's, for a filter
    /// that reads the row above).
    pub pixels: &'a [u8],
    /// Whether the background is opaque: then so is every pixel (items are drawn over it).
    pub opaque: bool,
}

impl Engine {
    /// An engine using the fonts installed on this machine (and the bundled fallback).
    pub fn new() -> Self {
        Self::with_text(text::TextEngine::system())
    }

    /// An engine with a given text backend (tests use the fixtures' sprite font).
    pub fn with_text(text: text::TextEngine) -> Self {
        Self {
            text,
            reuse: raster::Reuse::default(),
            limits: Limits::default(),
            second_core: || None,
            split_always: false,
        }
    }

    /// The same engine drawing on a second thread whenever `second_core` lends one and the
    /// scene is one where two painters save time (enough work for the commands of its long
    /// paths, which both outline; see `raster/split.rs`).
    pub fn with_second_core(mut self, second_core: SecondCore) -> Self {
        self.second_core = second_core;
        self
    }

    /// The same engine drawing every bitmap of 256 rows or more (at most 32 MB) on two
    /// threads, whether or not that saves time: for checking that the pixels are one
    /// thread's, and for measuring one against the other. The second is the one
    /// `second_core` lends ([`Engine::with_second_core`]), or one started for the render
    /// when it lends none.
    pub fn with_split_always(mut self) -> Self {
        self.split_always = true;
        self
    }

    /// The same engine with other budgets (default: [`Limits::default`]).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The budgets every render of this engine keeps to.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Renders a validated request.
    pub fn render(&self, opts: &RenderOptions) -> Result<Rendered, Error> {
        self.render_with(opts, &Cancel::new())
    }

    /// Renders a validated request, stopping with [`Error::Cancelled`] once `cancel` fires.
    pub fn render_with(&self, opts: &RenderOptions, cancel: &Cancel) -> Result<Rendered, Error> {
        let (settings, mut messages) = Self::settings(opts);
        let mut out = self.render_chart_with(&opts.chart, &settings, cancel)?;
        messages.append(&mut out.messages);
        out.messages = messages;
        Ok(out)
    }

    /// Writes a validated request as a vector file ([`vector`]) from the same scene its
    /// bitmap is drawn from, stopping with [`Error::Cancelled`] once `cancel` fires.
    pub fn render_vector_with(
        &self,
        opts: &RenderOptions,
        format: vector::VectorFormat,
        cancel: &Cancel,
    ) -> Result<vector::Written, Error> {
        let (settings, mut messages) = Self::settings(opts);
        let (scene, mut drawn) = self.checked_scene(&opts.chart, &settings, cancel)?;
        messages.append(&mut drawn);
        let stop = || cancel.is_cancelled();
        let bytes = match format {
            vector::VectorFormat::Svg => {
                vector::svg::write(&scene, &self.text, &stop, self.limits.max_svg_bytes)
            }
            vector::VectorFormat::Pdf => {
                vector::pdf::write(&scene, &self.text, &stop, self.limits.max_pdf_content)
            }
        }
        .map_err(|e| match e {
            vector::VectorError::Cancelled => Error::Cancelled,
            vector::VectorError::OverBudget(max) => Error::Limit {
                what: "PDF content (items, path points and glyphs)",
                max,
                variable: "MAX_PDF_CONTENT",
            },
            vector::VectorError::TooLarge(max) => Error::Limit {
                what: "SVG bytes",
                max,
                variable: "MAX_SVG_BYTES",
            },
            other => Error::Vector(other.to_string()),
        })?;
        Ok(vector::Written { bytes, messages })
    }

    /// The canvas of a request, and the message for a background that is not a colour.
    fn settings(opts: &RenderOptions) -> (Settings, Vec<Message>) {
        let mut messages = Vec::new();
        let background = match chart_spec::color::parse_color(&opts.background_color) {
            Some(c) => c,
            None => {
                messages.push(Message::warn(format!(
                    "backgroundColor \"{}\" is not a CSS colour; using white",
                    opts.background_color
                )));
                Rgba::WHITE
            }
        };
        let settings = Settings {
            width: opts.width as f32,
            height: opts.height as f32,
            device_pixel_ratio: opts.device_pixel_ratio as f32,
            background,
        };
        (settings, messages)
    }

    /// Builds the display list of a chart config (the stage before pixels).
    pub fn scene(&self, config: &ChartConfig, settings: &Settings) -> (scene::Scene, Vec<Message>) {
        self.scene_with(config, settings, &Cancel::new())
    }

    /// [`Engine::scene`], polling `cancel` in its loops: once it fires, the scene is cut
    /// short (the caller checks `cancel` and discards it).
    pub fn scene_with(
        &self,
        config: &ChartConfig,
        settings: &Settings,
        cancel: &Cancel,
    ) -> (scene::Scene, Vec<Message>) {
        let (scene, messages, _) = self.build(config, settings, cancel);
        (scene, messages)
    }

    /// The scene, its messages, and the budget it exceeded, if any (it is then cut short).
    fn build(
        &self,
        config: &ChartConfig,
        settings: &Settings,
        cancel: &Cancel,
    ) -> (scene::Scene, Vec<Message>, Option<chart::Over>) {
        // Every option is resolved here, once; the stages after draw the typed chart.
        let resolved =
            chart_spec::resolve_for_render(config, settings.device_pixel_ratio, &self.limits);
        let mut messages = resolved.messages;
        let (scene, mut drawn, over) = chart::build_scene(
            resolved.chart.as_ref(),
            settings,
            &self.text,
            cancel,
            &self.limits,
        );
        messages.append(&mut drawn);
        messages.extend(resolved.left_out);
        (scene, messages, over)
    }

    /// Renders a chart config at the given canvas settings.
    pub fn render_chart(
        &self,
        config: &ChartConfig,
        settings: &Settings,
    ) -> Result<Rendered, Error> {
        self.render_chart_with(config, settings, &Cancel::new())
    }

    /// [`Engine::render_chart`], stopping with [`Error::Cancelled`] once `cancel` fires.
    pub fn render_chart_with(
        &self,
        config: &ChartConfig,
        settings: &Settings,
        cancel: &Cancel,
    ) -> Result<Rendered, Error> {
        let (scene, messages) = self.pixels_scene(config, settings, cancel)?;
        let threads = self.threads();
        let bitmap = raster::rasterize_on(&scene, &self.text, &self.reuse, cancel, threads)?;
        Ok(Rendered { bitmap, messages })
    }

    /// [`Engine::render_with`] for a `consumer` of the bitmap's rows: when the scene is one
    /// where two painters pay (see [`Engine::with_second_core`]), the bitmap is drawn in two
    /// bands split where the scene says, and each band goes to `consumer` on the thread
    /// that drew it as soon as it is drawn, with a second thread when one is lent, else
    /// one after the other on this thread, or the bottom one on a thread lent once the
    /// drawing is done (the same bands either way). Otherwise the bitmap
    /// is drawn and returned whole ([`Drawn::Whole`]), without calling `consumer`.
    pub fn render_bands_with<C: BandConsumer>(
        &self,
        opts: &RenderOptions,
        cancel: &Cancel,
        consumer: &C,
    ) -> Result<(Drawn<'_, C::Part>, Vec<Message>), Error> {
        let prepared = self.prepare(opts, cancel)?;
        self.render_bands_prepared(prepared, cancel, consumer)
    }

    /// The first stage of [`Engine::render_bands_with`] on its own: the request's scene,
    /// refused as that render refuses it (cancelled, over a budget), for
    /// [`Engine::render_bands_prepared`] to draw. A caller may build it on another thread
    /// while it does something else (the service, a request's cache key).
    pub fn prepare(&self, opts: &RenderOptions, cancel: &Cancel) -> Result<Prepared, Error> {
        let (settings, mut messages) = Self::settings(opts);
        let (scene, mut drawn) = self.pixels_scene(&opts.chart, &settings, cancel)?;
        messages.append(&mut drawn);
        Ok(Prepared { scene, messages })
    }

    /// The rest of [`Engine::render_bands_with`] for a scene [`Engine::prepare`] built:
    /// the same bands, bitmap and messages as that render's.
    pub fn render_bands_prepared<C: BandConsumer>(
        &self,
        prepared: Prepared,
        cancel: &Cancel,
        consumer: &C,
    ) -> Result<(Drawn<'_, C::Part>, Vec<Message>), Error> {
        let bitmap = raster::rasterize_bands(
            &prepared.scene,
            &self.text,
            &self.reuse,
            cancel,
            self.threads(),
            consumer,
        )?;
        Ok((bitmap, prepared.messages))
    }

    /// The scene of a chart to draw pixels of: [`Engine::checked_scene`], refused when it
    /// paints its bitmap too many times over.
    fn pixels_scene(
        &self,
        config: &ChartConfig,
        settings: &Settings,
        cancel: &Cancel,
    ) -> Result<(scene::Scene, Vec<Message>), Error> {
        let (scene, messages) = self.checked_scene(config, settings, cancel)?;
        // A scene that paints its bitmap hundreds of times over (thousands of overlapping
        // bands and nodes) would keep a slot busy until the render limit: refused at once.
        if raster::painted_bitmaps(&scene) > self.limits.max_overdraw as f64 {
            return Err(Error::Limit {
                what: "painted area (in bitmaps)",
                max: self.limits.max_overdraw,
                variable: "MAX_OVERDRAW",
            });
        }
        Ok((scene, messages))
    }

    /// How many threads draw a bitmap (see [`Engine::with_split_always`]).
    fn threads(&self) -> raster::Threads {
        match self.split_always {
            true => raster::Threads::Two(self.second_core),
            false => raster::Threads::Lent(self.second_core),
        }
    }

    /// The scene of a chart, unless the render was cancelled or the chart went over
    /// `MAX_SCENE_ITEMS` or `MAX_TOTAL_TICKS` while it was built.
    fn checked_scene(
        &self,
        config: &ChartConfig,
        settings: &Settings,
        cancel: &Cancel,
    ) -> Result<(scene::Scene, Vec<Message>), Error> {
        let (scene, messages, over) = self.build(config, settings, cancel);
        if cancel.is_cancelled() {
            return Err(Error::Cancelled);
        }
        match over {
            None => Ok((scene, messages)),
            Some(chart::Over::SceneItems) => Err(Error::Limit {
                what: "display-list items",
                max: self.limits.max_scene_items,
                variable: "MAX_SCENE_ITEMS",
            }),
            Some(chart::Over::Ticks) => Err(Error::Limit {
                what: "ticks and labels over all scales",
                max: self.limits.max_total_ticks,
                variable: "MAX_TOTAL_TICKS",
            }),
        }
    }

    /// Takes back a bitmap this engine rendered, once it is encoded, so that its memory
    /// serves the next render (the rasteriser's buffer pool: fresh pages cost more than drawing).
    pub fn recycle(&self, bitmap: Bitmap) {
        self.reuse.buffers.give(bitmap.data);
    }
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}
