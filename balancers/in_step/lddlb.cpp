#include "balancers/in_step/profiled_redistribution.h"

namespace lbb {

BalancerInfo lddlb_info() {
  return ProfiledRedistribution::info(
      ProfiledScheme::kLDDLB, "lddlb",
      "local distributed: the threads of each group of K processors redistribute within "
      "it redundantly (Zaki, Li & Parthasarathy 1997)");
}

}  // namespace lbb
