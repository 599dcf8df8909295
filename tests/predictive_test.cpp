// The predictive balancer (Iqbal, Saltz & Bokhari 1986, section 6): DEPEND graphs, eq. (4)
// against eq. (2), the incremental update against a from-scratch computation, the take rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "balancers/async/depend_graph.h"
#include "balancers/async/predictive.h"
#include "core/module_graph.h"
#include "core/topology.h"

namespace lbb {
namespace {

TEST(ModuleGraph, ChainGridAndBadLinks) {
  const ModuleGraph chain = ModuleGraph::chain(4);
  EXPECT_EQ(chain.modules(), 4);
  EXPECT_EQ(std::vector<int>(chain.neighbours(1).begin(), chain.neighbours(1).end()),
            (std::vector<int>{0, 2}));
  EXPECT_TRUE(chain.linked(3, 2));
  EXPECT_FALSE(chain.linked(0, 2));
  const int extents[] = {3, 2, 2};
  const ModuleGraph grid = ModuleGraph::grid(extents);
  EXPECT_EQ(grid.modules(), 12);
  EXPECT_EQ(grid.neighbours(0).size(), 3u);  // a corner of a 3 x 2 x 2 box
  EXPECT_TRUE(grid.linked(1, 7));            // one step along the third extent: stride 6
  EXPECT_THROW(ModuleGraph(std::vector<std::vector<int>>{{1}, {}}), std::invalid_argument);
  EXPECT_THROW(ModuleGraph(std::vector<std::vector<int>>{{0}}), std::invalid_argument);
}

// Processor 1 of a 12-module chain holds modules 4..7; boundary 3 finished 5 steps, 8 two.
TEST(DependGraph, EquivalenceClassesAndEq4OnAChain) {
  const ModuleGraph g = ModuleGraph::chain(12);
  std::vector<int> owner(12, 0);
  for (int m = 4; m < 8; ++m) owner[m] = 1;
  for (int m = 8; m < 12; ++m) owner[m] = 2;
  std::vector<int> step(12, 2);
  step[3] = 5;
  step[4] = step[5] = 3;
  const std::vector<double> cost{1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1};
  DependGraph d(g, owner, 1, step, cost, 100);
  EXPECT_EQ(std::vector<int>(d.boundary().begin(), d.boundary().end()), (std::vector<int>{3, 8}));
  EXPECT_EQ(d.equivalence_class(3, 6), 3);
  EXPECT_EQ(d.equivalence_class(8, 6), 2);
  EXPECT_EQ(d.reachable(4), 6);  // min(5 + 1, 2 + 4)
  EXPECT_EQ(d.reachable(5), 5);  // min(5 + 2, 2 + 3)
  EXPECT_EQ(d.reachable(6), 4);
  EXPECT_EQ(d.reachable(7), 3);
  // eq. (3): (6-3)1 + (5-3)2 + (4-2)1 + (3-2)1
  EXPECT_DOUBLE_EQ(d.potential_work(), 3 + 4 + 2 + 1);
  d.internal_advanced(7);                                  // s_7 = 2 < w_7 = 3
  EXPECT_THROW(d.internal_advanced(7), std::logic_error);  // step 4 needs module 8's step 3
}

// The proposition of section 6: eq. (4) is the solution of eq. (2), found here by relaxing
// eq. (2) from above until nothing changes.
std::vector<int> weights_by_eq2(const ModuleGraph& g, const std::vector<int>& owner, int p,
                                const std::vector<int>& step, int final_step) {
  std::vector<int> w(g.modules(), final_step);
  for (bool changed = true; changed;) {
    changed = false;
    for (int m = 0; m < g.modules(); ++m) {
      if (owner[m] != p) continue;
      int bound = final_step;
      for (int j : g.neighbours(m)) bound = std::min(bound, (owner[j] == p ? w[j] : step[j]) + 1);
      if (bound < w[m]) {
        w[m] = bound;
        changed = true;
      }
    }
  }
  return w;
}

ModuleGraph random_graph(std::mt19937_64& rng, int n) {
  std::vector<std::vector<int>> lists(n);
  auto link = [&](int a, int b) {
    if (a == b || std::find(lists[a].begin(), lists[a].end(), b) != lists[a].end()) return;
    lists[a].push_back(b);
    lists[b].push_back(a);
  };
  for (int m = 1; m < n; ++m) link(m, static_cast<int>(rng() % m));  // connected
  for (int e = 0; e < n / 2; ++e) link(static_cast<int>(rng() % n), static_cast<int>(rng() % n));
  return ModuleGraph(lists);
}

// Steps every module could have finished in an asynchronous run: linked modules differ by <= 1.
std::vector<int> random_consistent_steps(std::mt19937_64& rng, const ModuleGraph& g) {
  std::vector<int> step(g.modules(), 0);
  for (int advance = 0; advance < 20 * g.modules(); ++advance) {
    const int m = static_cast<int>(rng() % g.modules());
    bool ready = true;
    for (int j : g.neighbours(m)) ready &= step[j] >= step[m];
    step[m] += ready;
  }
  return step;
}

TEST(DependGraph, Eq4SolvesEq2OnRandomGraphs) {
  std::mt19937_64 rng(14);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 40), P = 1 + static_cast<int>(rng() % 5);
    const ModuleGraph g = random_graph(rng, n);
    std::vector<int> owner(n);
    for (auto& o : owner) o = static_cast<int>(rng() % P);
    const std::vector<int> step = random_consistent_steps(rng, g);
    const std::vector<double> cost(n, 1.0);
    for (int p = 0; p < P; ++p) {
      const DependGraph d(g, owner, p, step, cost, 1000);
      const std::vector<int> w = weights_by_eq2(g, owner, p, step, 1000);
      for (int m : d.internal()) ASSERT_EQ(d.reachable(m), w[m]) << "trial " << trial;
    }
  }
}

void expect_same(const DependGraph& incremental, const DependGraph& scratch, int event) {
  ASSERT_EQ(incremental.internal().size(), scratch.internal().size());
  for (int m : scratch.internal()) {
    ASSERT_EQ(incremental.reachable(m), scratch.reachable(m)) << "event " << event;
    ASSERT_EQ(incremental.step(m), scratch.step(m));
  }
  for (int z : scratch.boundary()) ASSERT_EQ(incremental.step(z), scratch.step(z));
  ASSERT_NEAR(incremental.potential_work(), scratch.potential_work(),
              1e-9 * (1 + scratch.potential_work()))
      << "event " << event;
}

// Random DEPEND graphs advanced one module step at a time in a random order that respects the
// dependencies, with the take rule applied as it fires: after every update every processor's
// incrementally updated weights and potential work equal a from-scratch computation.
TEST(Predictive, IncrementalUpdateEqualsFromScratchOnRandomGraphs) {
  std::mt19937_64 rng(1986);
  int takes = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 8 + static_cast<int>(rng() % 60), P = 2 + static_cast<int>(rng() % 6);
    const int final_step = 5 + static_cast<int>(rng() % 30);
    const ModuleGraph g = random_graph(rng, n);
    const Topology topology(TopologyKind::kComplete, P);
    std::vector<int> owner(n);
    for (int m = 0; m < n; ++m) owner[m] = m < P ? m : static_cast<int>(rng() % P);
    std::vector<double> cost(n);
    for (auto& c : cost) c = 0.1 + static_cast<double>(rng() % 1000) / 250;
    Predictive balancer(1.0, static_cast<double>(rng() % 4));
    balancer.start(g, owner, cost, topology, final_step);
    for (int event = 0;; ++event) {
      std::vector<int> ready;  // every linked module has finished the module's current step
      for (int m = 0; m < n; ++m) {
        bool inputs = balancer.step(m) < final_step;
        for (int j : g.neighbours(m)) inputs &= balancer.step(j) >= balancer.step(m);
        if (inputs) ready.push_back(m);
      }
      if (ready.empty()) break;
      balancer.module_advanced(ready[rng() % ready.size()]);
      const int p = static_cast<int>(rng() % P);
      if (auto take = balancer.consider(p, [](int) { return true; })) {
        balancer.apply(*take);
        ++takes;
      }
      std::vector<int> step(n);
      for (int m = 0; m < n; ++m) step[m] = balancer.step(m);
      for (int q = 0; q < P; ++q)
        expect_same(balancer.depend(q), DependGraph(g, balancer.owner(), q, step, cost, final_step),
                    event);
    }
    for (int m = 0; m < n; ++m) ASSERT_EQ(balancer.step(m), final_step);  // nobody got stuck
  }
  EXPECT_GT(takes, 0);
}

// A datum from a boundary vertex that constrains nothing: the search stops at the first vertex.
TEST(DependGraph, UpdateStopsAtVerticesItDoesNotConstrain) {
  const ModuleGraph g = ModuleGraph::chain(12);
  std::vector<int> owner(12, 1);
  owner[0] = 0;
  owner[11] = 2;
  std::vector<int> step(12, 0);
  step[11] = 50;  // far ahead: modules 1..10 are all constrained by module 0 (q = 0)
  const std::vector<double> cost(12, 1.0);
  DependGraph d(g, owner, 1, step, cost, 100);
  EXPECT_EQ(d.boundary_advanced(11), 1);  // examined module 10 only: not constrained by 11
  EXPECT_EQ(d.boundary_advanced(0), 10);  // every module rises by one
  EXPECT_EQ(d.reachable(10), 11);
  EXPECT_DOUBLE_EQ(d.potential_work(), 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11);
}

// Three processors on a chain of 9 modules, 3 each. Processor 1 has run everything its data
// allows (potential work 0); its neighbours each hold 9 units of potential work, processor 2
// more once its last module costs 2.
struct TakeCase {
  ModuleGraph graph = ModuleGraph::chain(9);
  Topology topology{TopologyKind::kChain, 3};
  std::vector<int> owner{0, 0, 0, 1, 1, 1, 2, 2, 2};
  std::vector<int> step{5, 5, 5, 6, 7, 6, 5, 5, 5};
  std::vector<double> cost{1, 1, 1, 1, 1, 1, 1, 1, 2};  // mean 10/9

  Predictive start(double threshold, double safety) {
    Predictive b(threshold, safety);
    b.start(graph, owner, cost, topology, 100, step);
    return b;
  }
};

TEST(Predictive, TakeRuleFromSection6) {
  TakeCase c;
  Predictive b = c.start(1.0, 1.0);
  EXPECT_DOUBLE_EQ(b.potential_work(1), 0);
  EXPECT_DOUBLE_EQ(b.potential_work(0), 2 + 3 + 4);
  EXPECT_DOUBLE_EQ(b.potential_work(2), 2 + 3 + 4 * 2);
  const auto all = [](int) { return true; };
  // Below the threshold; both neighbours >= threshold + safety: the larger gives its module
  // linked to the taker.
  auto take = b.consider(1, all);
  ASSERT_TRUE(take);
  EXPECT_EQ(take->module, 6);
  EXPECT_EQ(take->from, 2);
  EXPECT_EQ(take->to, 1);
  // Processors at or above the threshold take nothing.
  EXPECT_FALSE(b.consider(0, all));
  EXPECT_FALSE(b.consider(2, all));
  // Module 6 busy: the next neighbour in potential work gives instead.
  take = b.consider(1, [](int m) { return m != 6; });
  ASSERT_TRUE(take);
  EXPECT_EQ(take->module, 2);
  EXPECT_EQ(take->from, 0);
  // The take carried out: processor 1 now holds module 6 and its potential work (7 - 5) x 1.
  b.apply({6, 2, 1});
  EXPECT_EQ(b.owner()[6], 1);
  EXPECT_DOUBLE_EQ(b.potential_work(1), 2);
  EXPECT_DOUBLE_EQ(b.potential_work(2), (6 - 5) * 1 + (7 - 5) * 2);
}

TEST(Predictive, SafetyFactorAndThresholdGateTheTake) {
  TakeCase c;
  const auto all = [](int) { return true; };
  // Threshold + safety = 12 mean costs = 13.3 > 13 (processor 2) > 9 (processor 0): no giver.
  EXPECT_FALSE(c.start(1.0, 11.0).consider(1, all));
  // 11 x 10/9 = 12.2: only processor 2 qualifies.
  auto take = c.start(1.0, 10.0).consider(1, all);
  ASSERT_TRUE(take);
  EXPECT_EQ(take->from, 2);
  // Threshold 0: potential work 0 is not below it.
  EXPECT_FALSE(c.start(0.0, 0.0).consider(1, all));
  // A giver keeps one module: processor 2, with only module 8 (potential work 2 x 20), gives
  // nothing; processor 0 (9 >= 2 mean costs of 28/9) gives.
  c.owner = {0, 0, 0, 1, 1, 1, 1, 1, 2};
  c.step = {5, 5, 5, 6, 7, 8, 7, 6, 5};
  c.cost[8] = 20;
  Predictive b = c.start(2.0, 0.0);
  EXPECT_DOUBLE_EQ(b.potential_work(1), 0);
  EXPECT_DOUBLE_EQ(b.potential_work(2), 40);
  take = b.consider(1, all);
  ASSERT_TRUE(take);
  EXPECT_EQ(take->from, 0);
}

// At a step barrier (the balancer interface): the chain processor with little potential work
// takes the neighbour's boundary module.
TEST(Predictive, DecideAtABarrierTakesTheBoundaryModule) {
  const Topology topology(TopologyKind::kChain, 2);
  const std::vector<double> cost(4, 1.0), speed(2, 1.0);
  const std::vector<int> owner{0, 0, 0, 1};
  LoadView view;
  view.cost = cost;
  view.speed = speed;
  view.owner = owner;
  view.topology = &topology;
  view.structure = ModuleStructure::kChain;
  view.step = 3;
  Predictive b(2.0, 1.0);  // processor 1: 1 < 2; processor 0: 1 + 2 + 3 = 6 >= 3
  const Decision d = b.decide(view);
  ASSERT_TRUE(d.act);
  EXPECT_EQ(d.owner, (std::vector<int>{0, 0, 1, 1}));
  view.structure = ModuleStructure::kIndependent;
  EXPECT_FALSE(b.decide(view).act);
  view.owner = {};  // no assignment yet: block
  EXPECT_EQ(b.decide(view).owner, (std::vector<int>{0, 0, 1, 1}));
}

}  // namespace
}  // namespace lbb
