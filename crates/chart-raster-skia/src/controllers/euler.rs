//! chartjs-chart-venn 4.3.7's `euler` layout: @upsetjs/venn.js 2's `layout(data, {width,
//! height, distinct: true})` written again — `addMissingAreas`, the greedy initial layout,
//! Nelder–Mead over the loss, `normalizeSolution`, `scaleSolution`, the text centres and
//! the regions' arcs — then the plugin's `euler()` placing labels and region paths.
//!
//! Exact where venn.js is deterministic (every step is); approximated: `bestInitialLayout`'s
//! constrained-MDS alternative (tried by venn.js from eight areas on, with random restarts)
//! is not run here, so diagrams of many sets may settle elsewhere.
//!
//! Hostile input: sets and areas are cut at budgets before anything runs (the loss is
//! quadratic in sets), every optimiser loop is bounded by venn.js's own iteration counts and
//! polls the [`Cancel`], and union-find and the text-centre retry are iterative.

use chart_spec::Cancel;
use std::collections::HashMap;

/// venn.js's `SMALL` of the intersection code.
const SMALL: f64 = 1e-10;
/// Sets (one-set entries) laid out; beyond them entries are left out.
pub const MAX_SETS: usize = 24;
/// Areas (entries with their missing pairs) weighed by the loss.
pub const MAX_AREAS: usize = 400;

/// A circle of the layout.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Circle {
    /// Centre x.
    pub x: f64,
    /// Centre y.
    pub y: f64,
    /// Radius.
    pub radius: f64,
}

/// One data entry: its sets (names) and size.
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    /// `sets`.
    pub sets: Vec<String>,
    /// `size` (the entry's `value`).
    pub size: f64,
}

/// An arc of a region outline (`intersectionArea`'s `arcs`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegionArc {
    /// The circle.
    pub circle: Circle,
    /// Arc width (sagitta).
    pub width: f64,
    /// End point.
    pub p1: (f64, f64),
    /// Start point.
    pub p2: (f64, f64),
    /// `width > radius`.
    pub large: bool,
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    libm::sqrt((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1))
}

fn circle_area(r: f64, width: f64) -> f64 {
    r * r * libm::acos(1.0 - width / r) - (r - width) * libm::sqrt(width * (2.0 * r - width))
}

/// `circleOverlap(r1, r2, d)`.
fn circle_overlap(r1: f64, r2: f64, d: f64) -> f64 {
    if d >= r1 + r2 {
        return 0.0;
    }
    if d <= (r1 - r2).abs() {
        return std::f64::consts::PI * r1.min(r2) * r1.min(r2);
    }
    let w1 = r1 - (d * d - r2 * r2 + r1 * r1) / (2.0 * d);
    let w2 = r2 - (d * d - r1 * r1 + r2 * r2) / (2.0 * d);
    circle_area(r1, w1) + circle_area(r2, w2)
}

/// `circleCircleIntersection`.
fn circle_circle_intersection(p1: Circle, p2: Circle) -> Vec<(f64, f64)> {
    let d = distance((p1.x, p1.y), (p2.x, p2.y));
    let (r1, r2) = (p1.radius, p2.radius);
    if d >= r1 + r2 || d <= (r1 - r2).abs() {
        return Vec::new();
    }
    let a = (r1 * r1 - r2 * r2 + d * d) / (2.0 * d);
    let h = libm::sqrt(r1 * r1 - a * a);
    let x0 = p1.x + (a * (p2.x - p1.x)) / d;
    let y0 = p1.y + (a * (p2.y - p1.y)) / d;
    let rx = -(p2.y - p1.y) * (h / d);
    let ry = -(p2.x - p1.x) * (h / d);
    vec![(x0 + rx, y0 - ry), (x0 - rx, y0 + ry)]
}

/// `bisect(f, a, b)` with venn.js's defaults (100 iterations, tolerance 1e-10).
fn bisect(f: impl Fn(f64) -> f64, mut a: f64, b: f64) -> f64 {
    let fa = f(a);
    let fb = f(b);
    let mut delta = b - a;
    if fa * fb > 0.0 {
        // venn.js throws here; the caller's distance falls back to the far end.
        return b;
    }
    if fa == 0.0 {
        return a;
    }
    if fb == 0.0 {
        return b;
    }
    for _ in 0..100 {
        delta /= 2.0;
        let mid = a + delta;
        let fm = f(mid);
        if fm * fa >= 0.0 {
            a = mid;
        }
        if delta.abs() < 1e-10 || fm == 0.0 {
            return mid;
        }
    }
    a + delta
}

/// `distanceFromIntersectArea`.
fn distance_from_intersect_area(r1: f64, r2: f64, overlap: f64) -> f64 {
    if r1.min(r2) * r1.min(r2) * std::f64::consts::PI <= overlap + 1e-10 {
        return (r1 - r2).abs();
    }
    bisect(|d| circle_overlap(r1, r2, d) - overlap, 0.0, r1 + r2)
}

/// `intersectionArea(circles, stats)`: the area and the outline's arcs.
pub fn intersection_area(circles: &[Circle]) -> (f64, Vec<RegionArc>) {
    // getIntersectionPoints: (x, y, parent indices).
    let mut points: Vec<(f64, f64, [usize; 2])> = Vec::new();
    for i in 0..circles.len() {
        for j in (i + 1)..circles.len() {
            for p in circle_circle_intersection(circles[i], circles[j]) {
                points.push((p.0, p.1, [i, j]));
            }
        }
    }
    let inner: Vec<(f64, f64, [usize; 2])> = points
        .into_iter()
        .filter(|p| {
            circles
                .iter()
                .all(|c| distance((p.0, p.1), (c.x, c.y)) < c.radius + SMALL)
        })
        .collect();
    let mut arc_area = 0.0;
    let mut polygon_area = 0.0;
    let mut arcs = Vec::new();
    if inner.len() > 1 {
        let n = inner.len() as f64;
        let cx = inner.iter().map(|p| p.0).sum::<f64>() / n;
        let cy = inner.iter().map(|p| p.1).sum::<f64>() / n;
        let mut inner: Vec<(f64, (f64, f64, [usize; 2]))> = inner
            .into_iter()
            .map(|p| (libm::atan2(p.0 - cx, p.1 - cy), p))
            .collect();
        // `innerPoints.sort((a, b) => b.angle - a.angle)`: stable, descending.
        inner.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut p2 = inner[inner.len() - 1].1;
        for &(_, p1) in &inner {
            polygon_area += (p2.0 + p1.0) * (p1.1 - p2.1);
            let mid = ((p1.0 + p2.0) / 2.0, (p1.1 + p2.1) / 2.0);
            let mut arc: Option<RegionArc> = None;
            for &j in &p1.2 {
                if !p2.2.contains(&j) {
                    continue;
                }
                let c = circles[j];
                let a1 = libm::atan2(p1.0 - c.x, p1.1 - c.y);
                let a2 = libm::atan2(p2.0 - c.x, p2.1 - c.y);
                let mut diff = a2 - a1;
                if diff < 0.0 {
                    diff += 2.0 * std::f64::consts::PI;
                }
                let a = a2 - diff / 2.0;
                let mut width = distance(
                    mid,
                    (c.x + c.radius * libm::sin(a), c.y + c.radius * libm::cos(a)),
                );
                if width > c.radius * 2.0 {
                    width = c.radius * 2.0;
                }
                if arc.is_none_or(|best| best.width > width) {
                    arc = Some(RegionArc {
                        circle: c,
                        width,
                        p1: (p1.0, p1.1),
                        p2: (p2.0, p2.1),
                        large: width > c.radius,
                    });
                }
            }
            if let Some(a) = arc {
                arc_area += circle_area(a.circle.radius, a.width);
                arcs.push(a);
                p2 = p1;
            }
        }
    } else if let Some(&first) = circles.first() {
        let mut smallest = first;
        for c in &circles[1..] {
            if c.radius < smallest.radius {
                smallest = *c;
            }
        }
        let disjoint = circles.iter().any(|c| {
            distance((c.x, c.y), (smallest.x, smallest.y)) > (smallest.radius - c.radius).abs()
        });
        if !disjoint {
            arc_area = smallest.radius * smallest.radius * std::f64::consts::PI;
            arcs.push(RegionArc {
                circle: smallest,
                width: smallest.radius * 2.0,
                p1: (smallest.x, smallest.y + smallest.radius),
                p2: (smallest.x - SMALL, smallest.y + smallest.radius),
                large: true,
            });
        }
    }
    (arc_area + polygon_area / 2.0, arcs)
}

/// The order of a JavaScript object's own string keys: array-index keys ascending, then the
/// others in insertion order.
fn js_key_order(keys: &[String]) -> Vec<usize> {
    let index = |k: &str| -> Option<u32> {
        let n: u32 = k.parse().ok()?;
        (n.to_string() == k && n != u32::MAX).then_some(n)
    };
    let mut idx: Vec<(u32, usize)> = Vec::new();
    let mut rest = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        match index(k) {
            Some(n) => idx.push((n, i)),
            None => rest.push(i),
        }
    }
    idx.sort_unstable();
    idx.into_iter().map(|(_, i)| i).chain(rest).collect()
}

/// The circles by set, in JavaScript key order.
#[derive(Debug, Clone, Default)]
struct Circles {
    names: Vec<String>,
    circles: Vec<Circle>,
    by_name: HashMap<String, usize>,
}

impl Circles {
    fn get(&self, name: &str) -> Option<Circle> {
        self.by_name.get(name).map(|&i| self.circles[i])
    }
}

/// `lossFunction(circles, overlaps)`.
fn loss(c: &Circles, areas: &[Area]) -> f64 {
    let mut out = 0.0;
    for area in areas {
        if area.sets.len() == 1 {
            continue;
        }
        let overlap = if area.sets.len() == 2 {
            match (c.get(&area.sets[0]), c.get(&area.sets[1])) {
                (Some(l), Some(r)) => {
                    circle_overlap(l.radius, r.radius, distance((l.x, l.y), (r.x, r.y)))
                }
                _ => f64::NAN,
            }
        } else {
            let cs: Option<Vec<Circle>> = area.sets.iter().map(|s| c.get(s)).collect();
            cs.map_or(f64::NAN, |cs| intersection_area(&cs).0)
        };
        out += (overlap - area.size) * (overlap - area.size);
    }
    out
}

/// `addMissingAreas(areas, {distinct: true})`.
fn add_missing_areas(areas: &[Area]) -> Vec<Area> {
    let mut r: Vec<Area> = areas.to_vec();
    let mut count: HashMap<String, f64> = HashMap::new();
    for area in &r {
        for i in 0..area.sets.len() {
            let si = &area.sets[i];
            *count.entry(si.clone()).or_insert(0.0) += area.size;
            for sj in &area.sets[i + 1..] {
                *count.entry(format!("{si};{sj}")).or_insert(0.0) += area.size;
                *count.entry(format!("{sj};{si}")).or_insert(0.0) += area.size;
            }
        }
    }
    for area in r.iter_mut() {
        if area.sets.len() < 3 {
            area.size = count.get(&area.sets.join(";")).copied().unwrap_or(f64::NAN);
        }
    }
    let mut ids: Vec<String> = Vec::new();
    let mut pairs = std::collections::HashSet::new();
    for area in &r {
        match area.sets.as_slice() {
            [a] => ids.push(a.clone()),
            [a, b] => {
                pairs.insert(format!("{a};{b}"));
                pairs.insert(format!("{b};{a}"));
            }
            _ => {}
        }
    }
    ids.sort();
    for i in 0..ids.len() {
        for j in (i + 1)..ids.len() {
            if r.len() >= MAX_AREAS {
                return r;
            }
            if !pairs.contains(&format!("{};{}", ids[i], ids[j])) {
                r.push(Area {
                    sets: vec![ids[i].clone(), ids[j].clone()],
                    size: 0.0,
                });
            }
        }
    }
    r
}

/// `greedyLayout(areas)`.
fn greedy_layout(areas: &[Area]) -> Circles {
    let mut c = Circles::default();
    let mut sizes: Vec<f64> = Vec::new();
    for area in areas {
        if let [set] = area.sets.as_slice() {
            let circle = Circle {
                x: 1e10,
                y: 1e10,
                radius: libm::sqrt(area.size / std::f64::consts::PI),
            };
            match c.by_name.get(set) {
                Some(&i) => {
                    c.circles[i] = circle;
                    sizes[i] = area.size;
                }
                None => {
                    c.by_name.insert(set.clone(), c.names.len());
                    c.names.push(set.clone());
                    c.circles.push(circle);
                    sizes.push(area.size);
                }
            }
        }
    }
    // JavaScript key order of `circles` and `setOverlaps`.
    let order = js_key_order(&c.names);
    let pairs: Vec<&Area> = areas.iter().filter(|a| a.sets.len() == 2).collect();
    let pair_areas: Vec<Area> = pairs.iter().map(|a| (*a).clone()).collect();
    // setOverlaps[set] = [(other, size, weight)].
    let mut overlaps: Vec<Vec<(usize, f64, f64)>> = vec![Vec::new(); c.names.len()];
    for a in &pairs {
        let (Some(&l), Some(&r)) = (c.by_name.get(&a.sets[0]), c.by_name.get(&a.sets[1])) else {
            continue;
        };
        let weight = if a.size + 1e-10 >= sizes[l].min(sizes[r]) {
            0.0
        } else {
            1.0
        };
        overlaps[l].push((r, a.size, weight));
        overlaps[r].push((l, a.size, weight));
    }
    let mut most: Vec<(usize, f64)> = order
        .iter()
        .map(|&i| (i, overlaps[i].iter().map(|o| o.1 * o.2).sum::<f64>()))
        .collect();
    most.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut positioned = vec![false; c.names.len()];
    let Some(&(first, _)) = most.first() else {
        return c;
    };
    c.circles[first].x = 0.0;
    c.circles[first].y = 0.0;
    positioned[first] = true;
    for &(set, _) in &most[1..] {
        let mut overlap: Vec<(usize, f64, f64)> = overlaps[set]
            .iter()
            .copied()
            .filter(|o| positioned[o.0])
            .collect();
        overlap.sort_by(|a, b| b.1.total_cmp(&a.1));
        if overlap.is_empty() {
            // venn.js throws ('missing pairwise overlap information'); left where it is.
            positioned[set] = true;
            continue;
        }
        let radius = c.circles[set].radius;
        let mut points: Vec<(f64, f64)> = Vec::new();
        for j in 0..overlap.len() {
            let p1 = c.circles[overlap[j].0];
            let d1 = distance_from_intersect_area(radius, p1.radius, overlap[j].1);
            points.push((p1.x + d1, p1.y));
            points.push((p1.x - d1, p1.y));
            points.push((p1.x, p1.y + d1));
            points.push((p1.x, p1.y - d1));
            for other in &overlap[j + 1..] {
                let p2 = c.circles[other.0];
                let d2 = distance_from_intersect_area(radius, p2.radius, other.1);
                points.extend(circle_circle_intersection(
                    Circle {
                        x: p1.x,
                        y: p1.y,
                        radius: d1,
                    },
                    Circle {
                        x: p2.x,
                        y: p2.y,
                        radius: d2,
                    },
                ));
            }
        }
        let mut best_loss = 1e50;
        let mut best = points[0];
        for &p in &points {
            c.circles[set].x = p.0;
            c.circles[set].y = p.1;
            let l = loss(&c, &pair_areas);
            if l < best_loss {
                best_loss = l;
                best = p;
            }
        }
        c.circles[set].x = best.0;
        c.circles[set].y = best.1;
        positioned[set] = true;
    }
    c
}

/// `nelderMead(f, x0, {maxIterations, minErrorDelta})` with venn.js's defaults; stops early
/// when `cancel` fires.
fn nelder_mead(
    f: &mut dyn FnMut(&[f64]) -> f64,
    x0: &[f64],
    max_iterations: usize,
    min_error_delta: Option<f64>,
    cancel: &Cancel,
) -> Vec<f64> {
    if x0.is_empty() {
        return Vec::new();
    }
    let (rho, chi, psi, sigma) = (1.0, 2.0, -0.5, 0.5);
    // `minErrorDelta || 1e-6` and `minTolerance = minErrorDelta || 1e-5`.
    let min_tolerance = min_error_delta.unwrap_or(1e-5);
    let min_error_delta = min_error_delta.unwrap_or(1e-6);
    let n = x0.len();
    let mut simplex: Vec<(Vec<f64>, f64)> = Vec::with_capacity(n + 1);
    simplex.push((x0.to_vec(), f(x0)));
    for i in 0..n {
        let mut p = x0.to_vec();
        p[i] = if p[i] != 0.0 { p[i] * 1.05 } else { 0.001 };
        let fx = f(&p);
        simplex.push((p, fx));
    }
    let weighted = |w1: f64, v1: &[f64], w2: f64, v2: &[f64]| -> Vec<f64> {
        v1.iter().zip(v2).map(|(a, b)| w1 * a + w2 * b).collect()
    };
    let order = |a: &(Vec<f64>, f64), b: &(Vec<f64>, f64)| super::simplex_order::by_loss(a.1, b.1);
    for _ in 0..max_iterations {
        if cancel.is_cancelled() {
            break;
        }
        simplex.sort_by(order);
        let mut max_diff: f64 = 0.0;
        for i in 0..n {
            max_diff = max_diff.max((simplex[0].0[i] - simplex[1].0[i]).abs());
        }
        if (simplex[0].1 - simplex[n].1).abs() < min_error_delta && max_diff < min_tolerance {
            break;
        }
        let mut centroid = vec![0.0; n];
        for (i, c) in centroid.iter_mut().enumerate() {
            for s in &simplex[..n] {
                *c += s.0[i];
            }
            *c /= n as f64;
        }
        let worst = simplex[n].clone();
        let reflected = weighted(1.0 + rho, &centroid, -rho, &worst.0);
        let rfx = f(&reflected);
        if rfx < simplex[0].1 {
            let expanded = weighted(1.0 + chi, &centroid, -chi, &worst.0);
            let efx = f(&expanded);
            simplex[n] = if efx < rfx {
                (expanded, efx)
            } else {
                (reflected, rfx)
            };
        } else if rfx >= simplex[n - 1].1 {
            let mut reduce = false;
            if rfx > worst.1 {
                let contracted = weighted(1.0 + psi, &centroid, -psi, &worst.0);
                let cfx = f(&contracted);
                if cfx < worst.1 {
                    simplex[n] = (contracted, cfx);
                } else {
                    reduce = true;
                }
            } else {
                let contracted = weighted(1.0 - psi * rho, &centroid, psi * rho, &worst.0);
                let cfx = f(&contracted);
                if cfx < rfx {
                    simplex[n] = (contracted, cfx);
                } else {
                    reduce = true;
                }
            }
            if reduce {
                let best = simplex[0].0.clone();
                for s in simplex.iter_mut().skip(1) {
                    s.0 = weighted(1.0 - sigma, &best, sigma, &s.0);
                    s.1 = f(&s.0);
                }
            }
        } else {
            simplex[n] = (reflected, rfx);
        }
    }
    simplex.sort_by(order);
    simplex.swap_remove(0).0
}

/// `venn(areas, {distinct: true})`: greedy layout, then Nelder–Mead on the loss.
fn venn(areas: &[Area], cancel: &Cancel) -> (Circles, Vec<Area>) {
    let areas = add_missing_areas(areas);
    let mut c = greedy_layout(&areas);
    let order = js_key_order(&c.names);
    let initial: Vec<f64> = order
        .iter()
        .flat_map(|&i| [c.circles[i].x, c.circles[i].y])
        .collect();
    let base = c.clone();
    let mut f = |v: &[f64]| {
        let mut cur = base.clone();
        for (k, &i) in order.iter().enumerate() {
            cur.circles[i].x = v[2 * k];
            cur.circles[i].y = v[2 * k + 1];
        }
        loss(&cur, &areas)
    };
    let solution = nelder_mead(&mut f, &initial, 500, None, cancel);
    for (k, &i) in order.iter().enumerate() {
        c.circles[i].x = solution[2 * k];
        c.circles[i].y = solution[2 * k + 1];
    }
    (c, areas)
}

/// `getBoundingBox`: (x min, x max, y min, y max).
fn bounding_box(circles: &[Circle]) -> (f64, f64, f64, f64) {
    let mut b = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for c in circles {
        b.0 = b.0.min(c.x - c.radius);
        b.1 = b.1.max(c.x + c.radius);
        b.2 = b.2.min(c.y - c.radius);
        b.3 = b.3.max(c.y + c.radius);
    }
    b
}

/// `orientateCircles(circles, π/2)` on one cluster (indices into `all`).
fn orientate(all: &mut [Circle], cluster: &mut [usize], orientation: f64) {
    cluster.sort_by(|&a, &b| all[b].radius.total_cmp(&all[a].radius));
    if let Some(&first) = cluster.first() {
        let (lx, ly) = (all[first].x, all[first].y);
        for &i in cluster.iter() {
            all[i].x -= lx;
            all[i].y -= ly;
        }
    }
    if cluster.len() == 2 {
        let (a, b) = (all[cluster[0]], all[cluster[1]]);
        if distance((a.x, a.y), (b.x, b.y)) < (b.radius - a.radius).abs() {
            all[cluster[1]].x = a.x + a.radius - b.radius - 1e-10;
            all[cluster[1]].y = a.y;
        }
    }
    if cluster.len() > 1 {
        let second = all[cluster[1]];
        let rotation = libm::atan2(second.x, second.y) - orientation;
        let (c, s) = (libm::cos(rotation), libm::sin(rotation));
        for &i in cluster.iter() {
            let (x, y) = (all[i].x, all[i].y);
            all[i].x = c * x - s * y;
            all[i].y = s * x + c * y;
        }
    }
    if cluster.len() > 2 {
        let third = all[cluster[2]];
        let tau = 2.0 * std::f64::consts::PI;
        let mut angle = libm::atan2(third.x, third.y) - orientation;
        // `while (angle < 0) angle += 2π` and back: a remainder (finite angles only).
        if angle.is_finite() {
            angle = angle.rem_euclid(tau);
        }
        if angle > std::f64::consts::PI {
            let second = all[cluster[1]];
            let slope = second.y / (1e-10 + second.x);
            for &i in cluster.iter() {
                let d = (all[i].x + slope * all[i].y) / (1.0 + slope * slope);
                all[i].x = 2.0 * d - all[i].x;
                all[i].y = 2.0 * d * slope - all[i].y;
            }
        }
    }
}

/// `normalizeSolution(solution, π/2)`: the circles (in their original order) and the order
/// venn.js's answer lists them in (clusters by size, each largest circle first).
fn normalize(circles: &[Circle]) -> (Vec<Circle>, Vec<usize>) {
    let mut all = circles.to_vec();
    let n = all.len();
    // disjointCluster: union-find (iterative, with path halving: the same roots as venn.js's
    // recursive compression), then clusters in the order of their root's first appearance.
    let mut parent: Vec<usize> = (0..n).collect();
    let find = |parent: &mut Vec<usize>, mut i: usize| {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    };
    for i in 0..n {
        for j in (i + 1)..n {
            let max = all[i].radius + all[j].radius;
            if distance((all[i].x, all[i].y), (all[j].x, all[j].y)) + 1e-10 < max {
                let (xr, yr) = (find(&mut parent, j), find(&mut parent, i));
                parent[xr] = yr;
            }
        }
    }
    let mut roots: Vec<usize> = Vec::new();
    let mut clusters: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        let r = find(&mut parent, i);
        match roots.iter().position(|&x| x == r) {
            Some(k) => clusters[k].push(i),
            None => {
                roots.push(r);
                clusters.push(vec![i]);
            }
        }
    }
    type Sized = (Vec<usize>, f64, (f64, f64, f64, f64));
    let mut sized: Vec<Sized> = Vec::new();
    for mut cluster in clusters {
        orientate(&mut all, &mut cluster, std::f64::consts::FRAC_PI_2);
        let cs: Vec<Circle> = cluster.iter().map(|&i| all[i]).collect();
        let b = bounding_box(&cs);
        sized.push((cluster, (b.1 - b.0) * (b.3 - b.2), b));
    }
    sized.sort_by(|a, b| b.1.total_cmp(&a.1));
    let Some((first, _, mut bounds)) = sized.first().cloned() else {
        return (all, Vec::new());
    };
    let mut placed: Vec<usize> = first;
    let spacing = (bounds.1 - bounds.0) / 50.0;
    let mut index = 1;
    while index < sized.len() {
        // addCluster(clusters[index], right), (index + 1, bottom), (index + 2, both), all
        // against the bounds from before this round.
        for (k, (right, bottom)) in [(true, false), (false, true), (true, true)]
            .into_iter()
            .enumerate()
        {
            let Some((cluster, _, cb)) = sized.get(index + k).cloned() else {
                continue;
            };
            let x_off = if right {
                bounds.1 - cb.0 + spacing
            } else {
                let c = (cb.1 - cb.0) / 2.0 - (bounds.1 - bounds.0) / 2.0;
                bounds.1 - cb.1 + c.min(0.0)
            };
            let y_off = if bottom {
                bounds.3 - cb.2 + spacing
            } else {
                let c = (cb.3 - cb.2) / 2.0 - (bounds.3 - bounds.2) / 2.0;
                bounds.3 - cb.3 + c.min(0.0)
            };
            for &i in &cluster {
                all[i].x += x_off;
                all[i].y += y_off;
                placed.push(i);
            }
        }
        index += 3;
        let cs: Vec<Circle> = placed.iter().map(|&i| all[i]).collect();
        bounds = bounding_box(&cs);
    }
    (all, placed)
}

/// `scaleSolution(solution, width, height, padding 15, false)`.
fn scale_solution(circles: &[Circle], width: f64, height: f64) -> Vec<Circle> {
    let padding = 15.0;
    let (w, h) = (width - 2.0 * padding, height - 2.0 * padding);
    let (x0, x1, y0, y1) = bounding_box(circles);
    if x1 == x0 || y1 == y0 {
        return circles.to_vec();
    }
    let scaling = (h / (y1 - y0)).min(w / (x1 - x0));
    let x_off = (w - (x1 - x0) * scaling) / 2.0;
    let y_off = (h - (y1 - y0) * scaling) / 2.0;
    circles
        .iter()
        .map(|c| Circle {
            radius: scaling * c.radius,
            x: padding + x_off + (c.x - x0) * scaling,
            y: padding + y_off + (c.y - y0) * scaling,
        })
        .collect()
}

fn circle_margin(p: (f64, f64), interior: &[Circle], exterior: &[Circle]) -> f64 {
    let mut margin = interior
        .first()
        .map_or(f64::NAN, |c| c.radius - distance((c.x, c.y), p));
    for c in interior.iter().skip(1) {
        let m = c.radius - distance((c.x, c.y), p);
        if m <= margin {
            margin = m;
        }
    }
    for c in exterior {
        let m = distance((c.x, c.y), p) - c.radius;
        if m <= margin {
            margin = m;
        }
    }
    margin
}

/// `computeTextCentre(interior, exterior)`; the retry without the exterior circles is the
/// loop's second round (venn.js recurses once).
fn text_centre(interior: &[Circle], exterior: &[Circle], cancel: &Cancel) -> (f64, f64) {
    let mut exterior = exterior;
    loop {
        let mut points = Vec::new();
        for c in interior {
            points.push((c.x, c.y));
            points.push((c.x + c.radius / 2.0, c.y));
            points.push((c.x - c.radius / 2.0, c.y));
            points.push((c.x, c.y + c.radius / 2.0));
            points.push((c.x, c.y - c.radius / 2.0));
        }
        let Some(&p0) = points.first() else {
            return (0.0, -1e3);
        };
        let mut initial = p0;
        let mut margin = circle_margin(p0, interior, exterior);
        for &p in &points[1..] {
            let m = circle_margin(p, interior, exterior);
            if m >= margin {
                initial = p;
                margin = m;
            }
        }
        let mut f = |v: &[f64]| -circle_margin((v[0], v[1]), interior, exterior);
        let s = nelder_mead(&mut f, &[initial.0, initial.1], 500, Some(1e-10), cancel);
        let ret = (s[0], s[1]);
        let valid = interior
            .iter()
            .all(|c| distance(ret, (c.x, c.y)) <= c.radius)
            && exterior
                .iter()
                .all(|c| distance(ret, (c.x, c.y)) >= c.radius);
        if valid {
            return ret;
        }
        if interior.len() == 1 {
            return (interior[0].x, interior[0].y);
        }
        let (_, arcs) = intersection_area(interior);
        if arcs.is_empty() {
            return (0.0, -1e3);
        }
        if arcs.len() == 1 {
            return (arcs[0].circle.x, arcs[0].circle.y);
        }
        if !exterior.is_empty() {
            exterior = &[];
            continue;
        }
        let n = arcs.len() as f64;
        return (
            arcs.iter().map(|a| a.p1.0).sum::<f64>() / n,
            arcs.iter().map(|a| a.p1.1).sum::<f64>() / n,
        );
    }
}

/// One region of the layout (`layout()`'s entry per data area).
#[derive(Debug, Clone, PartialEq)]
pub struct LaidOutArea {
    /// The area's circles.
    pub circles: Vec<Circle>,
    /// Its outline arcs.
    pub arcs: Vec<RegionArc>,
    /// Text centre.
    pub text: (f64, f64),
    /// The outline arcs of every area containing this one's sets and more (drawn as holes:
    /// `distinctPath`), each as an outline.
    pub holes: Vec<Vec<RegionArc>>,
}

/// venn.js's `layout(data, {width, height, distinct: true})`: per data area, in data order.
/// Also answers the circle of each set by name. Entries past [`MAX_AREAS`], naming a set past
/// the first [`MAX_SETS`] or of a non-finite size are left out (no region).
pub fn layout(
    data: &[Area],
    width: f64,
    height: f64,
    cancel: &Cancel,
) -> (Vec<LaidOutArea>, HashMap<String, Circle>) {
    // The budgets: the first MAX_AREAS entries, over the first MAX_SETS sets.
    let mut sets: Vec<&str> = Vec::new();
    for d in data.iter().take(MAX_AREAS) {
        if let [s] = d.sets.as_slice() {
            if sets.len() < MAX_SETS && !sets.contains(&s.as_str()) {
                sets.push(s);
            }
        }
    }
    let kept: Vec<bool> = data
        .iter()
        .enumerate()
        .map(|(i, d)| {
            i < MAX_AREAS
                && (d.size.is_finite())
                && d.sets.iter().all(|s| sets.contains(&s.as_str()))
        })
        .collect();
    let data_kept: Vec<Area> = data
        .iter()
        .zip(&kept)
        .filter(|(_, k)| **k)
        .map(|(d, _)| d.clone())
        .collect();
    let (c, _) = venn(&data_kept, cancel);
    let order = js_key_order(&c.names);
    let ordered: Vec<Circle> = order.iter().map(|&i| c.circles[i]).collect();
    let (normalized, placed) = normalize(&ordered);
    let scaled = scale_solution(&normalized, width, height);
    let mut by_name: HashMap<String, Circle> = HashMap::new();
    for (k, &i) in order.iter().enumerate() {
        by_name.insert(c.names[i].clone(), scaled[k]);
    }
    // The answer's key order: as normalizeSolution pushed the circles.
    let names_in_order: Vec<&String> = placed.iter().map(|&k| &c.names[order[k]]).collect();
    // getOverlappingCircles: per set, the sets whose circles contain it.
    let mut overlapped: HashMap<&str, Vec<&str>> = HashMap::new();
    for (i, a) in names_in_order.iter().enumerate() {
        for b in &names_in_order[i + 1..] {
            let (ca, cb) = (by_name[*a], by_name[*b]);
            let d = distance((ca.x, ca.y), (cb.x, cb.y));
            if d + cb.radius <= ca.radius + 1e-10 {
                overlapped.entry(b.as_str()).or_default().push(a.as_str());
            } else if d + ca.radius <= cb.radius + 1e-10 {
                overlapped.entry(a.as_str()).or_default().push(b.as_str());
            }
        }
    }
    let mut out: Vec<LaidOutArea> = Vec::with_capacity(data.len());
    let mut arcs_of: Vec<Vec<RegionArc>> = Vec::with_capacity(data.len());
    for (area, &keep) in data.iter().zip(&kept) {
        if !keep {
            out.push(LaidOutArea {
                circles: Vec::new(),
                arcs: Vec::new(),
                text: (0.0, -1e3),
                holes: Vec::new(),
            });
            arcs_of.push(Vec::new());
            continue;
        }
        let circles: Vec<Circle> = area
            .sets
            .iter()
            .filter_map(|s| by_name.get(s).copied())
            .collect();
        let exclude: Vec<&str> = area
            .sets
            .iter()
            .flat_map(|s| overlapped.get(s.as_str()).cloned().unwrap_or_default())
            .collect();
        let mut interior = Vec::new();
        let mut exterior = Vec::new();
        for name in &names_in_order {
            let circle = by_name[*name];
            if area.sets.iter().any(|s| s == *name) {
                interior.push(circle);
            } else if !exclude.contains(&name.as_str()) {
                exterior.push(circle);
            }
        }
        let text = if cancel.is_cancelled() {
            (0.0, -1e3)
        } else {
            text_centre(&interior, &exterior, cancel)
        };
        let arcs = if circles.is_empty() {
            Vec::new()
        } else {
            intersection_area(&circles).1
        };
        arcs_of.push(arcs.clone());
        out.push(LaidOutArea {
            circles,
            arcs,
            text,
            holes: Vec::new(),
        });
    }
    // genDistinctPath: the paths of every area with more sets, all of this one's among them;
    // each entry's distinct sets sorted once (a sort per pair never ended on 99,000 entries),
    // for the kept areas only (the others have no arcs, so their holes are never read).
    let distinct: Vec<std::collections::BTreeSet<&String>> =
        data.iter().map(|e| e.sets.iter().collect()).collect();
    for (i, area) in data.iter().enumerate().filter(|(i, _)| kept[*i]) {
        if cancel.is_cancelled() {
            break;
        }
        out[i].holes = (distinct.iter().zip(&arcs_of))
            .filter(|(e, _)| e.len() > area.sets.len() && distinct[i].is_subset(e))
            .map(|(_, arcs)| arcs.clone())
            .collect();
    }
    (out, by_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(sets: &[&str], size: f64) -> Area {
        Area {
            sets: sets.iter().map(|s| s.to_string()).collect(),
            size,
        }
    }

    #[test]
    fn two_circles_overlap_by_the_requested_area() {
        let d = distance_from_intersect_area(2.0, 2.0, 1.0);
        assert!((circle_overlap(2.0, 2.0, d) - 1.0).abs() < 1e-8);
        assert_eq!(
            js_key_order(&["b".into(), "2".into(), "a".into(), "1".into()]),
            vec![3, 1, 0, 2]
        );
    }

    #[test]
    fn a_chain_lays_out_and_fits_the_box() {
        let data = [
            area(&["A"], 12.0),
            area(&["B"], 9.0),
            area(&["C"], 5.0),
            area(&["A", "B"], 3.0),
            area(&["B", "C"], 2.0),
        ];
        let (areas, circles) = layout(&data, 600.0, 400.0, &Cancel::new());
        assert_eq!(areas.len(), 5);
        for c in circles.values() {
            assert!(c.x - c.radius >= 14.0 && c.x + c.radius <= 586.0, "{c:?}");
        }
        // A and C are disjoint, A and B overlap.
        let (a, b, c) = (circles["A"], circles["B"], circles["C"]);
        assert!(distance((a.x, a.y), (c.x, c.y)) >= a.radius + c.radius - 1e-6);
        assert!(distance((a.x, a.y), (b.x, b.y)) < a.radius + b.radius);
        // The A ∩ B region has two arcs; A alone has the lens as its hole.
        assert_eq!(areas[3].arcs.len(), 2);
        assert_eq!(areas[0].holes.len(), 1);
    }
}
