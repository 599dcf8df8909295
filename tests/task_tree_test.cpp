// Hwang & Hong 2001's random task trees (workloads/task_tree.h) and their simulation through
// `lbbench run` (harness/sim/tree_execution.h). Statistical bounds are 4 standard errors: a
// correct generator breaks one about once in 15000 seeds, and the seeds here are fixed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "harness/config/config_loader.h"
#include "harness/run/executor_registry.h"
#include "harness/run/provenance.h"
#include "harness/run/runner.h"
#include "harness/sim/tree_simulation.h"
#include "test_support.h"
#include "workloads/task_tree.h"

namespace lbb {
namespace {

// The generator alone, every task running where it was born, for `generations`.
struct Drawn {
  std::vector<double> cost, hop;
  std::vector<int> children;
};

Drawn draw(const TreeParams& tree, int generations) {
  TaskTreeGenerator generator(tree);
  Drawn d;
  Generation g = generator.first();
  for (int i = 0; i < generations; ++i) {
    d.cost.insert(d.cost.end(), g.cost.begin(), g.cost.end());
    d.hop.insert(d.hop.end(), g.hop_cost.begin(), g.hop_cost.end());
    d.children.insert(d.children.end(), g.children.begin(), g.children.end());
    g = generator.next(g.creator);
  }
  return d;
}

TEST(TaskTree, ChildrenPerTaskAreGeometricWithMeanOne) {
  TreeParams tree;
  tree.processors = 64;
  const Drawn d = draw(tree, 300);
  const double n = static_cast<double>(d.children.size());
  ASSERT_GT(n, 5e4);
  // Mean 1; the geometric distribution P(k) = 2^-(k+1) has variance 2.
  const double mean = std::accumulate(d.children.begin(), d.children.end(), 0.0) / n;
  EXPECT_NEAR(mean, 1.0, 4 * std::sqrt(2.0 / n));
  // Its shape: the fraction with k children is a binomial proportion around 2^-(k+1).
  for (int k = 0; k < 4; ++k) {
    const double p = std::ldexp(1.0, -(k + 1));
    const double seen = static_cast<double>(std::count(d.children.begin(), d.children.end(), k));
    EXPECT_NEAR(seen / n, p, 4 * std::sqrt(p * (1 - p) / n)) << k << " children";
  }
}

TEST(TaskTree, CostsAreUniformInMinMaxAndHopsAreCCostTimesTheChildsCost) {
  TreeParams tree;
  tree.processors = 32;
  tree.min = 2;
  tree.max = 18;
  tree.c_cost = 0.4;
  const Drawn d = draw(tree, 200);
  const double n = static_cast<double>(d.cost.size());
  ASSERT_GT(n, 2e4);
  for (std::size_t a = 0; a < d.cost.size(); ++a) {
    ASSERT_GE(d.cost[a], 2.0);
    ASSERT_LE(d.cost[a], 18.0);
    ASSERT_EQ(d.hop[a], 0.4 * d.cost[a]);
  }
  // Uniform: the mean within 4 standard errors of (MIN + MAX) / 2 (sd (MAX - MIN) / sqrt 12),
  // and each quartile holding a quarter of the costs (binomial proportions).
  const double mean = std::accumulate(d.cost.begin(), d.cost.end(), 0.0) / n;
  EXPECT_NEAR(mean, 10.0, 4 * 16 / std::sqrt(12 * n));
  for (int q = 0; q < 4; ++q) {
    const double lo = 2 + 4 * q, hi = lo + 4;
    const double in = static_cast<double>(
        std::count_if(d.cost.begin(), d.cost.end(), [&](double c) { return c >= lo && c < hi; }));
    EXPECT_NEAR(in / n, 0.25, 4 * std::sqrt(0.25 * 0.75 / n)) << "[" << lo << ", " << hi << ")";
  }
}

TEST(TaskTree, ADeadTreeStartsAgainAndTheShapeIgnoresCosts) {
  // Two processors of one task die out within a few generations: the tree restarts.
  TreeParams tiny;
  tiny.processors = 2;
  tiny.tasks_per_processor = 1;
  TaskTreeGenerator generator(tiny);
  Generation g = generator.first();
  for (int i = 0; i < 200; ++i) {
    ASSERT_FALSE(g.cost.empty());
    g = generator.next(g.creator);
  }
  EXPECT_GT(generator.restarts(), 0);
  // The same seed draws the same tree whatever MIN, MAX and C-COST (Hwang & Hong's tables
  // keep LB across C-COST): only the costs scale.
  TreeParams a, b;
  a.processors = b.processors = 16;
  b.min = 8;
  b.max = 12;
  b.c_cost = 0.01;
  const Drawn x = draw(a, 50), y = draw(b, 50);
  EXPECT_EQ(x.children, y.children);
  ASSERT_EQ(x.cost.size(), y.cost.size());
  for (std::size_t i = 0; i < x.cost.size(); ++i)
    EXPECT_NEAR((x.cost[i] - 4) / 12, (y.cost[i] - 8) / 4, 1e-9);
}

// Through the runner: executor simulate, one step per generation, the paper's figures as run
// attributes, the same run for the same seed.
RunOutcome run_tree(const std::string& balancer, int seed) {
  const Config config = load_config_text(
      "name: t\nworkload: { kind: task_tree, c_cost: 0.3, seed: " + std::to_string(seed) +
          " }\nplatform: { processors: 16, topology: mesh2d }\nexecution: { executor: "
          "simulate, steps: 40 }\nbalancers: [ { dynamic: " +
          balancer + " } ]\n",
      "t.yaml");
  return execute_run(config.runs.front(), 0, nullptr, gather_provenance());
}

double attribute(const RunOutcome& out, const std::string& name) {
  for (const auto& a : out.record.figures)
    if (a.name == name) return a.value;
  ADD_FAILURE() << "no attribute " << name;
  return NAN;
}

TEST(TaskTree, RunsUnderTheSimulateExecutorGenerationByGeneration) {
  const RunOutcome l1 = run_tree("tree_mesh", 3), again = run_tree("tree_mesh", 3),
                   none = run_tree("none", 3), other = run_tree("tree_mesh", 4);
  ASSERT_TRUE(l1.ok()) << l1.error;
  ASSERT_TRUE(none.ok()) << none.error;
  EXPECT_TRUE(l1.verification.simulated);
  EXPECT_EQ(l1.summary.steps, 40);
  EXPECT_EQ(attribute(l1, "levels"), 40);
  EXPECT_NEAR(attribute(l1, "T_mean") * 40, attribute(l1, "T_model"), 1e-9);
  EXPECT_NEAR(attribute(l1, "LB_mean") * 40, attribute(l1, "LB_model"), 1e-9);
  EXPECT_EQ(attribute(l1, "T_model"), attribute(again, "T_model"));
  EXPECT_NE(attribute(l1, "LB_model"), attribute(other, "LB_model"));
  // One tree for every balancer: the same LB; balancing beats leaving tasks where they were born
  // (whose T has no communication term), and nothing beats LB.
  EXPECT_EQ(attribute(l1, "LB_model"), attribute(none, "LB_model"));
  EXPECT_EQ(attribute(none, "comm_model"), 0.0);
  EXPECT_LT(attribute(l1, "T_model"), attribute(none, "T_model"));
  EXPECT_GT(attribute(l1, "T_model"), attribute(l1, "LB_model"));
  EXPECT_GT(l1.summary.migrations, 0);
}

TEST(TaskTree, OnlyTheSimulateExecutorRunsItAndMinMustNotExceedMax) {
  EXPECT_THROW(load_config_text("name: t\nworkload: { kind: task_tree, min: 5, max: 4 }\n"
                                "platform: { processors: 4 }\nexecution: { executor: simulate }\n"
                                "balancers: [ { dynamic: tree_mesh } ]\n",
                                "t.yaml"),
               ConfigError);
  EXPECT_THROW(load_config_text("name: t\nworkload: { kind: task_tree }\n"
                                "platform: { processors: 4 }\nexecution: { executor: level }\n"
                                "balancers: [ { dynamic: tree_mesh } ]\n",
                                "t.yaml"),
               ConfigError);
}

}  // namespace
}  // namespace lbb
