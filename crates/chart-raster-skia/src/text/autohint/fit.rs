//! Placing the edges on the grid and the points after them (`af_latin_hint_edges`,
//! `af_glyph_hints_align_*`).

use super::glyph::{GlyphHints, Point, EDGE_DONE, EDGE_ROUND};
use super::outline::map_points;
use super::{div_fix, mul_div, mul_fix, pix_round, Blue, FittedBlue};
use crate::scene::PathCmd;

impl GlyphHints {
    /// Finds the blue zone each edge is within (`af_latin_hints_compute_blue_edges`).
    pub(super) fn compute_blue_edges(&mut self, blues: &[Blue], fitted: &[FittedBlue], scale: i64) {
        let major = self.major_dir;
        for e in self.edges.iter_mut() {
            let mut best_dist = mul_fix(i64::from(self.upem / 40), scale).min(32);
            let mut best = None;
            for (b, f) in blues.iter().zip(fitted) {
                if !f.active {
                    continue;
                }
                let is_major = e.dir == major;
                if b.top == is_major {
                    continue;
                }
                let dist = mul_fix(i64::from((e.fpos - b.reference).abs()), scale);
                if dist < best_dist {
                    best_dist = dist;
                    best = Some(f.reference);
                }
                if e.flags & EDGE_ROUND != 0 && dist != 0 {
                    let under = e.fpos < b.reference;
                    if b.top != under {
                        let d = mul_fix(i64::from((e.fpos - b.shoot).abs()), scale);
                        if d < best_dist {
                            best_dist = d;
                            best = Some(f.shoot);
                        }
                    }
                }
            }
            e.blue = best;
        }
    }

    /// Places the edges (`af_latin_hint_edges`, light mode: stem heights kept).
    pub(super) fn hint_edges(&mut self) {
        let edges = &mut self.edges;
        let n = edges.len();
        let mut anchor: Option<usize> = None;
        // Edges in a blue zone first, with the other edge of their stem.
        for i in 0..n {
            if edges[i].flags & EDGE_DONE != 0 {
                continue;
            }
            let mut e1 = None;
            let mut e2 = edges[i].link;
            let mut blue = edges[i].blue;
            if blue.is_some() {
                e1 = Some(i);
            } else if let Some(l) = e2.filter(|&l| edges[l].blue.is_some()) {
                blue = edges[l].blue;
                e1 = Some(l);
                e2 = Some(i);
            }
            let (Some(e1), Some(fit)) = (e1, blue) else {
                continue;
            };
            edges[e1].pos = fit;
            edges[e1].flags |= EDGE_DONE;
            if let Some(e2) = e2.filter(|&e| edges[e].blue.is_none()) {
                edges[e2].pos = fit + (edges[e2].opos - edges[e1].opos);
                edges[e2].flags |= EDGE_DONE;
            }
            if anchor.is_none() {
                anchor = Some(i);
            }
        }
        let mut has_serifs = false;
        for i in 0..n {
            if edges[i].flags & EDGE_DONE != 0 {
                continue;
            }
            let Some(e2) = edges[i].link else {
                has_serifs = true;
                continue;
            };
            if edges[e2].blue.is_some() {
                edges[i].pos = edges[e2].pos + (edges[i].opos - edges[e2].opos);
                edges[i].flags |= EDGE_DONE;
                continue;
            }
            let org_len = edges[e2].opos - edges[i].opos;
            let cur_len = org_len;
            // Thin stems are centred on a pixel or a pixel border, whichever is nearer.
            let centre = |org_center: i64| {
                let (u_off, d_off) = if cur_len <= 64 { (32, 32) } else { (38, 26) };
                let p = pix_round(org_center);
                let e1 = (org_center - (p - u_off)).abs();
                let e2 = (org_center - (p + d_off)).abs();
                if e1 < e2 {
                    p - u_off
                } else {
                    p + d_off
                }
            };
            match anchor {
                None => {
                    if cur_len < 96 {
                        let c = centre(edges[i].opos + (org_len >> 1));
                        edges[i].pos = c - cur_len / 2;
                    } else {
                        edges[i].pos = pix_round(edges[i].opos);
                    }
                    anchor = Some(i);
                    edges[i].flags |= EDGE_DONE;
                    edges[e2].pos = edges[i].pos + org_len;
                }
                Some(a) => {
                    let org_pos = edges[a].pos + (edges[i].opos - edges[a].opos);
                    let org_center = org_pos + (org_len >> 1);
                    if edges[e2].flags & EDGE_DONE != 0 {
                        edges[i].pos = edges[e2].pos - cur_len;
                    } else if cur_len < 96 {
                        let c = centre(org_center);
                        edges[i].pos = c - cur_len / 2;
                        edges[e2].pos = c + cur_len / 2;
                    } else {
                        let p1 = pix_round(org_pos);
                        let d1 = (p1 + (cur_len >> 1) - org_center).abs();
                        let p2 = pix_round(org_pos + org_len) - cur_len;
                        let d2 = (p2 + (cur_len >> 1) - org_center).abs();
                        edges[i].pos = if d1 < d2 { p1 } else { p2 };
                        edges[e2].pos = edges[i].pos + cur_len;
                    }
                    edges[i].flags |= EDGE_DONE;
                    edges[e2].flags |= EDGE_DONE;
                    if i > 0 && edges[i].pos < edges[i - 1].pos {
                        if let Some(l) = edges[i].link {
                            if (edges[l].pos - edges[i - 1].pos).abs() > 16 {
                                edges[i].pos = edges[i - 1].pos;
                            }
                        }
                    }
                }
            }
        }
        if !has_serifs && anchor.is_some() {
            return;
        }
        // Serifs and lone edges.
        for i in 0..n {
            if edges[i].flags & EDGE_DONE != 0 {
                continue;
            }
            let serif = edges[i].serif;
            let delta = serif.map_or(1000, |s| (edges[s].opos - edges[i].opos).abs());
            if let (true, Some(s)) = (delta < 64 + 16, serif) {
                edges[i].pos = edges[s].pos + (edges[i].opos - edges[s].opos);
            } else if anchor.is_none() {
                edges[i].pos = pix_round(edges[i].opos);
                anchor = Some(i);
            } else {
                let before = (0..i).rev().find(|&b| edges[b].flags & EDGE_DONE != 0);
                let after = (i + 1..n).find(|&a| edges[a].flags & EDGE_DONE != 0);
                if let (Some(b), Some(a)) = (before, after) {
                    edges[i].pos = if edges[a].opos == edges[b].opos {
                        edges[b].pos
                    } else {
                        edges[b].pos
                            + mul_div(
                                edges[i].opos - edges[b].opos,
                                edges[a].pos - edges[b].pos,
                                edges[a].opos - edges[b].opos,
                            )
                    };
                } else if let Some(a) = anchor {
                    edges[i].pos = edges[a].pos + ((edges[i].opos - edges[a].opos + 16) & !31);
                }
            }
            edges[i].flags |= EDGE_DONE;
            if i > 0 && edges[i].pos < edges[i - 1].pos {
                if let Some(l) = edges[i].link {
                    if (edges[l].pos - edges[i - 1].pos).abs() > 16 {
                        edges[i].pos = edges[i - 1].pos;
                    }
                }
            }
            if i + 1 < n && edges[i + 1].flags & EDGE_DONE != 0 && edges[i].pos > edges[i + 1].pos {
                if let Some(l) = edges[i].link {
                    if i > 0 && (edges[l].pos - edges[i - 1].pos).abs() > 16 {
                        edges[i].pos = edges[i + 1].pos;
                    }
                }
            }
        }
    }

    /// Points of a segment take its edge's position.
    pub(super) fn align_edge_points(&mut self) {
        for s in &self.segments {
            let Some(e) = s.edge else { continue };
            let pos = self.edges[e].pos;
            let mut p = s.first;
            for _ in 0..=self.points.len() {
                self.points[p].y = pos;
                self.points[p].touched = true;
                if p == s.last {
                    break;
                }
                p = self.points[p].next;
            }
        }
    }

    /// Strong points between edges are interpolated by height (TrueType's `IP`).
    pub(super) fn align_strong_points(&mut self) {
        let edges = &self.edges;
        let (Some(first), Some(last)) = (edges.first(), edges.last()) else {
            return;
        };
        for p in self.points.iter_mut() {
            if p.touched || p.weak {
                continue;
            }
            let u = p.fy;
            let y = if first.fpos >= u {
                first.pos - (first.opos - p.oy)
            } else if u >= last.fpos {
                last.pos + (p.oy - last.opos)
            } else {
                let k = edges.partition_point(|e| e.fpos < u);
                if edges[k].fpos == u {
                    edges[k].pos
                } else {
                    let (b, a) = (&edges[k - 1], &edges[k]);
                    let scale = div_fix(a.pos - b.pos, i64::from(a.fpos - b.fpos));
                    b.pos + mul_fix(i64::from(u - b.fpos), scale)
                }
            };
            p.y = y;
            p.touched = true;
        }
    }

    /// The other points follow the touched ones around them along their contour (`IUP`).
    pub(super) fn align_weak_points(&mut self) {
        let n = self.points.len();
        let mut out: Vec<i64> = self.points.iter().map(|p| p.y).collect();
        for ci in 0..self.contours.len() {
            let start = self.contours[ci];
            let end = self.contours.get(ci + 1).copied().unwrap_or(n) - 1;
            let pts = &self.points;
            let Some(first_touched) = (start..=end).find(|&i| pts[i].touched) else {
                continue;
            };
            let mut point = first_touched;
            let mut last_touched;
            loop {
                while point < end && pts[point + 1].touched {
                    point += 1;
                }
                last_touched = point;
                point += 1;
                while point <= end && !pts[point].touched {
                    point += 1;
                }
                if point > end {
                    break;
                }
                iup_interp(
                    pts,
                    &mut out,
                    last_touched + 1,
                    point - 1,
                    last_touched,
                    point,
                );
            }
            if last_touched == first_touched {
                let delta = pts[first_touched].y - pts[first_touched].oy;
                for i in start..=end {
                    if i != first_touched {
                        out[i] = pts[i].oy + delta;
                    }
                }
            } else {
                if last_touched < end {
                    iup_interp(
                        pts,
                        &mut out,
                        last_touched + 1,
                        end,
                        last_touched,
                        first_touched,
                    );
                }
                if first_touched > start {
                    iup_interp(
                        pts,
                        &mut out,
                        start,
                        first_touched - 1,
                        last_touched,
                        first_touched,
                    );
                }
            }
        }
        for (p, y) in self.points.iter_mut().zip(out) {
            p.y = y;
        }
    }

    /// The outline with the hinted heights (device px, y up).
    pub(super) fn save(&self, outline: &[PathCmd]) -> Vec<PathCmd> {
        let ys: Vec<f32> = self.points.iter().map(|p| p.y as f32 / 64.0).collect();
        map_points(outline, &ys)
    }
}

/// Interpolates the points `p1..=p2` between the touched `r1` and `r2` by their original
/// heights (`af_iup_interp`).
fn iup_interp(pts: &[Point], out: &mut [i64], p1: usize, p2: usize, r1: usize, r2: usize) {
    if p1 > p2 {
        return;
    }
    let (mut a, mut b) = (r1, r2);
    if pts[a].oy > pts[b].oy {
        std::mem::swap(&mut a, &mut b);
    }
    let (v1, v2, u1, u2) = (pts[a].oy, pts[b].oy, pts[a].y, pts[b].y);
    let (d1, d2) = (u1 - v1, u2 - v2);
    let scale = if u1 == u2 || v1 == v2 {
        None
    } else {
        Some(div_fix(u2 - u1, v2 - v1))
    };
    for i in p1..=p2 {
        let v = pts[i].oy;
        out[i] = if v <= v1 {
            v + d1
        } else if v >= v2 {
            v + d2
        } else {
            match scale {
                Some(s) => u1 + mul_fix(v - v1, s),
                None => u1,
            }
        };
    }
}
