#pragma once
#include <cstdint>

#include "balancers/between_steps/parts/unit_plan_balancer.h"

namespace lbb {

// Horton 1993, Algorithm 1: in every phase each processor sends each lighter neighbour half the
// difference (floor), all pairs at once; phases repeat until every pair of neighbours is locally
// balanced. Speed-aware: a pair's difference is that of load / speed. On graphs of degree above
// two, or with unequal speeds, a processor sending to several neighbours keeps at least their
// common average (see limit_to_local_average); on chains and rings of equal speeds the
// algorithm is literal.
class HortonDiffusion final : public UnitPlanBalancer {
 public:
  explicit HortonDiffusion(std::int64_t max_phases) : max_phases_(max_phases) {}
  static BalancerInfo info();
  TransferPlan plan(const UnitLoads& in) const override;

 private:
  std::int64_t max_phases_;
};

}  // namespace lbb
