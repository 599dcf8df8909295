#include "balancers/in_step/profiled_redistribution.h"

namespace lbb {

BalancerInfo gddlb_info() {
  return ProfiledRedistribution::info(
      ProfiledScheme::kGDDLB, "gddlb",
      "global distributed: every thread computes the redistribution of all modules "
      "redundantly (Zaki, Li & Parthasarathy 1997)");
}

}  // namespace lbb
