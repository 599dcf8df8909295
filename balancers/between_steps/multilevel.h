#pragma once
#include "balancers/between_steps/unit_plan_balancer.h"

namespace lbb {

// What Horton 1993's Algorithm 2 bisects.
enum class Bisection {
  kTopology,       // halves of a path through the processor topology (processor_path)
  kCommunication,  // halves of the processor index order, joined by the problem's communication
                   // graph (Horton's T1: "lowest and highest indices together")
};

// Horton 1993, Algorithm 2: bisect the processor set into connected halves, move the difference
// of their loads (in proportion to their speeds) across the cut, recurse into both halves; one
// parallel transfer phase per level, ceil(log2 P) phases. The cut's units are split over as many
// disjoint neighbouring pairs across it as a greedy matching finds, so work only moves between
// neighbours: of the topology, or (kCommunication) of the communication graph the workload's
// module adjacency induces between processors. A cut that graph does not cross moves its units
// between topology neighbours instead, so the plan stays exact.
class MultilevelDiffusion final : public UnitPlanBalancer {
 public:
  explicit MultilevelDiffusion(Bisection bisect = Bisection::kTopology) : bisect_(bisect) {}
  static BalancerInfo info();
  TransferPlan plan(const UnitLoads& in) const override;

 private:
  Bisection bisect_;
};

}  // namespace lbb
