#include "balancers/partition/greedy_probe.h"

#include <algorithm>
#include <stdexcept>

namespace lbb {

ChainPartition greedy_probe(std::span<const double> weights, std::span<const double> speeds,
                            double epsilon) {
  if (!(epsilon >= 0)) throw std::invalid_argument("greedy_probe: epsilon must be >= 0");
  const ChainLoads loads(weights, speeds);
  double slowest = loads.speed(0);
  for (int k = 1; k < loads.processors(); ++k) slowest = std::min(slowest, loads.speed(k));
  // The optimum lies in [W_T/S, W_T/S + w_max/s_min] (Iqbal, Saltz & Bokhari 1986,
  // section 4, with s = 1).
  double lo = loads.total_weight() / loads.total_speed();
  double hi = lo + loads.max_weight() / slowest;
  std::vector<int> best;
  std::vector<int> trial;
  if (!probe_chain(loads, hi, best)) {
    // Only rounding can make the analytic upper bound infeasible; everything on the fastest
    // processor is feasible for certain.
    hi = loads.load(0, loads.modules(), loads.fastest());
    probe_chain(loads, hi, best);
  }
  while (hi - lo > epsilon) {
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;  // resolved to adjacent doubles
    if (probe_chain(loads, mid, trial)) {
      hi = mid;
      best.swap(trial);
    } else {
      lo = mid;
    }
  }
  const double worst = loads.bottleneck(best);
  return {std::move(best), worst};
}

BalancerInfo GreedyProbe::info() {
  BalancerInfo info{
      "greedy_probe",
      BalancerRole::kPartition,
      "greedy PROBE with a binary search of the bottleneck to accuracy epsilon (Iqbal, Saltz & "
      "Bokhari 1986, section 5), speed-aware; module order is the chain",
      {real_param("epsilon", 1e-9,
                  "absolute accuracy of the bottleneck search, in load units (0: to the "
                  "resolution of doubles)",
                  0.0)},
      [](const Params& p) { return std::make_unique<GreedyProbe>(p); }};
  info.capabilities.contiguous = true;
  return info;
}

GreedyProbe::GreedyProbe(const Params& params) : epsilon_(params.real("epsilon")) {}

Decision GreedyProbe::decide(const LoadView& view) {
  return {true, chain_owners(greedy_probe(view.cost, view.speed, epsilon_)), 1};
}

}  // namespace lbb
