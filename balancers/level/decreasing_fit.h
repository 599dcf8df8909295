#pragma once
// Decreasing fit, the yardstick L3 of Hwang & Hong 2001: the tasks of a level in non-increasing
// order of cost, each to the processor that finishes it first (Graham's LPT rule), with no
// communication constraint, so tasks may travel any distance from their creator.
#include <span>
#include <vector>

#include "balancers/balancer.h"

namespace lbb {

// L3 as a pure function. Ties go to the processor nearer the creator, then to the lower index.
std::vector<int> decreasing_fit(std::span<const double> cost, std::span<const int> creator,
                                std::span<const double> speed, const Topology& topology);

class DecreasingFit final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;
};

}  // namespace lbb
