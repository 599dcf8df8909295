#pragma once
// Hwang & Hong 2001's random task trees (section 5): "the processors initially have a certain
// number of tasks (No_Tasks) and the number of child tasks created has an exponential
// distribution with a mean value of 1", task costs uniform in [MIN, MAX], and the communication
// cost between a parent and a child C-COST times the child's cost. The number of children is a
// count, so the exponential distribution is read as its discrete form, the geometric
// distribution P(k) = 2^-(k+1), k = 0, 1, 2, ..., whose mean is exactly 1. Children are created on
// the processor that ran their parent. Such a tree is a critical branching process that dies out
// (every lineage, eventually); the paper runs 1000 generations, so a generation that would be
// empty starts the tree again from No_Tasks per processor (counted in restarts()).
#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace lbb {

struct TreeParams {
  int processors = 1;
  int tasks_per_processor = 5;  // No_Tasks
  double min = 8, max = 12;     // MIN, MAX: task costs
  double c_cost = 0.1;          // C-COST
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

}  // namespace lbb
