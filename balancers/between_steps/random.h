#pragma once
#include <cstdint>

#include "balancers/between_steps/parts/unit_plan_balancer.h"

namespace lbb {

// Franklin & Govindan 1995, section 3.1 (eq. 5-8): every processor above its threshold
// w*_i = threshold * ideal_i sends alpha (w_i - w*_i) units to one neighbour drawn at random.
// The ideal is global (w-bar, eq. 5) or local (w~, eq. 6); both are speed-proportional.
class RandomNeighbour final : public UnitPlanBalancer {
 public:
  RandomNeighbour(double alpha, double threshold, bool local_ideal, std::uint64_t seed)
      : alpha_(alpha), threshold_(threshold), local_ideal_(local_ideal), seed_(seed) {}
  static BalancerInfo info();
  TransferPlan plan(const UnitLoads& in) const override;
  // The local ideal (eq. 6) reads the neighbours' loads; the global one (eq. 5) only the total.
  DecisionScope scope() const override {
    return local_ideal_ ? DecisionScope::kNeighbours : DecisionScope::kOwnAndTotal;
  }

 private:
  double alpha_;
  double threshold_;
  bool local_ideal_;
  std::uint64_t seed_;
};

}  // namespace lbb
