#pragma once
// A graph partitioner between steps (the idea of Charm++'s MetisLB): METIS's multilevel k-way
// partitioning (Karypis & Kumar 1998) of the workload's communication graph, vertices weighted by
// the modules' measured costs, parts sized by the processors' speeds within `imbalance`, cutting
// as few links as it can. A workload without a graph is partitioned by its weights alone. The
// parts are numbered, among processors of equal speed, so that most modules keep their processor.
#include <cstdint>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

// The owners METIS gives the view's modules; throws std::runtime_error when METIS fails.
Owners metis_owners(const LoadView& view, double imbalance, std::uint64_t seed);

class MetisBalancer final : public Balancer {
 public:
  MetisBalancer(double imbalance, std::uint64_t seed, double min_gain)
      : imbalance_(imbalance), seed_(seed), min_gain_(min_gain) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  double imbalance_;
  std::uint64_t seed_;
  double min_gain_;
};

}  // namespace lbb
