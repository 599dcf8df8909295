#include "harness/sim/tree_simulation.h"

#include <algorithm>
#include <stdexcept>

#include "core/assignment.h"
#include "core/level_cost.h"
#include "harness/base/clock.h"
#include "harness/exec/load_view_builder.h"

namespace lbb {

namespace {

// Generation i's record; `t` is its T_i, `lb` its LB.
StepRecord generation_record(int i, const Generation& g, std::span<const int> runner,
                             std::span<const double> speed, const LevelCost& t, double lb,
                             std::int64_t moved, int max_distance) {
  const std::size_t P = speed.size();
  StepRecord r;
  r.step = i;
  r.wall = r.makespan = t.total();  // modelled: no wall clock means anything here
  r.ideal = lb;
  r.migrations = moved;
  r.busy.assign(P, 0.0);
  for (std::size_t a = 0; a < runner.size(); ++a) r.busy[runner[a]] += g.cost[a];
  r.idle.assign(P, 0.0);
  for (std::size_t p = 0; p < P; ++p) {
    r.busy[p] /= speed[p];
    r.idle[p] = r.makespan - r.busy[p];
  }
  r.busy_wall.assign(P, 0.0);  // no wall clock in a simulation
  r.proc_balance.assign(P, 0.0);
  r.proc_migration.assign(P, 0.0);
  r.external_load.assign(P, 0.0);
  r.triggered.assign(P, 0);
  r.metrics = {static_cast<double>(runner.size()), lb, t.total(), t.communication,
               static_cast<double>(max_distance)};
  return r;
}

}  // namespace

TreeSimulation simulate_tree(const TreeParams& tree, Balancer& balancer, const Topology& topology,
                             std::span<const double> speed, int generations, StepSink* sink) {
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
    const LevelCost t = level_cost(g.creator, runner, g.cost, g.hop_cost, speed, topology);
    const double lb = level_lower_bound(g.cost, speed);
    std::int64_t moved = 0;
    int farthest = 0;
    for (int a = 0; a < n; ++a) {
      moved += runner[a] != g.creator[a];
      farthest = std::max(farthest, topology.distance(g.creator[a], runner[a]));
    }
    out.t_total += t.total();
    out.lb_total += lb;
    out.comm_total += t.communication;
    out.tasks += n;
    out.moved += static_cast<double>(moved);
    out.max_distance = std::max(out.max_distance, farthest);
    ++out.generations;
    if (sink) {
      const double c0 = thread_cpu_now();
      const StepRecord r = generation_record(i, g, runner, speed, t, lb, moved, farthest);
      out.record_build_seconds += thread_cpu_now() - c0;
      record_step(*sink, r, out.record_seconds);
    }
    g = generator.next(runner);
  }
  out.restarts = generator.restarts();
  return out;
}

}  // namespace lbb
