#include "balancers/level/list_scheduling.h"

#include <climits>
#include <stdexcept>

#include "balancers/level/tree_mesh.h"
#include "core/level_cost.h"

namespace lbb {

std::vector<int> list_schedule(std::span<const double> cost, std::span<const double> hop_cost,
                               std::span<const int> creator, std::span<const double> speed,
                               const Topology& topology, double c_max) {
  if (creator.size() != cost.size() || (!hop_cost.empty() && hop_cost.size() != cost.size()))
    throw std::invalid_argument("list_scheduling: costs, hop costs and creators differ in length");
  const int p = static_cast<int>(speed.size());
  double work = 0;
  for (double c : cost) work += c;
  const double limit_cost = p > 0 ? c_max * work / p : 0.0;
  std::vector<double> load(p, 0.0);
  std::vector<int> owner(cost.size());
  for (std::size_t a = 0; a < cost.size(); ++a) {
    const int limit = migration_limit(limit_cost, hop_cost.empty() ? 0.0 : hop_cost[a]);
    int best = creator[a];
    double best_finish = (load[best] + cost[a]) / speed[best];
    int best_distance = 0;
    for (int q = 0; q < p; ++q) {
      const int d = topology.distance(creator[a], q);
      if (d > limit) continue;
      const double finish = (load[q] + cost[a]) / speed[q];
      if (finish < best_finish || (finish == best_finish && d < best_distance))
        best = q, best_finish = finish, best_distance = d;
    }
    owner[a] = best;
    load[best] += cost[a];
  }
  return owner;
}

BalancerInfo ListScheduling::info() {
  return {
      "list_scheduling",
      BalancerRole::kLevel,
      "each task, in creation order, to the processor finishing it first within t_a hops of "
      "its creator (Hwang & Hong 2001, yardstick L2)",
      {real_param("c_max", 1.0, "C_max, the communication limit, as a multiple of sum E_a / N", 0)},
      [](const Params& p) { return std::make_unique<ListScheduling>(p.real("c_max")); }};
}

Decision ListScheduling::decide(const LoadView& view) {
  if (!view.topology) throw std::invalid_argument("list_scheduling needs a topology");
  const std::vector<int> creator = creators_of(view);
  return {true,
          list_schedule(view.cost, view.hop_cost, creator, view.speed, *view.topology, c_max_), 1};
}

}  // namespace lbb
