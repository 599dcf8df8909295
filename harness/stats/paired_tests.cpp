#include "harness/stats/paired_tests.h"

#include <gsl/gsl_cdf.h>

#include <cmath>
#include <limits>
#include <vector>

namespace lbb::stats {

PairedRatio paired_log_ratio(std::span<const double> a, std::span<const double> b,
                             double confidence) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  PairedRatio out;
  out.ratio = {nan, nan, nan, 0};
  const std::size_t n = std::min(a.size(), b.size());
  std::vector<double> d;
  for (std::size_t k = 0; k < n; ++k) {
    if (!(a[k] > 0 && b[k] > 0 && std::isfinite(a[k]) && std::isfinite(b[k]))) return out;
    d.push_back(std::log(a[k]) - std::log(b[k]));
  }
  out.pairs = n;
  if (n == 0) return out;
  if (n == 1) {  // a ratio, but no spread to test it with
    out.ratio = {std::exp(d[0]), 0, std::numeric_limits<double>::infinity(), 0};
    return out;
  }
  double mean = 0;
  for (double x : d) mean += x;
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double x : d) ss += (x - mean) * (x - mean);
  const double se = std::sqrt(ss / static_cast<double>(n - 1) / static_cast<double>(n));
  const double dof = static_cast<double>(n - 1);
  const double half = se * gsl_cdf_tdist_Qinv((1 - confidence) / 2, dof);
  out.ratio = {std::exp(mean), std::exp(mean - half), std::exp(mean + half), confidence};
  if (se == 0) {
    out.p = mean == 0 ? 1 : 0;
    return out;
  }
  out.p = std::min(1.0, 2 * gsl_cdf_tdist_Q(std::abs(mean) / se, dof));
  return out;
}

}  // namespace lbb::stats
