// The simulator at scale (harness/sim/scale_sim.h) is the ordinary simulator's model with less
// state, not another algorithm: on 64 processors x 4,096 modules it runs the gossip and the
// multilevel balancers through the same owners, step by step, with the same makespans. A user's
// balancer runs there unchanged: the example C plugin and Python script make greedy's decisions.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "balancers/between_steps/greedy.h"
#include "balancers/between_steps/plugin.h"
#include "balancers/between_steps/python.h"
#include "executor_test_support.h"
#include "harness/sim/scale_sim.h"
#include "harness/sim/simulate_executor.h"
#include "tests/plugin_views.h"
#include "workloads/synthetic_costs.h"

namespace lbb {
namespace {

constexpr int kProcessors = 64, kModules = 4096, kScaleSteps = 8;

Params costs_params() {
  Params given;
  given.set("modules", std::int64_t{kModules});
  given.set("sd", 0.8);
  given.set("seed", std::int64_t{5});
  return resolve_params(SyntheticCosts::info().params, given);
}

// The ordinary simulator's records of a run under `balancer` (owners during each step).
std::vector<StepRecord> ordinary(const std::string& balancer, const Params& params) {
  SyntheticCosts costs(costs_params());
  ModuleStore store(costs);
  const Topology chain(TopologyKind::kChain, kProcessors);
  const auto dynamic = make_balancer(balancer, params);
  ExecutionPlan plan = testing::plan_for(kProcessors, kScaleSteps, chain);
  plan.dynamic = dynamic.get();
  testing::CollectSteps sink;
  SimSettings free_decisions;  // makespans are the modules' alone
  free_decisions.measured_decisions = false;
  SimulateExecutor(free_decisions).run(costs, store, plan, sink);
  return sink.records;
}

// Runs `balancer` in the ordinary simulator and, through `step`, in ScaleSim on the same costs.
template <class Step>
void expect_same_run(const std::string& balancer, const Params& params, Step step) {
  SCOPED_TRACE(balancer);
  const std::vector<StepRecord> records = ordinary(balancer, params);
  ASSERT_EQ(records.size(), static_cast<std::size_t>(kScaleSteps));
  SyntheticCosts costs(costs_params());
  const std::vector<double> cost = costs.step_costs(0);
  const Topology chain(TopologyKind::kChain, kProcessors);
  ScaleSim sim(cost, std::vector<double>(kProcessors, 1.0), chain);
  std::int64_t moved = 0;
  for (int s = 0; s < kScaleSteps; ++s) {
    SCOPED_TRACE("step " + std::to_string(s));
    ASSERT_EQ(std::vector<int>(sim.owner().begin(), sim.owner().end()), records[s].module_owner);
    const ScaleStep done = step(sim, s);
    EXPECT_NEAR(done.makespan, records[s].makespan, 1e-12 * records[s].makespan);
    EXPECT_EQ(done.migrations, records[s].migrations);
    moved += done.migrations;
  }
  EXPECT_GT(moved, 0);  // the balancer acted: the owners compared are not just the partition
}

void expect_same_run(const std::string& balancer, const Params& params = {}) {
  const auto dynamic = make_balancer(balancer, params);
  expect_same_run(balancer, params, [&](ScaleSim& sim, int s) { return sim.step(s, *dynamic); });
}

TEST(ScaleSim, GossipMakesTheOrdinarySimulatorsDecisions) {
  expect_same_run("gossip");
}

TEST(ScaleSim, TemperedGossipMakesTheOrdinarySimulatorsDecisions) {
  Params tempered;
  tempered.set("criterion", std::string("tempered"));
  tempered.set("iterations", std::int64_t{3});
  expect_same_run("gossip", tempered);
}

// The scale path's gossip on holdings kept across steps, at the defaults, tempered over three
// iterations, and with a fanout of 4 and knowledge capped at 8 processors.
TEST(ScaleSim, GossipOnHoldingsMakesTheOrdinarySimulatorsDecisions) {
  Params tempered, capped;
  tempered.set("criterion", std::string("tempered"));
  tempered.set("iterations", std::int64_t{3});
  capped.set("fanout", std::int64_t{4});
  capped.set("knowledge", std::int64_t{8});
  for (const Params& params : {Params{}, tempered, capped}) {
    const GossipSettings settings =
        gossip_settings(resolve_params(find_balancer("gossip")->params, params));
    expect_same_run("gossip", params, [&](ScaleSim& sim, int s) { return sim.step(s, settings); });
  }
}

TEST(ScaleSim, MultilevelMakesTheOrdinarySimulatorsDecisions) {
  expect_same_run("multilevel");
}

TEST(ScaleSim, MultilevelOnRangesMakesTheOrdinarySimulatorsDecisions) {
  for (const double min_gain : {0.0, 0.05}) {
    Params params;
    params.set("min_gain", min_gain);
    const MultilevelDiffusion multilevel;
    expect_same_run("multilevel", params,
                    [&](ScaleSim& sim, int s) { return sim.step(s, multilevel, min_gain); });
  }
}

TEST(ScaleSim, RangesStartFromTheBlockPartition) {
  SyntheticCosts costs(costs_params());
  const std::vector<double> cost = costs.step_costs(0);
  const Topology chain(TopologyKind::kChain, kProcessors);
  ScaleSim sim(cost, std::vector<double>(kProcessors, 1.0), chain);
  const auto gossip = make_balancer("gossip", Params{});
  while (sim.step(0, *gossip).migrations == 0) {
  }
  EXPECT_THROW(sim.step(1, MultilevelDiffusion{}, 0.05), std::logic_error);
}

TEST(ScaleSim, LoadsFollowTheMovedModules) {
  SyntheticCosts costs(costs_params());
  const std::vector<double> cost = costs.step_costs(0);
  const Topology chain(TopologyKind::kChain, kProcessors);
  ScaleSim sim(cost, std::vector<double>(kProcessors, 1.0), chain);
  const auto gossip = make_balancer("gossip", Params{});
  for (int s = 0; s < 3; ++s) sim.step(s, *gossip);
  std::vector<double> fresh(kProcessors, 0.0);
  for (int m = 0; m < kModules; ++m) fresh[sim.owner()[m]] += cost[m];
  for (int p = 0; p < kProcessors; ++p) EXPECT_NEAR(sim.loads()[p], fresh[p], 1e-12);
}

// examples/balancers/: the C plugin and the Python script in ScaleSim, at three speeds, own the
// modules as the built-in greedy does there after every step (the first moves most of them).
TEST(ScaleSim, UserBalancersMakeGreedysDecisions) {
  const std::string library = testing::plugin_path("greedy_plugin");
  if (!std::filesystem::exists(library)) GTEST_SKIP() << library << " not built";
  constexpr int kP = 1024, kM = 8192;
  Params given;
  given.set("modules", std::int64_t{kM});
  given.set("sd", 0.8);
  SyntheticCosts costs(resolve_params(SyntheticCosts::info().params, given));
  const std::vector<double> cost = costs.step_costs(0);
  const double speeds[] = {1.0, 0.5, 0.75};
  std::vector<double> speed(kP);
  for (int p = 0; p < kP; ++p) speed[p] = speeds[p % 3];
  const Topology chain(TopologyKind::kChain, kP);
  auto owners = [&](Balancer& balancer) {
    ScaleSim sim(cost, speed, chain);
    std::vector<std::vector<int>> out;
    std::int64_t moved = 0;
    for (int s = 0; s < 4; ++s) {
      moved += sim.step(s, balancer).migrations;
      out.emplace_back(sim.owner().begin(), sim.owner().end());
    }
    EXPECT_GT(moved, kM / 2);
    return out;
  };
  GreedyBalancer builtin(0.05);
  PluginBalancer plugin(library, "", "", 0.05);
  PythonBalancer script(testing::source_path("examples/balancers/greedy.py"), "balance", "", "",
                        0.05);
  const auto want = owners(builtin);
  EXPECT_EQ(owners(plugin), want);
  EXPECT_EQ(owners(script), want);
}

}  // namespace
}  // namespace lbb
