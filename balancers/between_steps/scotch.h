#pragma once
// Scotch between steps (the idea of Charm++'s ScotchLB): at every decision Scotch's static
// mapping (Pellegrini & Roman 1996; balancers/partition/scotch.h) of the communication graph,
// vertices weighted by the measured costs, onto parts sized by speed, as `dynamic: metis`
// (parts/graph_partition_balancer.h).
#include "balancers/balancer.h"

namespace lbb {

BalancerInfo scotch_balancer_info();

}  // namespace lbb
