#pragma once
// A graph partitioner between steps (the idea of Charm++'s MetisLB): METIS's multilevel k-way
// partitioning (Karypis & Kumar 1998) of the workload's communication graph, vertices weighted by
// the modules' measured costs, parts sized by the processors' speeds within `imbalance`, cutting
// as few links as it can (parts/graph_partition_balancer.h). A workload without a graph is
// partitioned by its weights alone.
#include <cstdint>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

// The owners METIS gives the view's modules, parts numbered as METIS numbers them; throws
// std::runtime_error when METIS fails.
Owners metis_owners(const LoadView& view, double imbalance, std::uint64_t seed);

BalancerInfo metis_balancer_info();

}  // namespace lbb
