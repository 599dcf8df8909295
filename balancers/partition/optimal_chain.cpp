#include "balancers/partition/optimal_chain.h"

#include <algorithm>

namespace lbb {

// Bisection on the bottleneck value B whose ends are snapped to achievable loads, as in Pinar &
// Aykanat 2004 (exact bisection): a feasible probe lowers `hi` to the bottleneck the greedy
// partition actually has; an infeasible one raises `lo` to the least load that would let any
// processor take one more module (no bound below that changes the greedy partition). Both ends
// are then loads of real subchains and the search stops when they meet, at the optimum.
// Iqbal, Saltz & Bokhari 1986, section 5: the greedy partition is feasible whenever any is.
ChainPartition optimal_chain(std::span<const double> weights, std::span<const double> speeds) {
  const ChainLoads loads(weights, speeds);
  const int m = loads.modules();
  const int p = loads.processors();
  std::vector<int> below(p + 1, 0);  // separators of the last infeasible probe
  std::vector<int> above(p + 1, m);  // separators of the last feasible probe
  std::vector<int> trial;

  // Everything on the fastest processor is a valid partition, so this bound is feasible.
  double lo = 0;
  double hi = loads.load(0, m, loads.fastest());
  probe_chain_within(loads, hi, below, above, trial);
  above = trial;
  hi = loads.bottleneck(trial);

  auto probe = [&](double bound) {
    if (probe_chain_within(loads, bound, below, above, trial)) {
      above = trial;
      hi = loads.bottleneck(trial);  // <= bound
    } else {
      below = trial;
      lo = std::max(lo, loads.next_bound(trial));  // > bound
    }
  };
  // Start from the ideal load W/S, a lower bound, and W/S + w_max/s_min, an upper bound (Iqbal,
  // Saltz & Bokhari 1986, section 4, with s = 1): the search starts at most w_max/s_min wide.
  const double ideal = loads.total_weight() / loads.total_speed();
  double slowest = loads.speed(0);
  for (int k = 1; k < p; ++k) slowest = std::min(slowest, loads.speed(k));
  for (double guess : {ideal, ideal + loads.max_weight() / slowest})
    if (guess > lo && guess < hi) probe(guess);
  while (lo < hi) {
    double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) mid = lo;  // adjacent doubles: the answer is lo or hi
    probe(mid);
  }
  return {std::move(above), hi};
}

BalancerInfo OptimalChain::info() {
  BalancerInfo info{
      "optimal_chain",
      BalancerRole::kPartition,
      "exact contiguous chain partition by probe-based parametric search (Nicol 1994; Pinar & "
      "Aykanat 2004), speed-aware; module order is the chain",
      {},
      [](const Params&) { return std::make_unique<OptimalChain>(); }};
  info.capabilities.contiguous = true;
  return info;
}

Decision OptimalChain::decide(const LoadView& view) {
  return {true, chain_owners(optimal_chain(view.cost, view.speed)), 1};
}

}  // namespace lbb
