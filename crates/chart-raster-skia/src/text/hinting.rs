//! The blue-zone map used when the auto-hinter (`autohint`) leaves an outline alone,
//! and Skia's synthetic bold width.

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
}
