//! Seeds and random streams (rand's PCG64): every game of a run gets its own seed from
//! (run seed, deal id), and the engine and each seat draw from their own streams
//! spawned from it, so a game is a pure function of its seed and its players, whatever
//! the order or the process it is played in (the rows stay the same for any `--jobs`
//! and after `--resume`).
//!
//! Nothing else has to draw the same numbers: the Python rules (the oracle) build their
//! game from the core's deal (`State.deal()`), and a Python strategy's own stream is
//! numpy's, seeded in Python.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// A seed: the run's entropy and a key (the deal id, then one index per spawn), hashed
/// into the 32 bytes a PCG64 stream starts from. Spawning gives independent children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedSequence {
    entropy: u128,
    spawn_key: Vec<u64>,
    n_children_spawned: u64,
}

/// SplitMix64's finaliser: a bijection that spreads every input bit over the output.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SeedSequence {
    /// The seed of `entropy` with `spawn_key` (e.g. `[setup]` for one deal of a run).
    pub fn new(entropy: u128, spawn_key: &[u64]) -> Self {
        SeedSequence { entropy, spawn_key: spawn_key.to_vec(), n_children_spawned: 0 }
    }

    /// `n` children with keys `spawn_key + [i]`; a second call yields fresh ones.
    pub fn spawn(&mut self, n: usize) -> Vec<SeedSequence> {
        let first = self.n_children_spawned;
        self.n_children_spawned += n as u64;
        (first..first + n as u64)
            .map(|i| {
                let mut key = self.spawn_key.clone();
                key.push(i);
                SeedSequence::new(self.entropy, &key)
            })
            .collect()
    }

    /// The 32 seed bytes: every word of (entropy, key length, key) absorbed in turn.
    fn seed_bytes(&self) -> [u8; 32] {
        let words = [self.entropy as u64, (self.entropy >> 64) as u64, self.spawn_key.len() as u64];
        let mut h = 0u64;
        for w in words.iter().chain(&self.spawn_key) {
            h = mix(h ^ w);
        }
        let mut out = [0u8; 32];
        for (i, chunk) in out.chunks_exact_mut(8).enumerate() {
            chunk.copy_from_slice(&mix(h.wrapping_add(i as u64)).to_le_bytes());
        }
        out
    }
}

/// A random stream (rand's PCG64).
#[derive(Clone, Debug)]
pub struct Generator {
    bitgen: Pcg64,
}

impl Generator {
    pub fn new(s: &SeedSequence) -> Self {
        Generator { bitgen: Pcg64::from_seed(s.seed_bytes()) }
    }

    /// `0..n` in a uniformly random order.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut arr: Vec<usize> = (0..n).collect();
        arr.shuffle(&mut self.bitgen);
        arr
    }

    /// A uniform integer in `0..n` (`n` >= 1; one option draws nothing).
    pub fn integers(&mut self, n: u64) -> u64 {
        assert!(n >= 1, "integers: an empty range");
        if n == 1 {
            return 0;
        }
        self.bitgen.random_range(0..n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_replays_its_stream_and_keys_separate_streams() {
        let draw = |s: &SeedSequence| {
            let mut g = Generator::new(s);
            (g.permutation(30), g.integers(1 << 40))
        };
        let a = SeedSequence::new(7, &[3]);
        assert_eq!(draw(&a), draw(&SeedSequence::new(7, &[3])));
        assert_ne!(draw(&a), draw(&SeedSequence::new(7, &[4])));
        assert_ne!(draw(&a), draw(&SeedSequence::new(8, &[3])));
        assert_ne!(draw(&SeedSequence::new(0, &[1])), draw(&SeedSequence::new(0, &[1, 0])));
        assert_ne!(draw(&SeedSequence::new(1 << 64, &[])), draw(&SeedSequence::new(1, &[])));
    }

    #[test]
    fn spawning_twice_gives_fresh_children() {
        let mut s = SeedSequence::new(11, &[2]);
        let first = s.spawn(2);
        let second = s.spawn(2);
        assert_eq!(first[1], SeedSequence::new(11, &[2, 1]));
        assert_eq!(second[0], SeedSequence::new(11, &[2, 2]));
    }

    #[test]
    fn permutations_are_permutations_and_uniform_enough() {
        let mut g = Generator::new(&SeedSequence::new(5, &[]));
        let mut first = [0u32; 4];
        for _ in 0..4000 {
            let p = g.permutation(4);
            let mut sorted = p.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, vec![0, 1, 2, 3]);
            first[p[0]] += 1;
        }
        assert!(first.iter().all(|&c| (850..1150).contains(&c)), "{first:?}");
        assert_eq!(g.integers(1), 0);
        assert!((0..1000).all(|_| g.integers(3) < 3));
    }
}
