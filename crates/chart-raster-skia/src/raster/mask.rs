//! One-bit masks of paths for layout code that needs pixels before drawing (chartjs-chart-
//! wordcloud's d3-cloud sprites: a pixel is set when the word's fill or stroke covers any of
//! it, as d3-cloud reads a canvas back).

use crate::scene::{Path, PathCmd};

/// The pixels of a `width × height` mask covered by `path` (filled with the non-zero rule
/// and, when `stroke_width > 0`, stroked that wide), after `transform` = translate, then
/// rotate by degrees, then translate again (`(tx, ty, degrees, dx)`); `None` when the size
/// is empty or the path has nothing to draw.
pub(crate) fn covered(
    path: &Path,
    transform: (f32, f32, f32, f32),
    stroke_width: f32,
    width: u32,
    height: u32,
) -> Option<Vec<bool>> {
    let mut pb = tiny_skia::PathBuilder::new();
    for cmd in &path.cmds {
        match *cmd {
            PathCmd::MoveTo(x, y) => pb.move_to(x, y),
            PathCmd::LineTo(x, y) => pb.line_to(x, y),
            PathCmd::QuadTo(a, b, x, y) => pb.quad_to(a, b, x, y),
            PathCmd::CubicTo(a, b, c, d, x, y) => pb.cubic_to(a, b, c, d, x, y),
            PathCmd::Close => pb.close(),
        }
    }
    let mut pixmap = tiny_skia::Pixmap::new(width, height)?;
    let path = pb.finish()?;
    let (tx, ty, degrees, dx) = transform;
    let t = tiny_skia::Transform::from_translate(tx, ty)
        .pre_rotate(degrees)
        .pre_translate(dx, 0.0);
    let mut paint = tiny_skia::Paint::default();
    paint.set_color_rgba8(255, 0, 0, 255);
    paint.anti_alias = true;
    pixmap.fill_path(&path, &paint, tiny_skia::FillRule::Winding, t, None);
    if stroke_width > 0.0 {
        let stroke = tiny_skia::Stroke {
            width: stroke_width,
            ..tiny_skia::Stroke::default()
        };
        pixmap.stroke_path(&path, &paint, &stroke, t, None);
    }
    Some(pixmap.data().chunks_exact(4).map(|p| p[3] != 0).collect())
}
