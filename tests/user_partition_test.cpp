// `static: plugin` and `static: python` (balancers/partition/plugin_partition.h): the example
// plugin and script give the built-in `lpt` partition on every view of
// predicted weights; an answer that keeps the assignment keeps a block one; and the names find
// the partitioner under static: and the between-step balancer under dynamic:.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "balancers/balancer.h"
#include "balancers/partition/block.h"
#include "balancers/partition/lpt.h"
#include "tests/plugin_views.h"

namespace lbb {
namespace {

using testing::random_loads;

// `count` views of predicted weights (no owners, step -1) on which `made` and lpt agree.
int agreeing_with_lpt(Balancer& made, int count) {
  std::mt19937_64 rng(53);
  LptPartition lpt;
  int equal = 0;
  for (int i = 0; i < count; ++i) {
    const int processors = 1 + static_cast<int>(rng() % 40);
    LoadSnapshot s = random_loads(rng, processors, processors * (1 + rng() % 6));
    s.owner.clear();
    s.step = -1;
    const Topology topology(TopologyKind::kComplete, processors);
    const Decision want = lpt.decide(s.view(topology)), got = made.decide(s.view(topology));
    equal += got.act && got.owner == want.owner;
  }
  return equal;
}

Params given(std::initializer_list<std::pair<const char*, std::string>> pairs) {
  Params p;
  for (const auto& [k, v] : pairs) p.set(k, v);
  return p;
}

TEST(UserPartition, ExampleScriptGivesLptsPartition) {
  auto made = make_balancer("python", BalancerKind::kStatic,
                            given({{"script", testing::source_path("examples/balancers/greedy.py")},
                                   {"function", "balance"}}));
  EXPECT_EQ(agreeing_with_lpt(*made, 300), 300);
}

TEST(UserPartition, ExamplePluginGivesLptsPartition) {
  const std::string path = testing::plugin_path("greedy_plugin");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not built";
  auto made = make_balancer("plugin", BalancerKind::kStatic, given({{"library", path}}));
  EXPECT_EQ(agreeing_with_lpt(*made, 300), 300);
}

TEST(UserPartition, KeepingTheAssignmentKeepsABlock) {
  auto made = make_balancer("python", BalancerKind::kStatic,
                            given({{"script", testing::source_path("tests/plugins/hostile.py")},
                                   {"function", "raising"}}));  // None at step -1
  std::mt19937_64 rng(3);
  LoadSnapshot s = random_loads(rng, 5, 23);
  s.owner.clear();
  s.step = -1;
  const Topology topology(TopologyKind::kChain, 5);
  const Decision d = made->decide(s.view(topology));
  EXPECT_TRUE(d.act);
  EXPECT_EQ(d.owner, block_owners(23, 5));
}

TEST(UserPartition, NamesFindTheirKind) {
  for (const char* name : {"plugin", "python"}) {
    ASSERT_NE(find_balancer(name, BalancerKind::kStatic), nullptr) << name;
    EXPECT_EQ(find_balancer(name, BalancerKind::kStatic)->role, BalancerRole::kPartition);
    EXPECT_EQ(find_balancer(name, BalancerKind::kDynamic)->role, BalancerRole::kBetweenSteps);
    EXPECT_EQ(find_balancer(name)->role, BalancerRole::kBetweenSteps);
  }
  EXPECT_EQ(find_balancer("lpt", BalancerKind::kDynamic), nullptr);
}

}  // namespace
}  // namespace lbb
