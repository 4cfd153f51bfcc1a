//! The shapes a soak's rounds sum in: counts by key, lists, sets. Each adds a later round's to an
//! earlier one's, so that an audit's parts derive `AddAssign` field by field.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

/// Counts by key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Tally<K: Ord>(pub BTreeMap<K, usize>);

impl<K: Ord> Default for Tally<K> {
    fn default() -> Self {
        Self(BTreeMap::new())
    }
}

impl<K: Ord> Tally<K> {
    pub fn count(&mut self, key: K) {
        *self.0.entry(key).or_default() += 1;
    }

    pub fn get(&self, key: &K) -> usize {
        self.0.get(key).copied().unwrap_or(0)
    }

    pub fn total(&self) -> usize {
        self.0.values().sum()
    }
}

impl<K: Ord> AddAssign for Tally<K> {
    fn add_assign(&mut self, other: Self) {
        for (key, n) in other.0 {
            *self.0.entry(key).or_default() += n;
        }
    }
}

impl<K: Ord> FromIterator<(K, usize)> for Tally<K> {
    fn from_iter<I: IntoIterator<Item = (K, usize)>>(iter: I) -> Self {
        let mut tally = Tally::default();
        tally += Tally(iter.into_iter().collect());
        tally
    }
}

/// A list that a later round's extends, kept sorted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Listed<T: Ord>(pub Vec<T>);

impl<T: Ord> Default for Listed<T> {
    fn default() -> Self {
        Self(vec![])
    }
}

impl<T: Ord> Listed<T> {
    pub fn push(&mut self, item: T) {
        self.0.push(item);
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }
}

impl<T: Ord> AddAssign for Listed<T> {
    fn add_assign(&mut self, other: Self) {
        self.0.extend(other.0);
        self.0.sort();
    }
}

/// A set that a later round's joins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Union<T: Ord>(pub BTreeSet<T>);

impl<T: Ord> Default for Union<T> {
    fn default() -> Self {
        Self(BTreeSet::new())
    }
}

impl<T: Ord> AddAssign for Union<T> {
    fn add_assign(&mut self, other: Self) {
        self.0.extend(other.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_add_up() {
        let mut tally: Tally<&str> = [("a", 1)].into_iter().collect();
        tally += [("a", 2), ("b", 1)].into_iter().collect();
        assert_eq!((tally.get(&"a"), tally.get(&"b"), tally.total()), (3, 1, 4));
        let mut listed = Listed(vec![3, 1]);
        listed += Listed(vec![2, 1]);
        assert_eq!(listed.0, [1, 1, 2, 3]);
        let mut union = Union(BTreeSet::from([1]));
        union += Union(BTreeSet::from([1, 2]));
        assert_eq!(union.0, BTreeSet::from([1, 2]));
    }
}
