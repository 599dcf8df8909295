#include "balancers/between_steps/greedy_refine.h"

#include <algorithm>
#include <numeric>

#include "balancers/between_steps/parts/reassignment.h"
#include "balancers/between_steps/parts/unit_plan_balancer.h"
#include "balancers/partition/lpt.h"

namespace lbb {

BalancerInfo GreedyRefineBalancer::info() {
  return {"greedy_refine",
          BalancerRole::kBetweenSteps,
          "greedy's order, but a module stays on its processor while that stays within tolerance "
          "of greedy's makespan (Charm++'s GreedyRefineLB idea)",
          {real_param("tolerance", 1.05,
                      "a module stays while its processor's load is at most this x greedy's "
                      "makespan",
                      1.0, 100.0),
           min_gain_param()},
          [](const Params& p) {
            return std::make_unique<GreedyRefineBalancer>(p.real("tolerance"), p.real("min_gain"));
          }};
}

// Modules by decreasing cost (ties by index); each stays when its owner, with it, is within the
// bound, else goes where it finishes first.
Decision GreedyRefineBalancer::decide(const LoadView& view) {
  const Owners before = starting_owners(view);
  const double bound =
      tolerance_ * bottleneck(lpt_partition(view.cost, view.speed), view.cost, view.speed);
  std::vector<int> order(view.modules());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return view.cost[a] > view.cost[b]; });
  std::vector<double> load(view.processors(), 0.0);  // nominal seconds
  auto finish = [&](int p, int m) { return (load[p] + view.cost[m]) / view.speed[p]; };
  Owners after(view.modules());
  for (int m : order) {
    int to = before[m];
    if (finish(to, m) > bound)
      for (int p = 0; p < view.processors(); ++p)
        if (finish(p, m) < finish(to, m)) to = p;
    load[to] += view.cost[m];
    after[m] = to;
  }
  return reassignment(view, before, std::move(after), min_gain_);
}

}  // namespace lbb
