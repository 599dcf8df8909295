#pragma once
// Hwang & Hong 2001, section 6: the simulated experiment behind their Tables 1-3, for the tests
// and the benchmark that compare the level balancers with the paper. N processors on a mesh start
// with No_Tasks tasks each; every task of a level creates children, born on the processor that
// ran it; E_a is uniform in [MIN, MAX] and B_a + M_a = C-COST x E_a; each generation's level is
// balanced and costed T_i = max load + max d(f(a), g(a)) (B_a + M_a) (section 3), and the
// figures are means over the generations.
//
// Interpretation (the paper gives no more): "the number of child tasks created has an
// exponential distribution with a mean value of 1". A free branching process with mean 1 is
// critical and wanders far from N x No_Tasks tasks in 1000 generations, while the paper's LB
// stays put (51.6 at N = 128, No_Tasks = 5, E in [4, 16]: 5.2 tasks of mean 10 a processor). So
// every level keeps N x No_Tasks tasks, each child's parent drawn in proportion to an Exp(1)
// weight per parent: children per task have mean 1 and an exponential-like spread.
#include <functional>
#include <random>
#include <span>
#include <vector>

#include "core/level_cost.h"
#include "core/topology.h"

namespace lbb::testing {

struct HwangHongSetup {
  int processors = 128;  // a mesh2d of 8 x 16
  int tasks_per_processor = 5;
  double min_cost = 4, max_cost = 16;
  double c_cost = 0.3;
  int generations = 1000;
  std::uint64_t seed = 1;
};

// owner = balance(cost, hop_cost, creator, speed, topology), the level balancer under test.
using LevelBalance =
    std::function<std::vector<int>(std::span<const double>, std::span<const double>,
                                   std::span<const int>, std::span<const double>, const Topology&)>;

struct HwangHongFigures {
  double lb = 0;             // mean over generations of sum E_a / N
  double t = 0;              // mean T_i
  double communication = 0;  // mean of its communication term
};

inline HwangHongFigures run_hwang_hong(const HwangHongSetup& s, const LevelBalance& balance) {
  const Topology mesh(TopologyKind::kMesh2d, s.processors);
  const std::vector<double> speed(s.processors, 1.0);
  std::mt19937_64 rng(s.seed);
  std::uniform_real_distribution<double> work(s.min_cost, s.max_cost);
  std::exponential_distribution<double> fertility(1.0);
  const int tasks = s.processors * s.tasks_per_processor;
  std::vector<int> creator(tasks);
  for (int a = 0; a < tasks; ++a) creator[a] = a % s.processors;
  std::vector<double> cost(tasks), hop(tasks), weight(tasks);
  HwangHongFigures out;
  for (int g = 0; g < s.generations; ++g) {
    for (int a = 0; a < tasks; ++a) {
      cost[a] = work(rng);
      hop[a] = s.c_cost * cost[a];
    }
    const std::vector<int> owner = balance(cost, hop, creator, speed, mesh);
    const LevelCost c = level_cost(creator, owner, cost, hop, speed, mesh);
    out.lb += level_lower_bound(cost, speed);
    out.t += c.total();
    out.communication += c.communication;
    // The next level: each child born where its parent ran.
    for (auto& w : weight) w = fertility(rng);
    std::discrete_distribution<int> parent(weight.begin(), weight.end());
    for (int a = 0; a < tasks; ++a) creator[a] = owner[parent(rng)];
  }
  out.lb /= s.generations;
  out.t /= s.generations;
  out.communication /= s.generations;
  return out;
}

}  // namespace lbb::testing
