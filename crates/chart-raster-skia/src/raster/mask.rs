//! One-bit masks of paths for layout code that needs pixels before drawing (chartjs-chart-
//! wordcloud's d3-cloud sprites: a pixel is set when the word's fill or stroke covers any of
//! it, as d3-cloud reads a canvas back).

use crate::scene::{Path, PathCmd};

/// The pixels of a `width × height` mask covered by `path` (filled with the non-zero rule
/// and, when `stroke_width > 0`, stroked that wide), after `transform` = translate, then
/// rotate by degrees, then translate again (`(tx, ty, degrees, dx)`); `None` when the size
/// is empty, the path has nothing to draw, or `stop` ended the work.
///
/// A wide stroke of many contours is one tiny-skia call whose cost grows with contours ×
/// width (a 10,000-letter word with `padding: 86` took seconds in one call, past the
/// render's deadline), so a path of more than [`CONTOURS_PER_STROKE`] contours is stroked
/// in runs of that many, with `stop` polled between runs. A pixel counts when anything
/// covers it, so the runs painted one over the other cover what the one call covers, but
/// for a pixel that two runs each touch too little to register. Words of fewer contours
/// (every real word) take the one call as before.
pub(crate) fn covered(
    path: &Path,
    transform: (f32, f32, f32, f32),
    stroke_width: f32,
    width: u32,
    height: u32,
    stop: &dyn Fn() -> bool,
) -> Option<Vec<bool>> {
    let mut pixmap = tiny_skia::Pixmap::new(width, height)?;
    let whole = tiny_path(&path.cmds)?;
    let (tx, ty, degrees, dx) = transform;
    let t = tiny_skia::Transform::from_translate(tx, ty)
        .pre_rotate(degrees)
        .pre_translate(dx, 0.0);
    let mut paint = tiny_skia::Paint::default();
    paint.set_color_rgba8(255, 0, 0, 255);
    paint.anti_alias = true;
    pixmap.fill_path(&whole, &paint, tiny_skia::FillRule::Winding, t, None);
    if stroke_width > 0.0 {
        let stroke = tiny_skia::Stroke {
            width: stroke_width,
            ..tiny_skia::Stroke::default()
        };
        // Where each contour begins.
        let starts: Vec<usize> = (0..path.cmds.len())
            .filter(|&i| matches!(path.cmds[i], PathCmd::MoveTo(..)))
            .collect();
        if starts.len() <= CONTOURS_PER_STROKE {
            pixmap.stroke_path(&whole, &paint, &stroke, t, None);
        } else {
            for (k, run) in starts.chunks(CONTOURS_PER_STROKE).enumerate() {
                if stop() {
                    return None;
                }
                let end = starts
                    .get((k + 1) * CONTOURS_PER_STROKE)
                    .copied()
                    .unwrap_or(path.cmds.len());
                if let Some(part) = tiny_path(&path.cmds[run[0]..end]) {
                    pixmap.stroke_path(&part, &paint, &stroke, t, None);
                }
            }
        }
    }
    Some(pixmap.data().chunks_exact(4).map(|p| p[3] != 0).collect())
}

/// Contours stroked in one tiny-skia call by [`covered`]: a word of about 40 letters; a wider
/// run of a hostile word (`padding` up to 500) takes about 0.1 s.
const CONTOURS_PER_STROKE: usize = 64;

/// `cmds` as a tiny-skia path; `None` when nothing is left to draw.
fn tiny_path(cmds: &[PathCmd]) -> Option<tiny_skia::Path> {
    let mut pb = tiny_skia::PathBuilder::new();
    for cmd in cmds {
        match *cmd {
            PathCmd::MoveTo(x, y) => pb.move_to(x, y),
            PathCmd::LineTo(x, y) => pb.line_to(x, y),
            PathCmd::QuadTo(a, b, x, y) => pb.quad_to(a, b, x, y),
            PathCmd::CubicTo(a, b, c, d, x, y) => pb.cubic_to(a, b, c, d, x, y),
            PathCmd::Close => pb.close(),
        }
    }
    pb.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` small squares 12 px apart on rows of 40, one contour each.
    fn squares(n: usize) -> Path {
        let mut p = Path::new();
        for i in 0..n {
            let (x, y) = ((i % 40) as f32 * 12.0 + 3.0, (i / 40) as f32 * 12.0 + 3.0);
            p.move_to(x, y)
                .line_to(x + 4.5, y)
                .line_to(x + 4.5, y + 4.5);
            p.line_to(x, y + 4.5).close();
        }
        p
    }

    #[test]
    fn a_stroke_in_runs_covers_what_one_call_covers() {
        // 300 contours: five runs. Against the one call tiny-skia makes for the whole path.
        let path = squares(300);
        let (w, h) = (490, 100);
        let ours = covered(&path, (0.0, 0.0, 0.0, 0.0), 3.0, w, h, &|| false).unwrap();
        let mut pixmap = tiny_skia::Pixmap::new(w, h).unwrap();
        let whole = tiny_path(&path.cmds).unwrap();
        let mut paint = tiny_skia::Paint::default();
        paint.set_color_rgba8(255, 0, 0, 255);
        let stroke = tiny_skia::Stroke {
            width: 3.0,
            ..tiny_skia::Stroke::default()
        };
        let t = tiny_skia::Transform::identity();
        pixmap.fill_path(&whole, &paint, tiny_skia::FillRule::Winding, t, None);
        pixmap.stroke_path(&whole, &paint, &stroke, t, None);
        let theirs: Vec<bool> = pixmap.data().chunks_exact(4).map(|p| p[3] != 0).collect();
        assert_eq!(
            ours.iter().filter(|c| **c).count(),
            theirs.iter().filter(|c| **c).count()
        );
        assert!(ours == theirs);
    }

    #[test]
    fn a_long_stroke_stops_between_runs() {
        let polls = std::cell::Cell::new(0);
        let stop = || {
            polls.set(polls.get() + 1);
            polls.get() > 2
        };
        assert!(covered(&squares(300), (0.0, 0.0, 0.0, 0.0), 3.0, 490, 100, &stop).is_none());
        assert_eq!(polls.get(), 3);
        // A word-sized path is one call and never asks.
        let never = || -> bool { panic!("asked") };
        assert!(covered(&squares(60), (0.0, 0.0, 0.0, 0.0), 3.0, 490, 100, &never).is_some());
    }
}
