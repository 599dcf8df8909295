#pragma once
// The cost of one level of a level-synchronous tree computation (Hwang & Hong 2001, section 3):
// T_i = max_p sum_{a on p} E_a + max_a d(f(a), g(a)) (B_a + M_a), where f(a) is the processor
// that created task a, g(a) the one that runs it and B_a + M_a the cost of one hop. Shared by the
// tree balancers, the level executor and the simulator so that every strategy is judged alike.
#include <algorithm>
#include <climits>
#include <cmath>
#include <span>
#include <vector>

#include "core/topology.h"

namespace lbb {

// t_a = floor(C_max / (B_a + M_a)): how many hops task a may travel (Hwang & Hong 2001,
// section 4). A free move (hop cost 0) is unlimited.
inline int migration_limit(double c_max, double hop_cost) {
  if (!(hop_cost > 0)) return INT_MAX;
  const double t = std::floor(c_max / hop_cost);
  return t >= static_cast<double>(INT_MAX) ? INT_MAX : static_cast<int>(std::max(t, 0.0));
}

// Sum of costs divided by the sum of speeds: the lower bound LB on any level's compute time.
inline double level_lower_bound(std::span<const double> cost, std::span<const double> speed) {
  double work = 0, capacity = 0;
  for (double c : cost) work += c;
  for (double s : speed) capacity += s;
  return capacity > 0 ? work / capacity : 0.0;
}

struct LevelCost {
  double compute = 0;        // max_p load_p / speed_p
  double communication = 0;  // max_a d(f(a), g(a)) (B_a + M_a)
  double total() const { return compute + communication; }
};

// T_i of an assignment. hop_cost may be empty (moves are free).
inline LevelCost level_cost(std::span<const int> creator, std::span<const int> owner,
                            std::span<const double> cost, std::span<const double> hop_cost,
                            std::span<const double> speed, const Topology& topology) {
  std::vector<double> load(speed.size(), 0.0);
  LevelCost c;
  for (std::size_t a = 0; a < owner.size(); ++a) {
    load[owner[a]] += cost[a];
    if (!hop_cost.empty())
      c.communication =
          std::max(c.communication, topology.distance(creator[a], owner[a]) * hop_cost[a]);
  }
  for (std::size_t p = 0; p < load.size(); ++p) c.compute = std::max(c.compute, load[p] / speed[p]);
  return c;
}

}  // namespace lbb
