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
      return true;
    }
    below = trial;
    lo = std::max(lo, loads.next_bound(trial));  // > bound
    return false;
  };
  // Start from the ideal load W/S, a lower bound (Iqbal, Saltz & Bokhari 1986, section 4). While
  // the probes fail, raise the bound by the weight left over divided by the total speed: the
  // least raise that lets the processors take that weight. The optimum is seldom far above W/S,
  // so these guesses narrow every separator's window in a few probes where bisection from W/S +
  // w_max would take several wide (and costly) ones; bisection then finishes the search.
  constexpr int kLeftoverGuesses = 4;
  double guess = loads.total_weight() / loads.total_speed();
  for (int k = 0; k < kLeftoverGuesses && guess > lo && guess < hi; ++k) {
    if (probe(guess)) break;
    guess = std::max(lo, guess + loads.weight(trial[p], m) / loads.total_speed());
  }
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
