// Auto4OMP's selection strategies (Mohammed & Ciorba 2022) on loop times given by hand, and
// auto4omp's choice recorded per step and judged by its regret against the fixed schedules.
#include <gtest/gtest.h>

#include <vector>

#include "balancers/in_step/schedule_selection.h"
#include "config_test_support.h"
#include "executor_test_support.h"
#include "harness/config/config_loader.h"
#include "harness/run/executor_registry.h"

namespace lbb::selection_test {
namespace {

// The candidates' loop times, fixed: the choice each strategy makes, loop by loop.
std::vector<int> choices(SelectionStrategy s, const std::vector<double>& time, int loops,
                         const std::vector<double>& imbalance = {}) {
  ScheduleSelection sel(static_cast<int>(time.size()), {s, 0.1, 0.1, 0.02});
  std::vector<int> out;
  for (int i = 0; i < loops; ++i) {
    out.push_back(sel.current());
    sel.observe(time[sel.current()], imbalance.empty() ? 0.05 : imbalance[sel.current()]);
  }
  return out;
}

TEST(ScheduleSelection, ExhaustiveTriesEachThenKeepsTheFastest) {
  EXPECT_EQ(choices(SelectionStrategy::kExhaustive, {5, 3, 4, 6}, 7),
            (std::vector<int>{0, 1, 2, 3, 1, 1, 1}));
}

// Times 9 7 5 4 6 8 over the chunk-size order: 2 (5) against 3 (4): right, [3, 5]; 4 (6)
// against 5 (8): left, [3, 4]; 3 against 4, both known: keep 3. Four loops tried of six.
TEST(ScheduleSelection, BinarySearchesTheChunkSizeOrder) {
  EXPECT_EQ(choices(SelectionStrategy::kBinary, {9, 7, 5, 4, 6, 8}, 7),
            (std::vector<int>{2, 3, 4, 5, 3, 3, 3}));
}

// Expert starts in the middle (2 of 5); imbalance 0.3 there and at 3 moves it to smaller
// chunks, 0.05 at 4 keeps it.
TEST(ScheduleSelection, ExpertMovesWithTheImbalance) {
  EXPECT_EQ(choices(SelectionStrategy::kExpert, {1, 1, 1, 1, 1}, 5, {0, 0, 0.3, 0.3, 0.05}),
            (std::vector<int>{2, 3, 4, 4, 4}));
  // Low imbalance moves to larger chunks; a step after which the loop ran slower is undone
  // and held: 2 -> 1 (time 2 after 1) -> back to 2, then it stays.
  EXPECT_EQ(choices(SelectionStrategy::kExpert, {5, 2, 1, 1, 1}, 5, {0, 0, 0, 0, 0}),
            (std::vector<int>{2, 1, 2, 2, 2}));
}

TEST(ScheduleSelection, AKeptChoiceThatSlowsDownIsSearchedAgain) {
  ScheduleSelection sel(2, {SelectionStrategy::kExhaustive, 0.1, 0.1, 0.02});
  sel.observe(2, 0), sel.observe(1, 0);
  EXPECT_EQ(sel.current(), 1);
  EXPECT_FALSE(sel.searching());
  sel.observe(1.05, 0);  // within 10 %: kept
  EXPECT_FALSE(sel.searching());
  sel.observe(1.5, 0);
  EXPECT_TRUE(sel.searching());
  EXPECT_EQ(sel.current(), 0);
}

std::vector<StepRecord> simulate(const std::string& balancer) {
  return testing::first_run_steps(
      "name: t\nworkload: { kind: synthetic, modules: 400, mean: 1, sd: 0 }\nplatform: { "
      "processors: 4, speeds: [1, 1, 1, 0.5] }\nexecution: { executor: simulate, steps: 6, "
      "sim_latency: 0.5 }\nbalancers: [ " +
      balancer + " ]\n");
}

// Exhaustive over three candidates: the first three steps run them in chunk-size order (tss's
// fewest chunks first, ss's most last), later steps the fastest of them, recorded per step as
// its place in `candidates` (the last metric).
TEST(ScheduleSelection, Auto4ompRecordsItsChoicePerStep) {
  const auto records = simulate("{ schedule: auto4omp, candidates: 'ss,fac2,tss' }");
  ASSERT_EQ(records.size(), 6u);
  std::vector<int> chosen;
  for (const StepRecord& r : records) chosen.push_back(static_cast<int>(r.metrics.back()));
  EXPECT_EQ(std::vector<int>(chosen.begin(), chosen.begin() + 3), (std::vector<int>{2, 1, 0}));
  double best = 1e300;
  int fastest = -1;
  for (int i = 0; i < 3; ++i)
    if (records[i].makespan < best) best = records[i].makespan, fastest = chosen[i];
  for (int i = 3; i < 6; ++i) EXPECT_EQ(chosen[i], fastest);
  // Each candidate's loop is the fixed schedule's: fac2's step equals a fac2 run's.
  EXPECT_DOUBLE_EQ(records[1].makespan, simulate("{ schedule: fac2 }").front().makespan);
}

TEST(ScheduleSelection, UnknownCandidatesAreRefusedWhereTheyStand) {
  const std::string head =
      "workload: { kind: synthetic, modules: 10 }\nplatform: { processors: 2 }\n"
      "execution: { executor: simulate }\n";
  EXPECT_NE(testing::config_error_of(head + "balancers:\n  - { schedule: auto4omp, candidates: "
                                            "'fac2,nope' }\n")
                .find("unknown candidate 'nope'"),
            std::string::npos);
  EXPECT_NE(
      testing::config_error_of(head + "balancers:\n  - { schedule: auto4omp, select: some }\n")
          .find("select"),
      std::string::npos);
}

}  // namespace
}  // namespace lbb::selection_test
