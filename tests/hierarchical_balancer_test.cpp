// The hierarchical balancer (balancers/between_steps/hierarchical.h, Zheng, Bhatele, Meneses &
// Kale 2011) on hand cases: four modules of 3 on four processors in two groups of two.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "balancers/load_snapshot.h"

namespace lbb {
namespace {

Decision decide(std::vector<int> owner, const std::string& across, const std::string& within,
                std::vector<unsigned char> migratable = {}) {
  LoadSnapshot s;
  s.cost = {3, 3, 3, 3};
  s.bytes.assign(4, 8);
  s.speed = {1, 1, 1, 1};
  s.owner = std::move(owner);
  const Topology topology(TopologyKind::kChain, 4);
  Params p;
  p.set("group", std::int64_t{2});
  p.set("across", across);
  p.set("within", within);
  LoadView view = s.view(topology);
  view.migratable = migratable;
  return make_balancer("hierarchical", p)->decide(view);
}

int crossings(const Decision& d, const std::vector<int>& before) {
  int n = 0;
  for (std::size_t m = 0; m < before.size(); ++m) n += d.owner[m] / 2 != before[m] / 2;
  return n;
}

// Groups of 6 and 6 (balanced), each on one processor: every move stays in its group, and each
// processor ends with one module.
TEST(HierarchicalBalancer, BalancedGroupsKeepTheirModules) {
  const std::vector<int> before = {0, 0, 2, 2};
  for (const char* across : {"greedy", "refine"}) {
    const Decision d = decide(before, across, "greedy");
    ASSERT_TRUE(d.act) << across;
    EXPECT_EQ(crossings(d, before), 0) << across;
    EXPECT_DOUBLE_EQ(d.predicted_before, 6);
    EXPECT_DOUBLE_EQ(d.predicted_after, 3) << across;
  }
}

// Every module in group 0 (12 against 0): two cross to group 1, landing on its two processors,
// and group 0 spreads the two it keeps.
TEST(HierarchicalBalancer, UnbalancedGroupsMoveAcross) {
  const std::vector<int> before = {0, 0, 0, 0};
  for (const char* across : {"greedy", "refine"}) {
    const Decision d = decide(before, across, "greedy");
    ASSERT_TRUE(d.act) << across;
    EXPECT_EQ(crossings(d, before), 2) << across;
    EXPECT_DOUBLE_EQ(d.predicted_before, 12);
    EXPECT_DOUBLE_EQ(d.predicted_after, 3) << across;
  }
}

// Modules 0 and 1 may not move: they stay on processor 0, and greedy across still sends one of
// the others to group 1.
TEST(HierarchicalBalancer, AModuleThatMayNotMoveStays) {
  const Decision d = decide({0, 0, 0, 0}, "greedy", "greedy", {0, 0, 1, 1});
  ASSERT_TRUE(d.act);
  EXPECT_EQ(d.owner[0], 0);
  EXPECT_EQ(d.owner[1], 0);
  EXPECT_EQ(crossings(d, {0, 0, 0, 0}), 1);
}

// Balanced everywhere: nothing moves.
TEST(HierarchicalBalancer, ABalancedAssignmentStays) {
  EXPECT_FALSE(decide({0, 1, 2, 3}, "refine", "greedy").act);
}

}  // namespace
}  // namespace lbb
