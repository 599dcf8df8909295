#pragma once
// A graph partitioner between steps (the idea of Charm++'s MetisLB and ScotchLB): at every
// decision the partitioner's parts of the workload's communication graph, vertices weighted by
// the measured costs, sized by speed within `imbalance`; the parts renumbered so that most
// modules keep their processor (keep_in_place.h), taken where they gain min_gain.
#include <cstdint>
#include <string>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

// A partitioner's owners of the view's modules (metis_owners, scotch_owners), parts numbered as
// it likes; throws std::runtime_error when the partitioner fails.
using GraphPartition = Owners (*)(const LoadView& view, double imbalance, std::uint64_t seed);

// `partition`'s parts of the view, renumbered to keep modules in place.
Owners parts_in_place(GraphPartition partition, const LoadView& view, double imbalance,
                      std::uint64_t seed);

// The between-step balancer `name` over `partition`, with its imbalance, seed and min_gain
// parameters; `library` names whose seed it is.
BalancerInfo graph_partition_info(std::string name, std::string summary, const char* library,
                                  GraphPartition partition);

}  // namespace lbb
