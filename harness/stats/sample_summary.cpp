#include "harness/stats/sample_summary.h"

#include <gsl/gsl_cdf.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace lbb::stats {

double median(std::span<const double> sample) {
  if (sample.empty()) return 0;
  std::vector<double> v(sample.begin(), sample.end());
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

MedianInterval median_interval_ranks(std::size_t n, double confidence) {
  if (n == 0) return {};
  auto coverage = [n](std::size_t k) {  // of [x_(k), x_(n+1-k)]
    return 1 - 2 * gsl_cdf_binomial_P(static_cast<unsigned>(k - 1), 0.5, static_cast<unsigned>(n));
  };
  std::size_t k = 1;
  while (k + 1 <= (n + 1) / 2 && coverage(k + 1) >= confidence) ++k;
  return {k, n + 1 - k, n == 1 ? 0.0 : coverage(k)};
}

SampleSummary summarize(std::span<const double> sample, double confidence) {
  SampleSummary s;
  s.n = sample.size();
  if (s.n == 0) return s;
  std::vector<double> v(sample.begin(), sample.end());
  std::sort(v.begin(), v.end());
  s.median = median(v);
  const MedianInterval mi = median_interval_ranks(s.n, confidence);
  s.ci_low = v[mi.low_rank - 1];
  s.ci_high = v[mi.high_rank - 1];
  s.ci_level = mi.level;
  s.min = v.front();
  s.max = v.back();
  if (s.n > 1) {
    const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(s.n);
    double ss = 0;
    for (double x : v) ss += (x - mean) * (x - mean);
    s.cv = mean != 0 ? std::sqrt(ss / static_cast<double>(s.n - 1)) / std::abs(mean) : 0;
  }
  return s;
}

}  // namespace lbb::stats
