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

use super::discovery::{discover, FaceEntry, Source, BUNDLED};
use super::fontconfig::Config;
use super::{Baselines, GlyphId, ShapedGlyph, ShapedLine};
use crate::scene::{Path, PathCmd};
use chart_spec::font::{FontSpec, FontStyle};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

/// A face in use: the parsed font with its caches.
struct LoadedFace {
    face: ttf_parser::Face<'static>,
    upem: f32,
    /// hhea ascender/descender in font units (descender positive), as Skia's FreeType port
    /// reports them.
    ascender: f32,
    descender: f32,
    /// OS/2 typo ascender and descender (positive), for the em-box baselines.
    typo: Option<(f32, f32)>,
    /// Blue zones for vertical grid fitting (Latin faces only).
    hint: Option<BlueZones>,
    /// GPOS lookups of the `kern` feature (HarfBuzz applies kerning by default).
    kern_lookups: Vec<u16>,
    glyphs: RwLock<HashMap<char, Option<(u16, u16)>>>,
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
}

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
    let kern_lookups = kern_lookups(&face);
    let hint = BlueZones::of(&face);
    Some(Arc::new(LoadedFace {
        hint,
        upem: face.units_per_em() as f32,
        ascender: face.ascender() as f32,
        descender: -(face.descender() as f32),
        typo,
        kern_lookups,
        face,
        glyphs: RwLock::new(HashMap::new()),
        outlines: RwLock::new(HashMap::new()),
    }))
}

/// The lookups of the `kern` feature for Latin (or the default script).
fn kern_lookups(face: &ttf_parser::Face) -> Vec<u16> {
    let Some(gpos) = face.tables().gpos else {
        return Vec::new();
    };
    let kern = ttf_parser::Tag::from_bytes(b"kern");
    let script = gpos
        .scripts
        .find(ttf_parser::Tag::from_bytes(b"latn"))
        .or_else(|| gpos.scripts.find(ttf_parser::Tag::from_bytes(b"DFLT")))
        .or_else(|| gpos.scripts.get(0));
    let mut lookups = Vec::new();
    let Some(lang) = script.and_then(|s| s.default_language) else {
        return lookups;
    };
    for fi in lang.feature_indices {
        if let Some(feature) = gpos.features.get(fi) {
            if feature.tag == kern {
                lookups.extend(feature.lookup_indices);
            }
        }
    }
    lookups.sort_unstable();
    lookups.dedup();
    lookups
}

impl LoadedFace {
    /// Glyph id and advance of a character, cached.
    fn glyph(&self, c: char) -> Option<(u16, u16)> {
        if let Ok(map) = self.glyphs.read() {
            if let Some(g) = map.get(&c) {
                return *g;
            }
        }
        let g = self.face.glyph_index(c).filter(|g| g.0 != 0).map(|g| {
            let adv = self.face.glyph_hor_advance(g).unwrap_or(0);
            (g.0, adv)
        });
        if let Ok(mut map) = self.glyphs.write() {
            map.insert(c, g);
        }
        g
    }

    /// Pair kerning in font units (GPOS `kern` lookups, else the legacy `kern` table).
    fn kerning(&self, left: u16, right: u16) -> f32 {
        let (l, r) = (ttf_parser::GlyphId(left), ttf_parser::GlyphId(right));
        if let Some(gpos) = self.face.tables().gpos {
            use ttf_parser::gpos::{PairAdjustment, PositioningSubtable};
            let mut total = 0.0;
            for &li in &self.kern_lookups {
                let Some(lookup) = gpos.lookups.get(li) else {
                    continue;
                };
                for sub in lookup.subtables.into_iter::<PositioningSubtable>() {
                    let PositioningSubtable::Pair(pair) = sub else {
                        continue;
                    };
                    let found = match pair {
                        PairAdjustment::Format1 { coverage, sets } => coverage
                            .get(l)
                            .and_then(|i| sets.get(i))
                            .and_then(|set| set.get(r)),
                        PairAdjustment::Format2 {
                            coverage,
                            classes,
                            matrix,
                        } => {
                            if coverage.contains(l) {
                                matrix.get((classes.0.get(l), classes.1.get(r)))
                            } else {
                                None
                            }
                        }
                    };
                    if let Some((v1, _)) = found {
                        total += v1.x_advance as f32;
                        // The first subtable that matches the pair applies (OpenType rules).
                        break;
                    }
                }
            }
            return total;
        }
        if let Some(kern) = self.face.tables().kern {
            for sub in kern.subtables {
                if sub.horizontal && !sub.variable {
                    if let Some(k) = sub.glyphs_kerning(l, r) {
                        return k as f32;
                    }
                }
            }
        }
        0.0
    }

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
struct OutlineBuilder(Vec<PathCmd>);

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

/// One run of [`FontDb::runs`]: the face, its glyphs (id, advance) and whether the run is in
/// a Latin-like script.
type Run = (ChainFace, Arc<LoadedFace>, Vec<(u16, u16)>, bool);

/// Scripts FreeType's auto-hinter handles with Latin-style blue zones (Latin, Greek,
/// Cyrillic, digits and punctuation).
fn latin_script(c: char) -> bool {
    matches!(c as u32, 0..=0x052F | 0x1D00..=0x1FFF | 0x2000..=0x206F | 0x20A0..=0x20CF)
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
        // Per-character fallback, in fontconfig's preference for an English locale.
        for fam in [
            "dejavu sans",
            "liberation sans",
            "noto sans cjk jp",
            "noto sans cjk sc",
            "noto sans mono",
            "droid sans fallback",
        ] {
            push(self.best_in_family(fam, font), &mut faces);
        }
        Chain { faces }
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

    /// Splits text into runs of one face and one hinting script, with the glyphs of each
    /// run and whether the Latin blue zones apply to it.
    fn runs(&self, font: &FontSpec, text: &str) -> Vec<Run> {
        let chain = self.chain(font);
        let mut runs: Vec<Run> = Vec::new();
        let mut prev_space = false;
        for c in text.chars() {
            let mut found = None;
            for cf in &chain.faces {
                let Some(face) = self.catalog.face(cf.id) else {
                    continue;
                };
                if let Some(g) = face.glyph(c) {
                    found = Some((*cf, face, g));
                    break;
                }
            }
            let (cf, face, g) = match found {
                Some(f) => f,
                None => {
                    // Nothing covers it: the primary face's .notdef box.
                    let Some(cf) = chain.faces.first().copied() else {
                        continue;
                    };
                    let Some(face) = self.catalog.face(cf.id) else {
                        continue;
                    };
                    let adv = face
                        .face
                        .glyph_hor_advance(ttf_parser::GlyphId(0))
                        .unwrap_or(0);
                    (cf, face, (0, adv))
                }
            };
            // Blink shapes word by word, each space on its own (`CachingWordShaper`), so no
            // kerning happens across a space: a space always starts a new run.
            let space = c == ' ';
            let latin = latin_script(c);
            match runs.last_mut() {
                Some((last, _, glyphs, l))
                    if last.id == cf.id && !space && !prev_space && *l == latin =>
                {
                    glyphs.push(g)
                }
                _ => runs.push((cf, face, vec![g], latin)),
            }
            prev_space = space;
        }
        runs
    }

    /// The whole font file of a face of the catalogue (all of a collection) and the face's
    /// index in it: what the PDF writer embeds, subset, for the glyphs of [`GlyphId::face`].
    pub fn face_data(&self, face: usize) -> Option<(&'static [u8], u32)> {
        let loaded = self.catalog.face(face)?;
        let index = self.catalog.entries.get(face)?.index;
        Some((loaded.face.raw_face().data, index))
    }

    /// `measureText(text).width`: unhinted advances at the font size plus kerning, as
    /// HarfBuzz computes them in Chromium.
    pub fn measure(&self, font: &FontSpec, text: &str) -> f32 {
        let mut width = 0.0;
        for (_, face, glyphs, _) in self.runs(font, text) {
            let scale = font.size / face.upem;
            let mut units = 0.0;
            for (i, &(g, adv)) in glyphs.iter().enumerate() {
                units += adv as f32;
                if let Some(&(next, _)) = glyphs.get(i + 1) {
                    units += face.kerning(g, next);
                }
            }
            width += units * scale;
        }
        width
    }

    /// The outlines of a line of text and its baselines.
    pub fn shape(&self, font: &FontSpec, text: &str, device_scale: Option<f32>) -> ShapedLine {
        let mut placed = Vec::new();
        let mut pen = 0.0f32;
        let mut embolden = 0.0;
        // Each outline mapped once per line (the mapping depends on the face, the script's
        // grid fitting and synthetic italics): a long string repeats a few glyphs.
        let mut mapped: HashMap<(usize, u16, bool, bool), Arc<Path>> = HashMap::new();
        for (cf, face, glyphs, latin) in self.runs(font, text) {
            let scale = font.size / face.upem;
            // Vertical grid fitting at the device pixel size, mapped back to CSS px. The
            // auto-hinter's Latin blue zones only govern Latin-like scripts; CJK and other
            // glyphs keep their outlines.
            let vmap = device_scale.filter(|d| *d > 0.0).and_then(|d| {
                let px_per_unit = font.size * d / face.upem;
                if latin {
                    face.hint.as_ref().map(|h| (h.keys(px_per_unit), d))
                } else {
                    // Other scripts (CJK): the auto-hinter aligns the em box's top and
                    // bottom (typo ascender and descender) to whole pixels.
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
            // Skia's fake italic skews by -1/4 (glyphs lean right).
            let skew = if cf.synthetic_italic { 0.25 } else { 0.0 };
            if cf.synthetic_bold {
                embolden = fake_bold_width(font.size);
            }
            for (i, &(g, adv)) in glyphs.iter().enumerate() {
                let path = mapped
                    .entry((cf.id, g, latin, cf.synthetic_italic))
                    .or_insert_with(|| {
                        let outline = face.outline(g);
                        let mut path = Path::new();
                        let map = |x: f32, y: f32| ((x + skew * y) * scale, map_y(y));
                        path.cmds.extend(outline.iter().map(|cmd| cmd.map(map)));
                        Arc::new(path)
                    })
                    .clone();
                if !path.is_empty() {
                    placed.push(ShapedGlyph {
                        x: pen,
                        path,
                        id: Some(GlyphId {
                            face: cf.id,
                            glyph: g,
                            size: font.size.to_bits(),
                            device_scale: device_scale.filter(|d| *d > 0.0).map(f32::to_bits),
                            italic: cf.synthetic_italic,
                            latin,
                        }),
                    });
                }
                let mut units = adv as f32;
                if let Some(&(next, _)) = glyphs.get(i + 1) {
                    units += face.kerning(g, next);
                }
                pen += units * scale;
            }
        }
        ShapedLine {
            glyphs: placed,
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

/// The heights FreeType's auto-hinter aligns to the pixel grid in a Latin face, in font
/// units: each zone is a flat reference height and its overshoot (round letters).
#[derive(Debug, Clone)]
struct BlueZones {
    /// Top of round lowercase letters (`o`), the height the vertical scale is fitted to.
    x_shoot: f32,
    /// (reference, overshoot) pairs: baseline, x-height, cap height, ascender, descender.
    zones: Vec<(f32, f32)>,
}

impl BlueZones {
    fn of(face: &ttf_parser::Face) -> Option<Self> {
        let bbox = |c: char| {
            let g = face.glyph_index(c)?;
            face.glyph_bounding_box(g)
        };
        let (x, o, h, big_o, l, p) = (
            bbox('x')?,
            bbox('o')?,
            bbox('H')?,
            bbox('O')?,
            bbox('l')?,
            bbox('p')?,
        );
        let zones = vec![
            (0.0, o.y_min as f32),
            (x.y_max as f32, o.y_max as f32),
            (h.y_max as f32, big_o.y_max as f32),
            (l.y_max as f32, l.y_max as f32),
            (p.y_min as f32, p.y_min as f32),
        ];
        Some(BlueZones {
            x_shoot: o.y_max as f32,
            zones,
        })
    }

    /// Piecewise-linear map from font units to device px (y up) at a scale of device px per
    /// font unit, mirroring the light auto-hinter: the vertical scale is adjusted so the
    /// x-height overshoot lands on a whole pixel (`af_latin_metrics_scale_dim`: fitted =
    /// (scaled + 40/64) floored to a pixel), then every zone snaps to a whole pixel with
    /// overshoots under half a pixel flattened onto their reference.
    fn keys(&self, scale: f32) -> Vec<(f32, f32)> {
        let scaled = self.x_shoot * scale * 64.0;
        let fitted = ((scaled + 40.0) as i32 & !63) as f32;
        let s = if scaled > 0.0 && fitted > 0.0 {
            scale * fitted / scaled
        } else {
            scale
        };
        let mut keys: Vec<(f32, f32)> = Vec::new();
        for &(reference, shoot) in &self.zones {
            let r = (reference * s).round();
            keys.push((reference, r));
            if shoot != reference {
                let delta = ((shoot - reference) * s).abs();
                let d = if delta < 0.5 {
                    0.0
                } else if delta < 0.75 {
                    0.5
                } else {
                    1.0
                };
                keys.push((shoot, r + d * (shoot - reference).signum()));
            }
        }
        keys.sort_by(|a, b| a.0.total_cmp(&b.0));
        keys.dedup_by(|a, b| a.0 == b.0);
        // Keep the map monotonic.
        for i in 1..keys.len() {
            if keys[i].1 < keys[i - 1].1 {
                keys[i].1 = keys[i - 1].1;
            }
        }
        // The extrapolation slope beyond the outer zones.
        keys.insert(0, (f32::NEG_INFINITY, s));
        keys
    }
}

/// Evaluates the piecewise-linear map of [`BlueZones::keys`] (first entry holds the slope).
fn interpolate(keys: &[(f32, f32)], y: f32) -> f32 {
    let s = keys[0].1;
    let k = &keys[1..];
    let Some(first) = k.first() else {
        return y * s;
    };
    if y <= first.0 {
        return first.1 + (y - first.0) * s;
    }
    for w in k.windows(2) {
        let (a, b) = (w[0], w[1]);
        if y <= b.0 {
            let t = (y - a.0) / (b.0 - a.0);
            return a.1 + t * (b.1 - a.1);
        }
    }
    let last = k[k.len() - 1];
    last.1 + (y - last.0) * s
}

/// Skia's fake-bold outline width (`kStdFakeBoldInterpKeys` 9…36 px → 1/24…1/32 of size).
fn fake_bold_width(size: f32) -> f32 {
    let t = ((size - 9.0) / 27.0).clamp(0.0, 1.0);
    let ratio = 1.0 / 24.0 + t * (1.0 / 32.0 - 1.0 / 24.0);
    size * ratio
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
    fn light_hinting_fits_x_height_and_caps() {
        let face = ttf_parser::Face::parse(BUNDLED, 0).expect("bundled font");
        let zones = BlueZones::of(&face).expect("latin zones");
        // Chrome draws Liberation Sans at 12px with a 7px x-height and a 9px cap height,
        // at 16px with 9px and 12px.
        for (size, xh, cap) in [(12.0, 7.0, 9.0), (16.0, 9.0, 12.0), (10.0, 6.0, 8.0)] {
            let keys = zones.keys(size / 2048.0);
            assert_eq!(interpolate(&keys, 1082.0), xh, "x-height at {size}px");
            assert_eq!(interpolate(&keys, 1409.0), cap, "cap height at {size}px");
            assert_eq!(interpolate(&keys, 0.0), 0.0);
            assert_eq!(interpolate(&keys, -20.0), 0.0, "overshoot flattened");
        }
    }

    #[test]
    fn cjk_falls_back_per_glyph() {
        let db = FontDb::system();
        let f = font(chart_spec::font::DEFAULT_FAMILY, 12.0, 400);
        if db.best_in_family("noto sans cjk jp", &f).is_none() {
            eprintln!("skipped: Noto Sans CJK is not installed");
            return;
        }
        let runs = db.runs(&f, "a\u{4e00}\u{4e8c}");
        assert_eq!(runs.len(), 2, "Latin then CJK face");
        assert_ne!(runs[0].0.id, runs[1].0.id);
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
