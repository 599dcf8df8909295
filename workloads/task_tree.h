#pragma once
// Hwang & Hong 2001's random task trees (section 6): "the processors initially have a certain
// number of tasks (No_Tasks) and the number of child tasks created has an exponential
// distribution with a mean value of 1", task costs uniform in [MIN, MAX], and the communication
// cost between a parent and a child C-COST times the child's cost. The number of children is a
// count, so the exponential distribution is read as its discrete form, the geometric
// distribution P(k) = 2^-(k+1), k = 0, 1, 2, ..., whose mean is exactly 1. Children are created on
// the processor that ran their parent. Such a tree is a critical branching process that dies out
// (every lineage, eventually); the paper runs 1000 generations, so a generation that would be
// empty starts the tree again from No_Tasks per processor (counted in restarts()).
//
// Why a free branching process and not a population held at N x No_Tasks: the paper's LB (the
// mean work per processor) is 51.6 at 128 processors, 5 tasks each of mean cost 10 (Table 1),
// and 45.0 to 68.2 from 32 to 512 processors (Table 2). A level held at 5 tasks per processor
// would give 50.0 at every size (the mean of 640 000 costs); a free tree's population wanders,
// and the paper's LBs lie between the 10th and 90th percentiles of this generator's over 200
// seeds at every size (at 128 processors: 28.0 and 119.1, median 55.0). LB moves by only 51.5 to
// 51.7 across MIN-MAX (Table 3) and not at all across C-COST (Table 1): one tree whose shape
// does not depend on the costs, as here (the same seed draws the same tree for every C-COST,
// MIN-MAX and balancer).
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "workloads/workload.h"

namespace lbb {

struct TreeParams {
  int processors = 1;
  int tasks_per_processor = 5;  // No_Tasks
  double min = 4, max = 16;     // MIN, MAX: task costs
  double c_cost = 0.3;          // C-COST
  std::uint64_t seed = 1;
};

// One generation: its tasks' costs E_a, creators f(a), and hop costs B_a + M_a = C-COST x E_a.
struct Generation {
  std::vector<double> cost, hop_cost;
  std::vector<int> creator;
  std::vector<int> children;  // per task of the previous generation (empty for the first)
};

class TaskTreeGenerator {
 public:
  explicit TaskTreeGenerator(const TreeParams& params);
  // The first generation, then each next one from the processors that ran the last (`runner`,
  // one per task of the last generation).
  Generation first();
  Generation next(std::span<const int> runner);
  int restarts() const { return restarts_; }

 private:
  void add_task(Generation& g, int creator);
  TreeParams params_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> cost_;
  std::geometric_distribution<int> children_{0.5};
  int restarts_ = 0;
};

// `workload: { kind: task_tree }`: the generator's parameters (the processors are the
// platform's), for the simulate executor, which balances it generation by generation
// (harness/sim/tree_execution.h). No kernel runs, nothing is verified.
WorkloadInfo task_tree_info();
TreeParams tree_params(const Params& workload, int processors);

}  // namespace lbb
