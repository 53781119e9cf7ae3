//! Fast look-up of the game's short identifiers (hex coordinates `F8`, tile numbers `202`,
//! corporation symbols `SFTG`) to indices in the static data: an identifier of up to 7 bytes
//! is packed with its length into one `u64`, so a look-up hashes one integer and compares
//! integers (no byte-by-byte hashing, no string comparison); longer ones use a string map.

use rustc_hash::FxHashMap;

/// Identifiers to indices (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdIndex {
    short: FxHashMap<u64, usize>,
    long: FxHashMap<String, usize>,
}

/// `id` packed into a `u64` (bytes, then the length in the last byte); `None` when longer
/// than 7 bytes.
fn pack(id: &str) -> Option<u64> {
    let b = id.as_bytes();
    if b.len() > 7 {
        return None;
    }
    let mut a = [0u8; 8];
    a[..b.len()].copy_from_slice(b);
    a[7] = b.len() as u8;
    Some(u64::from_le_bytes(a))
}

impl IdIndex {
    /// Maps `id` to `index`, unless `id` is mapped already (the first index stays).
    pub fn insert(&mut self, id: &str, index: usize) {
        match pack(id) {
            Some(k) => {
                self.short.entry(k).or_insert(index);
            }
            None => {
                self.long.entry(id.to_string()).or_insert(index);
            }
        }
    }

    /// The index of `id`.
    pub fn get(&self, id: &str) -> Option<usize> {
        match pack(id) {
            Some(k) => self.short.get(&k).copied(),
            None => self.long.get(id).copied(),
        }
    }
}

impl<'a> FromIterator<(&'a str, usize)> for IdIndex {
    fn from_iter<T: IntoIterator<Item = (&'a str, usize)>>(iter: T) -> Self {
        let mut out = IdIndex::default();
        for (id, i) in iter {
            out.insert(id, i);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_ids_and_prefixes_are_distinct() {
        let ids = ["F8", "F", "F80", "", "SFTG", "Holding", "Marseille", "Marseilles", "a\0"];
        let index: IdIndex = ids.iter().enumerate().map(|(i, s)| (*s, i)).collect();
        for (i, s) in ids.iter().enumerate() {
            assert_eq!(index.get(s), Some(i), "{s:?}");
        }
        assert_eq!(index.get("F9"), None);
        assert_eq!(index.get("a"), None);
        assert_eq!(index.get("Marseill"), None);
        let mut again = index.clone();
        again.insert("F8", 99);
        assert_eq!(again.get("F8"), Some(0));
    }
}
