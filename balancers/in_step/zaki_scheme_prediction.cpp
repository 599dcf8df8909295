#include "balancers/in_step/zaki_scheme_prediction.h"

#include <algorithm>
#include <stdexcept>

namespace lbb {
namespace {

bool local_scheme(ProfiledScheme s) {
  return s == ProfiledScheme::kLCDLB || s == ProfiledScheme::kLDDLB;
}

struct GroupStep {
  double first = 0;  // the first step, from the profiled distribution
  double later = 0;  // every later step, from the distribution the first one left
};

GroupStep predict_group(ProfiledScheme scheme, const SchemeProfile& q, int begin, int end,
                        const SchemeSettings& s) {
  const int n = end - begin;
  double t_none = 0, t1 = 1e300, work = 0, rate = 0;
  for (int p = begin; p < end; ++p) {
    t_none = std::max(t_none, q.work[p] / q.rate[p]);
    t1 = std::min(t1, q.work[p] / q.rate[p]);
    work += q.work[p];
    rate += q.rate[p];
  }
  const double sync = sync_cost(scheme, n, s.network);
  double remaining = 0, surplus = 0;  // R, and the work that must change processor
  int senders = 0;
  for (int p = begin; p < end; ++p) remaining += std::max(0.0, q.work[p] - q.rate[p] * t1);
  for (int p = begin; p < end; ++p) {
    const double left = std::max(0.0, q.work[p] - q.rate[p] * t1);
    const double share = remaining * q.rate[p] / rate;
    if (left > share) surplus += left - share, ++senders;
  }
  double all_work = 0;
  for (double w : q.work) all_work += w;
  const double mean_module = q.modules > 0 ? all_work / q.modules : 0;
  const double moved_modules = mean_module > 0 ? surplus / mean_module : 0;
  const double group_modules = mean_module > 0 ? work / mean_module : 0;
  const ZakiCost move =
      zaki_cost(scheme, n, senders, senders, moved_modules * q.bytes_per_module, s.network);
  const double balanced = t1 + move.total() + remaining / rate;
  const bool moves = moved_modules >= s.move_threshold * group_modules && moved_modules >= 1 &&
                     balanced <= (1 - s.profit) * (t_none + sync);
  GroupStep g;
  g.first = moves ? balanced : t_none + sync;
  g.later = (moves ? work / rate : t_none) + sync;
  return g;
}

void check(const SchemeProfile& q, int steps) {
  if (q.work.empty() || q.work.size() != q.rate.size())
    throw std::invalid_argument("scheme prediction: work and rate need one value per processor");
  for (double r : q.rate)
    if (!(r > 0)) throw std::invalid_argument("scheme prediction: rates must be positive");
  if (steps < 1) throw std::invalid_argument("scheme prediction: steps must be at least 1");
}

}  // namespace

double predict_scheme_total(ProfiledScheme scheme, const SchemeProfile& q, int steps,
                            const SchemeSettings& s) {
  check(q, steps);
  const int p = static_cast<int>(q.work.size());
  const int k = local_scheme(scheme) ? std::clamp(s.group_size, 1, p) : p;
  double first = 0, later = 0;
  for (int begin = 0; begin < p; begin += k) {
    const GroupStep g = predict_group(scheme, q, begin, std::min(p, begin + k), s);
    first = std::max(first, g.first);
    later = std::max(later, g.later);
  }
  const double fastest = *std::max_element(q.rate.begin(), q.rate.end());
  const double floor = q.largest_module / fastest;
  return std::max(first, floor) + (steps - 1) * std::max(later, floor);
}

double predict_static_total(const SchemeProfile& q, int steps) {
  check(q, steps);
  double t = 0;
  for (std::size_t p = 0; p < q.work.size(); ++p) t = std::max(t, q.work[p] / q.rate[p]);
  return steps * t;
}

}  // namespace lbb
