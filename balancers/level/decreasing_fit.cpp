#include "balancers/level/decreasing_fit.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "balancers/level/tree_mesh.h"

namespace lbb {

std::vector<int> decreasing_fit(std::span<const double> cost, std::span<const int> creator,
                                std::span<const double> speed, const Topology& topology) {
  if (creator.size() != cost.size())
    throw std::invalid_argument("decreasing_fit: costs and creators differ in length");
  std::vector<int> order(cost.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return cost[x] > cost[y]; });
  const int p = static_cast<int>(speed.size());
  std::vector<double> load(p, 0.0);
  std::vector<int> owner(cost.size());
  for (int a : order) {
    int best = -1, best_distance = 0;
    double best_finish = 0;
    for (int q = 0; q < p; ++q) {
      const double finish = (load[q] + cost[a]) / speed[q];
      const int d = topology.distance(creator[a], q);
      if (best < 0 || finish < best_finish || (finish == best_finish && d < best_distance))
        best = q, best_finish = finish, best_distance = d;
    }
    owner[a] = best;
    load[best] += cost[a];
  }
  return owner;
}

BalancerInfo DecreasingFit::info() {
  return {"decreasing_fit",
          BalancerRole::kLevel,
          "tasks by non-increasing cost, each to the processor finishing it first, any distance "
          "(Hwang & Hong 2001, yardstick L3)",
          {},
          [](const Params&) { return std::make_unique<DecreasingFit>(); }};
}

Decision DecreasingFit::decide(const LoadView& view) {
  if (!view.topology) throw std::invalid_argument("decreasing_fit needs a topology");
  return {true, decreasing_fit(view.cost, creators_of(view), view.speed, *view.topology), 1};
}

}  // namespace lbb
