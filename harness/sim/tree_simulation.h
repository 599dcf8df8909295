#pragma once
// A level balancer on Hwang & Hong 2001's random trees (workloads/task_tree.h), generation by
// generation, as the level executor runs real trees but with no kernel: each generation's tasks
// are born on their parent's processor, the balancer decides on their costs and hop costs, and
// the generation costs T_i = max_p load_p / speed_p + max_a d(f(a), g(a)) C-COST E_a against the
// lower bound LB = sum E_a / sum speed (core/level_cost.h, the level executor's figures).
#include <vector>

#include "balancers/balancer.h"
#include "harness/base/step_record.h"
#include "workloads/task_tree.h"

namespace lbb {

struct TreeSimulation {
  int generations = 0, restarts = 0;
  double t_total = 0, lb_total = 0;  // sums over generations, in units of task cost
  double comm_total = 0;             // sum of T_i's communication terms
  double tasks = 0, moved = 0;       // tasks run, tasks run away from their creator
  double children = 0, parents = 0;  // children born / tasks that bore them: the mean rate
  int max_distance = 0;              // farthest any task ran from its creator, in hops
  // Thread CPU building the records and handing them to the sink (run --costs).
  double record_build_seconds = 0, record_seconds = 0;
};

// With a sink, one StepRecord per generation, in task cost units: makespan T_i, ideal LB, busy
// the processors' loads over their speeds, migrations the tasks moved, and the level executor's
// metrics (harness/exec/level_executor.h: tasks, lb_model, t_model, comm_model, max_distance).
// Throws std::logic_error when the balancer returns an invalid assignment.
TreeSimulation simulate_tree(const TreeParams& tree, Balancer& balancer, const Topology& topology,
                             std::span<const double> speed, int generations,
                             StepSink* sink = nullptr);

}  // namespace lbb
