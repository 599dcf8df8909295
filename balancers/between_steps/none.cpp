#include "balancers/between_steps/none.h"

namespace lbb {

BalancerInfo NoBalance::info() {
  return {"none",
          BalancerRole::kBetweenSteps,
          "never rebalance: keep the initial assignment (no-balance bound, Franklin & Govindan "
          "1995)",
          {},
          [](const Params&) { return std::make_unique<NoBalance>(); }};
}

}  // namespace lbb
