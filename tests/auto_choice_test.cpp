// `dynamic: auto` (Zaki, Li & Parthasarathy 1997's customized choice): one run, which profiles
// itself up to its first synchronisation, predicts each candidate with the cost model there,
// and continues with the cheapest, the executor following the choice's groups and redundancy.
#include "harness/papers/auto_choice.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "balancers/choice/auto.h"
#include "harness/config/config_loader.h"
#include "harness/results/result_reader.h"
#include "harness/run/reference_cache.h"
#include "tests/test_support.h"

namespace lbb {
namespace {

// `dynamic: auto` runs through the runner's registry, as under `lbbench run`.
[[maybe_unused]] const bool kAutoRegistered = (register_auto_choice(), true);

// Two processors at the first synchronisation: 0 ran its 4 modules in 1 s and triggered; 1 ran
// 1 of its 4 in 1 s, 3 left. Processor 1 of a second view ran none: rated at 0's rate per speed.
TEST(AutoChoiceProfile, ModulesHeldAndRatesAtTheFirstSynchronisation) {
  const std::vector<double> cost = {0.3, 0.3, 0.3}, speed = {1.0, 0.5}, busy = {1.0, 1.0};
  const std::vector<std::uint64_t> bytes = {100, 200, 300};
  const std::vector<int> owner = {1, 1, 1};
  std::vector<double> done = {4.0, 1.0};
  const Topology chain(TopologyKind::kChain, 2);
  LoadView v;
  v.cost = cost;
  v.bytes = bytes;
  v.speed = speed;
  v.owner = owner;
  v.topology = &chain;
  v.busy = busy;
  v.work_done = done;
  SchemeProfile q = profile_at_first_sync(v);
  EXPECT_EQ(q.work, (std::vector<double>{4.0, 4.0}));
  EXPECT_EQ(q.rate, (std::vector<double>{4.0, 1.0}));
  EXPECT_EQ(q.modules, 8);
  EXPECT_DOUBLE_EQ(q.largest_module, 1.0);
  EXPECT_DOUBLE_EQ(q.bytes_per_module, 200.0);
  done = {4.0, 0.0};
  q = profile_at_first_sync(v);
  EXPECT_DOUBLE_EQ(q.rate[1], 4.0 * 0.5);
  // No balancing: the candidate `none` predicts steps x the slowest processor (1: 3 modules).
  Params given;
  given.set("candidates", std::string("none"));
  const Params p = resolve_params(find_balancer("auto")->params, given);
  EXPECT_NEAR(predict_candidates(p, q, 5)[0].total, 5 * 3.0 / 2.0, 1e-9);  // 3 left on 1
}

// A balanced profile moves nothing, so each candidate costs its synchronisations. Charged as
// threads the distributed local scheme is the cheapest (no wake-up for a published decision);
// charged as the paper's messages the centralised local one is (K + K against K + K^2).
TEST(AutoChoicePrediction, TheMachineChargedDecidesBetweenCentralisedAndDistributed) {
  SchemeProfile q;
  q.work.assign(4, 10.0);
  q.rate.assign(4, 1000.0);
  q.modules = 40;
  q.largest_module = 1.0;
  const auto cheapest = [&](const std::string& charges) {
    Params given;
    given.set("group_size", std::int64_t{2});
    given.set("latency", 5e-6);
    given.set("charges", charges);
    const auto all =
        predict_candidates(resolve_params(find_balancer("auto")->params, given), q, 10);
    return std::min_element(all.begin(), all.end(),
                            [](const auto& a, const auto& b) { return a.total < b.total; })
        ->name;
  };
  EXPECT_EQ(cheapest("threads"), "lddlb");
  EXPECT_EQ(cheapest("messages"), "lcdlb");
}

std::string auto_config(const std::string& candidates, int repetitions = 1) {
  return "name: t\nworkload: { kind: block_substitution, blocks: 32, width: 16, mean_lines: 16, "
         "seed: 3 }\nplatform: { processors: 4, topology: chain, speeds: [1, 1, 0.25, 1] }\n"
         "execution: { steps: 4, warmup: 0, repetitions: " +
         std::to_string(repetitions) + " }\nbalancers: [ { dynamic: auto, candidates: \"" +
         candidates + "\", group_size: 2 } ]\n";
}

// The decision is the run's own: taken at the first synchronisation of its first step, a measured
// step (warm-up 0), whose record holds that synchronisation and its decision; the run is the
// entry's only run (steps as configured, nothing run before it). The executor then follows the
// choice: gddlb decides on every thread, so from step 1 the processors' balance times are each
// their own, where step 0's, centralised until the choice, are the decider's for all.
TEST(AutoChoice, DecidesAtTheRunsFirstSynchronisationInsideItsMeasuredSteps) {
  testing::TempDir dir;
  const std::string path = dir.file("auto");
  const Config config = load_config_text(auto_config("gddlb"), "t.yaml");
  {
    ResultWriter archive(path, {});
    const RunOutcome o = execute_run(config.runs.front(), 0, &archive, gather_provenance());
    ASSERT_TRUE(o.ok()) << o.error << o.verification.detail;
  }
  ResultReader reader(path);
  ASSERT_EQ(reader.runs().size(), 1u);
  const RunRecord& run = reader.runs().front();
  EXPECT_EQ(run.figure("auto_decision_step"), 0.0);
  EXPECT_EQ(run.figure("auto_chose_gddlb"), 1.0);
  EXPECT_GT(run.figure("auto_predicted_gddlb").value_or(0.0), 0.0);
  EXPECT_EQ(run.dynamic, "auto");
  std::size_t rows = 0, cols = 0;
  const auto balance = reader.read_matrix(run.run, "proc/balance", rows, cols);
  const auto triggered = reader.read_matrix(run.run, "proc/triggered", rows, cols);
  ASSERT_EQ(rows, 4u);  // the configured steps, the first of them the profile
  ASSERT_EQ(cols, 4u);
  double step0_triggers = 0;
  for (std::size_t p = 0; p < cols; ++p) step0_triggers += triggered[p];
  EXPECT_GE(step0_triggers, 1.0);
  EXPECT_GT(balance[0], 0.0);  // the choice's decision, in the measured step 0
  for (std::size_t p = 0; p < cols; ++p) EXPECT_EQ(balance[p], balance[0]) << p;
  int own_clocks = 0;
  for (std::size_t s = 1; s < rows; ++s) {
    const double* b = &balance[s * cols];
    own_clocks += *std::max_element(b, b + cols) > *std::min_element(b, b + cols);
  }
  EXPECT_GE(own_clocks, 1) << "after the choice every thread decides on its own clock";
  double makespans = 0;
  for (double m : reader.read_series(run.run, "step/makespan")) makespans += m;
  EXPECT_NEAR(run.makespan_total, makespans, 1e-9 * makespans);
}

// No profile run: 3 repetitions of an auto entry compute the one reference of its problem.
TEST(AutoChoice, RunsNothingButItsOwnRun) {
  const Config config = load_config_text(auto_config("gcdlb,none", 3), "t.yaml");
  const Provenance provenance = gather_provenance();
  const RunSpec& spec = config.runs.front();
  ReferenceCache references;
  for (int rep = 0; rep < spec.repetitions; ++rep) expect_references(references, spec);
  for (int rep = 0; rep < spec.repetitions; ++rep) {
    const RunOutcome out = execute_run(spec, rep, nullptr, provenance, &references);
    ASSERT_TRUE(out.ok()) << out.error;
    EXPECT_EQ(out.spec, &spec);
    const auto chose =
        std::count_if(out.record.figures.begin(), out.record.figures.end(),
                      [](const auto& a) { return a.name.rfind("auto_chose_", 0) == 0; });
    EXPECT_EQ(chose, 1);
  }
  EXPECT_EQ(references.computed(), 1);
  EXPECT_EQ(references.held(), 0u);
}

// The runner tells auto the run's steps, warm-up included; a horizon given is kept.
TEST(AutoChoice, TheHorizonIsTheRunsSteps) {
  const Config config = load_config_text(auto_config("gcdlb"), "t.yaml");
  RunSpec spec = config.runs.front();
  spec.warmup = 2;
  EXPECT_TRUE(is_auto_choice(spec));
  const RunSpec run = with_run_horizon(spec);
  EXPECT_EQ(run.balancer.dynamic_params.integer("horizon_steps"), 6);
  EXPECT_FALSE(is_auto_choice(run));
}

}  // namespace
}  // namespace lbb
