#pragma once
// Distribution-free summaries of one sample of repetitions: the median with its confidence
// interval from order statistics, the extremes and the coefficient of variation.
#include <cstddef>
#include <span>

namespace lbb::stats {

double median(std::span<const double> sample);

// The order-statistics interval of the median: [x_(k), x_(n+1-k)] (1-based ranks of the sorted
// sample) covers the population median with probability 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2),
// for any continuous distribution (Hollander & Wolfe 1999, section 3.6). `level` is that exact
// coverage: the largest k whose coverage reaches `confidence`; when even [min, max] falls short
// (n <= 5 at 95 %: 1 - 2/32 = 93.75 % for n = 5) the interval is [min, max] with its lower level.
struct MedianInterval {
  std::size_t low_rank = 0, high_rank = 0;  // 1-based; 0 for an empty sample
  double level = 0;                         // exact coverage probability
};
MedianInterval median_interval_ranks(std::size_t n, double confidence = 0.95);

struct SampleSummary {
  std::size_t n = 0;
  double median = 0, ci_low = 0, ci_high = 0, ci_level = 0;
  double min = 0, max = 0;
  double cv = 0;  // sample standard deviation / mean; 0 for fewer than two values
};
SampleSummary summarize(std::span<const double> sample, double confidence = 0.95);

}  // namespace lbb::stats
