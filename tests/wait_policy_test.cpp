// OMP_WAIT_POLICY for the suite's own waits: read as libgomp reads it, and a passive policy
// leaves the team's barrier and the sleep word nothing to spin or yield.
#include "harness/exec/wait_policy.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdlib>
#include <vector>

#include "harness/exec/team.h"

namespace lbb {
namespace {

TEST(WaitPolicy, PassiveIsReadAsLibgompReadsIt) {
  for (const char* text : {"passive", "PASSIVE", "Passive", " passive", "passive\t\n", " PaSsIvE "})
    EXPECT_EQ(parse_wait_policy(text), WaitPolicy::kPassive) << '"' << text << '"';
  for (const char* text : {"active", "ACTIVE", "", " ", "passiv", "passive1", "pass ive", "no"})
    EXPECT_EQ(parse_wait_policy(text), WaitPolicy::kSpinThenSleep) << '"' << text << '"';
  EXPECT_EQ(parse_wait_policy(nullptr), WaitPolicy::kSpinThenSleep);
}

TEST(WaitPolicy, PassiveBarriersAndSleepWordsNeitherSpinNorYield) {
  EXPECT_EQ(GroupBarrier::spin_for(WaitPolicy::kPassive, false), 0);
  EXPECT_EQ(GroupBarrier::spin_for(WaitPolicy::kPassive, true), 0);
  EXPECT_EQ(SleepWord::yields_for(WaitPolicy::kPassive), 0);
  // The default stays as measured: a spin only where every thread has a core, two yields.
  EXPECT_EQ(GroupBarrier::spin_for(WaitPolicy::kSpinThenSleep, false),
            GroupBarrier::kSpinOnOwnCores);
  EXPECT_EQ(GroupBarrier::spin_for(WaitPolicy::kSpinThenSleep, true), 0);
  EXPECT_EQ(SleepWord::yields_for(WaitPolicy::kSpinThenSleep), 2);
}

// The tests run with OMP_WAIT_POLICY=passive (tests/CMakeLists.txt): a team whose threads each
// have a core must still not spin, and the barrier its steps end in still synchronises.
TEST(WaitPolicy, ATeamUnderThisProcessesPolicy) {
  const WaitPolicy policy = parse_wait_policy(std::getenv("OMP_WAIT_POLICY"));
  ASSERT_EQ(wait_policy(), policy);
  const std::vector<double> speed(1, 1.0);
  const PlatformEmulation none(speed, ExternalLoad{}, 0);
  Team one(1, none);  // one thread always has a core
  EXPECT_EQ(one.barrier_spin(), GroupBarrier::spin_for(policy, false));
  if (policy == WaitPolicy::kPassive) {
    EXPECT_EQ(one.barrier_spin(), 0);
  }
  EXPECT_EQ(SleepWord().yields(), SleepWord::yields_for(policy));

  const int P = 4;
  Team team(P, PlatformEmulation(std::vector<double>(P, 1.0), ExternalLoad{}, 0));
  std::vector<int> rounds(P, 0);
  int total = 0;
  team.run([&](int p) {
    for (int r = 0; r < 50; ++r) {
      ++rounds[p];
      team.serial_barrier([&] {
        for (int q = 0; q < P; ++q) EXPECT_EQ(rounds[q], r + 1);
        ++total;
      });
    }
  });
  EXPECT_EQ(total, 50);
}

}  // namespace
}  // namespace lbb
