#pragma once
#include "balancers/between_steps/parts/bisection_tree.h"
#include "balancers/between_steps/parts/unit_plan_balancer.h"

namespace lbb {

// Horton 1993, Algorithm 2: bisect the processor set into connected halves, move the difference
// of their loads (in proportion to their speeds) across the cut, recurse into both halves; one
// parallel transfer phase per level, ceil(log2 P) phases. The cut's units are split over as many
// disjoint neighbouring pairs across it as a greedy matching finds, so work only moves between
// neighbours: of the topology, or (kCommunication) of the communication graph the workload's
// module adjacency induces between processors. A cut that graph does not cross moves its units
// between topology neighbours instead, so the plan stays exact. Decided as its processors would:
// sums up the bisection tree, transfers down (bisection_tree.h; DecisionScope::kTree).
class MultilevelDiffusion final : public UnitPlanBalancer {
 public:
  explicit MultilevelDiffusion(Bisection bisect = Bisection::kTopology) : bisect_(bisect) {}
  static BalancerInfo info();
  TransferPlan plan(const UnitLoads& in) const override;
  DecisionScope scope() const override { return DecisionScope::kTree; }
  BisectionTree tree(const UnitLoads& in) const;

 private:
  Bisection bisect_;
};

// The plan whose phase d holds the cuts' transfers at depth d, in node order: `moved[n]` is node
// n's (empty for leaves).
TransferPlan plan_of_cuts(const BisectionTree& tree, std::span<const std::int64_t> loads,
                          std::span<const std::vector<UnitTransfer>> moved);

}  // namespace lbb
