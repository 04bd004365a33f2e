//! The bar slots of one index scale (`_getStacks`, `_getStackCount`, `_getStackIndex` of
//! controller.bar), for every dataset and data index at once.
//!
//! Chart.js finds where a grouped bar goes by walking every grouped bar dataset of its index
//! scale, keeping the distinct `stack` names met (`stacks.indexOf`), and stopping at the
//! dataset itself. With `skipNull` the walk is redone for every data point, and each step
//! searches the other dataset's parsed data for the same index value (`meta._parsed.find`)
//! to leave out datasets without a value there: datasets² × points² in all, so 1,000 bar
//! datasets of 250 points held a render slot until the 30 s render limit. The answer of a
//! walk depends only on which datasets it visits (for `skipNull`, those with a value at the
//! index value) and on where it stops, so here each walk is done once, for all the
//! datasets at once: once over the whole group, and with `skipNull` once per distinct index
//! value over only the datasets that have a point there. O(datasets + points) in all, plus a
//! sort of the points.

use super::Meta;
use chart_spec::model::{Axis, Stacked};
use std::collections::HashMap;

/// No slot: the dataset was not visited by the walk (it has no value at that index value).
const NONE: u32 = u32::MAX;

/// The slots of the grouped bar datasets of one index scale and bar type.
#[derive(Debug, Clone, Default)]
pub struct StackSlots {
    /// Each distinct `stack` name of the group, numbered.
    names: HashMap<Option<String>, u32>,
    /// Group position by dataset index (the group is in `getSortedVisibleDatasetMetas`
    /// order).
    position: HashMap<usize, u32>,
    /// The walk without a data index (no `skipNull`): `stacks.length`, ...
    all_count: u32,
    /// ... each dataset's `_getStackIndex` by group position, ...
    all_slots: Vec<u32>,
    /// ... and the first position of each stack name in the final `stacks`.
    all_first: HashMap<u32, u32>,
    /// The walks with a data index (`skipNull`), built on first use.
    by_value: Option<ByValue>,
}

/// One `skipNull` walk per distinct index value.
#[derive(Debug, Clone, Default)]
struct ByValue {
    /// Per index value: its range of `entries` and the walk's `stacks.length`.
    values: HashMap<u64, (u32, u32, u32)>,
    /// Per index value, in group order: (group position, `_getStackIndex` or [`NONE`]) of
    /// every dataset with a point at that index value (`find`'s first one).
    entries: Vec<(u32, u32)>,
    /// First position of a stack name in a value's final `stacks`: (value, name) → position.
    first: HashMap<(u64, u32), u32>,
}

/// What `_getStacks` needs of the scale and the group.
pub struct Group<'a> {
    /// The grouped bar datasets of the index scale and type, in sorted visible order.
    pub members: Vec<&'a Meta>,
    /// The index scale's axis.
    pub iaxis: Axis,
    /// The index scale's `stacked` option.
    pub stacked: Option<Stacked>,
}

/// Index values as `find(item => item[axis] === value)` compares them: `-0` is `0`, `NaN`
/// matches nothing (`None`), `undefined` matches `undefined`.
fn value_key(v: Option<f64>) -> Option<u64> {
    match v {
        None => Some(u64::MAX),
        Some(f) if f.is_nan() => None,
        Some(f) => Some((f + 0.0).to_bits()),
    }
}

/// Reusable state of `_getStacks`'s loop: the first position of each name in `stacks`,
/// stamped with the walk that set it (so starting a walk costs nothing).
struct Walker {
    stamp: Vec<u32>,
    first: Vec<u32>,
    walk: u32,
    stacked: Option<Stacked>,
    /// The number of the name `undefined` (datasets without `stack`).
    unnamed: u32,
}

impl Walker {
    fn new(names: &HashMap<Option<String>, u32>, stacked: Option<Stacked>) -> Self {
        Self {
            stamp: vec![0; names.len()],
            first: vec![0; names.len()],
            walk: 0,
            stacked,
            unnamed: names.get(&None).copied().unwrap_or(NONE),
        }
    }

    /// `_getStacks`'s loop over the datasets it visits, given by their stack names'
    /// numbers. Calls `slot(k, index)` with the `_getStackIndex` of the k-th visited dataset
    /// (the loop stopping at it) and `first(name, position)` when a name is first pushed;
    /// returns `stacks.length`, at least 1 (an empty walk pushes `undefined`).
    fn walk(
        &mut self,
        visited: impl Iterator<Item = u32>,
        mut slot: impl FnMut(usize, u32),
        mut first: impl FnMut(u32, u32),
    ) -> u32 {
        self.walk += 1;
        let mut len: u32 = 0;
        for (k, name) in visited.enumerate() {
            let seen = self.stamp[name as usize] == self.walk;
            // `stacked === false || stacks.indexOf(meta.stack) === -1 ||
            // (stacked === undefined && meta.stack === undefined)`
            if self.stacked == Some(Stacked::No)
                || !seen
                || (self.stacked.is_none() && name == self.unnamed)
            {
                len += 1;
                if !seen {
                    self.stamp[name as usize] = self.walk;
                    self.first[name as usize] = len - 1;
                    first(name, len - 1);
                }
            }
            // `_getStackIndex`: `stacks.indexOf(name)`, or the last position without a name.
            slot(
                k,
                if name == self.unnamed {
                    len - 1
                } else {
                    self.first[name as usize]
                },
            );
        }
        len.max(1)
    }
}

impl StackSlots {
    /// The walk over the whole group (`_getStacks(last)` without a data index); the
    /// `skipNull` walks are added by [`StackSlots::with_skip_null`].
    pub fn new(group: &Group<'_>) -> Self {
        let mut names: HashMap<Option<String>, u32> = HashMap::new();
        for m in &group.members {
            let next = names.len() as u32;
            names.entry(m.stack.clone()).or_insert(next);
        }
        let position = group
            .members
            .iter()
            .enumerate()
            .map(|(g, m)| (m.index, g as u32))
            .collect();
        let mut slots = Self {
            position,
            all_slots: vec![NONE; group.members.len()],
            ..Self::default()
        };
        let member_names = Self::member_names(&names, group);
        let mut walker = Walker::new(&names, group.stacked);
        let (all_slots, all_first) = (&mut slots.all_slots, &mut slots.all_first);
        slots.all_count = walker.walk(
            member_names.iter().copied(),
            |k, s| all_slots[k] = s,
            |n, p| {
                all_first.insert(n, p);
            },
        );
        slots.names = names;
        slots
    }

    /// Each member's stack name number.
    fn member_names(names: &HashMap<Option<String>, u32>, group: &Group<'_>) -> Vec<u32> {
        group
            .members
            .iter()
            .map(|m| names.get(&m.stack).copied().unwrap_or(NONE))
            .collect()
    }

    /// Adds the `skipNull` walks (once; `group` must be the one [`StackSlots::new`] was
    /// given): for each index value, `_getStacks` over the datasets whose first point at that
    /// value (`_parsed.find`) has a value that is not null or `NaN`.
    pub fn with_skip_null(&mut self, group: &Group<'_>) {
        if self.by_value.is_some() {
            return;
        }
        // (index value, group position, has a value), each dataset's first point of each
        // index value kept: a stable sort leaves a dataset's points in data order.
        let mut points: Vec<(u64, u32, bool)> = Vec::new();
        for (g, m) in group.members.iter().enumerate() {
            let vaxis = m.v_axis();
            points.extend(m.parsed.iter().filter_map(|p| {
                let key = value_key(p.get(group.iaxis))?;
                Some((key, g as u32, p.get(vaxis).is_some_and(|v| !v.is_nan())))
            }));
        }
        points.sort_by_key(|&(key, g, _)| (key, g));
        points.dedup_by_key(|&mut (key, g, _)| (key, g));
        let member_names = Self::member_names(&self.names, group);
        let mut walker = Walker::new(&self.names, group.stacked);
        let mut by = ByValue {
            entries: points.iter().map(|&(_, g, _)| (g, NONE)).collect(),
            ..ByValue::default()
        };
        let mut visited: Vec<usize> = Vec::new();
        let mut start = 0;
        while start < points.len() {
            let key = points[start].0;
            let end = start + points[start..].iter().take_while(|p| p.0 == key).count();
            visited.clear();
            visited.extend((start..end).filter(|&e| points[e].2));
            let (entries, first) = (&mut by.entries, &mut by.first);
            let count = walker.walk(
                visited.iter().map(|&e| member_names[points[e].1 as usize]),
                |k, s| entries[visited[k]].1 = s,
                |n, p| {
                    first.insert((key, n), p);
                },
            );
            by.values.insert(key, (start as u32, end as u32, count));
            start = end;
        }
        self.by_value = Some(by);
    }

    /// `_getStacks().length` without a data index (`_getStackCount` without `skipNull`).
    pub fn count(&self) -> usize {
        self.all_count as usize
    }

    /// `_getStackIndex(meta.index, meta.stack)` without a data index.
    pub fn index(&self, meta: &Meta) -> usize {
        let visited = self
            .position
            .get(&meta.index)
            .map(|&g| self.all_slots[g as usize]);
        match visited {
            Some(slot) if slot != NONE => slot as usize,
            // Not in the group: the loop never stops, the name is looked up in all stacks.
            _ => self.unvisited_index(meta, self.all_count, |n| self.all_first.get(&n)),
        }
    }

    /// `_getStackCount(index)` and `_getStackIndex(meta.index, meta.stack, index)` of a data
    /// point of `meta` with `skipNull` (after [`StackSlots::with_skip_null`]).
    pub fn point(&self, meta: &Meta, iaxis: Axis, index: usize) -> (usize, usize) {
        let current = meta
            .parsed
            .get(index)
            .map_or(Some(u64::MAX), |p| value_key(p.get(iaxis)));
        let found = self
            .by_value
            .as_ref()
            .zip(current)
            .and_then(|(by, key)| Some((by, key, *by.values.get(&key)?)));
        // No dataset has a point at this value: `stacks` is `[undefined]`.
        let Some((by, key, (start, end, count))) = found else {
            return (1, 0);
        };
        let entries = &by.entries[start as usize..end as usize];
        let slot = self.position.get(&meta.index).and_then(|&g| {
            let e = entries.binary_search_by_key(&g, |&(g, _)| g).ok()?;
            Some(entries[e].1).filter(|&s| s != NONE)
        });
        let index = match slot {
            Some(s) => s as usize,
            None => self.unvisited_index(meta, count, |n| by.first.get(&(key, n))),
        };
        (count as usize, index)
    }

    /// `_getStackIndex` of a dataset the walk did not stop at: `indexOf(meta.stack)` in the
    /// final `stacks`, else their last position.
    fn unvisited_index<'a>(
        &self,
        meta: &Meta,
        count: u32,
        first: impl Fn(u32) -> Option<&'a u32>,
    ) -> usize {
        let named = meta
            .stack
            .as_ref()
            .and_then(|_| self.names.get(&meta.stack))
            .and_then(|&n| first(n));
        named.map_or(count as usize - 1, |&p| p as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controllers::Parsed;
    use chart_spec::model::ChartKind;

    /// `_getStacks(last, dataIndex)` as Chart.js writes it (a walk per call, `find` per
    /// step): the reference the precomputed slots are held to.
    fn get_stacks(
        group: &Group<'_>,
        meta: &Meta,
        last: Option<usize>,
        data_index: Option<usize>,
    ) -> Vec<Option<String>> {
        let current = data_index
            .and_then(|i| meta.parsed.get(i))
            .and_then(|p| p.get(group.iaxis));
        let mut stacks: Vec<Option<String>> = Vec::new();
        for m in &group.members {
            if data_index.is_some() {
                let val = m
                    .parsed
                    .iter()
                    .find(|p| p.get(group.iaxis) == current)
                    .and_then(|p| p.get(m.v_axis()));
                if val.is_none_or(|v| v.is_nan()) {
                    continue;
                }
            }
            if group.stacked == Some(Stacked::No)
                || !stacks.contains(&m.stack)
                || (group.stacked.is_none() && m.stack.is_none())
            {
                stacks.push(m.stack.clone());
            }
            if Some(m.index) == last {
                break;
            }
        }
        if stacks.is_empty() {
            stacks.push(None);
        }
        stacks
    }

    /// `_getStackIndex`.
    fn stack_index(meta: &Meta, stacks: &[Option<String>]) -> usize {
        let idx = match &meta.stack {
            Some(_) => stacks.iter().position(|s| *s == meta.stack),
            None => None,
        };
        idx.unwrap_or(stacks.len() - 1)
    }

    /// A small deterministic generator (no dependency for a test).
    struct Lcg(u64);
    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    fn meta(index: usize, rng: &mut Lcg) -> Meta {
        let stack = match rng.below(4) {
            0 => None,
            n => Some(format!("s{}", rng.below(n + 1))),
        };
        let len = rng.below(12) as usize;
        let parsed = (0..len)
            .map(|i| {
                // Index values: mostly the point's index, with duplicates, -0, NaN and null.
                let x = match rng.below(10) {
                    0 => None,
                    1 => Some(f64::NAN),
                    2 => Some(-0.0),
                    3 => Some(rng.below(4) as f64),
                    _ => Some(i as f64),
                };
                let y = match rng.below(5) {
                    0 => None,
                    1 => Some(f64::NAN),
                    _ => Some(rng.below(9) as f64 - 4.0),
                };
                Parsed {
                    x,
                    y,
                    ..Parsed::default()
                }
            })
            .collect();
        Meta {
            index,
            kind: ChartKind::Bar,
            order: 0.0,
            visible: true,
            index_axis: Axis::X,
            x_id: Some("x".into()),
            y_id: Some("y".into()),
            parsed,
            stacked: None,
            stack,
            grouped: true,
            given_x_id: None,
            given_y_id: None,
        }
    }

    /// Random groups (stack names shared or not, every `stacked` mode, data with duplicate,
    /// null and NaN index values and null values), and datasets outside the group asking too
    /// (hidden ones): every answer equals the walk's.
    #[test]
    fn the_slots_equal_chartjs_walks() {
        let mut rng = Lcg(7);
        let mut checked = 0;
        for round in 0..400 {
            let metas: Vec<Meta> = (0..1 + rng.below(9) as usize)
                .map(|i| meta(i, &mut rng))
                .collect();
            let outsider = meta(metas.len(), &mut rng);
            let stacked = [
                None,
                Some(Stacked::No),
                Some(Stacked::Yes),
                Some(Stacked::Single),
            ][round % 4];
            let group = Group {
                members: metas.iter().collect(),
                iaxis: Axis::X,
                stacked,
            };
            let mut slots = StackSlots::new(&group);
            slots.with_skip_null(&group);
            for m in metas.iter().chain([&outsider]) {
                assert_eq!(slots.count(), get_stacks(&group, m, None, None).len());
                let walk = get_stacks(&group, m, Some(m.index), None);
                assert_eq!(slots.index(m), stack_index(m, &walk), "round {round}");
                for i in 0..m.parsed.len() {
                    let count = get_stacks(&group, m, None, Some(i)).len();
                    let walk = get_stacks(&group, m, Some(m.index), Some(i));
                    let want = (count, stack_index(m, &walk));
                    assert_eq!(slots.point(m, Axis::X, i), want, "round {round} point {i}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
