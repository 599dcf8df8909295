#include "harness/stats/verdict.h"

#include <algorithm>
#include <numeric>

#include "harness/stats/rank_tests.h"
#include "harness/stats/sample_summary.h"

namespace lbb::stats {

std::vector<double> holm_adjust(const std::vector<double>& p) {
  const std::size_t m = p.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return p[a] < p[b]; });
  std::vector<double> out(m);
  double running = 0;
  for (std::size_t k = 0; k < m; ++k) {
    running = std::max(running, std::min(1.0, static_cast<double>(m - k) * p[order[k]]));
    out[order[k]] = running;
  }
  return out;
}

GroupVerdict judge_group(const std::vector<std::span<const double>>& samples,
                         const std::vector<bool>& eligible, double alpha) {
  const std::size_t rows = samples.size();
  GroupVerdict v;
  v.tied.assign(rows, false);
  v.p_adjusted.assign(rows, 1.0);
  double best_median = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    if (!eligible[i] || samples[i].empty()) continue;
    const double m = median(samples[i]);
    if (v.best < 0 || m < best_median) {
      v.best = static_cast<int>(i);
      best_median = m;
    }
  }
  if (v.best < 0) return v;
  std::vector<std::size_t> others;
  std::vector<double> p;
  for (std::size_t i = 0; i < rows; ++i)
    if (eligible[i] && !samples[i].empty() && static_cast<int>(i) != v.best) {
      others.push_back(i);
      p.push_back(mann_whitney_p(samples[v.best], samples[i]));
    }
  const std::vector<double> adjusted = holm_adjust(p);
  bool all_significant = !others.empty();
  for (std::size_t k = 0; k < others.size(); ++k) {
    v.p_adjusted[others[k]] = adjusted[k];
    const bool significant = adjusted[k] <= alpha;
    v.tied[others[k]] = !significant;
    all_significant &= significant;
  }
  v.starred = all_significant;
  return v;
}

}  // namespace lbb::stats
