// The modelled replay of in-step runs (harness/run/modelled_replay.h): the OpenMP schedules'
// model against hand-computed finishes, a fastest-finish scheme's replay ordered against no
// balancing, the stored set giving back the live run's value, and the table ranking and marking
// the replayed rows.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "executor_test_support.h"
#include "harness/analysis/comparison_table.h"
#include "harness/analysis/replay.h"
#include "harness/analysis/result_set.h"
#include "harness/config/config_loader.h"
#include "harness/formats/trace_workload.h"
#include "harness/results/result_reader.h"
#include "harness/run/modelled_replay.h"
#include "harness/run/provenance.h"
#include "harness/run/runner.h"
#include "harness/sim/schedule_model.h"
#include "test_support.h"

namespace lbb {
namespace {

ScheduleChoice omp(const std::string& name, int chunk = 1) {
  ScheduleChoice s;
  s.kind = find_schedule(name)->kind;
  s.chunk = chunk;
  return s;
}

// Costs 4, 1, 1, 1, 1 on two processors. dynamic, 1: P0 runs the 4 while P1 runs the four 1s
// (4). dynamic, 2: P0 {4, 1} = 5, P1 {1, 1} then {1} = 3 (5). static: {4, 1, 1} = 6 and
// {1, 1}. guided, 1: P0 takes ceil(5 / 2) = 3 modules (6), P1 one at a time. P0 twice as fast,
// dynamic, 1: P0 2, P1 1, P1 2, P0 (tie, lower id) 2.5, P1 3.
TEST(OmpScheduleModel, FinishesAsComputedByHand) {
  const std::vector<double> cost = {4, 1, 1, 1, 1}, equal = {1, 1}, fast = {2, 1};
  EXPECT_DOUBLE_EQ(modelled_phase_finish(omp("omp_dynamic"), cost, equal), 4.0);
  EXPECT_DOUBLE_EQ(modelled_phase_finish(omp("omp_dynamic", 2), cost, equal), 5.0);
  EXPECT_DOUBLE_EQ(modelled_phase_finish(omp("omp_static"), cost, equal), 6.0);
  EXPECT_DOUBLE_EQ(modelled_phase_finish(omp("omp_guided"), cost, equal), 6.0);
  EXPECT_DOUBLE_EQ(modelled_phase_finish(omp("omp_tasks"), cost, equal), 4.0);
  EXPECT_DOUBLE_EQ(modelled_phase_finish(omp("omp_dynamic"), cost, fast), 3.0);
  EXPECT_FALSE(schedule_model_problem(InStepSchedule::kOmpRuntime).empty());
  EXPECT_THROW(modelled_phase_finish(omp("omp_runtime"), cost, equal), std::invalid_argument);
}

RunSpec spec_of(const std::string& entry, int processors, const std::string& speeds = "") {
  const std::string yaml =
      "name: t\nworkload: { kind: block_substitution, blocks: 8, width: 4, mean_lines: 2 }\n"
      "platform: { processors: " +
      std::to_string(processors) + (speeds.empty() ? "" : ", speeds: " + speeds) +
      " }\nexecution: { steps: 3 }\nbalancers: [ { " + entry + " } ]\n";
  return load_config_text(yaml, "t.yaml").runs.front();
}

// Three steps of 8 modules in blocks of 4 on 2 processors: the first block costs 1 a module,
// the second 0.25.
std::vector<StepRecord> skewed_steps() {
  std::vector<StepRecord> steps(3);
  for (int s = 0; s < 3; ++s) {
    StepRecord& r = steps[s];
    r.step = s;
    r.busy = {4, 1};
    r.serial = 0.5;
    for (int m = 0; m < 8; ++m) {
      r.module_cost.push_back(m < 4 ? 1.0 : 0.25);
      r.module_owner.push_back(m < 4 ? 0 : 1);
    }
  }
  return steps;
}

ModelledReplay replayed(const RunSpec& spec, const std::vector<StepRecord>& steps) {
  testing::CollectSteps next;
  ReplayCapture capture(next, spec, 8, 1);
  for (const StepRecord& r : steps) capture.on_step(r);
  EXPECT_EQ(next.records.size(), steps.size());  // passed on
  return replay_in_model(spec, *find_workload_kind(spec.workload), capture);
}

// The OpenMP model per step, plus the serial part: dynamic, 1 on two processors of the skewed
// costs ends at 2.5 (each runs two 1s, then two 0.25s), the static blocks at 4.
TEST(ModelledReplay, ScheduleReplayIsThePhaseModelPlusSerial) {
  EXPECT_DOUBLE_EQ(replayed(spec_of("schedule: omp_dynamic, chunk: 1", 2), skewed_steps()).makespan,
                   3 * (2.5 + 0.5));
  EXPECT_DOUBLE_EQ(replayed(spec_of("schedule: omp_static", 2), skewed_steps()).makespan,
                   3 * (4 + 0.5));
  // The simulator's self-scheduling (ss) is omp_dynamic, 1 by another path: the same value.
  EXPECT_DOUBLE_EQ(replayed(spec_of("schedule: ss", 2), skewed_steps()).makespan, 3 * (2.5 + 0.5));
  const ModelledReplay runtime = replayed(spec_of("schedule: omp_runtime", 2), skewed_steps());
  EXPECT_TRUE(std::isnan(runtime.makespan));
  EXPECT_NE(runtime.problem.find("OMP_SCHEDULE"), std::string::npos) << runtime.problem;
}

// gcdlb (Zaki, Li & Parthasarathy 1997) moves work off the loaded processor at its first
// synchronisation: replayed, it beats no balancing, which keeps P0's 4 s a step exactly.
TEST(ModelledReplay, FastestFinishReplayOrdersAgainstNoBalancing) {
  const ModelledReplay none = replayed(spec_of("dynamic: none", 2), skewed_steps());
  const ModelledReplay gcdlb = replayed(spec_of("dynamic: gcdlb", 2), skewed_steps());
  EXPECT_NEAR(none.makespan, 3 * (4 + 0.5), 1e-3) << none.problem;  // + its measured decisions
  ASSERT_TRUE(std::isfinite(gcdlb.makespan)) << gcdlb.problem;
  EXPECT_LT(gcdlb.makespan, 0.9 * none.makespan);
}

// P1's costs, measured at speed 0.5, are 0.125 nominal each (a replay that forgot the speed
// would see 0.25). One at a time: P0 runs modules 0, 2, 3 (3 s) while P1 runs module 1 (2 s) and
// then 4-7 at 0.25 s each (3 s), by the simulator (ss) as by the OpenMP model; awf_b (Carino &
// Banicescu 2008) is no faster than the ideal 4.5 / 1.5.
TEST(ModelledReplay, UnequalSpeedsEnterTheReplay) {
  const ModelledReplay ss = replayed(spec_of("schedule: ss", 2, "[1, 0.5]"), skewed_steps());
  const ModelledReplay dynamic =
      replayed(spec_of("schedule: omp_dynamic", 2, "[1, 0.5]"), skewed_steps());
  const ModelledReplay awf = replayed(spec_of("schedule: awf_b", 2, "[1, 0.5]"), skewed_steps());
  EXPECT_DOUBLE_EQ(ss.makespan, 3 * (3 + 0.5)) << ss.problem;
  EXPECT_DOUBLE_EQ(dynamic.makespan, 3 * (3 + 0.5));
  ASSERT_TRUE(std::isfinite(awf.makespan)) << awf.problem;
  EXPECT_GE(awf.makespan, 3 * (4.5 / 1.5 + 0.5) - 1e-12);
}

// A capture of records without module costs leaves the replay undone, not the run.
TEST(ModelledReplay, RecordsWithoutCostsAreRefusedQuietly) {
  std::vector<StepRecord> steps = skewed_steps();
  steps[1].module_cost.clear();
  const ModelledReplay r = replayed(spec_of("dynamic: gcdlb", 2), steps);
  EXPECT_TRUE(std::isnan(r.makespan));
  EXPECT_FALSE(r.problem.empty());
}

// Real threads: the runner replays omp_dynamic and gcdlb (not none), without archiving module
// detail, and a stored set read back gives the very values the live outcomes hold.
TEST(ModelledReplay, StoredSetGivesTheLiveValue) {
  testing::TempDir dir;
  const std::string path = dir.file("set");
  const Config config = load_config_text(
      "name: t\nworkload: { kind: block_substitution, blocks: 12, width: 8, mean_lines: 3, "
      "seed: 2 }\nplatform: { processors: 3, topology: chain }\nexecution: { steps: 3 }\n"
      "balancers: [ { dynamic: none }, { dynamic: gcdlb }, { schedule: omp_dynamic, chunk: 1 } "
      "]\n",
      "t.yaml");
  const Provenance prov = gather_provenance();
  std::vector<RunOutcome> outcomes;
  {
    ResultWriter archive(path, {});
    for (const RunSpec& spec : config.runs) {
      outcomes.push_back(execute_run(spec, 0, &archive, prov));
      ASSERT_TRUE(outcomes.back().ok()) << outcomes.back().error;
    }
  }
  const ResultReader set(path);
  const std::vector<ConfigResult> live = results_from_outcomes(outcomes, prov, 0.0);
  const std::vector<ConfigResult> stored = results_from_set(set, {});
  ASSERT_EQ(live.size(), 3u);
  ASSERT_EQ(stored.size(), 3u);
  EXPECT_TRUE(std::isnan(live[0].reps[0].replayed_makespan));
  EXPECT_TRUE(std::isnan(stored[0].reps[0].replayed_makespan));
  for (int k : {1, 2}) {
    const double value = live[k].reps[0].replayed_makespan;
    EXPECT_TRUE(std::isfinite(value) && value > 0) << live[k].label;
    EXPECT_EQ(stored[k].label, live[k].label);
    EXPECT_EQ(stored[k].reps[0].replayed_makespan, value) << live[k].label;
  }
  for (const RunRecord& run : set.runs()) {  // module detail was not asked for: none archived
    std::size_t rows = 0, cols = 0;
    try {
      set.read_matrix(run.run, "module/cost", rows, cols);
    } catch (const std::exception&) {
    }
    EXPECT_EQ(rows, 0u) << run.run;
  }
}

// The live replay of a fastest-finish run is `simulate --replay`'s of its archive: the same
// simulator on the same costs, from the same owners after a warm-up step; decisions modelled
// (free), so both are exact.
TEST(ModelledReplay, LiveReplayIsTheArchivedReplay) {
  testing::TempDir dir;
  const std::string path = dir.file("set");
  const Config config = load_config_text(
      "name: t\nworkload: { kind: block_substitution, blocks: 16, width: 16, mean_lines: 6, "
      "sd: 2, seed: 3 }\nplatform: { processors: 4, topology: chain }\nexecution: { steps: 4, "
      "warmup: 1, record: modules, sim_decision: modelled }\nbalancers: [ { dynamic: gcdlb "
      "} ]\n",
      "t.yaml");
  RunOutcome live;
  {
    ResultWriter archive(path, {});
    live = execute_run(config.runs.front(), 0, &archive, gather_provenance());
    ASSERT_TRUE(live.ok()) << live.error;
  }
  const ResultReader set(path);
  SimSettings settings;
  settings.measured_decisions = false;
  const ReplayedRun archived = replay_run(set, set.runs().front(), settings);
  ASSERT_TRUE(archived.skipped.empty()) << archived.skipped;
  EXPECT_NEAR(live.summary.replayed_makespan, archived.predicted, 1e-12 * archived.predicted);
}

ConfigResult row(const std::string& label, double makespan, double replayed) {
  ConfigResult c;
  c.workload = "block_substitution";
  c.label = label;
  c.processors = 8;
  c.available = 2;
  c.load_average = 1.5;
  if (label.starts_with("omp_")) c.schedule_name = label;
  if (label == "gcdlb" || label == "none") c.dynamic_name = label;
  for (int i = 0; i < 7; ++i) {
    Repetition r;
    r.makespan = makespan * (1 + 0.01 * i);
    r.wall = 5;
    r.replayed_makespan = replayed * (1 + 0.01 * i);
    r.verified = true;
    c.reps.push_back(r);
  }
  return c;
}

// On an oversubscribed host the replayed rows rank by their replay (omp_dynamic's recorded
// makespan of 3 would make it the slowest), marked as such; a row missing a replay in one
// repetition stays unranked.
TEST(ModelledReplay, TableRanksAndMarksReplayedRows) {
  const double nan = std::nan("");
  std::vector<ConfigResult> configs = {row("none", 2, nan), row("block", 1, nan),
                                       row("omp_dynamic", 3, 0.5), row("gcdlb", 0.2, 1.5)};
  const Comparison c = compare_configs(configs);
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_FALSE(c.rows[1].modelled_by_replay);
  EXPECT_TRUE(c.rows[2].eligible && c.rows[2].modelled_by_replay);
  EXPECT_EQ(c.rows[2].verdict, stats::Verdict::kWinner);  // 0.5 beats block's 1
  EXPECT_NEAR(c.rows[2].makespan.median, 0.5 * 1.03, 1e-12);
  EXPECT_TRUE(c.rows[3].eligible);
  EXPECT_EQ(c.rows[3].verdict, stats::Verdict::kSlower);  // 1.5, not 0.2
  std::ostringstream text;
  print_comparison(text, c, OutputFormat::kTable);
  EXPECT_NE(text.str().find("replay = modelled"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find(" replay "), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("- = not ranked"), std::string::npos) << text.str();
  std::ostringstream wide;
  print_comparison(wide, c, OutputFormat::kTable, true);
  EXPECT_NE(wide.str().find("*omp_dynamic (replay)"), std::string::npos) << wide.str();
  EXPECT_EQ(wide.str().find("block (replay)"), std::string::npos) << wide.str();
  configs[3].reps[4].replayed_makespan = nan;
  const Comparison partly = compare_configs(configs);
  EXPECT_FALSE(partly.rows[3].eligible);
  EXPECT_FALSE(partly.rows[3].modelled_by_replay);
}

}  // namespace
}  // namespace lbb
