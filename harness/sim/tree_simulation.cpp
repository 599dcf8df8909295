#include "harness/sim/tree_simulation.h"

#include <stdexcept>

#include "core/assignment.h"
#include "core/level_cost.h"
#include "harness/exec/load_view_builder.h"

namespace lbb {

TreeSimulation simulate_tree(const TreeParams& tree, Balancer& balancer, const Topology& topology,
                             std::span<const double> speed, int generations) {
  TaskTreeGenerator generator(tree);
  const LoadViewBuilder views(speed, &topology);
  TreeSimulation out;
  Generation g = generator.first();
  for (int i = 0; i < generations; ++i) {
    if (i > 0) {
      for (int k : g.children) out.children += k;
      out.parents += static_cast<double>(g.children.size());
    }
    const int n = static_cast<int>(g.cost.size());
    const std::vector<std::uint64_t> bytes(n, 0);
    Decision d = balancer.decide(
        views.view(i - 1, ViewLoads(g.cost, bytes).owners(g.creator).hop_costs(g.hop_cost)));
    std::vector<int> runner = d.act ? std::move(d.owner) : g.creator;
    if (auto err = assignment_error(runner, n, tree.processors))
      throw std::logic_error("balancer returned an invalid assignment: " + *err);
    out.t_total += level_cost(g.creator, runner, g.cost, g.hop_cost, speed, topology).total();
    out.lb_total += level_lower_bound(g.cost, speed);
    out.tasks += n;
    for (int a = 0; a < n; ++a) out.moved += runner[a] != g.creator[a];
    ++out.generations;
    g = generator.next(runner);
  }
  out.restarts = generator.restarts();
  return out;
}

}  // namespace lbb
