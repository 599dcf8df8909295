#pragma once
#include "balancers/between_steps/unit_plan_balancer.h"

namespace lbb {

// Horton 1993, Algorithm 2: bisect the processor set into connected halves, move the difference
// of their loads (in proportion to their speeds) across the cut, recurse into both halves; one
// parallel transfer phase per level, ceil(log2 P) phases. The cut's units are split over as many
// disjoint neighbouring pairs across it as the topology offers, so work only moves between
// neighbours. Bisection follows processor_path (the topology is the communication graph).
class MultilevelDiffusion final : public UnitPlanBalancer {
 public:
  static BalancerInfo info();
  TransferPlan plan(const UnitLoads& in) const override;
};

}  // namespace lbb
