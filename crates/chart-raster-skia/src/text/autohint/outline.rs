//! The points of an outline as the font holds them, and back.

use crate::scene::PathCmd;

/// What a coordinate of an outline command is to the hinter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    On,
    Control,
    /// An on-curve point halfway between two quadratic controls: not a point of the font.
    Implied,
    /// A contour's closing end, which is its start again.
    Closing,
}

/// The coordinates of each contour, in command order (the move first).
pub(super) fn contours_of(outline: &[PathCmd]) -> Option<Vec<Vec<(Kind, f32, f32)>>> {
    let mut contours: Vec<Vec<(Kind, f32, f32)>> = Vec::new();
    for cmd in outline {
        match *cmd {
            PathCmd::MoveTo(x, y) => contours.push(vec![(Kind::On, x, y)]),
            PathCmd::LineTo(x, y) => contours.last_mut()?.push((Kind::On, x, y)),
            PathCmd::QuadTo(cx, cy, x, y) => {
                let c = contours.last_mut()?;
                c.push((Kind::Control, cx, cy));
                c.push((Kind::On, x, y));
            }
            PathCmd::CubicTo(x1, y1, x2, y2, x, y) => {
                let c = contours.last_mut()?;
                c.push((Kind::Control, x1, y1));
                c.push((Kind::Control, x2, y2));
                c.push((Kind::On, x, y));
            }
            PathCmd::Close => {}
        }
    }
    for c in contours.iter_mut() {
        let n = c.len();
        if n > 1 && (c[n - 1].1, c[n - 1].2) == (c[0].1, c[0].2) {
            c[n - 1].0 = Kind::Closing;
        }
        // On-curve points between two quadratic controls, exactly halfway (cyclically, over
        // the closing end).
        let m = c.iter().filter(|e| e.0 != Kind::Closing).count();
        for j in 0..m {
            if c[j].0 != Kind::On {
                continue;
            }
            let (a, b) = (c[(j + m - 1) % m], c[(j + 1) % m]);
            if m > 2
                && a.0 == Kind::Control
                && b.0 == Kind::Control
                && (a.1 + b.1) / 2.0 == c[j].1
                && (a.2 + b.2) / 2.0 == c[j].2
            {
                c[j].0 = Kind::Implied;
            }
        }
    }
    Some(contours)
}

/// Calls `f(x, y, control, starts_contour)` for each point of the outline as the font holds
/// it: every command's control points and end, except a contour's closing end (its start) and
/// on-curve points implied halfway between two quadratic controls. `None` for an outline
/// this cannot read (a command before any move).
pub(super) fn for_each_point(
    outline: &[PathCmd],
    mut f: impl FnMut(f32, f32, bool, bool),
) -> Option<()> {
    for c in contours_of(outline)? {
        let mut first = true;
        for &(kind, x, y) in &c {
            if matches!(kind, Kind::On | Kind::Control) {
                f(x, y, kind == Kind::Control, first);
                first = false;
            }
        }
    }
    Some(())
}

/// Replaces each point's y by `ys` (in [`for_each_point`]'s order), implied points by the
/// mean of their controls and closing ends by their contour's start.
pub(super) fn map_points(outline: &[PathCmd], ys: &[f32]) -> Vec<PathCmd> {
    let Some(mut contours) = contours_of(outline) else {
        return outline.to_vec();
    };
    let mut k = 0;
    for c in contours.iter_mut() {
        for e in c.iter_mut() {
            if matches!(e.0, Kind::On | Kind::Control) {
                e.2 = ys.get(k).copied().unwrap_or(e.2);
                k += 1;
            }
        }
        let m = c.iter().filter(|e| e.0 != Kind::Closing).count();
        for j in 0..m {
            if c[j].0 == Kind::Implied {
                c[j].2 = (c[(j + m - 1) % m].2 + c[(j + 1) % m].2) / 2.0;
            }
        }
        let start = c[0].2;
        for e in c.iter_mut() {
            if e.0 == Kind::Closing {
                e.2 = start;
            }
        }
    }
    let mut ys = contours.iter().flatten().map(|e| e.2);
    let mut next_y = || ys.next().unwrap_or(0.0);
    outline
        .iter()
        .map(|cmd| match *cmd {
            PathCmd::MoveTo(x, _) => PathCmd::MoveTo(x, next_y()),
            PathCmd::LineTo(x, _) => PathCmd::LineTo(x, next_y()),
            PathCmd::QuadTo(x1, _, x, _) => {
                let y1 = next_y();
                PathCmd::QuadTo(x1, y1, x, next_y())
            }
            PathCmd::CubicTo(x1, _, x2, _, x, _) => {
                let y1 = next_y();
                let y2 = next_y();
                PathCmd::CubicTo(x1, y1, x2, y2, x, next_y())
            }
            PathCmd::Close => PathCmd::Close,
        })
        .collect()
}
