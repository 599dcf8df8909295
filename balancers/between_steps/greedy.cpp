#include "balancers/between_steps/greedy.h"

#include "balancers/between_steps/parts/reassignment.h"
#include "balancers/between_steps/parts/unit_plan_balancer.h"
#include "balancers/partition/lpt.h"

namespace lbb {

BalancerInfo GreedyBalancer::info() {
  return {"greedy",
          BalancerRole::kBetweenSteps,
          "every module afresh, largest first onto the processor where it finishes first, "
          "wherever it was (Charm++'s GreedyLB idea; Graham 1969)",
          {min_gain_param()},
          [](const Params& p) { return std::make_unique<GreedyBalancer>(p.real("min_gain")); }};
}

Decision GreedyBalancer::decide(const LoadView& view) {
  return reassignment(view, starting_owners(view), lpt_partition(view.cost, view.speed), min_gain_);
}

}  // namespace lbb
