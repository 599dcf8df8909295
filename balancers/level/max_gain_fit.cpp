#include "balancers/level/max_gain_fit.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "balancers/level/tree_mesh.h"

namespace lbb {

std::vector<int> max_gain_fit(std::span<const double> cost, std::span<const double> hop_cost,
                              std::span<const int> creator, std::span<const double> speed,
                              const Topology& topology) {
  if (creator.size() != cost.size() || (!hop_cost.empty() && hop_cost.size() != cost.size()))
    throw std::invalid_argument("max_gain_fit: costs, hop costs and creators differ in length");
  auto hop = [&](int a) { return hop_cost.empty() ? 0.0 : hop_cost[a]; };
  std::vector<int> order(cost.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    return std::pair{hop(x), cost[x]} > std::pair{hop(y), cost[y]};
  });
  const int p = static_cast<int>(speed.size());
  std::vector<double> load(p, 0.0);
  std::vector<int> owner(cost.size());
  for (int a : order) {
    double best_loss = INFINITY;  // the gain's complement: finish + communication
    int best = -1, best_distance = INT_MAX;
    for (int q = 0; q < p; ++q) {
      const int d = topology.distance(creator[a], q);
      const double loss = (load[q] + cost[a]) / speed[q] + d * hop(a);
      if (std::tie(loss, d) < std::tie(best_loss, best_distance))
        best = q, best_loss = loss, best_distance = d;
    }
    owner[a] = best;
    load[best] += cost[a];
  }
  return owner;
}

BalancerInfo MaxGainFit::info() {
  return {"max_gain_fit",
          BalancerRole::kLevel,
          "tasks by non-increasing hop cost, each where its finish plus its communication is "
          "least, any distance (a reading of Hwang & Hong 2001's yardstick L4, Kopidakis et al. "
          "1997, whose steps the papers do not give)",
          {},
          [](const Params&) { return std::make_unique<MaxGainFit>(); }};
}

Decision MaxGainFit::decide(const LoadView& view) {
  if (!view.topology) throw std::invalid_argument("max_gain_fit needs a topology");
  return {true,
          max_gain_fit(view.cost, view.hop_cost, creators_of(view), view.speed, *view.topology), 1};
}

}  // namespace lbb
