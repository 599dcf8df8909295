#include "workloads/task_tree.h"

#include <limits>
#include <stdexcept>

#include "core/text.h"

namespace lbb {

TaskTreeGenerator::TaskTreeGenerator(const TreeParams& params)
    : params_(params), rng_(params.seed), cost_(params.min, params.max) {
  if (params.processors < 1 || params.tasks_per_processor < 1 || !(params.min <= params.max) ||
      params.min < 0 || params.c_cost < 0)
    throw std::invalid_argument(
        "task tree: processors and tasks per processor >= 1, 0 <= MIN <= MAX, C-COST >= 0");
}

void TaskTreeGenerator::add_task(Generation& g, int creator) {
  const double e = cost_(rng_);
  g.cost.push_back(e);
  g.hop_cost.push_back(params_.c_cost * e);
  g.creator.push_back(creator);
}

Generation TaskTreeGenerator::first() {
  Generation g;
  for (int p = 0; p < params_.processors; ++p)
    for (int k = 0; k < params_.tasks_per_processor; ++k) add_task(g, p);
  return g;
}

Generation TaskTreeGenerator::next(std::span<const int> runner) {
  Generation g;
  g.children.reserve(runner.size());
  for (int p : runner) {
    const int k = children_(rng_);
    g.children.push_back(k);
    for (int c = 0; c < k; ++c) add_task(g, p);
  }
  if (g.cost.empty()) {  // the tree died out: start again
    ++restarts_;
    Generation fresh = first();
    fresh.children = std::move(g.children);
    return fresh;
  }
  return g;
}

WorkloadInfo task_tree_info() {
  WorkloadInfo info{
      "task_tree",
      "Hwang & Hong 2001's random task trees for execution.executor: simulate (no kernel): "
      "No_Tasks per processor to start, children per task geometric with mean 1, costs uniform "
      "in [min, max], hop cost c_cost x the child's cost; one generation a step",
      {
          int_param("tasks_per_processor", 5, "No_Tasks: tasks per processor to start", 1, 1 << 20),
          real_param("min", 4, "MIN: smallest task cost (execution time units)", 0, 1e12),
          real_param("max", 16, "MAX: largest task cost (>= min)", 0, 1e12),
          real_param("c_cost", 0.3, "C-COST: hop cost B_a + M_a as a fraction of the task's cost",
                     0, 1e6),
          int_param("seed", 1, "seed of the tree (the same tree for every balancer)", 0),
      },
      nullptr,
      // Tasks are born generation by generation: no count to refuse processors against (the
      // call checks the parameters, so a config with min > max is refused where it says so).
      [](const Params& p) {
        tree_params(p, 1);
        return std::numeric_limits<int>::max();
      },
  };
  // The first generation's tasks, 96 bytes each with the simulator's records: one- and
  // five-step runs of 2^21 and 2^22 tasks peaked at 57 to 85 bytes a task (less the process's
  // 22 MB). 4096 processors of 2^20 tasks each would need about 400 GB, and overflow an int.
  info.state_estimate = [](const Params& p, int processors) {
    const double tasks =
        static_cast<double>(processors) * static_cast<double>(p.integer("tasks_per_processor"));
    if (tasks > std::numeric_limits<int>::max())
      throw std::invalid_argument("task_tree: processors x tasks_per_processor = " +
                                  format_number(tasks) + " tasks; at most 2^31 - 1");
    return 96 * tasks;
  };
  info.simulated_only = true;
  info.task_tree = true;
  return info;
}

TreeParams tree_params(const Params& p, int processors) {
  TreeParams t;
  t.processors = processors;
  t.tasks_per_processor = static_cast<int>(p.integer("tasks_per_processor"));
  t.min = p.real("min");
  t.max = p.real("max");
  t.c_cost = p.real("c_cost");
  t.seed = static_cast<std::uint64_t>(p.integer("seed"));
  if (!(t.min <= t.max)) throw std::invalid_argument("task_tree: min must not exceed max");
  return t;
}

}  // namespace lbb
