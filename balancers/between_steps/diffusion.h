#pragma once
#include "balancers/between_steps/parts/unit_plan_balancer.h"

namespace lbb {

// Franklin & Govindan 1995, section 3.2 (eq. 6, 9-11): a processor above threshold x its local
// ideal w~_i (eq. 6) sends its excess w_i - w~_i to the neighbours below their share
// w~_i C_j / C_i, in proportion to how far below it they are (eq. 9-10). One phase per decision.
class LocalAverageDiffusion final : public UnitPlanBalancer {
 public:
  explicit LocalAverageDiffusion(double threshold) : threshold_(threshold) {}
  static BalancerInfo info();
  TransferPlan plan(const UnitLoads& in) const override;
  // Processor i's transfers read w_i, w~_i and its neighbours' loads (eq. 6, 9).
  DecisionScope scope() const override { return DecisionScope::kNeighbours; }

 private:
  double threshold_;
};

}  // namespace lbb
