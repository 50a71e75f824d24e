//! Sorting, and sets and maps built from lists, through one compiled sort for the whole app.
//!
//! The standard library compiles its stable sort once per element type and comparison — about
//! 3.6 KB of wasm each — and `BTreeSet`/`BTreeMap` built with `collect()` sort their input the
//! same way: the app had 24 copies of the sort (87 KB of code, ≈ 30 KB of its download). Here
//! every sort is a sort of positions by one comparison passed as `&dyn Fn`, compiled once, then
//! the items moved into that order; sets and maps are filled one insert at a time. Both keep the
//! standard library's results: sorts are stable (equal items keep their order), a map built from
//! a list with a repeated key keeps the last value. Use these in app code, not `sort_by_key` or
//! `collect::<BTreeSet<_>>()`.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Sorts `items` by `key`, stably, as `slice::sort_by_key` does.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    let keys: Vec<K> = items.iter().map(key).collect();
    let order = stable_order(keys.len(), &|a, b| keys[a].cmp(&keys[b]));
    apply(items, order);
}

/// Sorts `items` by `compare`, stably, as `slice::sort_by` does.
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &|a, b| compare(&items[a], &items[b]));
    apply(items, order);
}

/// Sorts `items` in their own order, as `slice::sort` does.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The items as a set (built by inserting, so no sort is compiled for the item type).
pub fn set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

/// The pairs as a map; a repeated key keeps its last value, as `collect()` does.
pub fn map<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    map.extend(pairs);
    map
}

/// `collect()` into a set or a map without compiling a sort: `iter.to_set()`, `pairs.to_map()`.
pub trait Collect: Iterator + Sized {
    /// As [`set`].
    fn to_set(self) -> BTreeSet<Self::Item>
    where
        Self::Item: Ord,
    {
        set(self)
    }

    /// As [`map`].
    fn to_map<K: Ord, V>(self) -> BTreeMap<K, V>
    where
        Self: Iterator<Item = (K, V)>,
    {
        map(self)
    }

    /// Any collection that can be extended one item at a time (`serde_json::Map`, …), filled
    /// that way: as `collect()`, without the sort a sorted map's `collect()` compiles.
    fn fill<C: Default + Extend<Self::Item>>(self) -> C {
        let mut out = C::default();
        out.extend(self);
        out
    }
}

impl<I: Iterator> Collect for I {}

/// The positions `0..len` in the order `compare` puts them, ties in position order: the one
/// sort the app compiles.
fn stable_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|a, b| compare(*a, *b));
    order
}

/// Moves the items so that place `i` holds the item that was at `order[i]`, following each
/// cycle of the permutation with swaps.
fn apply<T>(items: &mut [T], mut order: Vec<usize>) {
    const PLACED: usize = usize::MAX;
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != PLACED {
            let from = order[at];
            order[at] = PLACED;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no randomness in core's tests either).
    fn lists() -> Vec<Vec<(u8, u32)>> {
        let mut state = 7u32;
        let mut next = move || {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            state >> 16
        };
        (0..200)
            .map(|n| {
                (0..n % 40)
                    .map(|i| ((next() % 5) as u8, i as u32))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn sorts_as_the_standard_library_does_and_stably() {
        for list in lists() {
            let mut ours = list.clone();
            let mut std = list.clone();
            sort_by_key(&mut ours, |x| x.0);
            std.sort_by_key(|x| x.0);
            assert_eq!(ours, std);

            let mut ours = list.clone();
            let mut std = list.clone();
            let odd_first = |a: &(u8, u32), b: &(u8, u32)| (b.0 % 2).cmp(&(a.0 % 2));
            sort_by(&mut ours, odd_first);
            std.sort_by(odd_first);
            assert_eq!(ours, std);

            let mut ours = list.clone();
            let mut std = list.clone();
            sort(&mut ours);
            std.sort();
            assert_eq!(ours, std);
        }
    }

    #[test]
    fn sets_and_maps_are_what_collect_builds() {
        for list in lists() {
            assert_eq!(
                set(list.iter().map(|x| x.0)),
                list.iter().map(|x| x.0).collect::<BTreeSet<_>>()
            );
            assert_eq!(
                map(list.iter().copied()),
                list.iter().copied().collect::<BTreeMap<_, _>>()
            );
        }
    }
}
