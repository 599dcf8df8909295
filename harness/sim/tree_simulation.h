#pragma once
// A level balancer on Hwang & Hong 2001's random trees (harness/sim/task_tree.h), generation by
// generation, as the level executor runs real trees but with no kernel: each generation's tasks
// are born on their parent's processor, the balancer decides on their costs and hop costs, and
// the generation costs T_i = max_p load_p / speed_p + max_a d(f(a), g(a)) C-COST E_a against the
// lower bound LB = sum E_a / sum speed (core/level_cost.h, the level executor's figures).
#include <vector>

#include "balancers/balancer.h"
#include "harness/sim/task_tree.h"

namespace lbb {

struct TreeSimulation {
  int generations = 0, restarts = 0;
  double t_total = 0, lb_total = 0;  // sums over generations, in units of task cost
  double tasks = 0, moved = 0;       // tasks run, tasks run away from their creator
  double children = 0, parents = 0;  // children born / tasks that bore them: the mean rate
};

// Throws std::logic_error when the balancer returns an invalid assignment.
TreeSimulation simulate_tree(const TreeParams& tree, Balancer& balancer, const Topology& topology,
                             std::span<const double> speed, int generations);

}  // namespace lbb
