// The verdicts of a paper config's expectations, on runs built here: exact, trend holds,
// differs (with the difference), bounds, no runs, not built; and where-matching.
#include <gtest/gtest.h>

#include "harness/papers/expectation_verdicts.h"

namespace lbb {
namespace {

RunInfo run(const std::string& label, const std::string& sweep, double efficiency) {
  RunInfo r;
  r.text = {{"status", "complete"}, {"balancer", label}, {"sweep", sweep}, {"workload", "trfd"}};
  r.number = {{"efficiency", efficiency}, {"processors", 4}};
  return r;
}

Expectation row(const std::string& name, const std::string& label, double paper,
                const std::string& trend = "") {
  Expectation e;
  e.row = name;
  e.where = {{"balancer", label}};
  e.metric = "efficiency";
  e.paper = paper;
  e.trend = trend;
  return e;
}

TEST(ExpectationVerdicts, ExactTrendAndDiffers) {
  const std::vector<RunInfo> runs = {run("a", "n=30", 0.50), run("a", "n=40", 0.54),
                                     run("b", "n=30", 0.70), run("c", "n=30", 0.20)};
  // a: median 0.52 of two runs; the paper's 0.8 is 35 % off, but a < b as in the paper.
  const std::vector<Expectation> rows = {row("a", "a", 0.8, "t"), row("b", "b", 0.9, "t"),
                                         row("c", "c", 0.9, "u"), row("d", "d", 0.3),
                                         row("b exact", "b", 0.72)};
  const auto r = judge_expectations(rows, runs);
  EXPECT_DOUBLE_EQ(*r[0].measured, 0.52);
  EXPECT_EQ(r[0].runs, 2);
  EXPECT_EQ(r[0].kind, VerdictKind::kTrendHolds);
  EXPECT_EQ(r[1].kind, VerdictKind::kTrendHolds);
  // c's group has no other row: nothing to hold, so it differs, by 0.2 - 0.9.
  EXPECT_EQ(r[2].kind, VerdictKind::kDiffers);
  EXPECT_NE(r[2].verdict.find("-0.7"), std::string::npos) << r[2].verdict;
  EXPECT_EQ(r[3].kind, VerdictKind::kNoRuns);
  EXPECT_EQ(r[4].kind, VerdictKind::kExact);
}

TEST(ExpectationVerdicts, AReversedOrderBreaksTheTrend) {
  const std::vector<RunInfo> runs = {run("a", "", 0.9), run("b", "", 0.5)};
  const auto r = judge_expectations({row("a", "a", 0.5, "t"), row("b", "b", 0.9, "t")}, runs);
  EXPECT_EQ(r[0].kind, VerdictKind::kDiffers);
  EXPECT_NE(r[0].verdict.find("breaks the trend"), std::string::npos) << r[0].verdict;
}

TEST(ExpectationVerdicts, BoundsNotBuiltAndSweptKeys) {
  const std::vector<RunInfo> runs = {run("a", "n=30 sd=0.5", 0.4), run("a", "n=40 sd=0.5", 0.6)};
  Expectation upper = row("u", "a", 0.45);
  upper.where.emplace_back("n", "30.0");  // swept values compare as numbers
  upper.bound = "upper";
  Expectation lower = upper;
  lower.bound = "lower";
  Expectation missing;
  missing.row = "L4";
  missing.not_built = "no source";
  const auto r = judge_expectations({upper, lower, missing}, runs);
  EXPECT_DOUBLE_EQ(*r[0].measured, 0.4);
  EXPECT_EQ(r[0].kind, VerdictKind::kExact);
  EXPECT_EQ(r[1].kind, VerdictKind::kDiffers);
  EXPECT_EQ(r[2].kind, VerdictKind::kNotBuilt);
  EXPECT_TRUE(run_matches(runs[1], {{"processors", "4"}, {"workload", "trfd"}, {"sd", "0.5"}}));
  EXPECT_FALSE(run_matches(runs[1], {{"n", "30"}}));
  EXPECT_FALSE(run_matches(runs[1], {{"seed", "1"}}));  // not swept, not an attribute
}

}  // namespace
}  // namespace lbb

namespace lbb {
namespace {

TEST(ExpectationVerdicts, RanksAreJudgedByOrderAlone) {
  const std::vector<RunInfo> runs = {run("dissection", "", 0.6), run("optimal", "", 0.7),
                                     run("dynamic", "", 0.65)};
  auto ranked = [](const std::string& label, double rank) {
    Expectation e = row(label, label, 0, "fig4");
    e.paper.reset();
    e.rank = rank;
    return e;
  };
  // The paper: dissection < optimal < dynamic; measured: dynamic below optimal.
  const auto r = judge_expectations(
      {ranked("dissection", 1), ranked("optimal", 2), ranked("dynamic", 3)}, runs);
  EXPECT_EQ(r[0].kind, VerdictKind::kTrendHolds);
  EXPECT_EQ(r[1].kind, VerdictKind::kDiffers);
  EXPECT_EQ(r[2].kind, VerdictKind::kDiffers);
  EXPECT_NE(r[2].verdict.find("breaks the paper's order"), std::string::npos);
}

}  // namespace
}  // namespace lbb
