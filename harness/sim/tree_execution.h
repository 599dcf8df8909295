#pragma once
// `workload: { kind: task_tree }` under `execution.executor: simulate`: Hwang & Hong 2001's
// random trees (workloads/task_tree.h) balanced generation by generation by a level balancer
// (harness/sim/tree_simulation.h), execution.steps generations on the platform's processors,
// speeds and topology. Each generation is one recorded step; the run's attributes are the level
// executor's model figures (LB_model, T_model, comm_model: sums over generations) and their means
// per generation, LB_mean and T_mean, the paper's "average objective function values", and
// T_over_LB, their ratio, which compares trees of different sizes; c_cost, min and max are
// recorded too, so a paper config's rows can select runs by them.
#include <memory>

#include "harness/exec/execution.h"

namespace lbb {

std::unique_ptr<Execution> tree_execution(const RunSpec& spec, const WorkloadInfo& workload);

}  // namespace lbb
