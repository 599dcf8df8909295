#pragma once
// Horton 1993's multilevel diffusion (multilevel.h) on chain modules held in contiguous ranges,
// in time that grows with the processors and the modules that change hands, not with all modules.
// It is MultilevelDiffusion's own decision (unit_plan_balancer.h): the same unit loads, the same
// plan (MultilevelDiffusion::plan), the same chain realisation (transfer_realization.h: each
// boundary moves to the old cumulative cost less the net cost crossing it, modules placed by
// their running cost sum), the same tolerance and min_gain rule. What changes is how: a range is
// two indices, a boundary is found by binary search over the modules' running cost sums (kept
// once, the costs being fixed), and only the ranges that change are summed again.
#include <cstdint>
#include <span>
#include <vector>

#include "balancers/between_steps/multilevel.h"

namespace lbb {

// Processor p holds modules [first[p], first[p + 1]) of a chain of fixed costs.
struct ChainRanges {
  std::vector<std::int64_t> first;  // processors + 1 entries, first[0] = 0, first[P] = modules
  std::vector<double> work;         // per processor: its range's cost, summed in module order
};

// The running sums and extremes of a chain's fixed costs, and its block partition.
class ChainCosts {
 public:
  explicit ChainCosts(std::span<const double> cost);
  std::span<const double> cost() const { return cost_; }
  double before(std::int64_t m) const { return prefix_[m]; }  // cost[0] + ... + cost[m-1]
  double total() const { return prefix_.back(); }
  double largest() const { return largest_; }
  // block_owners' ranges (balancers/partition/block.h).
  ChainRanges block(int processors) const;
  double range_cost(std::int64_t first, std::int64_t last) const;  // summed in module order

 private:
  std::span<const double> cost_;
  std::vector<double> prefix_;  // modules + 1 running sums, in module order
  double largest_ = 0;
};

struct ChainDecision {
  bool act = false;
  int phases = 0;
  double predicted_before = 0, predicted_after = 0;
  ChainRanges next;  // when act
};

// MultilevelDiffusion::decide on a chain held in `ranges` (never the initial partition).
ChainDecision multilevel_on_chain(const MultilevelDiffusion& balancer, double min_gain,
                                  const ChainCosts& costs, const ChainRanges& ranges,
                                  std::span<const double> speed, const Topology& topology,
                                  int step);

}  // namespace lbb
