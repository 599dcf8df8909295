// The step engine's shared parts (harness/exec/): the one definition of a step's measured
// columns, the level executor's ideal time scaled by speed like the others', and the executor
// table that `execution.executor` chooses from.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "harness/base/clock.h"
#include "harness/config/config_loader.h"
#include "harness/exec/level_executor.h"
#include "harness/exec/step_recorder.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"
#include "kernels/uts_tree.h"
#include "test_support.h"
#include "workloads/tree_search.h"

namespace lbb {
namespace {

struct Capture final : StepSink {
  std::vector<StepRecord> records;
  void on_step(const StepRecord& r) override { records.push_back(r); }
};

// Two processors (speeds 1 and 0.5), two phases, times chosen so each definition gives a
// different number than its near misses (unscaled ideal, max over the step instead of per phase).
TEST(StepRecorder, ClosesARecordByTheOneDefinitionOfEachColumn) {
  const std::vector<double> speed = {1.0, 0.5};
  StepRecorder recorder(speed, 2);
  ProcessorTimes& a = recorder.processor(0);
  ProcessorTimes& b = recorder.processor(1);
  a.start = 10.0, a.end = 10.5, b.start = 10.1, b.end = 10.8;
  a.busy_wall = 0.4, b.busy_wall = 0.6;
  a.phase[0] = {.busy = 0.2, .finish = 0.2, .end_balance = 0.01, .end_migration = 0.02};
  a.phase[1] = {.busy = 0.1, .finish = 0.1};
  b.phase[0] = {.busy = 0.1, .finish = 0.1, .end_balance = 0.01};
  b.phase[1] = {.busy = 0.3, .finish = 0.35, .balance = 0.03, .migration = 0.02};
  a.migrated = 2, a.bytes = 64, b.migrated = 1, b.bytes = 32, b.triggered = 1;
  StepRecord rec;
  recorder.close(rec, 0.05, 1.0);
  EXPECT_DOUBLE_EQ(rec.busy[0], 0.3);
  EXPECT_DOUBLE_EQ(rec.busy[1], 0.4);
  EXPECT_DOUBLE_EQ(rec.ideal, (0.3 * 1.0 + 0.4 * 0.5) / 1.5);  // nominal work over speeds
  // Per phase, the slowest processor's time with its phase-end decision and copies.
  const double phase0 = 0.2 + 0.01 + 0.02, phase1 = 0.35;
  EXPECT_DOUBLE_EQ(rec.makespan, phase0 + phase1 + 0.05);
  EXPECT_DOUBLE_EQ(rec.balance, 0.01 + 0.03);
  EXPECT_DOUBLE_EQ(rec.proc_balance[1], 0.01 + 0.03);
  EXPECT_DOUBLE_EQ(rec.proc_migration[0], 0.02);
  EXPECT_NEAR(rec.idle[0], phase0 + phase1 - (0.3 + 0.01 + 0.02), 1e-15);
  EXPECT_NEAR(rec.idle[1], phase0 + phase1 - (0.4 + 0.04 + 0.02), 1e-15);
  EXPECT_NEAR(rec.compute_wall, 0.8, 1e-12);
  EXPECT_DOUBLE_EQ(rec.serial, 0.05);
  EXPECT_DOUBLE_EQ(rec.wall, 1.0);
  EXPECT_EQ(rec.migrations, 3);
  EXPECT_EQ(rec.bytes_moved, 96);
  EXPECT_EQ(rec.triggered[1], 1);
  EXPECT_NEAR(step_imbalance(rec.busy), 0.4 / 0.35 - 1, 1e-12);
  EXPECT_DOUBLE_EQ(efficiency(rec.ideal, rec.makespan), rec.ideal / rec.makespan);
  EXPECT_EQ(efficiency(1.0, 0.0), 0.0);
}

// The deliberate change of the step engine: with emulated speeds the level executor's ideal time
// is the nominal work over the speeds, as the module executors' (it was sum busy / sum speeds).
TEST(StepRecorder, LevelExecutorScalesIdealBySpeedLikeTheOthers) {
  TreeSearch w(kernels::find_uts_sample_tree("small-t5")->params, 2, 0.3, 0, 0);
  const Topology topology(TopologyKind::kChain, 2);
  LevelPlan plan;
  plan.processors = 2;
  plan.topology = &topology;
  plan.speed = {1.0, 0.25};
  Capture sink;
  LevelExecutor().run(w, plan, sink);
  ASSERT_FALSE(sink.records.empty());
  for (const StepRecord& r : sink.records) {
    EXPECT_DOUBLE_EQ(r.ideal, (r.busy[0] * 1.0 + r.busy[1] * 0.25) / 1.25);
    EXPECT_LE(r.ideal, r.makespan);
  }
}

// A stretch that ran long (here: off the CPU, asleep) after a short one is counted by its wall
// time, an upper bound, unless the clock is exact: then the CPU clock was read around it too.
TEST(StretchClock, ALongStretchAfterAShortOneIsWalledUnlessExact) {
  StretchClock bounded, exact(true);
  exact.start();
  exact.stop();
  // A short stretch: the next one's CPU clock is read only by the exact clock. (Under a loaded
  // machine a stretch may be preempted and run long: then try again.)
  for (int i = 0; i < 1000; ++i) {
    const double w0 = wall_now();
    bounded.start();
    bounded.stop();
    if (wall_now() - w0 < StretchClock::kShortStretch) break;
  }
  bounded.start();
  exact.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(3));
  const double walled = bounded.stop(), cpu = exact.stop();
  EXPECT_GE(walled, 3e-3);
  EXPECT_EQ(bounded.walled(), 1);
  EXPECT_LT(cpu, 1e-3);  // asleep: no CPU time, whatever else runs on the machine
  EXPECT_EQ(exact.walled(), 0);
}

RunSpec spec_of(const std::string& workload, const std::string& schedule,
                const std::string& executor) {
  RunSpec s;
  s.workload = workload;
  s.balancer.schedule_name = schedule;
  s.balancer.label = schedule.empty() ? "block" : schedule;
  s.executor = executor;
  return s;
}

TEST(ExecutorRegistry, AutoKeepsTheExecutorEachWorkloadAndEntryRanUnderBefore) {
  const WorkloadInfo& modules = *find_workload_kind("block_substitution");
  const WorkloadInfo& levels = *find_workload_kind("tree_search");
  EXPECT_EQ(choose_executor(spec_of("block_substitution", "", "auto"), modules).name, "bsp");
  EXPECT_EQ(choose_executor(spec_of("block_substitution", "omp_dynamic", "auto"), modules).name,
            "self_scheduled");
  EXPECT_EQ(choose_executor(spec_of("tree_search", "", "auto"), levels).name, "level");
  EXPECT_EQ(choose_executor(spec_of("tree_search", "omp_tasks", "auto"), levels).name, "level");
}

TEST(ExecutorRegistry, ExpandingAConfigChoosesEachRunsExecutorOnce) {
  testing::TempDir dir;
  const Config c = load_config(
      dir.write("a.yaml",
                "workload: { kind: block_substitution, blocks: 8, width: 8, mean_lines: 2 }\n"
                "platform: { processors: 2 }\nexecution: { steps: 2 }\n"
                "balancers: [ { static: lpt }, { schedule: omp_dynamic } ]\n"));
  ASSERT_EQ(c.runs.size(), 2u);
  EXPECT_EQ(c.runs[0].executor, "bsp");
  EXPECT_EQ(c.runs[1].executor, "self_scheduled");
  // The resolved YAML says what the config asked (resume matches it), the spec what runs it.
  EXPECT_NE(c.runs[1].resolved_yaml.find("executor: auto"), std::string::npos);
  // Kept, not chosen again: a spec naming an executor gets that one (checked at expansion).
  EXPECT_EQ(executor_of(c.runs[1]).name, "self_scheduled");
  EXPECT_EQ(executor_of(spec_of("block_substitution", "omp_dynamic", "auto")).name,
            "self_scheduled");
  EXPECT_THROW(executor_of(spec_of("block_substitution", "", "nope")), std::invalid_argument);
}

TEST(ExecutorRegistry, ANamedExecutorMustRunTheEntry) {
  const WorkloadInfo& modules = *find_workload_kind("block_substitution");
  EXPECT_EQ(choose_executor(spec_of("block_substitution", "", "bsp"), modules).name, "bsp");
  EXPECT_THROW(choose_executor(spec_of("block_substitution", "omp_static", "bsp"), modules),
               std::invalid_argument);
  EXPECT_THROW(choose_executor(spec_of("block_substitution", "", "self_scheduled"), modules),
               std::invalid_argument);
  EXPECT_THROW(choose_executor(spec_of("block_substitution", "", "level"), modules),
               std::invalid_argument);
  EXPECT_THROW(choose_executor(spec_of("block_substitution", "", "nope"), modules),
               std::invalid_argument);
  for (const ExecutorInfo& info : executor_registry()) EXPECT_EQ(find_executor(info.name), &info);
}

TEST(ExecutorRegistry, ConfigKeyNamesAnExecutorAndRefusesOneThatCannotRunAnEntry) {
  testing::TempDir dir;
  const std::string head =
      "workload: { kind: block_substitution, blocks: 8, width: 8, mean_lines: 2 }\n"
      "platform: { processors: 2 }\n";
  Config c = load_config(dir.write("a.yaml", head + "execution: { steps: 2, executor: bsp }\n"
                                                    "balancers: [ { static: lpt } ]\n"));
  ASSERT_EQ(c.runs.size(), 1u);
  EXPECT_EQ(c.runs[0].executor, "bsp");
  EXPECT_NE(c.runs[0].resolved_yaml.find("executor: bsp"), std::string::npos);
  EXPECT_EQ(
      load_config(dir.write("b.yaml", head + "balancers: [ { static: lpt } ]\n")).runs[0].executor,
      "bsp");  // "auto" chosen once, as the config is expanded
  try {
    load_config(dir.write("c.yaml", head + "execution: { executor: bsp }\n"
                                           "balancers: [ { schedule: omp_static } ]\n"));
    FAIL() << "a schedule under the bsp executor was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(":4:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not the in-step schedule"), std::string::npos);
  }
  EXPECT_THROW(load_config(dir.write("d.yaml", head + "execution: { executor: warp }\n"
                                                      "balancers: [ { static: lpt } ]\n")),
               ConfigError);
}

}  // namespace
}  // namespace lbb
