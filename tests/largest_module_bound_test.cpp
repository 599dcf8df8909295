// The largest-module bound (harness/run/run_summary.h) on hand-computed steps, and which lower
// bound a comparison row says binds (issue 37: a strategy cannot beat its largest module).
#include <gtest/gtest.h>

#include "harness/analysis/comparison_table.h"
#include "harness/run/run_summary.h"

namespace lbb {
namespace {

TEST(LargestModuleBound, IsTheLargestNominalCostOverTheFastestSpeed) {
  StepRecord r;
  r.module_cost = {2.0, 1.0, 0.5};  // module 0 ran on the half-speed processor 1: 1.0 at speed 1
  r.module_owner = {1, 0, 0};
  r.external_load = {0, 0};
  EXPECT_DOUBLE_EQ(largest_module_bound(r, std::vector<double>{1.0, 0.5}), 1.0);
  // At speeds 0.5 and 0.25 the fastest is 0.5: the same nominal module takes twice as long.
  r.module_cost = {4.0, 2.0, 1.0};
  EXPECT_DOUBLE_EQ(largest_module_bound(r, std::vector<double>{0.5, 0.25}), 2.0);
}

TEST(LargestModuleBound, LeavesOutTheOwnersExternalLoad) {
  StepRecord r;
  r.module_cost = {3.0, 1.0};  // module 0 ran under load level 2: 1.0 of its own work
  r.module_owner = {0, 1};
  r.external_load = {2.0, 0.0};
  EXPECT_DOUBLE_EQ(largest_module_bound(r, {}), 1.0);
}

TEST(LargestModuleBound, SumsThePhasesLargest) {
  StepRecord r;
  r.module_cost = {4.0, 5.0};  // two modules, summed over the two phases
  r.module_owner = {0, 1};
  r.phase_module_cost = {3.0, 1.0, 1.0, 4.0};  // phase 0: 3 and 1; phase 1: 1 and 4
  r.phase_module_owner = {0, 1, 1, 0};
  EXPECT_DOUBLE_EQ(largest_module_bound(r, std::vector<double>{1.0, 1.0}), 7.0);
}

TEST(LargestModuleBound, IsZeroWithoutModuleCosts) {
  StepRecord r;
  EXPECT_EQ(largest_module_bound(r, {}), 0.0);
  r.module_cost = {1.0};  // owners missing: nothing to say
  EXPECT_EQ(largest_module_bound(r, {}), 0.0);
}

TEST(LargestModuleBound, TheRowSaysWhichBoundBinds) {
  ComparisonRow row;
  row.ideal = 2.0;
  row.largest_module = 1.0;
  EXPECT_STREQ(row.binds(), "ideal");
  row.largest_module = 3.0;
  EXPECT_STREQ(row.binds(), "module");
}

}  // namespace
}  // namespace lbb
