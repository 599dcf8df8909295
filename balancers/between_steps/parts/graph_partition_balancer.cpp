#include "balancers/between_steps/parts/graph_partition_balancer.h"

#include <memory>
#include <utility>

#include "balancers/between_steps/parts/keep_in_place.h"
#include "balancers/between_steps/parts/reassignment.h"
#include "balancers/between_steps/parts/unit_plan_balancer.h"

namespace lbb {

namespace {

class GraphPartitionBalancer final : public Balancer {
 public:
  GraphPartitionBalancer(GraphPartition partition, double imbalance, std::uint64_t seed,
                         double min_gain)
      : partition_(partition), imbalance_(imbalance), seed_(seed), min_gain_(min_gain) {}
  Decision decide(const LoadView& view) override {
    return reassignment(view, starting_owners(view),
                        parts_in_place(partition_, view, imbalance_, seed_), min_gain_);
  }

 private:
  GraphPartition partition_;
  double imbalance_;
  std::uint64_t seed_;
  double min_gain_;
};

}  // namespace

Owners parts_in_place(GraphPartition partition, const LoadView& view, double imbalance,
                      std::uint64_t seed) {
  Owners part = partition(view, imbalance, seed);
  keep_parts_in_place(part, view);
  return part;
}

BalancerInfo graph_partition_info(std::string name, std::string summary, const char* library,
                                  GraphPartition partition) {
  return {
      std::move(name),
      BalancerRole::kBetweenSteps,
      std::move(summary),
      {real_param("imbalance", 1.05, "largest part's weight over its share, at most", 1.001, 10.0),
       int_param("seed", 1, std::string(library) + "'s random seed", 0, 1 << 30), min_gain_param()},
      [partition](const Params& p) {
        return std::make_unique<GraphPartitionBalancer>(
            partition, p.real("imbalance"), static_cast<std::uint64_t>(p.integer("seed")),
            p.real("min_gain"));
      }};
}

}  // namespace lbb
