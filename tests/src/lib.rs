//! Cross-crate tests live in `tests/tests/`. The library holds the bodies of the fuzz targets
//! ([`fuzzing`]), shared by `fuzz/` (cargo-fuzz, nightly) and the stable test suite.

pub mod fuzzing;
pub mod validated;

/// The tests' seeded random numbers (xorshift64*), as in the engine's tests: small, fast and
/// the same on every machine, so a failing seed replays exactly.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// `n` random bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}
