#pragma once
// `static: python`: the initial partition decided by FUNCTION(view, params) of a script
// (docs/your-balancer.md), at step -1 from a block assignment (UserPartition,
// balancers/partition/plugin.h); FUNCTION defaults to `partition`.
#include "balancers/balancer.h"

namespace lbb {

BalancerInfo python_partition_info();

}  // namespace lbb
