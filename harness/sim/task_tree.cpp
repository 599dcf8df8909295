#include "harness/sim/task_tree.h"

#include <stdexcept>

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

}  // namespace lbb
