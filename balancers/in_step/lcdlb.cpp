#include "balancers/in_step/profiled_redistribution.h"

namespace lbb {

BalancerInfo lcdlb_info() {
  return ProfiledRedistribution::info(
      ProfiledScheme::kLCDLB, "lcdlb",
      "local centralised: one thread redistributes within each group of K processors "
      "(Zaki, Li & Parthasarathy 1997)");
}

}  // namespace lbb
