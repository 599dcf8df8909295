// `run --costs` (harness/run/run_costs.h): the printed split, and its note where the kernels'
// clocks account for more than the runs' CPU.
#include "harness/run/run_costs.h"

#include <gtest/gtest.h>

#include <sstream>

namespace lbb {
namespace {

std::string printed(const RunCosts& c) {
  std::ostringstream out;
  print_costs(out, c, 10.0, 1.0);
  return out.str();
}

TEST(RunCosts, TheHarnessIsTheRunLessItsAccountedParts) {
  RunCosts c;
  c.run = 8.0;
  c.modules = 6.0;
  c.serial = 0.5;
  c.balancing = 0.5;
  c.record = 0.25;
  c.reference = 0.5;
  EXPECT_DOUBLE_EQ(c.accounted(), 7.25);
  EXPECT_DOUBLE_EQ(c.harness(), 0.75);
  EXPECT_DOUBLE_EQ(c.overhead(), 0.5 + 0.25 + 0.75);
  const std::string text = printed(c);
  EXPECT_NE(text.find("harness in the runs, waits incl.             0.750 s"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("note:"), std::string::npos) << text;
}

// Wall-timed stretches preempted on a loaded host: the kernels' lines pass the runs' CPU, the
// harness line is 0, and the split says so rather than sum past the total silently.
TEST(RunCosts, KernelClocksPastTheRunsCpuAreNoted) {
  RunCosts c;
  c.run = 1.0;
  c.modules = 1.25;
  EXPECT_DOUBLE_EQ(c.harness(), 0.0);
  const std::string text = printed(c);
  EXPECT_NE(text.find("note: the kernels' clocks exceed the runs' CPU by 0.250 s"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace lbb
