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

pub fn min_max(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .copied()
        .filter(|x| x.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        })
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
    pub fn push(&mut self, run: &crate::load::RunResult, cpu_ticks: u64) {
        let cpu_secs = cpu_ticks as f64 / crate::serve::TICKS_PER_SEC;
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

    /// Ratios of each round's two runs (run back to back), lowest and highest.
    pub fn round_ratio_range(&self) -> (f64, f64) {
        let ratios: Vec<f64> = self
            .generated
            .per_sec
            .iter()
            .zip(&self.handwritten.per_sec)
            .map(|(g, h)| g / h)
            .collect();
        min_max(&ratios)
    }
}
