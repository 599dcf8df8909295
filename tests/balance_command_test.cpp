// `lbbench balance`: the JSON it prints and the errors it gives.
#include <gtest/gtest.h>

#include <cmath>

#include "core/params.h"
#include "harness/analysis/balance_report.h"

namespace lbb {
namespace {

BalanceRequest t2(const std::string& method) {
  return {method, "chain", "16,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "", {}, 0, ""};
}

TEST(BalanceCommand, MultilevelT2AsJson) {
  const nlohmann::json out = balance_report(t2("multilevel"));
  ASSERT_EQ(out["phases"].size(), 4u);
  EXPECT_EQ(out["final_loads"], nlohmann::json(std::vector<int>(16, 1)));
  EXPECT_DOUBLE_EQ(out["imbalance"].get<double>(), 0.0);
  const auto& first = out["phases"][0];
  ASSERT_EQ(first["transfers"].size(), 1u);
  EXPECT_EQ(first["transfers"][0], (nlohmann::json{{"from", 7}, {"to", 8}, {"units", 8}}));
  EXPECT_EQ(first["loads"][7], -8);
  EXPECT_EQ(out["processors"], 16);
  EXPECT_EQ(out["method"], "multilevel");
}

TEST(BalanceCommand, DiffusionT2IsImbalancedAndParamsAreResolved) {
  BalanceRequest r = t2("diffusion_horton");
  const nlohmann::json out = balance_report(r);
  EXPECT_EQ(out["phases"].size(), 9u);
  EXPECT_NEAR(out["imbalance"].get<double>(), std::sqrt(40.0), 1e-12);  // (5,4,3,2,1,1,0..) - 1
  EXPECT_EQ(out["params"]["max_phases"], 100000);
  r.params = {"max_phases=3"};
  EXPECT_EQ(balance_report(r)["phases"].size(), 3u);
}

TEST(BalanceCommand, SpeedsAndRandomParameters) {
  BalanceRequest r{"multilevel", "ring", "0,0,0,40", "1,1,1,1", {}, 0, ""};
  EXPECT_EQ(balance_report(r)["final_loads"], nlohmann::json({10, 10, 10, 10}));
  r.speeds = "1,3,2,2";
  EXPECT_EQ(balance_report(r)["final_loads"], nlohmann::json({5, 15, 10, 10}));
  BalanceRequest random{"random", "mesh2d", "90,10,10,10", "", {"alpha=1", "seed=3"}, 2, ""};
  const auto out = balance_report(random);
  EXPECT_EQ(out["params"]["alpha"], 1.0);
  EXPECT_EQ(out["phases"][0]["transfers"][0]["units"], 57);  // 1.0 x (90 - 1.1 x 30)
}

// Horton 1993's T1 from the command line: the graph reconstructed from Table 2
// (docs/horton_t1.md); phase 1 of Table 2 moves 3, 3 and 2 units across the first cut.
constexpr const char* kT1Graph =
    "5-13,6-9,7-8,0-4,2-7,3-6,10-12,0-3,1-2,4-6,9-10,12-14,0-1,4-5,6-7,8-9,10-11,12-13,14-15";

TEST(BalanceCommand, MultilevelFollowsAGivenCommunicationGraph) {
  BalanceRequest r = t2("multilevel");
  r.topology = "complete";
  r.graph = kT1Graph;
  r.params = {"bisect=communication"};
  const nlohmann::json out = balance_report(r);
  ASSERT_EQ(out["phases"].size(), 4u);
  EXPECT_EQ(out["phases"][0]["transfers"],
            (nlohmann::json{{{"from", 5}, {"to", 13}, {"units", 3}},
                            {{"from", 6}, {"to", 9}, {"units", 3}},
                            {{"from", 7}, {"to", 8}, {"units", 2}}}));
  EXPECT_EQ(out["final_loads"], nlohmann::json(std::vector<int>(16, 1)));
  EXPECT_EQ(out["graph"].size(), 19u);
  EXPECT_EQ(out["graph"][0], nlohmann::json({0, 1}));
}

void expect_error(const BalanceRequest& r, const std::string& fragment) {
  try {
    balance_report(r);
    ADD_FAILURE() << "no error, expected one containing: " << fragment;
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(BalanceCommand, BadInputGetsAClearMessage) {
  expect_error({"nope", "chain", "1,2", "", {}, 0, ""}, "unknown balancer 'nope'");
  expect_error({"block", "chain", "1,2", "", {}, 0, ""}, "static partitioner");
  expect_error({"redistribution", "chain", "1,2", "", {}, 0, ""}, "no unit-level form");
  expect_error({"gcdlb", "chain", "1,2", "", {}, 0, ""}, "diffusion_horton, multilevel");
  expect_error({"multilevel", "torus", "1,2", "", {}, 0, ""}, "unknown topology 'torus'");
  expect_error({"multilevel", "chain", "1,x", "", {}, 0, ""}, "'x' is not a non-negative integer");
  expect_error({"multilevel", "chain", "1,-2", "", {}, 0, ""}, "'-2' is not a non-negative");
  expect_error({"multilevel", "chain", "1,,2", "", {}, 0, ""}, "'' is not a non-negative");
  expect_error({"multilevel", "chain", "", "", {}, 0, ""}, "--loads: empty list");
  expect_error({"multilevel", "chain", "1,2", "1", {}, 0, ""}, "1 speeds for 2 processors");
  expect_error({"multilevel", "chain", "1,2", "1,0", {}, 0, ""}, "'0' must be >= 1e-06, got 0");
  // 1e-308 beside 1e308 moved -2^63 units a phase for 100,000 phases (imbalance null).
  expect_error({"diffusion_horton", "chain", "5,1,7", "1e-308,1e308,1", {}, 0, ""},
               "--speeds: '1e-308' must be >= 1e-06, got 1e-308");
  expect_error({"diffusion_horton", "chain", "5,1,7", "1,1e308,1", {}, 0, ""},
               "--speeds: '1e308' must be <= 1e+06, got 1e+308");
  expect_error({"multilevel", "chain", "1,2", "1,nan", {}, 0, ""}, "'nan' must be a finite number");
  expect_error({"multilevel", "chain", "1,2", "1,x", {}, 0, ""}, "--speeds: 'x' is not a number");
  expect_error({"multilevel", "hypercube", "1,2,3", "", {}, 0, ""}, "power-of-two");
  expect_error({"multilevel", "chain", "1,2", "", {"alpha=1"}, 0, ""}, "unknown parameter 'alpha'");
  expect_error({"random", "chain", "1,2", "", {"alpha=2"}, 0, ""}, "alpha must be <= 1");
  expect_error({"random", "chain", "1,2", "", {"alpha"}, 0, ""}, "expected key=value");
  BalanceRequest g{"multilevel", "chain", "1,2,3", "", {"bisect=communication"}, 0, ""};
  expect_error(g, "gives none");
  for (const char* bad : {"0-3", "0-0", "0_1", "-1", "0-1,", "a-b", "1-"}) {
    g.graph = bad;
    expect_error(g, "--graph: '");
  }
  g.graph = "0-1,1-0,1-2";  // a repeat is one edge
  EXPECT_EQ(balance_report(g)["graph"].size(), 2u);
}

}  // namespace
}  // namespace lbb
