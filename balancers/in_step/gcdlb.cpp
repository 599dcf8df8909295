#include "balancers/in_step/profiled_redistribution.h"

namespace lbb {

BalancerInfo gcdlb_info() {
  return ProfiledRedistribution::info(
      ProfiledScheme::kGCDLB, "gcdlb",
      "global centralised: one thread redistributes all modules by measured rate when "
      "the fastest processor finishes (Zaki, Li & Parthasarathy 1997)");
}

}  // namespace lbb
