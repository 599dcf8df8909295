#include "balancers/level/list_scheduling.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "balancers/level/tree_mesh.h"
#include "core/level_cost.h"

namespace lbb {

namespace {

// What a candidate processor would make of the level so far, compared lexicographically.
struct Candidate {
  double level_cost;  // T_i of the tasks placed, with this one here (kLevelCost; else 0)
  double finish;      // this processor's load with the task, over its speed
  int distance;       // hops from the creator
  int processor;
  bool operator<(const Candidate& o) const {
    return std::tie(level_cost, finish, distance, processor) <
           std::tie(o.level_cost, o.finish, o.distance, o.processor);
  }
};

}  // namespace

std::vector<int> list_schedule(std::span<const double> cost, std::span<const double> hop_cost,
                               std::span<const int> creator, std::span<const double> speed,
                               const Topology& topology, double c_max, ListRule rule) {
  if (creator.size() != cost.size() || (!hop_cost.empty() && hop_cost.size() != cost.size()))
    throw std::invalid_argument("list_scheduling: costs, hop costs and creators differ in length");
  const int p = static_cast<int>(speed.size());
  double work = 0;
  for (double c : cost) work += c;
  const double limit_cost = p > 0 ? c_max * work / p : 0.0;
  std::vector<double> load(p, 0.0);
  std::vector<int> owner(cost.size());
  double max_finish = 0, max_communication = 0;  // the two terms of T_i so far
  for (std::size_t a = 0; a < cost.size(); ++a) {
    const double hop = hop_cost.empty() ? 0.0 : hop_cost[a];
    const int limit = migration_limit(limit_cost, hop);
    Candidate best{INFINITY, INFINITY, INT_MAX, -1};
    for (int q = 0; q < p; ++q) {
      const int d = topology.distance(creator[a], q);
      if (d > limit) continue;
      const double finish = (load[q] + cost[a]) / speed[q];
      const double level = rule == ListRule::kLevelCost
                               ? std::max(max_finish, finish) + std::max(max_communication, d * hop)
                               : 0.0;
      best = std::min(best, Candidate{level, finish, d, q});
    }
    owner[a] = best.processor;  // the creator itself is always within reach
    load[best.processor] += cost[a];
    max_finish = std::max(max_finish, best.finish);
    max_communication = std::max(max_communication, best.distance * hop);
  }
  return owner;
}

BalancerInfo ListScheduling::info() {
  return {
      "list_scheduling",
      BalancerRole::kLevel,
      "each task, in creation order, to a processor within t_a hops of its creator: the one "
      "least raising the level's cost T_i (Hwang & Hong 2001, yardstick L2)",
      {real_param("c_max", 1.0, "C_max, the communication limit, as a multiple of sum E_a / N", 0),
       string_param("rule", "level_cost",
                    "level_cost: the processor least raising T_i = max load + max hops x "
                    "(B_a + M_a), ties to the earliest finish; earliest_finish: the processor "
                    "finishing the task first, communication ignored within t_a",
                    {"level_cost", "earliest_finish"})},
      [](const Params& p) {
        return std::make_unique<ListScheduling>(p.real("c_max"), p.text("rule") == "earliest_finish"
                                                                     ? ListRule::kEarliestFinish
                                                                     : ListRule::kLevelCost);
      }};
}

Decision ListScheduling::decide(const LoadView& view) {
  if (!view.topology) throw std::invalid_argument("list_scheduling needs a topology");
  const std::vector<int> creator = creators_of(view);
  return {
      true,
      list_schedule(view.cost, view.hop_cost, creator, view.speed, *view.topology, c_max_, rule_),
      1};
}

}  // namespace lbb
