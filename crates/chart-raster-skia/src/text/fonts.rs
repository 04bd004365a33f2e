//! Installed fonts, found and matched the way Chromium on Linux finds them.
//!
//! Chromium asks fontconfig for each family of the CSS list and keeps the answer only when
//! its family is the one asked for or a metric-compatible replacement (Skia's
//! `SkFontConfigInterface_direct`: Arial ↔ Liberation Sans ↔ Arimo, …); generic families map
//! to the browser's default fonts (on Linux `sans-serif` is Arial, `serif` and the standard
//! font are Times New Roman, `monospace` is fontconfig's Monospace). Characters no face of
//! the list covers come from a fallback face that has them (Noto Sans CJK for CJK). We read
//! the same font folders fontconfig scans, with no C library: only the `name`, `OS/2` and
//! `head` tables of each file are read at start-up, whole files when first used.

use super::autohint::LatinMetrics;
use super::discovery::{discover, FaceEntry, Source, BUNDLED};
use super::fontconfig::Config;
use super::hinting::{fake_bold_width, interpolate, BlueZones};
use super::shaping::{prepare, shape_line, FaceSource, Placed, ShapingFace};
use super::{Baselines, GlyphId, ShapedGlyph, ShapedLine};
use crate::scene::{Path, PathCmd};
use chart_spec::font::{FontSpec, FontStyle};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

/// A face in use: the parsed font with its caches.
struct LoadedFace {
    face: ttf_parser::Face<'static>,
    /// The same face for the shaper.
    shaper: rustybuzz::Face<'static>,
    /// Its shaping plans by direction and script.
    plans: RwLock<HashMap<(rustybuzz::Direction, rustybuzz::Script), Arc<rustybuzz::ShapePlan>>>,
    upem: f32,
    /// hhea ascender/descender in font units (descender positive), as Skia's FreeType port
    /// reports them.
    ascender: f32,
    descender: f32,
    /// OS/2 typo ascender and descender (positive), for the em-box baselines.
    typo: Option<(f32, f32)>,
    /// Blue zones for vertical grid fitting (Latin faces only).
    hint: Option<BlueZones>,
    /// The auto-hinter's measures of a Latin face.
    latin: Option<LatinMetrics>,
    outlines: RwLock<HashMap<u16, Arc<Vec<PathCmd>>>>,
}

/// All faces found on the machine, plus the bundled one. Discovered once per process.
struct Catalog {
    entries: Vec<FaceEntry>,
    /// fontconfig's family rules (`None` on a machine without fontconfig).
    config: Option<Config>,
    loaded: Vec<OnceLock<Option<Arc<LoadedFace>>>>,
}

/// The fonts of the machine, with family resolution cached per font.
pub struct FontDb {
    catalog: Arc<Catalog>,
    resolved: RwLock<HashMap<String, HashMap<(u16, FontStyle), Arc<Chain>>>>,
}

/// The faces to try for a font, in order: the CSS family list, then fallbacks.
#[derive(Debug)]
struct Chain {
    faces: Vec<ChainFace>,
    /// `measureText` widths by font size (its bits) and text: layout measures the same
    /// labels many times while it fits scales, and shaping is the costly part.
    widths: RwLock<HashMap<u32, HashMap<String, f32>>>,
}

/// Widths kept per chain; past this many the cache starts again.
const MAX_WIDTHS: usize = 4096;

#[derive(Debug, Clone, Copy)]
struct ChainFace {
    id: usize,
    synthetic_bold: bool,
    synthetic_italic: bool,
}

fn catalog() -> Arc<Catalog> {
    static CATALOG: OnceLock<Arc<Catalog>> = OnceLock::new();
    CATALOG
        .get_or_init(|| {
            let entries = discover();
            let loaded = entries.iter().map(|_| OnceLock::new()).collect();
            Arc::new(Catalog {
                entries,
                loaded,
                config: Config::system(),
            })
        })
        .clone()
}

impl Catalog {
    fn face(&self, id: usize) -> Option<Arc<LoadedFace>> {
        self.loaded
            .get(id)?
            .get_or_init(|| load_face(self.entries.get(id)?))
            .clone()
    }
}

fn load_face(entry: &FaceEntry) -> Option<Arc<LoadedFace>> {
    let data: &'static [u8] = match &entry.source {
        Source::Bundled => BUNDLED,
        // Each file is read once per process and used for its lifetime: leaking it lets the
        // parsed face borrow it without self-referential types.
        Source::File(path) => Box::leak(std::fs::read(path).ok()?.into_boxed_slice()),
    };
    let face = ttf_parser::Face::parse(data, entry.index).ok()?;
    let typo = match (face.typographic_ascender(), face.typographic_descender()) {
        (Some(a), Some(d)) => Some((a as f32, -(d as f32))),
        _ => None,
    };
    let hint = BlueZones::of(&face);
    let latin = LatinMetrics::of(&face, |g| {
        let mut b = OutlineBuilder(Vec::new());
        face.outline_glyph(ttf_parser::GlyphId(g), &mut b);
        b.0
    });
    Some(Arc::new(LoadedFace {
        latin,
        shaper: rustybuzz::Face::from_face(face.clone()),
        plans: RwLock::new(HashMap::new()),
        hint,
        upem: face.units_per_em() as f32,
        ascender: face.ascender() as f32,
        descender: -(face.descender() as f32),
        typo,
        face,
        outlines: RwLock::new(HashMap::new()),
    }))
}

impl LoadedFace {
    fn outline(&self, glyph: u16) -> Arc<Vec<PathCmd>> {
        if let Ok(map) = self.outlines.read() {
            if let Some(o) = map.get(&glyph) {
                return o.clone();
            }
        }
        let mut b = OutlineBuilder(Vec::new());
        self.face.outline_glyph(ttf_parser::GlyphId(glyph), &mut b);
        let o = Arc::new(b.0);
        if let Ok(mut map) = self.outlines.write() {
            map.insert(glyph, o.clone());
        }
        o
    }
}

/// Collects outlines in font units, y up.
pub(super) struct OutlineBuilder(pub(super) Vec<PathCmd>);

impl ttf_parser::OutlineBuilder for OutlineBuilder {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.push(PathCmd::MoveTo(x, y));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.push(PathCmd::LineTo(x, y));
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.push(PathCmd::QuadTo(x1, y1, x, y));
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.push(PathCmd::CubicTo(x1, y1, x2, y2, x, y));
    }
    fn close(&mut self) {
        self.0.push(PathCmd::Close);
    }
}

/// Splits a CSS `font-family` list into unquoted, lower-case names.
pub fn parse_family_list(list: &str) -> Vec<String> {
    list.split(',')
        .map(|f| {
            f.trim()
                .trim_matches(|c| c == '\'' || c == '"')
                .trim()
                .to_lowercase()
        })
        .filter(|f| !f.is_empty())
        .collect()
}

/// Skia's metric-compatible classes: fontconfig may answer one for another and Chromium
/// accepts it (`IsMetricCompatibleReplacement` in `SkFontConfigInterface_direct.cpp`).
const METRIC_CLASSES: &[&[&str]] = &[
    &["arial", "arimo", "liberation sans"],
    &["times new roman", "tinos", "liberation serif"],
    &["courier new", "cousine", "liberation mono"],
    &["arial narrow", "liberation sans narrow"],
    &["symbol", "symbol neu"],
];

fn metric_compatible(a: &str, b: &str) -> bool {
    METRIC_CLASSES
        .iter()
        .any(|class| class.contains(&a) && class.contains(&b))
}

/// Blink's `AlternateFamilyName` (font_cache.cc): a family fontconfig gave no acceptable
/// face for is tried once more under this name.
fn alternate_family(name: &str) -> Option<&'static str> {
    Some(match name {
        "courier" => "courier new",
        "courier new" => "courier",
        "times" => "times new roman",
        "times new roman" => "times",
        "arial" => "helvetica",
        "helvetica" => "arial",
        _ => return None,
    })
}

/// Skia's `IsFallbackFontAllowed`: for these names any face fontconfig answers is taken.
fn fallback_allowed(name: &str) -> bool {
    matches!(name, "" | "sans" | "serif" | "monospace")
}

/// The family Blink asks the platform for when CSS names a generic family (Chrome's Linux
/// defaults, `locale_settings_linux`: sans-serif is Arial, serif and the standard font
/// Times New Roman, fixed `Monospace`), with the names used when fontconfig has no answer.
fn generic_family(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    Some(match name {
        "sans-serif" | "system-ui" | "-apple-system" | "blinkmacsystemfont" => {
            ("arial", &["arial", "liberation sans", "dejavu sans"])
        }
        "serif" => (
            "times new roman",
            &["times new roman", "liberation serif", "dejavu serif"],
        ),
        "monospace" => (
            "monospace",
            &["noto sans mono", "dejavu sans mono", "liberation mono"],
        ),
        "cursive" | "fantasy" => ("", &["dejavu sans"]),
        _ => return None,
    })
}

/// The families tried for a name when the machine has no fontconfig configuration: the
/// name and its metric-compatible replacements.
fn candidate_families(name: &str) -> Vec<String> {
    let mut out = vec![name.to_string()];
    for class in METRIC_CLASSES {
        if class.contains(&name) {
            out.extend(class.iter().filter(|&&f| f != name).map(|s| s.to_string()));
        }
    }
    out
}

impl FontDb {
    /// The machine's fonts (discovered once per process).
    pub fn system() -> Self {
        FontDb {
            catalog: catalog(),
            resolved: RwLock::new(HashMap::new()),
        }
    }

    fn chain(&self, font: &FontSpec) -> Arc<Chain> {
        // Keyed by family first so a lookup borrows the family string (layout measures a
        // lot of text; no allocation on the hot path).
        let key = (font.weight, font.style);
        if let Ok(map) = self.resolved.read() {
            if let Some(c) = map.get(font.family.as_str()).and_then(|m| m.get(&key)) {
                return c.clone();
            }
        }
        let chain = Arc::new(self.resolve(font));
        if let Ok(mut map) = self.resolved.write() {
            // Family strings come from requests: a client sending a new one each time would
            // grow the map for the life of the process. Charts use a handful; past the bound
            // the cache starts again.
            const MAX_FAMILIES: usize = 256;
            if map.len() >= MAX_FAMILIES && !map.contains_key(font.family.as_str()) {
                map.clear();
            }
            map.entry(font.family.clone())
                .or_default()
                .insert(key, chain.clone());
        }
        chain
    }

    fn resolve(&self, font: &FontSpec) -> Chain {
        let mut faces = Vec::new();
        let push = |cf: Option<ChainFace>, faces: &mut Vec<ChainFace>| {
            if let Some(cf) = cf {
                if !faces.iter().any(|f: &ChainFace| f.id == cf.id) {
                    faces.push(cf);
                }
            }
        };
        for name in parse_family_list(&font.family) {
            push(self.css_family(&name, font), &mut faces);
        }
        // No family of the list exists: Chromium uses the standard font (Times New Roman).
        if faces.is_empty() {
            push(self.css_family("serif", font), &mut faces);
        }
        // Per-character fallback, in fontconfig's preference for an English locale. Blink asks
        // fontconfig for a face with the character and no weight or slant
        // (`gfx::GetFallbackFontForChar`), then synthesizes bold and italic for it
        // (`PlatformFallbackFontForCharacter`): bold Arabic is DejaVu Sans Book, emboldened.
        let plain = FontSpec {
            weight: 400,
            style: FontStyle::Normal,
            ..font.clone()
        };
        for fam in [
            "dejavu sans",
            "liberation sans",
            "noto sans cjk jp",
            "noto sans cjk sc",
            "noto sans mono",
            "droid sans fallback",
        ] {
            let found = self.best_in_family(fam, &plain).map(|cf| {
                let entry = self.catalog.entries.get(cf.id);
                ChainFace {
                    synthetic_bold: font.weight >= 600 && entry.is_some_and(|e| e.weight < 600),
                    synthetic_italic: font.style != FontStyle::Normal
                        && entry.is_some_and(|e| !e.italic),
                    ..cf
                }
            });
            push(found, &mut faces);
        }
        Chain {
            faces,
            widths: RwLock::new(HashMap::new()),
        }
    }

    /// The face Chromium draws one family of a CSS list with, or `None` when it moves on
    /// to the next family.
    fn css_family(&self, name: &str, font: &FontSpec) -> Option<ChainFace> {
        if let Some((asked, fallbacks)) = generic_family(name) {
            if !asked.is_empty() {
                if let Some(cf) = self.platform_family(asked, font) {
                    return Some(cf);
                }
            }
            return fallbacks
                .iter()
                .find_map(|fam| self.best_in_family(fam, font));
        }
        self.platform_family(name, font)
            .or_else(|| alternate_family(name).and_then(|alt| self.platform_family(alt, font)))
    }

    /// Skia's `matchFamilyName` on Linux: fontconfig's best face for the substituted family
    /// list, kept only if its family is the one asked for, the one fontconfig's rules put
    /// first, or a metric-compatible replacement (`MatchFont`).
    fn platform_family(&self, name: &str, font: &FontSpec) -> Option<ChainFace> {
        let list = match &self.catalog.config {
            Some(config) => config.substitute(name),
            None => candidate_families(name),
        };
        let post_config = list.first()?.as_str();
        for family in &list {
            let Some(cf) = self.best_in_family(family, font) else {
                continue;
            };
            let names = &self.catalog.entries.get(cf.id)?.families;
            let acceptable = fallback_allowed(name)
                || names
                    .iter()
                    .any(|f| f == post_config || f == name || metric_compatible(name, f));
            return acceptable.then_some(cf);
        }
        None
    }

    /// CSS font matching within a family (CSS Fonts 4, §5.2): style first, then weight.
    fn best_in_family(&self, family: &str, font: &FontSpec) -> Option<ChainFace> {
        let members: Vec<(usize, &FaceEntry)> = self
            .catalog
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.families.iter().any(|f| f == family))
            .collect();
        if members.is_empty() {
            return None;
        }
        let want_italic = font.style != FontStyle::Normal;
        let styled: Vec<&(usize, &FaceEntry)> = members
            .iter()
            .filter(|(_, e)| e.italic == want_italic)
            .collect();
        let pool: Vec<&(usize, &FaceEntry)> = if styled.is_empty() {
            members.iter().collect()
        } else {
            styled
        };
        let w = font.weight;
        let score = |fw: u16| -> (u8, u16) {
            // Lower is better.
            if fw == w {
                return (0, 0);
            }
            if (400..=500).contains(&w) {
                if fw > w && fw <= 500 {
                    (1, fw - w)
                } else if fw < w {
                    (2, w - fw)
                } else {
                    (3, fw - w)
                }
            } else if w < 400 {
                if fw < w {
                    (1, w - fw)
                } else {
                    (2, fw - w)
                }
            } else if fw > w {
                (1, fw - w)
            } else {
                (2, w - fw)
            }
        };
        let best = pool
            .iter()
            .min_by_key(|(id, e)| (score(e.weight), *id))
            .map(|(id, e)| (*id, *e))?;
        Some(ChainFace {
            id: best.0,
            // Chromium synthesizes bold when asking for 600+ and getting a lighter face.
            synthetic_bold: w >= 600 && best.1.weight < 600,
            synthetic_italic: want_italic && !best.1.italic,
        })
    }

    /// The glyphs of a line, shaped as Blink shapes it (see [`super::shaping`]).
    fn placed(&self, font: &FontSpec, text: &str, rtl: bool) -> (Arc<Chain>, Vec<Placed>) {
        let chain = self.chain(font);
        let placed = self.placed_with(&chain, font, text, rtl);
        (chain, placed)
    }

    /// The whole font file of a face of the catalogue (all of a collection) and the face's
    /// index in it: what the PDF writer embeds, subset, for the glyphs of [`GlyphId::face`].
    pub fn face_data(&self, face: usize) -> Option<(&'static [u8], u32)> {
        let loaded = self.catalog.face(face)?;
        let index = self.catalog.entries.get(face)?.index;
        Some((loaded.face.raw_face().data, index))
    }

    fn placed_with(&self, chain: &Chain, font: &FontSpec, text: &str, rtl: bool) -> Vec<Placed> {
        let text = prepare(text);
        let source = ChainSource {
            catalog: &self.catalog,
            chain,
        };
        shape_line(&source, font.size, &text, rtl)
    }

    /// `measureText(text).width`: the shaped advances at the font size (unhinted, as
    /// HarfBuzz computes them in Chromium).
    pub fn measure(&self, font: &FontSpec, text: &str) -> f32 {
        let chain = self.chain(font);
        let bits = font.size.to_bits();
        if let Ok(widths) = chain.widths.read() {
            if let Some(w) = widths.get(&bits).and_then(|m| m.get(text)) {
                return *w;
            }
        }
        let w = self
            .placed_with(&chain, font, text, false)
            .iter()
            .map(|g| g.advance)
            .sum();
        // Labels are short; long texts are measured afresh rather than kept.
        const MAX_CACHED_TEXT: usize = 256;
        if text.len() > MAX_CACHED_TEXT {
            return w;
        }
        if let Ok(mut widths) = chain.widths.write() {
            if widths.values().map(HashMap::len).sum::<usize>() >= MAX_WIDTHS {
                widths.clear();
            }
            widths.entry(bits).or_default().insert(text.to_string(), w);
        }
        w
    }

    /// The outlines of a line of text and its baselines; `rtl` is the canvas `direction`.
    pub fn shape(
        &self,
        font: &FontSpec,
        text: &str,
        device_scale: Option<f32>,
        rtl: bool,
    ) -> ShapedLine {
        let (chain, placed) = self.placed(font, text, rtl);
        let mut glyphs = Vec::with_capacity(placed.len());
        let mut pen = 0.0f32;
        let mut embolden = 0.0;
        // Each outline mapped once per line (the mapping depends on the face, the script's
        // grid fitting and synthetic italics): a long string repeats a few glyphs.
        let mut mapped: HashMap<(usize, u16, bool, bool), Arc<Path>> = HashMap::new();
        let mut faces: HashMap<usize, Arc<LoadedFace>> = HashMap::new();
        for g in &placed {
            let advance = g.advance;
            let x = pen + g.dx;
            pen += advance;
            let Some(cf) = chain.faces.get(g.chain_index).copied() else {
                continue;
            };
            let face = match faces.get(&cf.id) {
                Some(f) => f.clone(),
                None => {
                    let Some(f) = self.catalog.face(cf.id) else {
                        continue;
                    };
                    faces.insert(cf.id, f.clone());
                    f
                }
            };
            if cf.synthetic_bold {
                embolden = fake_bold_width(font.size);
            }
            let path = mapped
                .entry((cf.id, g.glyph, g.latin, cf.synthetic_italic))
                .or_insert_with(|| Arc::new(glyph_path(&face, font.size, g, cf, device_scale)))
                .clone();
            if path.is_empty() {
                continue;
            }
            glyphs.push(ShapedGlyph {
                x,
                y: g.dy,
                synthetic_bold: cf.synthetic_bold,
                path,
                id: Some(GlyphId {
                    face: cf.id,
                    glyph: g.glyph,
                    size: font.size.to_bits(),
                    device_scale: device_scale.filter(|d| *d > 0.0).map(f32::to_bits),
                    italic: cf.synthetic_italic,
                    latin: g.latin,
                }),
            });
        }
        ShapedLine {
            glyphs,
            width: pen,
            baselines: self.baselines(font),
            embolden,
        }
    }

    /// Canvas baselines of the primary face, as Chromium computes them
    /// (`BaseRenderingContext2D::GetFontBaseline`): top/middle/bottom from the em box
    /// normalised from OS/2 typo metrics and snapped to 1/64 px; hanging 80% of the rounded
    /// ascent; ideographic the rounded descent.
    pub fn baselines(&self, font: &FontSpec) -> Baselines {
        let chain = self.chain(font);
        let Some(face) = chain.faces.first().and_then(|cf| self.catalog.face(cf.id)) else {
            return Baselines::default();
        };
        let size = font.size;
        let ascent = (face.ascender * size / face.upem).round();
        let descent = (face.descender * size / face.upem).round();
        let (ta, td) = face.typo.unwrap_or((face.ascender, face.descender));
        let (em_ascent, em_descent) = if ta + td > 0.0 && ta >= 0.0 {
            let a = (ta * size / (ta + td) * 64.0).round() / 64.0;
            (a, size - a)
        } else {
            (ascent, descent)
        };
        Baselines {
            top: -em_ascent,
            hanging: -ascent * 0.8,
            middle: -(em_ascent - em_descent) / 2.0,
            ideographic: descent,
            bottom: em_descent,
        }
    }
}

/// A glyph's outline in CSS px around its origin (y down): vertically grid-fitted at the
/// device pixel size the way FreeType's light auto-hinter does in Chrome on Linux (Latin blue
/// zones for Latin-like scripts, the em box for others), skewed for a synthetic italic.
fn glyph_path(
    face: &LoadedFace,
    size: f32,
    g: &Placed,
    cf: ChainFace,
    device_scale: Option<f32>,
) -> Path {
    let scale = size / face.upem;
    // Skia's fake italic skews by -1/4 (glyphs lean right).
    let skew = if cf.synthetic_italic { 0.25 } else { 0.0 };
    let outline = face.outline(g.glyph);
    let mut path = Path::new();
    // Latin glyphs go through the auto-hinter at the device size, as Skia's FreeType port
    // draws them.
    if let (Some(m), Some(d), true) = (&face.latin, device_scale.filter(|d| *d > 0.0), g.latin) {
        if let Some(hinted) = m.hint(&outline, size * d) {
            let map = |x: f32, y: f32| ((x + skew * y) / d, -y / d);
            path.cmds.extend(hinted.iter().map(|cmd| cmd.map(map)));
            return path;
        }
    }
    let vmap = device_scale.filter(|d| *d > 0.0).and_then(|d| {
        let px_per_unit = size * d / face.upem;
        if g.latin {
            // An outline the auto-hinter leaves alone: the zones only.
            face.hint.as_ref().map(|h| (h.keys(px_per_unit), d))
        } else {
            // Other scripts (CJK): the auto-hinter aligns the em box's top and bottom (typo
            // ascender and descender) to whole pixels.
            face.typo.map(|(a, dsc)| {
                let keys = vec![
                    (f32::NEG_INFINITY, px_per_unit),
                    (-dsc, (-dsc * px_per_unit).round()),
                    (a, (a * px_per_unit).round()),
                ];
                (keys, d)
            })
        }
    });
    let map_y = |y: f32| match &vmap {
        Some((keys, d)) => -interpolate(keys, y) / d,
        None => -y * scale,
    };
    let map = |x: f32, y: f32| ((x + skew * y) * scale, map_y(y));
    path.cmds.extend(outline.iter().map(|cmd| cmd.map(map)));
    path
}

/// The chain's faces for the shaper, loaded on first use.
struct ChainSource<'a> {
    catalog: &'a Catalog,
    chain: &'a Chain,
}

impl FaceSource for ChainSource<'_> {
    fn len(&self) -> usize {
        self.chain.faces.len()
    }
    fn face(&self, i: usize) -> Option<Arc<dyn ShapingFace>> {
        let face: Arc<dyn ShapingFace> = self.catalog.face(self.chain.faces.get(i)?.id)?;
        Some(face)
    }
}

impl ShapingFace for LoadedFace {
    fn shaper(&self) -> &rustybuzz::Face<'static> {
        &self.shaper
    }
    fn upem(&self) -> f32 {
        self.upem
    }
    fn plan(
        &self,
        direction: rustybuzz::Direction,
        script: rustybuzz::Script,
    ) -> Arc<rustybuzz::ShapePlan> {
        if let Some(p) = self
            .plans
            .read()
            .ok()
            .and_then(|m| m.get(&(direction, script)).cloned())
        {
            return p;
        }
        let plan = Arc::new(rustybuzz::ShapePlan::new(
            &self.shaper,
            direction,
            Some(script),
            None,
            &[],
        ));
        if let Ok(mut m) = self.plans.write() {
            // At most two directions per script: bounded by Unicode's scripts.
            m.insert((direction, script), plan.clone());
        }
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn font(family: &str, size: f32, weight: u16) -> FontSpec {
        FontSpec {
            family: family.into(),
            size,
            weight,
            ..FontSpec::default()
        }
    }

    #[test]
    fn family_resolutions_kept_are_bounded() {
        let db = FontDb::system();
        for i in 0..600 {
            db.chain(&font(&format!("no such family {i}"), 12.0, 400));
        }
        let kept = db.resolved.read().map(|m| m.len()).unwrap_or(usize::MAX);
        assert!(kept <= 256, "{kept}");
    }

    #[test]
    fn cjk_falls_back_per_glyph() {
        let db = FontDb::system();
        let f = font(chart_spec::font::DEFAULT_FAMILY, 12.0, 400);
        if db.best_in_family("noto sans cjk jp", &f).is_none() {
            eprintln!("skipped: Noto Sans CJK is not installed");
            return;
        }
        let (_, placed) = db.placed(&f, "a\u{4e00}\u{4e8c}", false);
        assert_eq!(placed.len(), 3);
        assert_eq!(placed[0].chain_index, 0, "Latin from the primary face");
        assert!(placed[1].chain_index > 0, "CJK from a fallback face");
        assert_eq!(placed[1].chain_index, placed[2].chain_index);
        // Chromium measures 24px for two ideographs at 12px.
        let w = db.measure(&f, "\u{4e00}\u{4e8c}");
        assert!((w - 24.0).abs() < 1e-3, "{w}");
    }

    #[test]
    fn bold_and_italic_pick_faces_or_synthesize() {
        let db = FontDb::system();
        let bold = font("Liberation Sans", 12.0, 700);
        if let Some(cf) = db.best_in_family("liberation sans", &bold) {
            assert!(!cf.synthetic_bold);
            assert!(db.catalog.entries[cf.id].weight >= 700);
        }
        // DejaVu Math TeX Gyre has a single regular face: bold and italic are synthesized.
        let mut f = font("DejaVu Math TeX Gyre", 12.0, 700);
        f.style = FontStyle::Italic;
        match db.best_in_family("dejavu math tex gyre", &f) {
            Some(cf) => assert!(cf.synthetic_bold && cf.synthetic_italic),
            None => eprintln!("skipped: DejaVu Math TeX Gyre is not installed"),
        }
        assert!((fake_bold_width(9.0) - 9.0 / 24.0).abs() < 1e-6);
        assert!((fake_bold_width(36.0) - 36.0 / 32.0).abs() < 1e-6);
    }

    /// Issue 17: a bare `Helvetica` is drawn by Chromium in Liberation Sans (fontconfig's
    /// metric aliases, then Blink's Arial alternate), not in the standard serif font.
    #[test]
    fn helvetica_matches_like_chromium() {
        let db = FontDb::system();
        let f = font("Helvetica", 12.0, 400);
        if db.best_in_family("liberation sans", &f).is_none() {
            eprintln!("skipped: Liberation Sans is not installed");
            return;
        }
        for family in ["Helvetica", "helvetica, serif", "Arial", "Times, Helvetica"] {
            let chain = db.chain(&font(family, 12.0, 400));
            let first = &db.catalog.entries[chain.faces[0].id];
            let want = if family.starts_with("Times") {
                "liberation serif"
            } else {
                "liberation sans"
            };
            assert!(
                first.families.iter().any(|f| f == want),
                "{family}: {first:?}"
            );
        }
        // A family fontconfig only maps to its generic default is not accepted: Chromium
        // moves on to the next family of the list (here the standard serif font).
        let chain = db.chain(&font("Verdana", 12.0, 400));
        let first = &db.catalog.entries[chain.faces[0].id];
        if db.best_in_family("liberation serif", &f).is_some() {
            assert!(
                first.families.iter().any(|f| f == "liberation serif"),
                "{first:?}"
            );
        }
    }

    /// Issue 12: widths Chromium 156's `measureText` returns on this machine for shaped
    /// text (Arabic joined from DejaVu Sans, Hebrew from Liberation Sans, combining marks,
    /// bidi controls, U+2028, ligatures and kerning), checked where the default list
    /// resolves to Liberation Sans and DejaVu Sans is installed.
    #[test]
    fn shaped_widths_match_chromium() {
        let db = FontDb::system();
        let f = font(chart_spec::font::DEFAULT_FAMILY, 12.0, 400);
        let chain = db.chain(&f);
        let primary = &db.catalog.entries[chain.faces[0].id];
        if !primary.families.iter().any(|f| f == "liberation sans")
            || db.best_in_family("dejavu sans", &f).is_none()
        {
            eprintln!("skipped: Liberation Sans or DejaVu Sans is not installed");
            return;
        }
        let cases: [(u16, &str, f64); 14] = [
            (400, "المبيعات الشهرية", 84.8671875),
            (400, "שלום עולם", 54.064453125),
            (400, "Cafe\u{301}", 25.34765625),
            (400, "e\u{301}\u{323}", 6.673828125),
            (400, "a\u{202e}b", 13.34765625),
            (400, "a\u{2028}b", 16.681640625),
            (400, "ffi office", 40.916015625),
            (400, "Tie\u{302}\u{301}ng Vie\u{323}\u{302}t", 53.3671875),
            // Bold Arabic is DejaVu Sans Book emboldened: the regular advances.
            (700, "المبيعات الشهرية", 84.8671875),
            (700, "שלום עולם", 58.423828125),
            (700, "Cafe\u{301}", 26.009765625),
            (700, "a\u{202e}b", 14.00390625),
            (700, "ffi office", 46.6640625),
            (700, "Tie\u{302}\u{301}ng Vie\u{323}\u{302}t", 56.90625),
        ];
        for (weight, text, want) in cases {
            let got = db.measure(&font(chart_spec::font::DEFAULT_FAMILY, 12.0, weight), text);
            assert!(
                (f64::from(got) - want).abs() < 2e-3,
                "{text:?} {weight}: {got} != {want}"
            );
        }
    }

    /// Arabic letters join and run right to left; Hebrew runs right to left; a mark sits
    /// on its letter; bidi controls draw nothing.
    #[test]
    fn bidi_order_joining_and_marks() {
        let db = FontDb::system();
        let f = font(chart_spec::font::DEFAULT_FAMILY, 12.0, 400);
        if db.best_in_family("dejavu sans", &f).is_none() {
            eprintln!("skipped: DejaVu Sans is not installed");
            return;
        }
        // "ab" then Hebrew alef-bet: the Hebrew glyphs come out bet first (visual order).
        let (_, latin_hebrew) = db.placed(&f, "ab \u{5d0}\u{5d1}", false);
        let (_, alef) = db.placed(&f, "\u{5d0}", false);
        let (_, bet) = db.placed(&f, "\u{5d1}", false);
        let glyphs: Vec<u16> = latin_hebrew.iter().map(|g| g.glyph).collect();
        assert_eq!(glyphs[3], bet[0].glyph, "{glyphs:?}");
        assert_eq!(glyphs[4], alef[0].glyph, "{glyphs:?}");
        // Joined Arabic: the medial form of beh differs from the isolated one.
        let (_, isolated) = db.placed(&f, "\u{628}", false);
        let (_, joined) = db.placed(&f, "\u{628}\u{628}\u{628}", false);
        assert_eq!(joined.len(), 3);
        assert!(
            joined.iter().all(|g| g.glyph != isolated[0].glyph),
            "{joined:?}"
        );
        // q + acute (no precomposed form): the mark has no advance and sits over the q.
        let (_, marked) = db.placed(&f, "q\u{301}", false);
        assert_eq!(marked.len(), 2);
        assert_eq!(marked[1].advance, 0.0);
        // U+202E draws nothing and takes no room.
        let line = db.shape(&f, "\u{202e}", Some(1.0), false);
        assert!(line.glyphs.is_empty() && line.width == 0.0, "{line:?}");
    }

    /// The canvas direction is the paragraph's base level: in a right-to-left canvas the
    /// first (Latin) word of "ab \u{5d0}" goes to the right end, and a trailing colon after
    /// Hebrew to the left end; the width does not change.
    #[test]
    fn rtl_base_direction_orders_the_line() {
        let db = FontDb::system();
        let f = font(chart_spec::font::DEFAULT_FAMILY, 12.0, 400);
        let glyph = |s: &str| db.placed(&f, s, false).1[0].glyph;
        let order = |s: &str, rtl: bool| -> Vec<u16> {
            db.placed(&f, s, rtl).1.iter().map(|g| g.glyph).collect()
        };
        let (a, b, alef, colon) = (glyph("a"), glyph("b"), glyph("\u{5d0}"), glyph(":"));
        let space = glyph(" ");
        assert_eq!(order("ab \u{5d0}", false), [a, b, space, alef]);
        assert_eq!(order("ab \u{5d0}", true), [alef, space, a, b]);
        assert_eq!(order("\u{5d0}:", false), [alef, colon]);
        assert_eq!(order("\u{5d0}:", true), [colon, alef]);
        let width = |rtl| db.shape(&f, "ab \u{5d0}:", Some(1.0), rtl).width;
        assert_eq!(width(false), width(true));
    }

    /// Hostile text: random code points, lone marks, bidi controls and long strings shape
    /// without panicking, and a long line measures as the sum of its repeats.
    #[test]
    fn any_text_shapes_without_panic() {
        let db = FontDb::system();
        let f = font(chart_spec::font::DEFAULT_FAMILY, 12.0, 400);
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let pool = [
            '\u{301}',
            '\u{5d0}',
            '\u{628}',
            '\u{202e}',
            '\u{202b}',
            '\u{2066}',
            '\u{2069}',
            '\u{200d}',
            '\u{fe0f}',
            '\u{4e00}',
            ' ',
            'a',
            '\u{10ffff}',
            '\u{e000}',
            '\u{0}',
            '\u{2028}',
            '\t',
            '\u{1f600}',
            '\u{64b}',
            '\u{e01ef}',
        ];
        for _ in 0..300 {
            let len = (next() % 24) as usize;
            let s: String = (0..len)
                .map(|_| {
                    if next() % 3 == 0 {
                        char::from_u32((next() % 0x11_0000) as u32).unwrap_or('x')
                    } else {
                        pool[(next() % pool.len() as u64) as usize]
                    }
                })
                .collect();
            let w = db.measure(&f, &s);
            let line = db.shape(&f, &s, Some(2.0), next() % 2 == 0);
            assert!(w.is_finite() && line.width.is_finite(), "{s:?}");
        }
        // A long line measures as the sum of its repeats: the shaper neither drops nor
        // repeats work on long runs (no wall-clock assertion here: the hostile sweeps and
        // the render deadline watch the time).
        let word = "\u{628}\u{5d0}a\u{301} ";
        let short = db.measure(&f, &word.repeat(400));
        let long = db.measure(&f, &word.repeat(4000));
        assert!(short > 0.0, "{short}");
        assert!(
            (long - short * 10.0).abs() <= short * 1e-3,
            "{short} vs {long}"
        );
    }

    #[test]
    fn family_list_parsing() {
        assert_eq!(
            parse_family_list("'Helvetica Neue', \"Helvetica\", Arial, sans-serif"),
            vec!["helvetica neue", "helvetica", "arial", "sans-serif"]
        );
    }

    #[test]
    fn bundled_font_parses() {
        let face = ttf_parser::Face::parse(BUNDLED, 0).expect("bundled font");
        assert_eq!(face.units_per_em(), 2048);
        assert!(face.glyph_index('A').is_some());
    }

    /// Widths Chromium's `measureText` returns on this machine (Liberation Sans via Arial),
    /// checked only where Liberation Sans is what the default list resolves to.
    #[test]
    fn matches_chromium_measure_text() {
        let db = FontDb::system();
        let f = font(chart_spec::font::DEFAULT_FAMILY, 12.0, 400);
        let chain = db.chain(&f);
        let primary = &db.catalog.entries[chain.faces[0].id];
        if !primary.families.iter().any(|f| f == "liberation sans") {
            eprintln!("skipped: the default family does not resolve to Liberation Sans here");
            return;
        }
        let cases: [(f32, u16, &str, f64); 6] = [
            (12.0, 400, "Hello World", 61.798828125),
            (12.0, 400, "AV Ta", 31.125),
            (12.0, 700, "January", 46.025390625),
            (13.5, 700, "AV Ta", 36.2548828125),
            (16.0, 400, "AV Ta", 41.5),
            (16.0, 400, "0.5", 22.2421875),
        ];
        for (size, weight, text, want) in cases {
            let got = db.measure(&font(chart_spec::font::DEFAULT_FAMILY, size, weight), text);
            assert!(
                (f64::from(got) - want).abs() < 1e-3,
                "{text:?} {size}px: {got} != {want}"
            );
        }
        let b = db.baselines(&f);
        assert_eq!(b.top, -9.3125);
        assert_eq!(b.bottom, 2.6875);
        assert_eq!(b.middle, -3.3125);
        assert_eq!(b.ideographic, 3.0);
        assert!((b.hanging + 8.8).abs() < 1e-5);
    }
}
