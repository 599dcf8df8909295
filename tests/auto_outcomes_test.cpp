// auto's outcomes per case (Zaki, Li & Parthasarathy 1997's 16 of 20): repetitions of one case
// count once, a best the U test cannot tell from auto's choice is a tie, a significantly slower
// choice a miss with its regret.
#include <gtest/gtest.h>

#include <sstream>

#include "harness/papers/auto_outcomes.h"

namespace lbb {
namespace {

RunRecord run(int processors, const std::string& dynamic, double makespan) {
  RunRecord r;
  r.status = "complete";
  r.name = "zaki1997";
  r.workload = "matmul";
  r.dynamic = dynamic;
  r.processors = processors;
  r.makespan_total = makespan;
  return r;
}

// An auto run: `dynamic` is auto, its choice a figure (phase 1's, when given, suffixed).
RunRecord auto_run(int processors, const std::string& chose, double makespan = 1.5,
                   const std::string& phase1 = "") {
  RunRecord r = run(processors, "auto", makespan);
  r.figures = {
      {"auto_predicted_gcdlb", 1.0}, {"auto_predicted_lddlb", 2.0}, {"auto_chose_" + chose, 1.0}};
  if (!phase1.empty()) {
    r.figures.push_back({"auto_predicted_gcdlb_phase1", 1.0});
    r.figures.push_back({"auto_chose_" + phase1 + "_phase1", 1.0});
  }
  return r;
}

// Case P=p: `n` runs each of gcdlb near 1 s and lddlb near 2 s, and three auto runs.
void add_case(std::vector<RunRecord>& runs, int p, int n, const std::string& chose) {
  for (int i = 0; i < n; ++i) {
    runs.push_back(run(p, "gcdlb", 1.0 + 0.01 * i));
    runs.push_back(run(p, "lddlb", 2.0 + 0.01 * i));
  }
  for (int i = 0; i < 3; ++i) runs.push_back(auto_run(p, chose));
}

TEST(AutoOutcomes, CountsCasesNotRepetitionsAndTiesAsTies) {
  std::vector<RunRecord> runs;
  add_case(runs, 4, 8, "gcdlb");   // hit: the best, significantly
  add_case(runs, 8, 3, "gcdlb");   // tie: three runs against three decide nothing
  add_case(runs, 16, 8, "lddlb");  // miss: twice as slow
  const std::vector<AutoCase> cases = auto_cases(runs);
  ASSERT_EQ(cases.size(), 3u);
  const auto at = [&](const std::string& p) {
    for (const AutoCase& c : cases)
      if (c.where.size() >= p.size() &&
          c.where.compare(c.where.size() - p.size(), p.size(), p) == 0)
        return c;
    ADD_FAILURE() << "no case " << p;
    return AutoCase{};
  };
  for (const AutoCase& c : cases) EXPECT_EQ(c.repetitions, 3) << c.where;
  EXPECT_EQ(at("P=4").outcome, AutoOutcome::kHit);
  EXPECT_EQ(at("P=8").outcome, AutoOutcome::kTie);
  EXPECT_EQ(at("P=16").outcome, AutoOutcome::kMiss);
  EXPECT_NEAR(at("P=16").regret, 2.035 / 1.035 - 1, 1e-9);  // the medians of 8 runs each
  const AutoFigures f = auto_figures(cases);
  EXPECT_EQ(f.cases, 3);
  EXPECT_EQ(f.hits, 1);
  EXPECT_EQ(f.ties, 1);
  EXPECT_EQ(f.misses, 1);
  EXPECT_DOUBLE_EQ(f.hit_rate(), 0.5);  // of the two cases decided
  std::ostringstream out;
  print_auto_cases(out, cases);
  EXPECT_NE(out.str().find("1 hits, 1 ties, 1 misses of 3"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("16 of 20"), std::string::npos);
  // Auto's own runs (1.5 s, its choosing included) against the best's 1.035 s.
  EXPECT_NEAR(at("P=4").auto_regret, 1.5 / 1.035 - 1, 1e-9);
}

// Phases that chose differently ran a strategy no candidate ran alone: auto's own runs measure
// it against the candidates, and it is never counted as the paper's "picked the best".
TEST(AutoOutcomes, PhasesThatChoseDifferentlyAreMeasuredByAutosOwnRuns) {
  std::vector<RunRecord> runs;
  for (int i = 0; i < 8; ++i) {
    runs.push_back(run(4, "gcdlb", 1.0 + 0.01 * i));
    runs.push_back(run(4, "lddlb", 2.0 + 0.01 * i));
    runs.push_back(auto_run(4, "gcdlb", 3.0 + 0.01 * i, "lddlb"));
  }
  const std::vector<AutoCase> cases = auto_cases(runs);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].chosen, "gcdlb+lddlb");
  EXPECT_EQ(cases[0].candidates, 2);
  EXPECT_EQ(cases[0].best, "gcdlb");
  EXPECT_NEAR(cases[0].chosen_seconds, 3.035, 1e-9);
  EXPECT_EQ(cases[0].outcome, AutoOutcome::kMiss);
}

}  // namespace
}  // namespace lbb
