//! Grid fitting as FreeType's light auto-hinter does it in Chrome on Linux (vertical only),
//! and Skia's synthetic bold width.

use crate::scene::PathCmd;

/// The heights FreeType's auto-hinter aligns to the pixel grid in a Latin face, in font
/// units: each zone is a flat reference height and its overshoot (round letters).
#[derive(Debug, Clone)]
pub(super) struct BlueZones {
    /// Top of round lowercase letters (`o`), the height the vertical scale is fitted to.
    x_shoot: f32,
    /// (reference, overshoot) pairs: baseline, x-height, cap height, ascender, descender.
    zones: Vec<(f32, f32)>,
}

impl BlueZones {
    pub(super) fn of(face: &ttf_parser::Face) -> Option<Self> {
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
    pub(super) fn keys(&self, scale: f32) -> Vec<(f32, f32)> {
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

impl BlueZones {
    /// The keys of one glyph: the face's `keys` plus the flat horizontal edges of the outline
    /// that the auto-hinter snaps onto a blue zone although they lie a little inside it (a
    /// colon's upper dot ends below the x-height): an edge within `upem / 40` (at most half a
    /// pixel) of a zone's reference height, on the side of the glyph's ink, goes onto that
    /// height (`af_latin_hints_compute_blue_edges`), and the opposite edge of its stem keeps
    /// the stem's height below or above it. Top edges run rightwards and bottom edges
    /// leftwards in TrueType's clockwise outlines.
    pub(super) fn glyph_keys(
        &self,
        keys: &[(f32, f32)],
        outline: &[PathCmd],
        upem: f32,
        px_per_unit: f32,
    ) -> Option<Vec<(f32, f32)>> {
        let slope = keys.first()?.1;
        // Flat edges: (y, x from, x to), at most a few hundred (a glyph's line segments).
        let mut edges: Vec<(f32, f32, f32)> = Vec::new();
        let mut pen = (0.0f32, 0.0f32);
        for cmd in outline.iter().take(4096) {
            match *cmd {
                PathCmd::MoveTo(x, y) => pen = (x, y),
                PathCmd::LineTo(x, y) => {
                    if y == pen.1 && (x - pen.0).abs() * px_per_unit >= 0.5 {
                        edges.push((y, pen.0, x));
                    }
                    pen = (x, y);
                }
                PathCmd::QuadTo(_, _, x, y) | PathCmd::CubicTo(_, _, _, _, x, y) => pen = (x, y),
                PathCmd::Close => {}
            }
        }
        let fuzz = (upem / 40.0).min(0.5 / px_per_unit);
        let mut extra: Vec<(f32, f32)> = Vec::new();
        for &(y, x0, x1) in &edges {
            let top = x1 > x0;
            if keys.iter().any(|k| k.0 == y) {
                continue;
            }
            // The zone reference this edge snaps to: tops to the top zones from below,
            // bottoms to the bottom zones from above.
            let Some(&(reference, _)) = self.zones.iter().find(|&&(r, shoot)| {
                let zone_is_top = shoot >= r && r > 0.0;
                let inside = if top { r - y } else { y - r };
                zone_is_top == top && inside > 0.0 && inside < fuzz
            }) else {
                continue;
            };
            let target = interpolate(keys, reference);
            extra.push((y, target));
            // The stem's other edge: the nearest opposite edge on the ink side overlapping it.
            let (lo, hi) = (x0.min(x1), x0.max(x1));
            let partner = edges
                .iter()
                .filter(|&&(py, px0, px1)| {
                    (px1 > px0) != top
                        && px0.min(px1) < hi
                        && px0.max(px1) > lo
                        && if top { py < y } else { py > y }
                })
                .min_by(|a, b| (a.0 - y).abs().total_cmp(&(b.0 - y).abs()));
            if let Some(&(py, _, _)) = partner {
                extra.push((py, target + (py - y) * slope));
            }
        }
        if extra.is_empty() {
            return None;
        }
        let mut all: Vec<(f32, f32)> = keys[1..].iter().copied().chain(extra).collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0));
        all.dedup_by(|a, b| a.0 == b.0);
        for i in 1..all.len() {
            if all[i].1 < all[i - 1].1 {
                all[i].1 = all[i - 1].1;
            }
        }
        all.insert(0, keys[0]);
        Some(all)
    }
}

/// Evaluates the piecewise-linear map of [`BlueZones::keys`] (first entry holds the slope).
pub(super) fn interpolate(keys: &[(f32, f32)], y: f32) -> f32 {
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
pub(super) fn fake_bold_width(size: f32) -> f32 {
    let t = ((size - 9.0) / 27.0).clamp(0.0, 1.0);
    let ratio = 1.0 / 24.0 + t * (1.0 / 32.0 - 1.0 / 24.0);
    size * ratio
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_hinting_fits_x_height_and_caps() {
        let face =
            ttf_parser::Face::parse(super::super::discovery::BUNDLED, 0).expect("bundled font");
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

    /// A colon's upper dot (Liberation Sans Bold's, 752–1034 units) ends 48 units below the
    /// x-height: the auto-hinter puts its top on the x-height pixel and keeps the dot's
    /// height under it, as Chromium draws it at 12 px. A dot 100 units lower stays as the
    /// zones place it.
    #[test]
    fn edges_just_inside_a_zone_snap_onto_it() {
        let face =
            ttf_parser::Face::parse(super::super::discovery::BUNDLED, 0).expect("bundled font");
        let zones = BlueZones::of(&face).expect("latin zones");
        let px_per_unit = 12.0 / 2048.0;
        let keys = zones.keys(px_per_unit);
        let dot = |bottom: f32, top: f32| {
            vec![
                PathCmd::MoveTo(197.0, bottom),
                PathCmd::LineTo(197.0, top),
                PathCmd::LineTo(485.0, top),
                PathCmd::LineTo(485.0, bottom),
                PathCmd::LineTo(197.0, bottom),
                PathCmd::Close,
            ]
        };
        let glyph = zones
            .glyph_keys(&keys, &dot(752.0, 1034.0), 2048.0, px_per_unit)
            .expect("the dot's top snaps");
        assert_eq!(interpolate(&glyph, 1034.0), 7.0);
        let height = interpolate(&glyph, 1034.0) - interpolate(&glyph, 752.0);
        assert!((height - 282.0 * keys[0].1).abs() < 1e-4, "{height}");
        assert!(interpolate(&keys, 1034.0) < 6.8, "unsnapped before");
        assert!(zones
            .glyph_keys(&keys, &dot(652.0, 934.0), 2048.0, px_per_unit)
            .is_none());
    }
}
