//! Figures from rounds: percentiles, throughput, and paired ratios (per round, one side's figure over another's
//! from the same round, then the median of those), which hold on a shared, noisy machine where absolute times
//! drift. It also keeps the run's summary, printed at the end as the README's Markdown table. It must never drop a
//! side's failed rounds silently: a side that failed says so in the table.

use plugboard_bench::Round;

/// The order the sides of a comparison run in, round `round` of `count` sides: a shuffle seeded by the round, so
/// each side follows a different one from round to round (a side that always ran after the Python client's process
/// paid for the caches it left cold: 8% in the cold comparison) and a run can be repeated.
pub fn order(round: usize, count: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    fastrand::Rng::with_seed(round as u64).shuffle(&mut order);
    order
}

/// One side's rounds in one comparison.
#[derive(Debug, Default)]
pub struct Series {
    pub label: String,
    pub rounds: Vec<Round>,
    pub failed: Option<String>,
}

impl Series {
    pub fn all(&self) -> Vec<f64> {
        let mut all: Vec<f64> = self.rounds.iter().flat_map(|r| r.latencies_us.iter().copied()).collect();
        all.sort_by(f64::total_cmp);
        all
    }

    pub fn p50(&self) -> f64 {
        percentile(&self.all(), 0.50)
    }

    pub fn p99(&self) -> f64 {
        percentile(&self.all(), 0.99)
    }

    /// The median round's calls per second.
    pub fn calls_per_second(&self) -> f64 {
        median(self.rounds.iter().map(Round::calls_per_second).collect())
    }

    pub fn usable(&self) -> bool {
        self.failed.is_none() && !self.rounds.is_empty()
    }
}

/// Which figure a ratio compares.
#[derive(Debug, Clone, Copy)]
pub enum Figure {
    /// Per-call latency, median of the round.
    P50,
    /// Calls per second over the round.
    Throughput,
}

impl Figure {
    fn of(self, round: &Round) -> f64 {
        match self {
            Figure::P50 => {
                let mut sorted = round.latencies_us.clone();
                sorted.sort_by(f64::total_cmp);
                percentile(&sorted, 0.5)
            }
            Figure::Throughput => round.calls_per_second(),
        }
    }
}

/// The median over rounds of `a`'s figure over `b`'s from the same round; `None` unless both have every round.
pub fn paired(a: &Series, b: &Series, figure: Figure) -> Option<f64> {
    if !a.usable() || !b.usable() || a.rounds.len() != b.rounds.len() {
        return None;
    }
    Some(median(a.rounds.iter().zip(&b.rounds).map(|(x, y)| figure.of(x) / figure.of(y)).collect()))
}

pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    percentile(&values, 0.5)
}

/// A goal of the issue checked against a paired ratio: `ratio` must be at most (or at least) `limit`.
pub struct Goal {
    pub text: String,
    pub ratio: Option<f64>,
    pub limit: f64,
    pub at_most: bool,
}

impl Goal {
    pub fn at_most(text: &str, ratio: Option<f64>, limit: f64) -> Goal {
        Goal { text: text.to_owned(), ratio, limit, at_most: true }
    }

    pub fn at_least(text: &str, ratio: Option<f64>, limit: f64) -> Goal {
        Goal { text: text.to_owned(), ratio, limit, at_most: false }
    }

    pub fn line(&self) -> String {
        let met = match self.ratio {
            None => "not measured",
            Some(r) if (self.at_most && r <= self.limit) || (!self.at_most && r >= self.limit) => "met",
            Some(_) => "MISSED",
        };
        let ratio = self.ratio.map_or_else(|| "–".to_owned(), |r| format!("{r:.2}×"));
        let bound = if self.at_most { "≤" } else { "≥" };
        format!("{}: {ratio} (goal {bound} {}×) {met}", self.text, self.limit)
    }
}

/// What the run found, for the summary at its end.
#[derive(Default)]
pub struct Summary {
    rows: Vec<String>,
    goals: Vec<String>,
}

impl Summary {
    /// One Markdown table row: the comparison, the side, then its figures.
    pub fn row(&mut self, cells: &[String]) {
        self.rows.push(format!("| {} |", cells.join(" | ")));
    }

    pub fn goal(&mut self, goal: &Goal) {
        println!("  goal: {}", goal.line());
        self.goals.push(goal.line());
    }

    pub fn print(&self) {
        println!("\n## Summary (Markdown, for the README)\n");
        println!("| comparison | side | p50 | p99 | calls/s or peak RSS | paired ratio |");
        println!("|---|---|---|---|---|---|");
        for row in &self.rows {
            println!("{row}");
        }
        println!();
        for goal in &self.goals {
            println!("- {goal}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(rounds: &[&[f64]]) -> Series {
        let rounds = rounds.iter().map(|l| Round { wall_us: l.iter().sum(), latencies_us: l.to_vec() }).collect();
        Series { label: "s".into(), rounds, failed: None }
    }

    /// A paired ratio is the median of per-round ratios, so one round slowed by outside load does not move it.
    #[test]
    fn paired_ratio_is_the_median_of_round_ratios() {
        let a = series(&[&[10.0, 10.0, 10.0], &[20.0, 20.0, 20.0], &[900.0, 900.0, 900.0]]);
        let b = series(&[&[5.0, 5.0, 5.0], &[10.0, 10.0, 10.0], &[10.0, 10.0, 10.0]]);
        assert_eq!(paired(&a, &b, Figure::P50), Some(2.0));
        let failed = Series { failed: Some("gone".into()), ..series(&[&[1.0]]) };
        assert_eq!(paired(&a, &failed, Figure::P50), None);
    }

    /// A goal says MISSED only when the ratio is on the wrong side of its limit, in either direction.
    #[test]
    fn goals_read_their_direction() {
        assert!(Goal::at_most("x", Some(1.1), 1.2).line().ends_with(" met"));
        assert!(Goal::at_most("x", Some(1.3), 1.2).line().ends_with("MISSED"));
        assert!(Goal::at_least("x", Some(1.6), 1.5).line().ends_with(" met"));
        assert!(Goal::at_least("x", Some(1.4), 1.5).line().ends_with("MISSED"));
        assert!(Goal::at_least("x", None, 1.5).line().ends_with("not measured"));
    }
}
