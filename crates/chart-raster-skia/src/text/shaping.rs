//! A canvas line set the way Blink sets it: the bidirectional algorithm orders it, each
//! word is shaped on its own with HarfBuzz (here rustybuzz), and the clusters a face has no
//! glyph for are shaped again with the next face of the fallback chain.
//!
//! Every step is linear in the text (the bidi algorithm, one shaping pass per face of the
//! chain over the ranges still missing), and nothing panics on any UTF-8: ranges come from
//! the shaper's clusters and are checked against character boundaries before slicing.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

/// One glyph placed on the line, left to right, in CSS px.
#[derive(Debug, Clone, Copy)]
pub(super) struct Placed {
    /// Index into the chain's faces.
    pub(super) chain_index: usize,
    pub(super) glyph: u16,
    /// Pen advance after the glyph.
    pub(super) advance: f32,
    /// Offset of the glyph from the pen (y down).
    pub(super) dx: f32,
    pub(super) dy: f32,
    /// Whether the cluster is Latin-like (FreeType's Latin blue zones hint it).
    pub(super) latin: bool,
}

/// A face as the shaper needs it.
pub(super) trait ShapingFace {
    /// The face for rustybuzz.
    fn shaper(&self) -> &rustybuzz::Face<'static>;
    /// Its units per em.
    fn upem(&self) -> f32;
    /// The shaping plan for a direction and script (compiling one is most of the cost of
    /// shaping a short label, so faces keep theirs).
    fn plan(
        &self,
        direction: rustybuzz::Direction,
        script: rustybuzz::Script,
    ) -> Arc<rustybuzz::ShapePlan>;
}

/// The faces a line may use, in fallback order, loaded when first asked for.
pub(super) trait FaceSource {
    /// The number of faces in the chain.
    fn len(&self) -> usize;
    /// Chain entry `i` (`None`: an unreadable face).
    fn face(&self, i: usize) -> Option<Arc<dyn ShapingFace>>;
}

/// What a canvas does to the text before shaping (HTML's "text preparation algorithm":
/// ASCII whitespace becomes U+0020); line and paragraph separators are drawn as spaces too,
/// as Chromium draws them.
pub(super) fn prepare(text: &str) -> Cow<'_, str> {
    let replace = |c: char| {
        matches!(
            c,
            '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    };
    if text.contains(replace) {
        Cow::Owned(
            text.chars()
                .map(|c| if replace(c) { ' ' } else { c })
                .collect(),
        )
    } else {
        Cow::Borrowed(text)
    }
}

/// Whether any character may need the bidi algorithm (right-to-left letters or bidi
/// controls); pure left-to-right text skips it.
fn may_need_bidi(text: &str) -> bool {
    text.chars().any(|c| {
        let u = c as u32;
        matches!(u, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
            || matches!(u, 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069)
    })
}

/// Scripts FreeType's auto-hinter handles with Latin-style blue zones (Latin, Greek,
/// Cyrillic, digits and punctuation).
pub(super) fn latin_script(c: char) -> bool {
    matches!(c as u32, 0..=0x052F | 0x1D00..=0x1FFF | 0x2000..=0x206F | 0x20A0..=0x20CF)
}

/// Shapes one line (already prepared) at `size` px; `rtl` is the canvas `direction`.
pub(super) fn shape_line(faces: &dyn FaceSource, size: f32, text: &str, rtl: bool) -> Vec<Placed> {
    let mut out = Vec::new();
    if text.is_empty() {
        return out;
    }
    if !rtl && !may_need_bidi(text) {
        for word in words(text, 0..text.len()) {
            shape_fallback(faces, size, text, word, false, 0, &mut out);
        }
        return out;
    }
    let base = if rtl {
        unicode_bidi::Level::rtl()
    } else {
        unicode_bidi::Level::ltr()
    };
    let bidi = unicode_bidi::BidiInfo::new(text, Some(base));
    for para in &bidi.paragraphs {
        let (levels, runs) = bidi.visual_runs(para, para.range.clone());
        for run in runs {
            let run_rtl = levels.get(run.start).is_some_and(|l| l.is_rtl());
            let mut segments: Vec<Range<usize>> = words(text, run).collect();
            if run_rtl {
                segments.reverse();
            }
            for seg in segments {
                shape_fallback(faces, size, text, seg, run_rtl, 0, &mut out);
            }
        }
    }
    out
}

/// Splits a range into words and single spaces: Blink shapes word by word
/// (`CachingWordShaper`), so nothing (kerning, ligatures, joining) crosses a space.
fn words(text: &str, range: Range<usize>) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut start = range.start;
    let end = range.end.min(text.len());
    std::iter::from_fn(move || {
        if start >= end {
            return None;
        }
        let s = text.get(start..end)?;
        let len = if s.starts_with(' ') {
            1
        } else {
            s.find(' ').unwrap_or(s.len())
        };
        let r = start..start + len;
        start += len;
        Some(r)
    })
}

/// Shapes `range` of `text` with chain face `k`; the clusters it has no glyph for go to
/// face `k + 1`, and so on. Past the last face the primary face shapes them (its .notdef).
fn shape_fallback(
    faces: &dyn FaceSource,
    size: f32,
    text: &str,
    range: Range<usize>,
    rtl: bool,
    k: usize,
    out: &mut Vec<Placed>,
) {
    let Some(segment) = text.get(range.clone()) else {
        return;
    };
    let last = k >= faces.len();
    let index = if last { 0 } else { k };
    let Some(loaded) = faces.face(index) else {
        if !last {
            shape_fallback(faces, size, text, range, rtl, k + 1, out);
        }
        return;
    };
    let mut buffer = rustybuzz::UnicodeBuffer::new();
    buffer.push_str(segment);
    buffer.set_direction(if rtl {
        rustybuzz::Direction::RightToLeft
    } else {
        rustybuzz::Direction::LeftToRight
    });
    if segment.is_ascii() {
        // Most labels: no need to look the script up character by character.
        buffer.set_script(rustybuzz::script::LATIN);
    }
    buffer.guess_segment_properties();
    let plan = loaded.plan(buffer.direction(), buffer.script());
    let shaped = rustybuzz::shape_with_plan(loaded.shaper(), &plan, buffer);
    let upem = loaded.upem();
    let infos = shaped.glyph_infos();
    let positions = shaped.glyph_positions();
    let scale = if upem > 0.0 { size / upem } else { 0.0 };
    let first_char_latin = |cluster: usize| {
        segment
            .get(cluster..)
            .and_then(|s| s.chars().next())
            .is_some_and(latin_script)
    };
    if last || infos.iter().all(|i| i.glyph_id != 0) {
        // The face has every glyph (the common case): no fallback bookkeeping.
        for (info, pos) in infos.iter().zip(positions) {
            out.push(Placed {
                chain_index: index,
                glyph: u16::try_from(info.glyph_id).unwrap_or(0),
                advance: pos.x_advance as f32 * scale,
                dx: pos.x_offset as f32 * scale,
                dy: -(pos.y_offset as f32) * scale,
                latin: first_char_latin(info.cluster as usize),
            });
        }
        return;
    }
    // Clusters (byte offsets into the segment) holding a glyph the face lacks.
    let mut missing = vec![false; segment.len() + 1];
    {
        for info in infos {
            if info.glyph_id == 0 {
                if let Some(m) = missing.get_mut(info.cluster as usize) {
                    *m = true;
                }
            }
        }
    }
    // Where each cluster ends: the next cluster start after it in logical order.
    let mut starts: Vec<usize> = infos.iter().map(|i| i.cluster as usize).collect();
    starts.sort_unstable();
    starts.dedup();
    let cluster_end = |c: usize| match starts.binary_search(&c) {
        Ok(i) | Err(i) => starts.get(i + 1).copied().unwrap_or(segment.len()).max(c),
    };
    let mut i = 0;
    while i < infos.len() {
        let cluster = infos[i].cluster as usize;
        if missing.get(cluster).copied().unwrap_or(false) {
            // A visual run of missing clusters: its logical range goes to the next face.
            let (mut lo, mut hi) = (cluster, cluster_end(cluster));
            let mut j = i + 1;
            while j < infos.len() {
                let c = infos[j].cluster as usize;
                if !missing.get(c).copied().unwrap_or(false) {
                    break;
                }
                lo = lo.min(c);
                hi = hi.max(cluster_end(c));
                j += 1;
            }
            let sub = range.start + lo..range.start + hi.min(segment.len());
            if text.is_char_boundary(sub.start) && text.is_char_boundary(sub.end) {
                shape_fallback(faces, size, text, sub, rtl, k + 1, out);
            }
            i = j;
            continue;
        }
        let (Some(info), Some(pos)) = (infos.get(i), positions.get(i)) else {
            break;
        };
        let latin = first_char_latin(cluster);
        out.push(Placed {
            chain_index: index,
            glyph: u16::try_from(info.glyph_id).unwrap_or(0),
            advance: pos.x_advance as f32 * scale,
            dx: pos.x_offset as f32 * scale,
            dy: -(pos.y_offset as f32) * scale,
            latin,
        });
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_at_each_space() {
        let t = "ab  c d";
        let w: Vec<&str> = words(t, 0..t.len()).map(|r| &t[r]).collect();
        assert_eq!(w, vec!["ab", " ", " ", "c", " ", "d"]);
    }

    #[test]
    fn preparation_turns_separators_into_spaces() {
        assert_eq!(prepare("a\tb\nc\u{2028}d"), "a b c d");
        assert!(matches!(prepare("plain"), Cow::Borrowed(_)));
    }
}
