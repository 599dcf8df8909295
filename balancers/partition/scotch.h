#pragma once
// Scotch's static mapping (Pellegrini & Roman 1996) of the workload's communication graph onto
// P parts sized by the processors' speeds (a weighted complete graph, Scotch's `cmpltw`
// architecture): vertices weighted by the predicted costs, as few cut links as it can within
// `imbalance`. The graph partitioner beside METIS (`dynamic: metis`), as Zoltan2 offers both. A
// workload without a graph is partitioned by its weights alone.
#include <cstdint>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

// Throws std::runtime_error when Scotch fails.
Owners scotch_owners(const LoadView& view, double imbalance, std::uint64_t seed);

class ScotchPartition final : public Balancer {
 public:
  ScotchPartition(double imbalance, std::uint64_t seed) : imbalance_(imbalance), seed_(seed) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  double imbalance_;
  std::uint64_t seed_;
};

}  // namespace lbb
