#pragma once
// Paired comparison of two strategies run in the same rounds: the log-ratios of their times.
#include <cstddef>
#include <span>

#include "harness/stats/rank_tests.h"

namespace lbb::stats {

// a / b from pairs (a_k, b_k) of positive times of one round each: the geometric mean of the
// ratios, exp(mean d), d_k = log a_k - log b_k, with Student's t interval of mean d (`level`,
// two-sided) and the two-sided p of the paired t-test that mean d = 0 (Student 1908). On log
// ratios a round's shared slowdown (the host's load) cancels, which is why rounds are paired.
// All d equal: the interval is that one value and p is 0 (or 1 when it is 0). One pair: its
// ratio in [0, inf] with p = 1. No pair, or a value not positive: p = 1, the estimate not finite.
struct PairedRatio {
  RatioInterval ratio;
  double p = 1;
  std::size_t pairs = 0;
};
PairedRatio paired_log_ratio(std::span<const double> a, std::span<const double> b,
                             double confidence = 0.95);

}  // namespace lbb::stats
