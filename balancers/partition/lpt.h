#pragma once
// Longest processing time first (Graham 1969): modules in decreasing cost, each onto the
// processor where it would finish first (for equal speeds, the least loaded one). For modules
// with no chain order to keep; within 4/3 - 1/(3P) of the optimum for equal speeds.
#include <span>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

Owners lpt_partition(std::span<const double> weights, std::span<const double> speeds);

class LptPartition final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;
};

}  // namespace lbb
