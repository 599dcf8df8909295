// `dynamic: plugin` (balancers/between_steps/plugin.h): the example C plugin gives the built-in
// greedy's owners on every view, and the hostile plugins (tests/plugins/hostile_plugin.c) are
// refused, each with the plugin, the step and the problem in the message, before anything moves.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "balancers/between_steps/greedy.h"
#include "balancers/between_steps/plugin.h"
#include "balancers/load_snapshot.h"
#include "core/assignment.h"
#include "tests/plugin_views.h"

namespace lbb {
namespace {

using testing::plugin_path;
using testing::random_loads;

// Skips the test where the plugin libraries were not built (a build of lbbench alone).
#define REQUIRE_PLUGIN(name)                       \
  if (!std::filesystem::exists(plugin_path(name))) \
  GTEST_SKIP() << plugin_path(name) << " not built (cmake --build build --target " << (name) << ")"

Owners after(const Decision& d, const LoadSnapshot& s) {
  return testing::owners_after(d, s);
}

TEST(PluginBalancer, GreedyPluginGivesGreedysOwnersOnEveryView) {
  REQUIRE_PLUGIN("greedy_plugin");
  std::mt19937_64 rng(51);
  int views = 0, equal = 0, moved = 0;
  for (double gain : {0.0, 0.05, 0.3}) {
    PluginBalancer plugin(plugin_path("greedy_plugin"), "", "", gain);
    GreedyBalancer builtin(gain);
    for (int i = 0; i < 300; ++i) {
      const int processors = 1 + static_cast<int>(rng() % 40);
      const LoadSnapshot s = random_loads(rng, processors, processors * (1 + rng() % 6));
      const Topology topology(TopologyKind::kComplete, processors);
      const Decision want = builtin.decide(s.view(topology));
      const Decision got = plugin.decide(s.view(topology));
      ++views;
      equal += after(got, s) == after(want, s);
      moved += want.act;
    }
  }
  EXPECT_EQ(equal, views) << "the plugin's owners differ from greedy's on " << views - equal
                          << " of " << views << " views";
  EXPECT_GT(moved, views / 4);  // the comparison covers decisions that move
}

// The run-time refusals: what the plugin returned, named with the plugin and the step.
TEST(PluginBalancer, HostileDecisionsAreRefusedNamingPluginStepAndProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"wrong_length", "wrote past the 12 owners"},
      {"out_of_range", "module 0: owner 4 is not a processor (0..3)"},
      {"error_code", "returned error code -7: refusing on purpose"},
      {"unknown_code", "returned 5, neither LBB_PLUGIN_MOVE"},
      {"garbage", "module 0: owner -2147483648 is not a processor"}};
  for (const auto& [name, problem] : cases) {
    REQUIRE_PLUGIN("hostile_" + std::string(name));
    PluginBalancer plugin(plugin_path("hostile_" + std::string(name)), "");
    std::mt19937_64 rng(1);
    LoadSnapshot s = random_loads(rng, 4, 12);
    const Topology topology(TopologyKind::kChain, 4);
    s.step = 0;
    EXPECT_FALSE(plugin.decide(s.view(topology)).act) << name;  // behaves at the first step
    s.step = 2;
    try {
      plugin.decide(s.view(topology));
      ADD_FAILURE() << name << " was not refused";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("plugin hostile (" + plugin_path("hostile_" + std::string(name)) +
                          "), step 2, phase 0: "),
                std::string::npos)
          << what;
      EXPECT_NE(what.find(problem), std::string::npos) << what;
    }
  }
}

TEST(PluginBalancer, ModulesThatMayNotMoveAreKept) {
  REQUIRE_PLUGIN("greedy_plugin");
  PluginBalancer plugin(plugin_path("greedy_plugin"), "", "", 0);
  LoadSnapshot s;
  s.cost = {4, 4, 4, 4};
  s.bytes.assign(4, 8);
  s.speed = {1, 1};
  s.owner = {0, 0, 0, 0};
  const Topology topology(TopologyKind::kChain, 2);
  LoadView v = s.view(topology);
  EXPECT_TRUE(plugin.decide(v).act);  // greedy moves two of them
  const std::vector<unsigned char> pinned = {0, 0, 0, 0};
  v.migratable = pinned;
  try {
    plugin.decide(v);
    ADD_FAILURE() << "a pinned module moved";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("may not move (migratable: false)"), std::string::npos)
        << e.what();
  }
}

// What `lbbench validate` reports at the config's `library:` or `params:` key (ParamError).
TEST(PluginBalancer, LibrariesThatDoNotLoadAreRefusedWithTheirReason) {
  REQUIRE_PLUGIN("hostile_wrong_version");
  const std::pair<std::string, std::string> cases[] = {
      {plugin_path("absent"), "no such file"},
      {plugin_path("hostile_no_symbol"), "has no symbol lbb_balancer_plugin"},
      {plugin_path("hostile_wrong_version"),
       "built against balancer_plugin.h version 3, but this lbbench has version 2"},
      {plugin_path("hostile_bad_decides_on"),
       "its decides_on is 7, neither LBB_PLUGIN_ON_ONE_RANK (0) nor LBB_PLUGIN_ON_EVERY_RANK (1)"},
      {std::string(std::getenv("LBB_SOURCE_DIR") ? std::getenv("LBB_SOURCE_DIR") : ".") +
           "/README.md",
       "does not load"}};
  for (const auto& [path, why] : cases) {
    try {
      PluginBalancer plugin(path, "");
      ADD_FAILURE() << path << " loaded";
    } catch (const ParamError& e) {
      EXPECT_EQ(e.param(), "library") << path;
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  }
  try {
    PluginBalancer plugin(plugin_path("hostile_bad_init"), "");
    ADD_FAILURE() << "bad init accepted";
  } catch (const ParamError& e) {
    EXPECT_EQ(e.param(), "params");
    EXPECT_NE(std::string(e.what()).find("refused its params: init refuses"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(PluginBalancer(plugin_path("greedy_plugin"), "min_gain"), ParamError);
  // No init: the example takes no params (min_gain is the entry's, lbbench's own guard).
  EXPECT_THROW(PluginBalancer(plugin_path("greedy_plugin"), "speed=3"), ParamError);
}

// Where the plugin decides under mpirun: its decides_on, one rank unless it says every rank.
TEST(PluginBalancer, DecidesOnEveryRankWhereThePluginSaysSo) {
  REQUIRE_PLUGIN("greedy_every_rank");
  EXPECT_EQ(PluginBalancer(plugin_path("greedy_every_rank"), "").scope(), DecisionScope::kAll);
  EXPECT_EQ(PluginBalancer(plugin_path("greedy_plugin"), "").scope(), DecisionScope::kLeader);
  EXPECT_FALSE(PluginBalancer(plugin_path("greedy_every_rank"), "").redundant());
}

TEST(PluginBalancer, ParamsTextSplitsIntoPairs) {
  const auto pairs = parse_plugin_params("a=1;b=x=y;c=");
  ASSERT_EQ(pairs.size(), 3u);
  EXPECT_EQ(pairs[1].first, "b");
  EXPECT_EQ(pairs[1].second, "x=y");
  EXPECT_EQ(pairs[2].second, "");
  EXPECT_TRUE(parse_plugin_params("").empty());
  EXPECT_THROW(parse_plugin_params("=1"), ParamError);
}

}  // namespace
}  // namespace lbb
