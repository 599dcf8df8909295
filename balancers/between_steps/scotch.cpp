#include "balancers/between_steps/scotch.h"

#include "balancers/between_steps/parts/keep_in_place.h"
#include "balancers/between_steps/parts/reassignment.h"
#include "balancers/between_steps/parts/unit_plan_balancer.h"
#include "balancers/partition/scotch.h"

namespace lbb {

BalancerInfo ScotchBalancer::info() {
  return {
      "scotch",
      BalancerRole::kBetweenSteps,
      "Scotch static mapping of the communication graph weighted by measured costs, parts sized "
      "by speed, at every decision (Pellegrini & Roman 1996; Charm++'s ScotchLB idea)",
      {real_param("imbalance", 1.05, "largest part's weight over its share, at most", 1.001, 10.0),
       int_param("seed", 1, "Scotch's random seed", 0, 1 << 30), min_gain_param()},
      [](const Params& p) {
        return std::make_unique<ScotchBalancer>(
            p.real("imbalance"), static_cast<std::uint64_t>(p.integer("seed")), p.real("min_gain"));
      }};
}

Decision ScotchBalancer::decide(const LoadView& view) {
  Owners part = scotch_owners(view, imbalance_, seed_);
  keep_parts_in_place(part, view);
  return reassignment(view, starting_owners(view), std::move(part), min_gain_);
}

}  // namespace lbb
