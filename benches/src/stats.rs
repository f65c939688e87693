//! Medians, and the per-side figures of one comparison.

/// Median of the finite values (NaN when there are none).
pub fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    }
}

/// One side's figures, one entry per round.
#[derive(Clone, Debug, Default)]
pub struct Side {
    pub per_sec: Vec<f64>,
    pub p50_us: Vec<f64>,
    pub p99_us: Vec<f64>,
    /// CPU time of the measured process per request (server process for the server rows,
    /// the clients' process for the client rows), µs.
    pub cpu_us: Vec<f64>,
    pub unexpected: u64,
}

impl Side {
    /// One run, and the CPU ticks the measured process used during it.
    pub fn push(&mut self, run: &crate::load::RunResult, cpu_ns: u64) {
        let cpu_secs = cpu_ns as f64 / crate::serve::NS_PER_SEC;
        self.cpu_us
            .push(1e6 * cpu_secs / run.all_completed.max(1) as f64);
        self.per_sec.push(run.requests_per_sec());
        self.p50_us.push(run.percentile_us(50.0));
        self.p99_us.push(run.percentile_us(99.0));
        self.unexpected += run.unexpected;
    }
}

/// Both sides of a comparison; the ratio is generated / hand-written throughput.
#[derive(Clone, Debug, Default)]
pub struct Pair {
    pub generated: Side,
    pub handwritten: Side,
}

impl Pair {
    /// Ratio of the median throughputs.
    pub fn ratio(&self) -> f64 {
        median(&self.generated.per_sec) / median(&self.handwritten.per_sec)
    }

    /// CPU efficiency: hand-written CPU per request / generated CPU per request (medians), so
    /// that, like the throughput ratio, above 1 means the generated side is cheaper.
    pub fn cpu_ratio(&self) -> f64 {
        median(&self.handwritten.cpu_us) / median(&self.generated.cpu_us)
    }

    /// A 95 % confidence interval for [`Pair::ratio`] (see [`bootstrap`]).
    pub fn ratio_ci(&self) -> (f64, f64) {
        bootstrap(
            &self.generated.per_sec,
            &self.handwritten.per_sec,
            |g, h| g / h,
        )
    }

    /// A 95 % confidence interval for [`Pair::cpu_ratio`] (see [`bootstrap`]).
    pub fn cpu_ratio_ci(&self) -> (f64, f64) {
        bootstrap(&self.generated.cpu_us, &self.handwritten.cpu_us, |g, h| {
            h / g
        })
    }
}

/// A 95 % confidence interval for `ratio(median(generated), median(handwritten))`: a bootstrap
/// over rounds (each round's two runs, back to back, resampled together), 2,000 resamples,
/// fixed seed so the same figures give the same interval.
fn bootstrap(
    generated: &[f64],
    handwritten: &[f64],
    ratio: impl Fn(f64, f64) -> f64,
) -> (f64, f64) {
    let rounds = generated.len().min(handwritten.len());
    if rounds < 2 {
        let r = ratio(median(generated), median(handwritten));
        return (r, r);
    }
    let mut rng = SplitMix(0x5eed_0fbe_4c00);
    let (mut g, mut h) = (vec![0.0; rounds], vec![0.0; rounds]);
    let mut ratios: Vec<f64> = (0..2000)
        .map(|_| {
            for i in 0..rounds {
                let pick = (rng.next() % rounds as u64) as usize;
                g[i] = generated[pick];
                h[i] = handwritten[pick];
            }
            ratio(median(&g), median(&h))
        })
        .filter(|r| r.is_finite())
        .collect();
    if ratios.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    ratios.sort_by(f64::total_cmp);
    let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q).round() as usize];
    (at(0.025), at(0.975))
}

/// SplitMix64: a small deterministic generator for the bootstrap (no dependency needed).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
