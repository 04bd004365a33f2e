//! chartjs-chart-graph 4.3.5's `forceDirectedGraph` layout: d3-force 3's simulation, replayed
//! tick for tick (`forceSimulation` with the plugin's forces in its order: center, collide,
//! link, manyBody, x, y, radial), then `_copyPosition`'s rescale of the positions to -1..1.
//!
//! d3-force is deterministic: nodes without a position start on its phyllotaxis spiral
//! (`initializeNodes`), and the only randomness (the jiggle of coincident nodes) comes from
//! its own linear congruential generator seeded with 1 (`lcg`), mirrored here. The
//! many-body force is Barnes–Hut over a d3-quadtree; the tree is rebuilt the way
//! `quadtree().addAll` builds it (same extent, same splits, same visiting order), so the
//! approximation made is the same one, in the same floating-point order.
//!
//! Hostile input: the caller cuts nodes and edges at the render's budgets and the ticks at
//! `max_force_work`; every position is checked for finiteness before it enters the tree;
//! the tree is an arena walked with explicit stacks; the tick loop polls the [`Cancel`].

use chart_spec::model::ForceSimulation;
use chart_spec::Cancel;

/// d3-force's `initialRadius`.
const INITIAL_RADIUS: f64 = 10.0;
/// d3-force's `alphaMin`.
const ALPHA_MIN: f64 = 0.001;
/// d3-force's `velocityDecay` (1 − 0.4).
const VELOCITY_DECAY: f64 = 0.6;
/// How many node visits between two polls of the [`Cancel`].
const CANCEL_EVERY: usize = 4096;
/// Splits of one quadtree insertion: enough to separate any two distinct finite doubles
/// (the exponent range plus the mantissa), so the loop ends even for points a bit apart.
const MAX_SPLITS: usize = 2200;

/// d3-force's `lcg()`: `s = (1664525 s + 1013904223) mod 2^32`, answered as `s / 2^32`.
#[derive(Debug, Clone)]
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = (1_664_525 * self.0 + 1_013_904_223) % 4_294_967_296;
        self.0 as f64 / 4_294_967_296.0
    }

    /// `jiggle(random)`.
    fn jiggle(&mut self) -> f64 {
        (self.next() - 0.5) * 1e-6
    }
}

/// A simulation node (`x`, `y`, `vx`, `vy`).
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
}

const NONE: u32 = u32::MAX;

/// A quadtree node: internal (four children) or a leaf (a node index and the next leaf of
/// coincident points), with the many-body force's aggregates.
#[derive(Debug, Clone, Copy)]
struct Quad {
    children: [u32; 4],
    leaf: bool,
    data: usize,
    next: u32,
    value: f64,
    x: f64,
    y: f64,
}

impl Quad {
    fn internal() -> Self {
        Self {
            children: [NONE; 4],
            leaf: false,
            data: 0,
            next: NONE,
            value: 0.0,
            x: 0.0,
            y: 0.0,
        }
    }
    fn leaf(data: usize) -> Self {
        Self {
            leaf: true,
            data,
            ..Self::internal()
        }
    }
}

/// d3-quadtree over the nodes' positions (`quadtree(nodes, d => d.x, d => d.y)`).
struct QuadTree {
    quads: Vec<Quad>,
    root: u32,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl QuadTree {
    /// `quadtree().addAll(nodes)`: the extent of the valid points first, then each point.
    fn build(nodes: &[Node]) -> Self {
        let mut t = QuadTree {
            quads: Vec::with_capacity(nodes.len() * 2),
            root: NONE,
            x0: f64::NAN,
            y0: f64::NAN,
            x1: f64::NAN,
            y1: f64::NAN,
        };
        let (mut x0, mut y0, mut x1, mut y1) = (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        );
        for n in nodes {
            if !(n.x.is_finite() && n.y.is_finite()) {
                continue;
            }
            x0 = x0.min(n.x);
            x1 = x1.max(n.x);
            y0 = y0.min(n.y);
            y1 = y1.max(n.y);
        }
        if x0 > x1 || y0 > y1 {
            return t;
        }
        t.cover(x0, y0);
        t.cover(x1, y1);
        for (i, n) in nodes.iter().enumerate() {
            if n.x.is_finite() && n.y.is_finite() {
                t.add(nodes, n.x, n.y, i);
            }
        }
        t
    }

    /// `cover(x, y)` on a tree without points yet: only the extent changes (integer corners
    /// first, then doubled towards the point).
    fn cover(&mut self, x: f64, y: f64) {
        if self.x0.is_nan() {
            self.x0 = libm::floor(x);
            self.x1 = self.x0 + 1.0;
            self.y0 = libm::floor(y);
            self.y1 = self.y0 + 1.0;
            return;
        }
        let mut z = match self.x1 - self.x0 {
            d if d != 0.0 => d,
            _ => 1.0,
        };
        // Each doubling at least doubles the side, so a finite point is covered after at most
        // about 2,100 rounds.
        let mut rounds = 0;
        while (self.x0 > x || x >= self.x1 || self.y0 > y || y >= self.y1) && rounds < MAX_SPLITS {
            rounds += 1;
            let i = (usize::from(y < self.y0) << 1) | usize::from(x < self.x0);
            z *= 2.0;
            match i {
                0 => {
                    self.x1 = self.x0 + z;
                    self.y1 = self.y0 + z;
                }
                1 => {
                    self.x0 = self.x1 - z;
                    self.y1 = self.y0 + z;
                }
                2 => {
                    self.x1 = self.x0 + z;
                    self.y0 = self.y1 - z;
                }
                _ => {
                    self.x0 = self.x1 - z;
                    self.y0 = self.y1 - z;
                }
            }
        }
    }

    fn push(&mut self, q: Quad) -> u32 {
        self.quads.push(q);
        (self.quads.len() - 1) as u32
    }

    fn set_child(&mut self, parent: Option<(u32, usize)>, child: u32) {
        match parent {
            Some((p, i)) => self.quads[p as usize].children[i] = child,
            None => self.root = child,
        }
    }

    /// d3-quadtree's `add(tree, x, y, d)`.
    fn add(&mut self, nodes: &[Node], x: f64, y: f64, d: usize) {
        let leaf = self.push(Quad::leaf(d));
        let (mut x0, mut y0, mut x1, mut y1) = (self.x0, self.y0, self.x1, self.y1);
        if self.root == NONE {
            self.root = leaf;
            return;
        }
        let mut node = self.root;
        let mut parent: Option<(u32, usize)> = None;
        while !self.quads[node as usize].leaf {
            let (i, _, _) = descend(&mut x0, &mut y0, &mut x1, &mut y1, x, y);
            parent = Some((node, i));
            let child = self.quads[node as usize].children[i];
            if child == NONE {
                self.quads[node as usize].children[i] = leaf;
                return;
            }
            node = child;
        }
        let old = self.quads[node as usize].data;
        let (xp, yp) = nodes.get(old).map_or((f64::NAN, f64::NAN), |n| (n.x, n.y));
        if x == xp && y == yp {
            self.quads[leaf as usize].next = node;
            self.set_child(parent, leaf);
            return;
        }
        for _ in 0..MAX_SPLITS {
            let split = self.push(Quad::internal());
            self.set_child(parent, split);
            let (i, xm, ym) = descend(&mut x0, &mut y0, &mut x1, &mut y1, x, y);
            let j = (usize::from(yp >= ym) << 1) | usize::from(xp >= xm);
            parent = Some((split, i));
            if i != j {
                self.quads[split as usize].children[j] = node;
                self.quads[split as usize].children[i] = leaf;
                return;
            }
        }
        // Not separated within the split budget (points closer than a double can tell):
        // kept together as coincident points.
        self.quads[leaf as usize].next = node;
        self.set_child(parent, leaf);
    }
}

/// `forceManyBody`'s `accumulate` over the tree, children before parents.
fn accumulate(t: &mut QuadTree, nodes: &[Node], strengths: &[f64]) {
    if t.root == NONE {
        return;
    }
    let mut order = Vec::with_capacity(t.quads.len());
    let mut stack = vec![t.root];
    while let Some(q) = stack.pop() {
        order.push(q);
        let quad = t.quads[q as usize];
        if !quad.leaf {
            stack.extend(quad.children.iter().copied().filter(|&c| c != NONE));
        }
    }
    for &q in order.iter().rev() {
        let quad = t.quads[q as usize];
        let mut strength = 0.0;
        if !quad.leaf {
            let (mut x, mut y, mut weight) = (0.0, 0.0, 0.0);
            for &c in &quad.children {
                if c == NONE {
                    continue;
                }
                let cq = t.quads[c as usize];
                let w = cq.value.abs();
                if w != 0.0 && !w.is_nan() {
                    strength += cq.value;
                    weight += w;
                    x += w * cq.x;
                    y += w * cq.y;
                }
            }
            let qm = &mut t.quads[q as usize];
            qm.x = x / weight;
            qm.y = y / weight;
        } else {
            let head = nodes.get(quad.data).copied().unwrap_or_default();
            let mut cur = q;
            while cur != NONE {
                let c = t.quads[cur as usize];
                strength += strengths.get(c.data).copied().unwrap_or(0.0);
                cur = c.next;
            }
            let qm = &mut t.quads[q as usize];
            qm.x = head.x;
            qm.y = head.y;
        }
        t.quads[q as usize].value = strength;
    }
}

/// The forces with their per-node and per-link constants, initialised as d3 does.
struct Forces<'a> {
    sim: &'a ForceSimulation,
    links: Vec<(usize, usize)>,
    link_strengths: Vec<f64>,
    link_bias: Vec<f64>,
    body_strength: Vec<f64>,
}

impl<'a> Forces<'a> {
    fn new(sim: &'a ForceSimulation, n: usize, edges: &[(usize, usize)]) -> Self {
        let links: Vec<(usize, usize)> = edges
            .iter()
            .copied()
            .filter(|&(s, t)| s < n && t < n)
            .collect();
        let mut count = vec![0.0f64; n];
        for &(s, t) in &links {
            count[s] += 1.0;
            count[t] += 1.0;
        }
        let link_bias = links
            .iter()
            .map(|&(s, t)| count[s] / (count[s] + count[t]))
            .collect();
        let link_strengths = links
            .iter()
            .map(|&(s, t)| match sim.link.as_ref().and_then(|l| l.strength) {
                Some(v) => v,
                None => 1.0 / count[s].min(count[t]),
            })
            .collect();
        let body_strength = vec![sim.many_body.as_ref().map_or(0.0, |m| m.strength); n];
        Self {
            sim,
            links,
            link_strengths,
            link_bias,
            body_strength,
        }
    }
}

/// The outcome of [`simulate`].
#[derive(Debug, Clone, PartialEq)]
pub struct Simulated {
    /// Each node's position after `_copyPosition` (-1..1 on both axes); `None` when it is not
    /// a finite number (one node: the rescale divides by zero, as in the plugin).
    pub positions: Vec<Option<(f64, f64)>>,
    /// Ticks run.
    pub ticks: usize,
}

/// The ticks the plugin runs: `initialIterations`, then with `autoRestart` the timer's
/// ticks until alpha falls under `alphaMin` (one tick per frame; the layout as it settles).
/// With neither, the nodes are never placed (`None`).
pub fn planned_ticks(sim: &ForceSimulation) -> Option<usize> {
    let initial = if sim.initial_iterations.is_finite() && sim.initial_iterations > 0.0 {
        // d3's `for (k = 0; k < iterations; ++k)`: a fraction runs one more tick.
        libm::ceil(sim.initial_iterations.min(1e9)) as usize
    } else {
        0
    };
    if !sim.auto_restart {
        return (initial > 0).then_some(initial);
    }
    // alpha after k ticks from 1: (1 - decay)^k = alphaMin^(k/300); the timer stops at the
    // first tick whose alpha is under alphaMin (and runs at least one).
    let decay = 1.0 - libm::pow(ALPHA_MIN, 1.0 / 300.0);
    let mut alpha = 1.0f64;
    let mut k = 0usize;
    while k < initial {
        alpha += (0.0 - alpha) * decay;
        k += 1;
        if alpha < 1e-300 {
            break;
        }
    }
    let mut more = 0usize;
    loop {
        alpha += (0.0 - alpha) * decay;
        more += 1;
        if alpha < ALPHA_MIN || more > 10_000 {
            break;
        }
    }
    Some(initial.saturating_add(more))
}

/// Runs `ticks` ticks of the simulation from `initial` positions (`None`: d3's spiral) with
/// links `edges` (node indices), then rescales to -1..1 as `_copyPosition` does. Stops early
/// when `cancel` fires.
pub fn simulate(
    sim: &ForceSimulation,
    initial: &[Option<(f64, f64)>],
    edges: &[(usize, usize)],
    ticks: usize,
    cancel: &Cancel,
) -> Simulated {
    let n = initial.len();
    let initial_angle = std::f64::consts::PI * (3.0 - libm::sqrt(5.0));
    // initializeNodes.
    let mut nodes: Vec<Node> = initial
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            Some((x, y)) if x.is_finite() && y.is_finite() => Node {
                x: *x,
                y: *y,
                ..Node::default()
            },
            _ => {
                let radius = INITIAL_RADIUS * libm::sqrt(0.5 + i as f64);
                let angle = i as f64 * initial_angle;
                Node {
                    x: radius * libm::cos(angle),
                    y: radius * libm::sin(angle),
                    ..Node::default()
                }
            }
        })
        .collect();
    let forces = Forces::new(sim, n, edges);
    let mut random = Lcg(1);
    let mut alpha = 1.0f64;
    let alpha_decay = 1.0 - libm::pow(ALPHA_MIN, 1.0 / 300.0);
    let mut visits = 0usize;
    let mut run = 0usize;
    for _ in 0..ticks {
        if cancel.is_cancelled() {
            break;
        }
        run += 1;
        alpha += (0.0 - alpha) * alpha_decay;
        if let Some(c) = &sim.center {
            center(&mut nodes, c.x, c.y, c.strength);
        }
        if let Some(c) = &sim.collide {
            collide(&mut nodes, c, &mut random);
        }
        if let Some(l) = &sim.link {
            link(&mut nodes, &forces, l.iterations, alpha, &mut random);
        }
        if let Some(m) = &sim.many_body {
            if !many_body(
                &mut nodes,
                &forces,
                m,
                alpha,
                &mut random,
                cancel,
                &mut visits,
            ) {
                break;
            }
        }
        if let Some(f) = &sim.x {
            for node in nodes.iter_mut() {
                node.vx += (f.position - node.x) * f.strength * alpha;
            }
        }
        if let Some(f) = &sim.y {
            for node in nodes.iter_mut() {
                node.vy += (f.position - node.y) * f.strength * alpha;
            }
        }
        if let Some(r) = &sim.radial {
            for node in nodes.iter_mut() {
                // `node.x - x || 1e-6`: zero and NaN become 1e-6.
                let or_tiny = |d: f64| if d == 0.0 || d.is_nan() { 1e-6 } else { d };
                let dx = or_tiny(node.x - r.x);
                let dy = or_tiny(node.y - r.y);
                let d = libm::sqrt(dx * dx + dy * dy);
                let k = (r.radius - d) * r.strength * alpha / d;
                node.vx += dx * k;
                node.vy += dy * k;
            }
        }
        for node in nodes.iter_mut() {
            node.vx *= VELOCITY_DECAY;
            node.x += node.vx;
            node.vy *= VELOCITY_DECAY;
            node.y += node.vy;
        }
    }
    Simulated {
        positions: copy_position(&nodes),
        ticks: run,
    }
}

/// `forceCenter`: moves every node by the mean offset from the centre.
fn center(nodes: &mut [Node], cx: f64, cy: f64, strength: f64) {
    let n = nodes.len() as f64;
    let (mut sx, mut sy) = (0.0, 0.0);
    for node in nodes.iter() {
        sx += node.x;
        sy += node.y;
    }
    let sx = (sx / n - cx) * strength;
    let sy = (sy / n - cy) * strength;
    for node in nodes.iter_mut() {
        node.x -= sx;
        node.y -= sy;
    }
}

/// `forceLink`: springs along the edges, `iterations` times per tick.
fn link(nodes: &mut [Node], f: &Forces<'_>, iterations: f64, alpha: f64, random: &mut Lcg) {
    let distance = f.sim.link.as_ref().map_or(30.0, |l| l.distance);
    let iterations = if iterations.is_finite() {
        libm::ceil(iterations.clamp(0.0, 16.0)) as usize
    } else {
        0
    };
    for _ in 0..iterations {
        for (i, &(s, t)) in f.links.iter().enumerate() {
            let (src, tgt) = (nodes[s], nodes[t]);
            let mut x = tgt.x + tgt.vx - src.x - src.vx;
            if x == 0.0 || x.is_nan() {
                x = random.jiggle();
            }
            let mut y = tgt.y + tgt.vy - src.y - src.vy;
            if y == 0.0 || y.is_nan() {
                y = random.jiggle();
            }
            let l = libm::sqrt(x * x + y * y);
            let l = (l - distance) / l * alpha * f.link_strengths[i];
            x *= l;
            y *= l;
            let b = f.link_bias[i];
            nodes[t].vx -= x * b;
            nodes[t].vy -= y * b;
            let b = 1.0 - b;
            nodes[s].vx += x * b;
            nodes[s].vy += y * b;
        }
    }
}

/// `forceCollide` without the quadtree: every pair closer than the sum of their radii pushes
/// apart. d3 finds the pairs through a quadtree of `x + vx`; the pairs and their order are the
/// same for the small graphs it is used on, not bit for bit in general.
fn collide(nodes: &mut [Node], c: &chart_spec::model::CollideForce, random: &mut Lcg) {
    let r = if c.radius.is_finite() { c.radius } else { 1.0 };
    let strength = if c.strength.is_finite() {
        c.strength
    } else {
        1.0
    };
    let iterations = if c.iterations.is_finite() {
        libm::ceil(c.iterations.clamp(0.0, 16.0)) as usize
    } else {
        0
    };
    let n = nodes.len();
    // Quadratic in nodes: bounded by the caller's node budget; skipped for large graphs.
    if n > 2_000 {
        return;
    }
    for _ in 0..iterations {
        for i in 0..n {
            let (xi, yi) = (nodes[i].x + nodes[i].vx, nodes[i].y + nodes[i].vy);
            for j in (i + 1)..n {
                let rr = r + r;
                let mut x = xi - nodes[j].x - nodes[j].vx;
                let mut y = yi - nodes[j].y - nodes[j].vy;
                let mut l = x * x + y * y;
                if l < rr * rr {
                    if x == 0.0 {
                        x = random.jiggle();
                        l += x * x;
                    }
                    if y == 0.0 {
                        y = random.jiggle();
                        l += y * y;
                    }
                    let d = libm::sqrt(l);
                    let k = (rr - d) / d * strength;
                    x *= k;
                    y *= k;
                    nodes[i].vx += x * 0.5;
                    nodes[i].vy += y * 0.5;
                    nodes[j].vx -= x * 0.5;
                    nodes[j].vy -= y * 0.5;
                }
            }
        }
    }
}

/// `forceManyBody` (Barnes–Hut): answers false when `cancel` fired mid-tick.
fn many_body(
    nodes: &mut [Node],
    f: &Forces<'_>,
    m: &chart_spec::model::ManyBodyForce,
    alpha: f64,
    random: &mut Lcg,
    cancel: &Cancel,
    visits: &mut usize,
) -> bool {
    let theta2 = m.theta * m.theta;
    let dmin2 = m.distance_min * m.distance_min;
    let dmax2 = m.distance_max * m.distance_max;
    let mut tree = QuadTree::build(nodes);
    accumulate(&mut tree, nodes, &f.body_strength);
    if tree.root == NONE {
        return true;
    }
    let mut stack: Vec<(u32, f64, f64, f64, f64)> = Vec::new();
    for (ni, node) in nodes.iter_mut().enumerate() {
        let (nx, ny) = (node.x, node.y);
        let (mut vx, mut vy) = (node.vx, node.vy);
        stack.clear();
        stack.push((tree.root, tree.x0, tree.y0, tree.x1, tree.y1));
        while let Some((q, x0, y0, x1, y1)) = stack.pop() {
            *visits += 1;
            if (*visits).is_multiple_of(CANCEL_EVERY) && cancel.is_cancelled() {
                return false;
            }
            let quad = tree.quads[q as usize];
            // `apply`: true skips the children.
            if quad.value == 0.0 || quad.value.is_nan() {
                continue;
            }
            let mut x = quad.x - nx;
            let mut y = quad.y - ny;
            let w = x1 - x0;
            let mut l = x * x + y * y;
            if w * w / theta2 < l {
                if l < dmax2 {
                    if x == 0.0 {
                        x = random.jiggle();
                        l += x * x;
                    }
                    if y == 0.0 {
                        y = random.jiggle();
                        l += y * y;
                    }
                    if l < dmin2 {
                        l = libm::sqrt(dmin2 * l);
                    }
                    vx += x * quad.value * alpha / l;
                    vy += y * quad.value * alpha / l;
                }
                continue;
            }
            if !quad.leaf {
                // d3 returns undefined here (also past distanceMax): the children are visited.
                let (xm, ym) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                let c = quad.children;
                if c[3] != NONE {
                    stack.push((c[3], xm, ym, x1, y1));
                }
                if c[2] != NONE {
                    stack.push((c[2], x0, ym, xm, y1));
                }
                if c[1] != NONE {
                    stack.push((c[1], xm, y0, x1, ym));
                }
                if c[0] != NONE {
                    stack.push((c[0], x0, y0, xm, ym));
                }
                continue;
            }
            if l >= dmax2 {
                continue;
            }
            if quad.data != ni || quad.next != NONE {
                if x == 0.0 {
                    x = random.jiggle();
                    l += x * x;
                }
                if y == 0.0 {
                    y = random.jiggle();
                    l += y * y;
                }
                if l < dmin2 {
                    l = libm::sqrt(dmin2 * l);
                }
            }
            let mut cur = q;
            while cur != NONE {
                let c = tree.quads[cur as usize];
                if c.data != ni {
                    let w = f.body_strength.get(c.data).copied().unwrap_or(0.0) * alpha / l;
                    vx += x * w;
                    vy += y * w;
                }
                cur = c.next;
            }
        }
        node.vx = vx;
        node.vy = vy;
    }
    true
}

/// `_copyPosition`: each axis rescaled from its min..max to -1..1.
fn copy_position(nodes: &[Node]) -> Vec<Option<(f64, f64)>> {
    let (mut min_x, mut max_x, mut min_y, mut max_y) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for n in nodes {
        min_x = min_x.min(n.x);
        max_x = max_x.max(n.x);
        min_y = min_y.min(n.y);
        max_y = max_y.max(n.y);
    }
    nodes
        .iter()
        .map(|n| {
            let x = (n.x - min_x) / (max_x - min_x) * 2.0 - 1.0;
            let y = (n.y - min_y) / (max_y - min_y) * 2.0 - 1.0;
            (x.is_finite() && y.is_finite()).then_some((x, y))
        })
        .collect()
}

/// One step down d3-quadtree's `add`: the quadrant of (x, y) in the square (x0, y0)-(x1, y1),
/// whose bounds shrink to that quadrant; returns its index (bottom << 1 | right) and the
/// square's midpoints.
fn descend(
    x0: &mut f64,
    y0: &mut f64,
    x1: &mut f64,
    y1: &mut f64,
    x: f64,
    y: f64,
) -> (usize, f64, f64) {
    let xm = (*x0 + *x1) / 2.0;
    let right = x >= xm;
    if right {
        *x0 = xm
    } else {
        *x1 = xm
    }
    let ym = (*y0 + *y1) / 2.0;
    let bottom = y >= ym;
    if bottom {
        *y0 = ym
    } else {
        *y1 = ym
    }
    ((usize::from(bottom) << 1) | usize::from(right), xm, ym)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chart_spec::model::{CenterForce, LinkForce, ManyBodyForce};

    fn defaults(initial: f64, auto_restart: bool) -> ForceSimulation {
        ForceSimulation {
            initial_iterations: initial,
            auto_restart,
            center: Some(CenterForce {
                x: 0.0,
                y: 0.0,
                strength: 1.0,
            }),
            collide: None,
            link: Some(LinkForce {
                distance: 30.0,
                strength: None,
                iterations: 1.0,
            }),
            many_body: Some(ManyBodyForce {
                strength: -30.0,
                theta: 0.9,
                distance_min: 1.0,
                distance_max: f64::INFINITY,
            }),
            x: None,
            y: None,
            radial: None,
        }
    }

    #[test]
    fn the_lcg_is_d3s() {
        // s1 = (1664525 + 1013904223) mod 2^32 = 1015568748.
        let mut r = Lcg(1);
        assert_eq!(r.next(), 1_015_568_748.0 / 4_294_967_296.0);
    }

    #[test]
    fn ticks_follow_the_options() {
        assert_eq!(planned_ticks(&defaults(300.0, false)), Some(300));
        assert_eq!(planned_ticks(&defaults(0.0, false)), None);
        // The timer runs until alpha < 0.001: about 300 ticks from 1, one more after 300.
        let after = planned_ticks(&defaults(300.0, true)).expect("ticks");
        assert!((301..=302).contains(&after), "{after}");
        let from_zero = planned_ticks(&defaults(0.0, true)).expect("ticks");
        assert!((300..=301).contains(&from_zero), "{from_zero}");
    }

    #[test]
    fn a_linked_pair_settles_at_the_link_distance_and_spans_the_box() {
        let out = simulate(
            &defaults(300.0, false),
            &[None, None, None],
            &[(0, 1), (1, 2)],
            300,
            &Cancel::new(),
        );
        assert_eq!(out.ticks, 300);
        let p: Vec<(f64, f64)> = out.positions.iter().map(|p| p.expect("placed")).collect();
        // Rescaled to -1..1 on both axes.
        for axis in [0, 1] {
            let v: Vec<f64> = p
                .iter()
                .map(|p| if axis == 0 { p.0 } else { p.1 })
                .collect();
            let min = v.iter().copied().fold(f64::INFINITY, f64::min);
            let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            assert!((min + 1.0).abs() < 1e-12 && (max - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn one_node_is_not_placed_and_a_cancel_stops_the_ticks() {
        let out = simulate(&defaults(300.0, false), &[None], &[], 300, &Cancel::new());
        assert_eq!(out.positions, vec![None]);
        let cancel = Cancel::new();
        cancel.cancel();
        let out = simulate(&defaults(300.0, false), &[None, None], &[], 300, &cancel);
        assert_eq!(out.ticks, 0);
    }

    #[test]
    fn coincident_and_huge_positions_stay_bounded() {
        // Every node on one spot: the jiggle separates them; a node at 1e300 does not hang
        // the quadtree and an infinite one starts on the spiral.
        let initial = vec![
            Some((5.0, 5.0)),
            Some((5.0, 5.0)),
            Some((5.0, 5.0)),
            Some((1e300, -1e300)),
            Some((f64::INFINITY, 0.0)),
        ];
        let out = simulate(
            &defaults(50.0, false),
            &initial,
            &[(0, 1)],
            50,
            &Cancel::new(),
        );
        assert_eq!(out.positions.len(), 5);
    }
}
