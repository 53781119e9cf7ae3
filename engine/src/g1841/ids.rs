//! Fast look-up of the game's short identifiers (hex coordinates `F8`, tile numbers `202`,
//! corporation symbols `SFTG`) to indices in the static data. The look-ups run in every track
//! search and every corporation access, so the common shapes skip hashing altogether:
//!
//! * a number of 1–4 digits (`202`) or a letter and a number of 1–2 digits (`F8`, `a4`),
//!   without a leading zero, is read as a number and looked up in a table;
//! * another identifier of up to 7 bytes (`SFTG`) is packed with its length into one `u64`,
//!   which is hashed;
//! * longer ones use a string map.

use rustc_hash::FxHashMap;

/// Identifiers to indices (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdIndex {
    /// By [`table_key`]: the index plus one, 0 for none.
    table: Vec<u32>,
    short: FxHashMap<u64, usize>,
    long: FxHashMap<String, usize>,
}

/// Entries of the table: 10,000 numbers, then 52 letters × 100 numbers.
const TABLE_LEN: usize = 10_000 + 52 * 100;

/// The table slot of `id` when it is a plain number (`202`) or a letter and a number (`F8`),
/// with no leading zero.
#[inline]
fn table_key(id: &[u8]) -> Option<usize> {
    #[inline]
    fn number(d: &[u8], max_len: usize) -> Option<usize> {
        if d.is_empty() || d.len() > max_len || (d.len() > 1 && d[0] == b'0') {
            return None;
        }
        let mut n = 0usize;
        for &c in d {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + usize::from(c - b'0');
        }
        Some(n)
    }
    match id.first()? {
        c @ b'A'..=b'Z' => Some(10_000 + usize::from(c - b'A') * 100 + number(&id[1..], 2)?),
        c @ b'a'..=b'z' => Some(10_000 + (26 + usize::from(c - b'a')) * 100 + number(&id[1..], 2)?),
        _ => number(id, 4),
    }
}

/// `id` packed into a `u64` (bytes, then the length in the last byte); `None` when longer
/// than 7 bytes.
#[inline]
pub fn pack(id: &[u8]) -> Option<u64> {
    let n = id.len();
    // Byte `i` goes to bits `8 i`. Up to 3 bytes, each length its own arm (the slice pattern
    // reads the bytes without bounds checks or shifts by a variable amount); from 4 bytes, read
    // in two fixed-size pieces that may overlap (OR-ing a byte in twice changes nothing): a
    // byte loop or a copy of a variable length (`memcpy`) costs several times more, and this
    // runs in every corporation look-up and track search.
    let bytes = match *id {
        [] => 0,
        [a] => u64::from(a),
        [a, b] => u64::from(u16::from_le_bytes([a, b])),
        [a, b, c] => u64::from(u16::from_le_bytes([a, b])) | u64::from(c) << 16,
        [a, b, c, d, ..] if n <= 7 => {
            let head = u32::from_le_bytes([a, b, c, d]);
            // Bytes `n - 4 .. n`, of which those from 4 on are shifted down to the bottom.
            let tail = u32::from_le_bytes([id[n - 4], id[n - 3], id[n - 2], id[n - 1]]);
            u64::from(head) | (u64::from(tail) >> (8 * (8 - n))) << 32
        }
        _ => return None,
    };
    Some(bytes | (n as u64) << 56)
}

/// Whether `id` is `other`, given `key` = [`pack`] of `other`: packed identifiers are equal
/// exactly when the identifiers are (an identifier that does not pack is longer than one
/// that does), so short ones are compared without a `memcmp` call.
#[inline]
pub fn is_packed(id: &str, other: &str, key: Option<u64>) -> bool {
    match key {
        Some(k) => pack(id.as_bytes()) == Some(k),
        None => id == other,
    }
}

impl IdIndex {
    /// Maps `id` to `index`, unless `id` is mapped already (the first index stays).
    pub fn insert(&mut self, id: &str, index: usize) {
        let b = id.as_bytes();
        if let Some(k) = table_key(b)
            && let Ok(v) = u32::try_from(index + 1)
        {
            if self.table.is_empty() {
                self.table = vec![0; TABLE_LEN];
            }
            if self.table[k] == 0 {
                self.table[k] = v;
            }
        } else if let Some(k) = pack(b) {
            self.short.entry(k).or_insert(index);
        } else {
            self.long.entry(id.to_string()).or_insert(index);
        }
    }

    /// The index of `id`.
    #[inline]
    pub fn get(&self, id: &str) -> Option<usize> {
        let b = id.as_bytes();
        if let Some(k) = table_key(b) {
            return match self.table.get(k) {
                Some(&v) if v > 0 => Some(v as usize - 1),
                _ => None,
            };
        }
        match pack(b) {
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
    fn pack_puts_byte_i_at_bits_8i_and_the_length_on_top() {
        let by_loop = |id: &[u8]| {
            let mut k = (id.len() as u64) << 56;
            for (i, &x) in id.iter().enumerate() {
                k |= u64::from(x) << (8 * i);
            }
            k
        };
        let sample = b"SFTGholding\xff\x01";
        for start in 0..sample.len() {
            for end in start..=sample.len().min(start + 7) {
                let id = &sample[start..end];
                assert_eq!(pack(id), Some(by_loop(id)), "{id:?}");
            }
        }
        assert_eq!(pack(b"Marseille"), None);
        assert_eq!(pack(b"Holding!"), None);
    }

    #[test]
    fn is_packed_is_string_equality() {
        let ids = [
            "",
            "S",
            "SB",
            "SFT",
            "SFTG",
            "SFTGX",
            "Holding",
            "Holdings",
            "Marseille",
        ];
        for a in ids {
            for b in ids {
                assert_eq!(is_packed(a, b, pack(b.as_bytes())), a == b, "{a} {b}");
            }
        }
    }

    #[test]
    fn every_shape_of_identifier_is_distinct() {
        let ids = [
            "F8",
            "F",
            "F80",
            "F08",
            "f8",
            "",
            "8",
            "08",
            "202",
            "0202",
            "9999",
            "10000",
            "Z99",
            "z99",
            "Z100",
            "SFTG",
            "Holding",
            "Marseille",
            "Marseilles",
            "a\0",
            "X1",
            "601",
        ];
        let index: IdIndex = ids.iter().enumerate().map(|(i, s)| (*s, i)).collect();
        for (i, s) in ids.iter().enumerate() {
            assert_eq!(index.get(s), Some(i), "{s:?}");
        }
        for absent in ["F9", "a", "Marseill", "0", "00", "2020", "G8", "Z98"] {
            assert_eq!(index.get(absent), None, "{absent:?}");
        }
        let mut again = index.clone();
        again.insert("F8", 99);
        again.insert("SFTG", 99);
        assert_eq!(again.get("F8"), Some(0));
        assert_eq!(again.get("SFTG"), Some(15));
        // An index without table entries has no table at all.
        let names: IdIndex = [("SFTG", 0)].into_iter().collect();
        assert!(names.table.is_empty());
        assert_eq!(names.get("F8"), None);
    }
}
