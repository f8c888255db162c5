//! A bit-for-bit port of the parts of numpy's random module (numpy 2.x) that the
//! game uses: `SeedSequence`, the `PCG64` bit generator, and the `Generator`
//! methods `permutation(int)` and `integers(int[, size])`.
//!
//! Why a port and not a crate: the Python engine (`cdsim/game.py`, `cdsim/runner.py`)
//! deals its games with numpy, and the Rust core must deal exactly the same games
//! from the same seeds, so every draw (including numpy's 32-bit buffering and its
//! choice of rejection method) has to match numpy's C code, not merely be uniform.
//!
//! Sources followed: `numpy/random/bit_generator.pyx`, `_pcg64.pyx`,
//! `src/pcg64/pcg64.h`/`pcg64.c`, `_generator.pyx`, `_bounded_integers.pyx.in`,
//! `src/distributions/distributions.c`.

/// `DEFAULT_POOL_SIZE` in `bit_generator.pyx`; the game never changes it.
const POOL_SIZE: usize = 4;
// Hash constants of `bit_generator.pyx` (from M.E. O'Neill's seed_seq_fe).
const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
/// `XSHIFT` = half the bit width of a uint32.
const XSHIFT: u32 = 16;

/// `PCG_DEFAULT_MULTIPLIER_128` of `pcg64.h` (high, low halves).
const PCG_MULT: u128 = (2_549_297_995_355_413_924_u128 << 64) | 4_865_540_595_714_422_341_u128;

/// `_int_to_uint32_array`: little-endian 32-bit words, with 0 giving one word `[0]`
/// (not an empty array), which matters because the word count feeds the pool
/// mixing and the spawn-key padding rule.
fn push_words(out: &mut Vec<u32>, mut n: u128) {
    if n == 0 {
        out.push(0);
    }
    while n > 0 {
        out.push(n as u32);
        n >>= 32;
    }
}

/// `hashmix` of `bit_generator.pyx`; the multiplier is threaded through the caller.
fn hashmix(value: u32, hash_const: &mut u32) -> u32 {
    let mut v = value ^ *hash_const;
    *hash_const = hash_const.wrapping_mul(MULT_A);
    v = v.wrapping_mul(*hash_const);
    v ^ (v >> XSHIFT)
}

/// `mix` of `bit_generator.pyx`.
fn mix(x: u32, y: u32) -> u32 {
    let r = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    r ^ (r >> XSHIFT)
}

/// numpy's `SeedSequence(entropy, spawn_key=...)` with the default pool size, for
/// integer entropy. Entropy is limited to `u128` (numpy accepts any int; the game's
/// seeds are small) and spawn-key elements to `u64`.
#[derive(Clone, Debug)]
pub struct SeedSequence {
    entropy: u128,
    spawn_key: Vec<u64>,
    n_children_spawned: u64,
    pool: [u32; POOL_SIZE],
}

impl SeedSequence {
    /// `SeedSequence(entropy, spawn_key=tuple(spawn_key))`.
    pub fn new(entropy: u128, spawn_key: &[u64]) -> Self {
        let mut s = SeedSequence {
            entropy,
            spawn_key: spawn_key.to_vec(),
            n_children_spawned: 0,
            pool: [0; POOL_SIZE],
        };
        s.pool = mix_entropy(&s.assembled_entropy());
        s
    }

    /// `get_assembled_entropy`: run entropy, zero-padded to the pool size only when
    /// a spawn key is present (numpy's gh-16539 fix), then the spawn key's words.
    /// The padding decides where the key's words land (pool slots vs. the tail mix),
    /// so `SeedSequence(0, spawn_key=(1,))` and `SeedSequence(2**32)` differ; without
    /// a key it would hash the same zeros `mix_entropy` already runs on.
    fn assembled_entropy(&self) -> Vec<u32> {
        // At most 4 words of entropy and 2 per key element.
        let mut words = Vec::with_capacity(POOL_SIZE + 2 * self.spawn_key.len());
        push_words(&mut words, self.entropy);
        if !self.spawn_key.is_empty() && words.len() < POOL_SIZE {
            words.resize(POOL_SIZE, 0);
        }
        for &k in &self.spawn_key {
            push_words(&mut words, u128::from(k));
        }
        words
    }

    /// `SeedSequence.spawn(n)`: children get `spawn_key + (i,)` for
    /// `i in n_children_spawned..n_children_spawned + n`, and the counter advances,
    /// so a second call yields fresh children rather than repeating the first.
    pub fn spawn(&mut self, n: usize) -> Vec<SeedSequence> {
        let first = self.n_children_spawned;
        let mut key = Vec::with_capacity(self.spawn_key.len() + 1);
        let children = (first..first + n as u64)
            .map(|i| {
                key.clear();
                key.extend_from_slice(&self.spawn_key);
                key.push(i);
                SeedSequence::new(self.entropy, &key)
            })
            .collect();
        self.n_children_spawned += n as u64;
        children
    }

    /// `SeedSequence.generate_state(n, np.uint32)`: cycles over the pool.
    pub fn generate_state_u32(&self, n: usize) -> Vec<u32> {
        let mut hash_const = INIT_B;
        self.pool
            .iter()
            .cycle()
            .take(n)
            .map(|&w| {
                let mut v = w ^ hash_const;
                hash_const = hash_const.wrapping_mul(MULT_B);
                v = v.wrapping_mul(hash_const);
                v ^ (v >> XSHIFT)
            })
            .collect()
    }

    /// `SeedSequence.generate_state(n, np.uint64)`: numpy draws 2n u32 words and
    /// views them as little-endian u64, so word 2i is the low half of output i.
    pub fn generate_state_u64(&self, n: usize) -> Vec<u64> {
        self.generate_state_u32(2 * n)
            .chunks_exact(2)
            .map(|w| u64::from(w[0]) | (u64::from(w[1]) << 32))
            .collect()
    }
}

/// `mix_entropy` of `bit_generator.pyx` for a fresh (all-zero) pool.
fn mix_entropy(entropy: &[u32]) -> [u32; POOL_SIZE] {
    let mut pool = [0u32; POOL_SIZE];
    let mut hash_const = INIT_A;
    // Hash in the entropy up to the pool size; short entropy keeps running the hash on 0s.
    for (i, slot) in pool.iter_mut().enumerate() {
        *slot = hashmix(entropy.get(i).copied().unwrap_or(0), &mut hash_const);
    }
    // Mix all words together so late words affect earlier ones. Index loops on
    // purpose: the order of reads and writes is numpy's and must not change.
    for i_src in 0..POOL_SIZE {
        for i_dst in 0..POOL_SIZE {
            if i_src != i_dst {
                pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src], &mut hash_const));
            }
        }
    }
    // Remaining entropy beyond the pool size is mixed into every pool word.
    for &w in entropy.iter().skip(POOL_SIZE) {
        for slot in pool.iter_mut() {
            *slot = mix(*slot, hashmix(w, &mut hash_const));
        }
    }
    pool
}

/// numpy's `PCG64` bit generator: PCG XSL-RR 128/64 with numpy's default
/// multiplier, plus the `has_uint32`/`uinteger` buffer of `pcg64_state` that
/// `next_uint32` uses (the buffer is part of the stream, so it is ported too).
#[derive(Clone, Debug)]
pub struct Pcg64 {
    state: u128,
    inc: u128,
    has_uint32: bool,
    uinteger: u32,
}

impl Pcg64 {
    /// `PCG64(seed_sequence)`: `generate_state(4, np.uint64)` gives
    /// `[state_hi, state_lo, inc_hi, inc_lo]`, passed to `pcg64_set_seed`, which
    /// runs `pcg_setseq_128_srandom_r`; the 32-bit buffer starts empty.
    pub fn from_seed_sequence(s: &SeedSequence) -> Self {
        let v = s.generate_state_u64(4);
        let init_state = (u128::from(v[0]) << 64) | u128::from(v[1]);
        let init_seq = (u128::from(v[2]) << 64) | u128::from(v[3]);
        let mut g = Pcg64 {
            state: 0,
            inc: (init_seq << 1) | 1,
            has_uint32: false,
            uinteger: 0,
        };
        g.step();
        g.state = g.state.wrapping_add(init_state);
        g.step();
        g
    }

    /// `pcg_setseq_128_step_r`.
    fn step(&mut self) {
        self.state = self.state.wrapping_mul(PCG_MULT).wrapping_add(self.inc);
    }

    /// `pcg64_next64`: step first, then the XSL-RR output of the new state. It
    /// neither uses nor clears the 32-bit buffer.
    pub fn next_u64(&mut self) -> u64 {
        self.step();
        let hi = (self.state >> 64) as u64;
        let lo = self.state as u64;
        (hi ^ lo).rotate_right((self.state >> 122) as u32)
    }

    /// `pcg64_next32`: a 64-bit draw serves two calls, low half first; the high
    /// half waits in the buffer even across intervening `next_u64` calls.
    pub fn next_u32(&mut self) -> u32 {
        if self.has_uint32 {
            self.has_uint32 = false;
            return self.uinteger;
        }
        let next = self.next_u64();
        self.has_uint32 = true;
        self.uinteger = (next >> 32) as u32;
        next as u32
    }
}

/// What `np.random.default_rng(seed_sequence)` returns: a `Generator` over `PCG64`.
#[derive(Clone, Debug)]
pub struct Generator {
    bitgen: Pcg64,
}

impl Generator {
    /// `np.random.default_rng(s)`.
    pub fn new(s: &SeedSequence) -> Self {
        Generator {
            bitgen: Pcg64::from_seed_sequence(s),
        }
    }

    /// `Generator.permutation(n)` for an int: `np.arange(n)` shuffled in place by
    /// `shuffle`'s 1-d fast path (`_shuffle_raw`): Fisher–Yates from the last
    /// index down to 1, each swap partner drawn by `random_interval`.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut arr: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.random_interval(i as u64) as usize;
            arr.swap(i, j);
        }
        arr
    }

    /// `random_interval` of `distributions.c`: masked rejection (not Lemire), with
    /// 32-bit draws when `max` fits in 32 bits, so shuffles consume the buffer.
    fn random_interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mask = u64::MAX >> max.leading_zeros();
        if max <= 0xffff_ffff {
            loop {
                let v = u64::from(self.bitgen.next_u32()) & mask;
                if v <= max {
                    return v;
                }
            }
        } else {
            loop {
                let v = self.bitgen.next_u64() & mask;
                if v <= max {
                    return v;
                }
            }
        }
    }

    /// `Generator.integers(n)` for a Python int `n` (default dtype int64, scalar):
    /// `_rand_int64` calls `random_bounded_uint64_fill(off=0, rng=n-1, cnt=1,
    /// use_masked=False)`. `n == 1` draws nothing. Panics where numpy raises
    /// (`n == 0`, or `n > 2**63`, beyond int64).
    pub fn integers(&mut self, n: u64) -> u64 {
        assert!(
            (1..=1 << 63).contains(&n),
            "integers: high out of bounds for int64"
        );
        self.bounded(n - 1)
    }

    /// `Generator.integers(n, size=size)`. numpy's fill path passes a 32-bit
    /// buffer (`bcnt`/`buf`) that the 32-bit Lemire ignores, so this is exactly
    /// `size` scalar draws, sharing the bit generator's `has_uint32` buffer with
    /// every other call. `size == 0` draws nothing.
    pub fn integers_many(&mut self, n: u64, size: usize) -> Vec<u64> {
        assert!(
            (1..=1 << 63).contains(&n),
            "integers: high out of bounds for int64"
        );
        (0..size).map(|_| self.bounded(n - 1)).collect()
    }

    /// One draw of `random_bounded_uint64_fill` on `[0, rng]` with Lemire's method:
    /// 32-bit Lemire when `rng` fits in 32 bits (except `0xffffffff`, which takes a
    /// raw `next_uint32`), 64-bit Lemire otherwise (except `u64::MAX`, raw
    /// `next_uint64`; unreachable from int64 bounds but kept for fidelity).
    fn bounded(&mut self, rng: u64) -> u64 {
        if rng == 0 {
            0
        } else if rng == 0xffff_ffff {
            u64::from(self.bitgen.next_u32())
        } else if rng < 0xffff_ffff {
            u64::from(self.lemire_u32(rng as u32))
        } else if rng == u64::MAX {
            self.bitgen.next_u64()
        } else {
            self.lemire_u64(rng)
        }
    }

    /// `buffered_bounded_lemire_uint32`; the threshold is only computed when the
    /// cheap bound says a rejection is possible, as in numpy (it draws the same
    /// either way, but this keeps the port line-for-line checkable).
    fn lemire_u32(&mut self, rng: u32) -> u32 {
        let rng_excl = rng + 1;
        let mut m = u64::from(self.bitgen.next_u32()) * u64::from(rng_excl);
        let mut leftover = m as u32;
        if leftover < rng_excl {
            let threshold = (u32::MAX - rng) % rng_excl;
            while leftover < threshold {
                m = u64::from(self.bitgen.next_u32()) * u64::from(rng_excl);
                leftover = m as u32;
            }
        }
        (m >> 32) as u32
    }

    /// `bounded_lemire_uint64` (the `__uint128_t` branch).
    fn lemire_u64(&mut self, rng: u64) -> u64 {
        let rng_excl = rng + 1;
        let mut m = u128::from(self.bitgen.next_u64()) * u128::from(rng_excl);
        let mut leftover = m as u64;
        if leftover < rng_excl {
            let threshold = (u64::MAX - rng) % rng_excl;
            while leftover < threshold {
                m = u128::from(self.bitgen.next_u64()) * u128::from(rng_excl);
                leftover = m as u64;
            }
        }
        (m >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values below were produced with numpy 2.4.6 in /work/main/.venv,
    // `from numpy.random import SeedSequence, default_rng, PCG64`.

    fn state8(entropy: u128, key: &[u64]) -> Vec<u32> {
        SeedSequence::new(entropy, key).generate_state_u32(8)
    }

    #[test]
    fn rng_generate_state_without_spawn_key() {
        // SeedSequence(e).generate_state(8)
        let cases: [(u128, [u32; 8]); 5] = [
            (
                0,
                [
                    0xb0f478be, 0xdb2cd7e7, 0x2c71ba49, 0xabf4641a, 0x9d7b8d41, 0x20c6ed6d,
                    0x223c39d4, 0x2c4099de,
                ],
            ),
            (
                1,
                [
                    0x6d6791ff, 0x672d8ee5, 0x4eb1072c, 0x8ae19ca1, 0x1322fc4a, 0x4915796d,
                    0xaba049bd, 0xd0cc2bdc,
                ],
            ),
            (
                12345,
                [
                    0xa03d837c, 0xb5ae6482, 0xfa1f7a2f, 0xbbe2996f, 0x37158f94, 0x64e39a9f,
                    0xa013fd73, 0x3ebb0f96,
                ],
            ),
            // e = 2**40 + 7
            (
                (1 << 40) + 7,
                [
                    0x0e3d1a15, 0x0d8672e1, 0x4ecfa161, 0x9aef4ada, 0x83dba903, 0x999c1c3b,
                    0x0dc8a316, 0x408927dc,
                ],
            ),
            // e = 2**100 + 3 (four words: no padding question, full pool)
            (
                (1 << 100) + 3,
                [
                    0x0977d4f5, 0xba00485c, 0x95efa46a, 0xcdb10e7d, 0x953b85c9, 0x6c83aecf,
                    0x3e6230c7, 0x5327889b,
                ],
            ),
        ];
        for (e, want) in cases {
            assert_eq!(state8(e, &[]), want, "entropy {e}");
        }
    }

    #[test]
    fn rng_generate_state_with_spawn_keys() {
        // SeedSequence(e, spawn_key=key).generate_state(8); key elements >= 2**32
        // take two words, and keys make the run entropy pad to 4 words.
        type Case = (u128, &'static [u64], [u32; 8]);
        let cases: [Case; 20] = [
            (
                0,
                &[0],
                [
                    0xdff7b411, 0x784dfb2c, 0x56cf8f57, 0xca65717f, 0x9bb52223, 0x66ba395b,
                    0x0fe1e0a9, 0x6f9b3211,
                ],
            ),
            (
                0,
                &[3],
                [
                    0xdbb3cbbe, 0xb7b834ed, 0x2cea0557, 0xf39d7ee1, 0xc24f57e2, 0xb351b364,
                    0x3e443a79, 0x72f41ef8,
                ],
            ),
            (
                0,
                &[7, 1],
                [
                    0x2479348b, 0xd4706c48, 0x7d4645fa, 0x773a8f6c, 0x1c39e2bb, 0xc518a090,
                    0xa8d47c78, 0x35b2f334,
                ],
            ),
            // spawn_key=(2**32+5,)
            (
                0,
                &[(1 << 32) + 5],
                [
                    0x8055107c, 0x36c26f8c, 0xc5e8b6dc, 0x458c026a, 0xb6ae0327, 0xd9820b3c,
                    0x1478c0dc, 0x3c9353e5,
                ],
            ),
            // spawn_key=(2**64-1, 2)
            (
                0,
                &[u64::MAX, 2],
                [
                    0x4af33f89, 0xb5d47ffe, 0xa607de96, 0xef8c3359, 0x451dad17, 0x47e5251f,
                    0x7db799e6, 0xcf2318d6,
                ],
            ),
            (
                1,
                &[0],
                [
                    0x61d5f260, 0x7503ef94, 0x4fea20f8, 0x4ac95c40, 0xf3504e45, 0x4bedcc9a,
                    0xe4a95acb, 0x5392d97b,
                ],
            ),
            (
                1,
                &[3],
                [
                    0xb631e0e1, 0x90e35e48, 0x3cde5d7b, 0xf258932b, 0xc89bfbbb, 0xca745fbf,
                    0xa62e46eb, 0x20511282,
                ],
            ),
            (
                1,
                &[7, 1],
                [
                    0x7af50614, 0xe5a82f0f, 0x1963897f, 0xb40fd3ad, 0xb2946a75, 0xaaea420d,
                    0xbfac1da0, 0xc7cb1d59,
                ],
            ),
            (
                1,
                &[(1 << 32) + 5],
                [
                    0x37acea95, 0x8df00b8a, 0x888076be, 0xdcadcfc1, 0x77ffdb86, 0xaf8ae620,
                    0xad97edd9, 0x988b49d7,
                ],
            ),
            (
                1,
                &[u64::MAX, 2],
                [
                    0xdadb5147, 0x38903d38, 0x035eea9a, 0xec33a57b, 0x58007e6c, 0x00899e11,
                    0xcbecfa38, 0x69084f90,
                ],
            ),
            (
                12345,
                &[0],
                [
                    0x392bfa59, 0xbe87e4f4, 0xa21ba2e2, 0x6ad80010, 0xfaf951fb, 0x09a32f90,
                    0x848d0134, 0xbb1e6106,
                ],
            ),
            (
                12345,
                &[3],
                [
                    0xd729dc3d, 0x41bd5cf2, 0x62fa6ce6, 0x7a973531, 0x224a79ae, 0x9f27e348,
                    0x469c0290, 0xa8638f55,
                ],
            ),
            (
                12345,
                &[7, 1],
                [
                    0x27e49f36, 0xfdf84ac3, 0x5710679c, 0xccfc1fa4, 0xbbf21b50, 0xe4570aec,
                    0x384e2bd2, 0x3cc9cec1,
                ],
            ),
            (
                12345,
                &[(1 << 32) + 5],
                [
                    0xb922544c, 0xa74450b8, 0x83dec51a, 0x931ede30, 0x2d691377, 0x0d385814,
                    0x3a4aa69e, 0xd4de6e00,
                ],
            ),
            (
                12345,
                &[u64::MAX, 2],
                [
                    0x3bd2510c, 0x5233a711, 0xfc433255, 0x4fff8e84, 0x693fd091, 0xe321ecf3,
                    0x956e34c8, 0x4342f3b9,
                ],
            ),
            // entropy 2**40+7
            (
                (1 << 40) + 7,
                &[3],
                [
                    0x7ec0caa9, 0xb07eec3d, 0x6a0443f4, 0x5700fa11, 0xabeee2a7, 0x5090b973,
                    0x82f79a57, 0x7705f954,
                ],
            ),
            (
                (1 << 40) + 7,
                &[(1 << 32) + 5],
                [
                    0xd784cf01, 0x0e1862a9, 0xc6ce020a, 0x07a99b78, 0x5a793a3c, 0x1c6e45ff,
                    0xa0bc9e68, 0xf8002c11,
                ],
            ),
            // entropy 2**100+3: already 4 words, so no padding; key words go to the tail loop
            (
                (1 << 100) + 3,
                &[0],
                [
                    0x7d7ecde3, 0x8e6a14fc, 0x82a9cb73, 0x9ee824c7, 0x2fab13b6, 0xa8ac866a,
                    0x4102aa28, 0x352939c6,
                ],
            ),
            (
                (1 << 100) + 3,
                &[7, 1],
                [
                    0xc4ea6ca5, 0x80d59c0e, 0x119e863d, 0xc7d0e03e, 0xef4a99a5, 0x2d014a1a,
                    0x210bc9a8, 0x3faed230,
                ],
            ),
            (
                (1 << 100) + 3,
                &[u64::MAX, 2],
                [
                    0x3b77a3ea, 0x21dbe37c, 0x8585350a, 0xf5c1a37e, 0x53547749, 0x430153e6,
                    0x8b7c8733, 0xdc6c44b3,
                ],
            ),
        ];
        for (e, key, want) in cases {
            assert_eq!(state8(e, key), want, "entropy {e} key {key:?}");
        }
    }

    #[test]
    fn rng_generate_state_u64_is_little_endian_pairs() {
        // SeedSequence(12345, spawn_key=(2**32+5,)).generate_state(3, np.uint64)
        assert_eq!(
            SeedSequence::new(12345, &[(1 << 32) + 5]).generate_state_u64(3),
            [0xa74450b8b922544c, 0x931ede3083dec51a, 0x0d3858142d691377]
        );
        // SeedSequence(0).generate_state(4, np.uint64)
        assert_eq!(
            SeedSequence::new(0, &[]).generate_state_u64(4),
            [
                0xdb2cd7e7b0f478be,
                0xabf4641a2c71ba49,
                0x20c6ed6d9d7b8d41,
                0x2c4099de223c39d4
            ]
        );
    }

    #[test]
    fn rng_spawn_twice_advances_counter() {
        // root = SeedSequence(42, spawn_key=(5,)); a = root.spawn(2); b = root.spawn(3)
        // [c.generate_state(4) for c in a + b]; keys (5,0)..(5,4); root.n_children_spawned == 5
        let mut root = SeedSequence::new(42, &[5]);
        let a = root.spawn(2);
        let b = root.spawn(3);
        assert_eq!(root.n_children_spawned, 5);
        let want: [[u32; 4]; 5] = [
            [0x626550ec, 0x4d47d83c, 0x1c357f52, 0xdd986502],
            [0x159c9b3b, 0x6bfe423f, 0x4cb2827b, 0xcd7ac7c0],
            [0xd8ea61d8, 0xc935cfb1, 0x35f2a265, 0x8b6f6fd3],
            [0xe908345e, 0x7301d5e1, 0x0dc02583, 0x257e927f],
            [0x732faf56, 0x2538ce7f, 0x8b68c415, 0x80ab1bd3],
        ];
        for (i, (c, w)) in a.iter().chain(b.iter()).zip(want).enumerate() {
            assert_eq!(c.spawn_key, [5, i as u64]);
            assert_eq!(c.n_children_spawned, 0);
            assert_eq!(c.generate_state_u32(4), w, "child {i}");
        }
        // b[1].spawn(1)[0].generate_state(4): key (5, 3, 0)
        let mut child = b[1].clone();
        let g = child.spawn(1).remove(0);
        assert_eq!(g.spawn_key, [5, 3, 0]);
        assert_eq!(
            g.generate_state_u32(4),
            [0xbbc19780, 0x38668b00, 0x2be1e378, 0xa2581d88]
        );
        assert!(root.spawn(0).is_empty());
        assert_eq!(root.n_children_spawned, 5);
    }

    #[test]
    fn rng_pcg64_seeding_and_next_u64() {
        // PCG64(SeedSequence(12345)).state['state'] before any draw
        let mut g = Pcg64::from_seed_sequence(&SeedSequence::new(12345, &[]));
        assert_eq!(g.inc, 268209174141567072605526753992732310247);
        // PCG64(SeedSequence(12345)).random_raw(10)
        let want: [u64; 10] = [
            0x3a32b18db2ffc19d,
            0x51171315c9e4c4de,
            0xcc2024823444efd9,
            0xad1f06aea486e910,
            0x641fc168fd0b7b0d,
            0x55334b27d6e48f43,
            0x992ac3319147e59d,
            0x2fcdcfc436908a5f,
            0xac39bd773aa89e2d,
            0xf119fe199d0cabff,
        ];
        let got: Vec<u64> = (0..10).map(|_| g.next_u64()).collect();
        assert_eq!(got, want);
        // ... and then bg.state['state']['state']
        assert_eq!(g.state, 37035231678451540302700982856030234847);
    }

    #[test]
    fn rng_pcg64_mixed_u32_u64_buffering() {
        // bg = PCG64(SeedSequence(7, spawn_key=(1,))); ci = bg.ctypes; then in order
        // ci.next_uint32(ci.state) / ci.next_uint64(ci.state) as listed.
        // The 5th call (u32) returns the high half buffered by the 3rd: next_uint64
        // leaves the buffer alone.
        let mut g = Pcg64::from_seed_sequence(&SeedSequence::new(7, &[1]));
        assert_eq!(g.next_u32(), 2926574226);
        assert_eq!(g.next_u32(), 2064083997);
        assert_eq!(g.next_u32(), 1713814180);
        assert_eq!(g.next_u64(), 4107885884059011584);
        assert_eq!(g.next_u32(), 255730112);
        assert_eq!(g.next_u64(), 2463396692060935969);
        assert_eq!(g.next_u64(), 1742954991268042392);
        assert_eq!(g.next_u32(), 3642776973);
        assert_eq!(g.next_u32(), 1626695478);
        assert_eq!(g.next_u32(), 1170505678);
    }

    /// The engine's setup: root = SeedSequence(seed, spawn_key=(setup,));
    /// engine_seq, *seats = root.spawn(1 + players); rng = default_rng(engine_seq);
    /// then rng.permutation(n) for n in [4, 16, 15, 15, 15, 15, 12, 24, 84, 39].
    fn engine_deal(seed: u128, setup: u64, players: usize) -> (Generator, Vec<SeedSequence>) {
        let mut root = SeedSequence::new(seed, &[setup]);
        let mut seqs = root.spawn(1 + players);
        let engine = seqs.remove(0);
        (Generator::new(&engine), seqs)
    }

    const DEAL_SIZES: [usize; 10] = [4, 16, 15, 15, 15, 15, 12, 24, 84, 39];

    #[test]
    fn rng_engine_deal_seed_2024_setup_0_four_players() {
        let (mut rng, seats) = engine_deal(2024, 0, 4);
        let want: [&[usize]; 10] = [
            &[1, 3, 2, 0],
            &[8, 9, 14, 10, 13, 3, 7, 15, 0, 5, 2, 12, 4, 1, 11, 6],
            &[0, 11, 7, 12, 10, 6, 4, 8, 2, 9, 3, 5, 13, 14, 1],
            &[5, 2, 10, 0, 3, 14, 6, 13, 4, 8, 11, 7, 9, 1, 12],
            &[13, 0, 9, 8, 7, 10, 12, 14, 5, 1, 2, 3, 4, 6, 11],
            &[5, 12, 13, 6, 2, 14, 1, 9, 8, 0, 7, 4, 3, 10, 11],
            &[10, 7, 4, 0, 9, 5, 8, 6, 11, 2, 1, 3],
            &[
                0, 15, 6, 5, 21, 20, 8, 16, 7, 11, 13, 2, 22, 23, 1, 12, 3, 4, 19, 17, 9, 18, 14,
                10,
            ],
            &[
                34, 22, 63, 59, 7, 68, 1, 79, 36, 26, 10, 64, 15, 71, 61, 44, 20, 16, 39, 81, 52,
                6, 48, 31, 70, 65, 62, 49, 74, 66, 2, 80, 33, 17, 47, 60, 41, 19, 55, 69, 12, 77,
                13, 45, 58, 76, 23, 30, 56, 83, 5, 18, 67, 32, 37, 29, 73, 42, 50, 27, 46, 51, 4,
                24, 72, 0, 38, 8, 43, 3, 14, 35, 82, 11, 9, 21, 25, 28, 57, 40, 78, 75, 54, 53,
            ],
            &[
                36, 17, 10, 5, 0, 37, 28, 30, 34, 6, 32, 31, 11, 3, 21, 16, 38, 29, 13, 1, 12, 15,
                4, 7, 20, 33, 9, 8, 14, 19, 18, 23, 27, 24, 22, 25, 2, 35, 26,
            ],
        ];
        for (n, w) in DEAL_SIZES.into_iter().zip(want) {
            assert_eq!(rng.permutation(n), w, "permutation({n})");
        }
        // rng.bit_generator.state afterwards: a half-used 32-bit draw is pending.
        assert_eq!(rng.bitgen.state, 126784475796301570021324589968864316372);
        assert!(rng.bitgen.has_uint32);
        assert_eq!(rng.bitgen.uinteger, 3328931353);
        // default_rng(seats[3]); [int(srng.integers(k)) for k in [3, 5, 1, 2, 9, 4]]
        let mut srng = Generator::new(&seats[3]);
        let got: Vec<u64> = [3, 5, 1, 2, 9, 4]
            .into_iter()
            .map(|k| srng.integers(k))
            .collect();
        assert_eq!(got, [2, 4, 0, 0, 7, 1]);
    }

    #[test]
    fn rng_engine_deal_seed_7_setup_13_two_players() {
        let (mut rng, seats) = engine_deal(7, 13, 2);
        let want: [&[usize]; 10] = [
            &[2, 0, 3, 1],
            &[0, 7, 9, 2, 15, 11, 3, 8, 6, 5, 14, 4, 1, 13, 12, 10],
            &[4, 8, 5, 9, 1, 3, 12, 13, 14, 2, 6, 7, 11, 10, 0],
            &[9, 8, 14, 13, 2, 7, 1, 10, 5, 3, 6, 12, 4, 11, 0],
            &[14, 6, 8, 3, 4, 10, 13, 11, 12, 2, 1, 5, 9, 7, 0],
            &[4, 2, 1, 14, 12, 0, 10, 13, 7, 8, 9, 11, 3, 5, 6],
            &[11, 7, 6, 1, 4, 2, 10, 9, 0, 3, 5, 8],
            &[
                6, 7, 1, 21, 8, 23, 18, 20, 15, 12, 9, 0, 17, 4, 3, 5, 22, 19, 13, 2, 11, 10, 16,
                14,
            ],
            &[
                28, 66, 57, 1, 20, 34, 63, 7, 49, 4, 36, 10, 50, 24, 77, 38, 83, 78, 76, 68, 51,
                15, 64, 48, 13, 67, 29, 74, 54, 11, 17, 60, 75, 62, 41, 27, 42, 69, 44, 37, 25, 33,
                46, 58, 53, 12, 40, 55, 3, 72, 0, 61, 82, 43, 6, 30, 31, 71, 45, 79, 81, 16, 8, 22,
                39, 47, 32, 2, 80, 14, 56, 52, 35, 9, 21, 73, 70, 65, 23, 18, 59, 5, 19, 26,
            ],
            &[
                11, 24, 3, 18, 10, 16, 17, 25, 0, 13, 23, 2, 8, 27, 9, 34, 36, 6, 15, 5, 1, 21, 37,
                20, 38, 7, 32, 31, 12, 35, 4, 30, 19, 29, 33, 22, 26, 28, 14,
            ],
        ];
        for (n, w) in DEAL_SIZES.into_iter().zip(want) {
            assert_eq!(rng.permutation(n), w, "permutation({n})");
        }
        assert_eq!(rng.bitgen.state, 40746661291056029871511270970545620258);
        assert!(rng.bitgen.has_uint32);
        assert_eq!(rng.bitgen.uinteger, 2230098036);
        // default_rng(seats[1]); [int(srng.integers(k)) for k in [3, 5, 1, 2, 9, 4]]
        let mut srng = Generator::new(&seats[1]);
        let got: Vec<u64> = [3, 5, 1, 2, 9, 4]
            .into_iter()
            .map(|k| srng.integers(k))
            .collect();
        assert_eq!(got, [0, 3, 0, 0, 1, 1]);
    }

    #[test]
    fn rng_permutation_sizes_from_spawned_child() {
        // rng = default_rng(SeedSequence(99, spawn_key=(3,)).spawn(2)[1])
        // [rng.permutation(n) for n in [1, 2, 7, 16, 24, 39, 84, 0, 1]]
        let child = SeedSequence::new(99, &[3]).spawn(2).remove(1);
        let mut rng = Generator::new(&child);
        let want: [(usize, &[usize]); 9] = [
            (1, &[0]),
            (2, &[1, 0]),
            (7, &[0, 1, 3, 6, 4, 2, 5]),
            (16, &[4, 13, 10, 12, 11, 6, 8, 5, 7, 14, 15, 1, 2, 3, 9, 0]),
            (
                24,
                &[
                    17, 4, 18, 5, 12, 13, 7, 11, 23, 21, 6, 20, 8, 1, 9, 2, 3, 15, 0, 16, 10, 19,
                    14, 22,
                ],
            ),
            (
                39,
                &[
                    21, 3, 28, 31, 36, 8, 27, 33, 30, 24, 23, 37, 10, 11, 35, 25, 2, 22, 13, 34,
                    29, 9, 26, 20, 5, 18, 6, 19, 38, 0, 15, 14, 7, 17, 16, 12, 1, 4, 32,
                ],
            ),
            (
                84,
                &[
                    39, 62, 41, 80, 56, 7, 29, 31, 2, 67, 16, 6, 78, 24, 12, 42, 79, 45, 0, 40, 68,
                    72, 58, 52, 10, 53, 15, 28, 60, 11, 61, 33, 3, 14, 59, 48, 50, 34, 71, 17, 51,
                    5, 9, 25, 27, 49, 43, 13, 69, 47, 46, 54, 82, 20, 75, 36, 37, 76, 23, 19, 8,
                    22, 55, 77, 1, 30, 63, 83, 44, 64, 21, 26, 4, 57, 38, 35, 66, 32, 81, 74, 73,
                    70, 18, 65,
                ],
            ),
            (0, &[]),
            (1, &[0]),
        ];
        for (n, w) in want {
            assert_eq!(rng.permutation(n), w, "permutation({n})");
        }
        // rng.bit_generator.state afterwards
        assert_eq!(rng.bitgen.state, 339826182166906480017719777383957271010);
        assert!(rng.bitgen.has_uint32);
        assert_eq!(rng.bitgen.uinteger, 29380744);
    }

    #[test]
    fn rng_integers_interleaved_with_permutations() {
        // rng = default_rng(SeedSequence(31337, spawn_key=(2,)).spawn(1)[0]); then in order
        // rng.integers(n) ('i') or rng.permutation(n) ('p'). Covers n == 1 (no draw),
        // 32-bit Lemire, rng == 0xffffffff (n = 2**32, raw next_uint32), 64-bit Lemire
        // (2**32+1, 2**33, 2**63), and the 32-bit buffer carried between calls.
        let mut rng = Generator::new(&SeedSequence::new(31337, &[2]).spawn(1).remove(0));
        assert_eq!(rng.integers(1), 0);
        assert_eq!(rng.integers(2), 0);
        assert_eq!(rng.permutation(5), [4, 0, 2, 1, 3]);
        assert_eq!(rng.integers(3), 1);
        assert_eq!(rng.integers(7), 2);
        assert_eq!(rng.integers(100), 55);
        assert_eq!(rng.permutation(3), [1, 2, 0]);
        assert_eq!(rng.integers((1 << 31) + 5), 1952357766);
        assert_eq!(rng.integers(1 << 33), 2323884561);
        assert_eq!(rng.integers(3), 1);
        assert_eq!(rng.integers(1 << 32), 2776935538);
        assert_eq!(rng.integers((1 << 32) + 1), 1472491408);
        assert_eq!(rng.integers(1 << 63), 8867299367964208519);
        assert_eq!(rng.permutation(9), [8, 3, 7, 4, 0, 1, 5, 2, 6]);
        assert_eq!(rng.integers(7), 1);
        assert_eq!(rng.integers(1), 0);
        assert_eq!(rng.integers(100), 73);
        // rng.bit_generator.state afterwards (buffer empty; stale uinteger kept, as in numpy)
        assert_eq!(rng.bitgen.state, 32698581263583697076921314204341173422);
        assert!(!rng.bitgen.has_uint32);
        assert_eq!(rng.bitgen.uinteger, 3164685838);
    }

    #[test]
    fn rng_integers_many_matches_fill_path() {
        // The runner's line-up draw:
        // default_rng(SeedSequence(2024, spawn_key=(setup, 1))).integers(4, size=4)
        let mut rng = Generator::new(&SeedSequence::new(2024, &[0, 1]));
        assert_eq!(rng.integers_many(4, 4), [3, 2, 1, 3]);
        assert!(!rng.bitgen.has_uint32);
        let mut rng = Generator::new(&SeedSequence::new(2024, &[5, 1]));
        assert_eq!(rng.integers_many(4, 4), [0, 0, 0, 1]);
        // The same values from four scalar calls (numpy gives [3, 2, 1, 3] too).
        let mut rng = Generator::new(&SeedSequence::new(2024, &[0, 1]));
        let scalar: Vec<u64> = (0..4).map(|_| rng.integers(4)).collect();
        assert_eq!(scalar, [3, 2, 1, 3]);
        // rng = default_rng(SeedSequence(5)); int(rng.integers(10)), rng.integers(6, size=5),
        // int(rng.integers(10)), rng.integers(2**40, size=3), rng.integers(1, size=3),
        // rng.integers(7, size=0), int(rng.integers(3))
        let mut rng = Generator::new(&SeedSequence::new(5, &[]));
        assert_eq!(rng.integers(10), 6);
        assert_eq!(rng.integers_many(6, 5), [4, 0, 4, 2, 3]);
        assert_eq!(rng.integers(10), 6);
        assert_eq!(
            rng.integers_many(1 << 40, 3),
            [59297434362, 421518542151, 449121038994]
        );
        assert_eq!(rng.integers_many(1, 3), [0, 0, 0]);
        assert!(rng.integers_many(7, 0).is_empty());
        assert_eq!(rng.integers(3), 0);
    }

    #[test]
    fn rng_integers_rejections_are_redrawn() {
        // 64-bit Lemire with n = 3 * 2**61 rejects a quarter of draws (threshold 2**62):
        // here raw draws 0, 2 and 9 are rejected, so 8 outputs take 11 draws.
        // rng = default_rng(SeedSequence(5)); rng.integers(3*2**61, size=8); rng.bit_generator.state
        let mut rng = Generator::new(&SeedSequence::new(5, &[]));
        assert_eq!(
            rng.integers_many(3 << 61, 8),
            [
                5588953865617455547,
                1977039342899601836,
                373067199206180440,
                2651965361128095989,
                2825625255506439529,
                313192468052243501,
                337282879276512259,
                4512782266146329695
            ]
        );
        assert_eq!(rng.bitgen.state, 324314001146768075028161786210544823489);
        // 32-bit Lemire with n = 2**31 + 5 rejects about half of the 32-bit draws.
        // rng = default_rng(SeedSequence(5)); [int(rng.integers(2**31+5)) for _ in range(8)]
        let mut rng = Generator::new(&SeedSequence::new(5, &[]));
        let got: Vec<u64> = (0..8).map(|_| rng.integers((1 << 31) + 5)).collect();
        assert_eq!(
            got,
            [
                48647418, 1735039638, 596836680, 1226609124, 281451239, 97227738, 104706386,
                319577160
            ]
        );
        // ... then rng.bit_generator.state
        assert_eq!(rng.bitgen.state, 200736944353541612582027466599114581220);
        assert!(rng.bitgen.has_uint32);
        assert_eq!(rng.bitgen.uinteger, 4291428737);
    }

    #[test]
    #[should_panic(expected = "out of bounds")]
    fn rng_integers_zero_panics_like_numpy_raises() {
        Generator::new(&SeedSequence::new(1, &[])).integers(0);
    }

    #[test]
    fn rng_permutation_is_a_permutation() {
        // No numpy: for many seeds and sizes (including > 2**8 and edge sizes), every
        // index appears exactly once.
        let mut root = SeedSequence::new(0xdead_beef, &[]);
        for (k, child) in root.spawn(40).iter().enumerate() {
            let mut rng = Generator::new(child);
            for n in [0usize, 1, 2, 3, 5, 8, 13, 64, 65, 257, 1000 + k] {
                let p = rng.permutation(n);
                let mut seen = vec![false; n];
                for &x in &p {
                    assert!(x < n && !seen[x], "n={n} not a permutation: {p:?}");
                    seen[x] = true;
                }
                assert_eq!(p.len(), n);
            }
        }
    }
}
