#include "balancers/between_steps/scotch.h"

#include "balancers/between_steps/parts/graph_partition_balancer.h"
#include "balancers/partition/scotch.h"

namespace lbb {

BalancerInfo scotch_balancer_info() {
  return graph_partition_info(
      "scotch",
      "Scotch static mapping of the communication graph weighted by measured costs, parts sized "
      "by speed, at every decision (Pellegrini & Roman 1996; Charm++'s ScotchLB idea)",
      "Scotch", scotch_owners);
}

}  // namespace lbb
