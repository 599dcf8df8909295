// The verdicts of a paper config's expectations, on runs built here: a value is exact only
// within the paper's printed precision (or a stated tolerance), an order holds only when the
// verdicts' comparison finds it (paired by trial and round, exact for simulated runs), rows true
// by construction are context and never counted, open choices are not counted; bounds, no runs,
// not built; where-matching; and monotone claims over a swept key.
#include <gtest/gtest.h>

#include <sstream>

#include "harness/papers/expectation_verdicts.h"

namespace lbb {
namespace {

RunRecord run(const std::string& label, const std::string& sweep, double efficiency) {
  RunRecord r;
  r.status = "complete";
  r.balancer = label;
  r.sweep = sweep;
  r.workload = "trfd";
  r.efficiency = efficiency;
  r.processors = 4;
  return r;
}

// `n` runs of `label` at efficiency base, base + step, ...
void add_runs(std::vector<RunRecord>& runs, const std::string& label, int n, double base,
              double step = 0.001) {
  for (int i = 0; i < n; ++i) runs.push_back(run(label, "", base + step * i));
}

Expectation row(const std::string& name, const std::string& label, const std::string& paper,
                const std::string& trend = "") {
  Expectation e;
  e.row = name;
  e.where = {{"balancer", label}};
  e.metric = "efficiency";
  e.paper = std::stod(paper);
  e.paper_text = paper;
  e.trend = trend;
  return e;
}

Expectation ranked(const std::string& label, double rank, const std::string& trend) {
  Expectation e;
  e.row = label;
  e.where = {{"balancer", label}};
  e.metric = "efficiency";
  e.rank = rank;
  e.trend = trend;
  return e;
}

TEST(ExpectationVerdicts, PrintedPrecisionIsHalfAUnitOfTheLastDigit) {
  EXPECT_DOUBLE_EQ(*printed_half_unit("3.07"), 0.005);
  EXPECT_DOUBLE_EQ(*printed_half_unit("-0.10"), 0.005);
  EXPECT_DOUBLE_EQ(*printed_half_unit("16"), 0.5);
  EXPECT_DOUBLE_EQ(*printed_half_unit("2.5e3"), 50);
  EXPECT_DOUBLE_EQ(*printed_half_unit("1e-3"), 0.0005);
  EXPECT_FALSE(printed_half_unit("abc"));
  EXPECT_FALSE(printed_half_unit("."));
  EXPECT_FALSE(printed_half_unit("1e"));
}

// Franklin & Govindan 1995, Table 3's five speedups lie within 7 % of 3.07: a strategy whose
// speedup is 3.07 whatever w* was "exact" in every row under a 10 % default. Within the printed
// precision (0.005) it is exact in none, and its identical runs order nothing.
TEST(ExpectationVerdicts, AConstantIsNotExactInEveryRowOfTable3) {
  const std::vector<std::string> paper = {"2.87", "3.08", "3.26", "3.21", "3.11"};
  std::vector<RunRecord> runs;
  std::vector<Expectation> rows;
  for (std::size_t i = 0; i < paper.size(); ++i) {
    const std::string label = "w" + std::to_string(i);
    add_runs(runs, label, 6, 3.07, 0);
    rows.push_back(row(label, label, paper[i], "t3"));
  }
  const auto r = judge_expectations(rows, runs);
  for (const auto& x : r) {
    EXPECT_EQ(x.kind, VerdictKind::kDiffers) << x.verdict;
    EXPECT_EQ(x.order, OrderKind::kTied) << x.verdict;
    EXPECT_NE(x.verdict.find("order tied"), std::string::npos) << x.verdict;
  }
  EXPECT_EQ(summarize_verdicts(r).exact, 0);
}

TEST(ExpectationVerdicts, ExactOnlyWithinTheTolerance) {
  std::vector<RunRecord> runs;
  add_runs(runs, "a", 3, 0.52, 0);
  // "0.5" is printed to +-0.05, so 0.52 is exact against it unless a tolerance says otherwise.
  Expectation stated = row("stated", "a", "0.5");
  stated.tolerance = 0.01;
  stated.tolerance_source = "the paper's stated spread";
  const std::vector<Expectation> rows = {row("printed", "a", "0.52"), row("coarse", "a", "0.5"),
                                         row("fine", "a", "0.50"), stated, row("d", "d", "0.3")};
  const auto r = judge_expectations(rows, runs);
  EXPECT_DOUBLE_EQ(*r[0].measured, 0.52);
  EXPECT_EQ(r[0].kind, VerdictKind::kExact);
  EXPECT_DOUBLE_EQ(r[0].tolerance, 0.005);
  EXPECT_EQ(r[1].kind, VerdictKind::kExact);
  EXPECT_EQ(r[2].kind, VerdictKind::kDiffers);
  EXPECT_EQ(r[3].kind, VerdictKind::kDiffers);
  EXPECT_EQ(r[4].kind, VerdictKind::kNoRuns);
}

// Three runs against three can never be significant (the smallest two-sided p is 0.1): tied.
// Eight against eight, apart: holds, or differs when the paper has the opposite order.
TEST(ExpectationVerdicts, AnOrderHoldsOnlyWhenSignificant) {
  std::vector<RunRecord> few, many;
  add_runs(few, "low", 3, 0.50);
  add_runs(few, "high", 3, 0.70);
  add_runs(many, "low", 8, 0.50);
  add_runs(many, "high", 8, 0.70);
  const std::vector<Expectation> rows = {ranked("low", 1, "t"), ranked("high", 2, "t")};
  const std::vector<Expectation> reversed = {ranked("low", 2, "t"), ranked("high", 1, "t")};
  const auto tied = judge_expectations(rows, few);
  EXPECT_EQ(tied[0].kind, VerdictKind::kTied);
  EXPECT_EQ(tied[1].kind, VerdictKind::kTied);
  const auto holds = judge_expectations(rows, many);
  EXPECT_EQ(holds[0].kind, VerdictKind::kHolds) << holds[0].verdict;
  EXPECT_EQ(holds[1].kind, VerdictKind::kHolds);
  const auto differs = judge_expectations(reversed, many);
  EXPECT_EQ(differs[0].kind, VerdictKind::kDiffers);
  EXPECT_NE(differs[0].verdict.find("order reversed (unpaired) against 'high'"), std::string::npos)
      << differs[0].verdict;
}

// A value far off differs even when its order holds; both are shown.
TEST(ExpectationVerdicts, AValueOffDiffersEvenWhenItsOrderHolds) {
  std::vector<RunRecord> runs;
  add_runs(runs, "a", 8, 0.50);
  add_runs(runs, "b", 8, 0.70);
  const std::vector<Expectation> rows = {row("a", "a", "0.8", "t"), row("b", "b", "0.9", "t")};
  const auto r = judge_expectations(rows, runs);
  EXPECT_EQ(r[0].order, OrderKind::kHolds);
  EXPECT_EQ(r[0].kind, VerdictKind::kDiffers);
  EXPECT_NE(r[0].verdict.find("differs by -0.2"), std::string::npos) << r[0].verdict;
  EXPECT_NE(r[0].verdict.find("order holds"), std::string::npos) << r[0].verdict;
}

// Hwang & Hong 2001's LB rows: T >= LB by definition, so an LB row is context, never counted,
// and no T row's order is judged against it.
TEST(ExpectationVerdicts, ALowerBoundRowIsContextNotAVerdict) {
  std::vector<RunRecord> runs;
  add_runs(runs, "LB", 8, 0.50);
  add_runs(runs, "L1", 8, 0.60);
  Expectation lb = row("LB", "LB", "0.5", "t1");
  lb.context = "a lower bound: every T is at least LB";
  const std::vector<Expectation> rows = {lb, row("L1", "L1", "0.6", "t1")};
  const auto r = judge_expectations(rows, runs);
  EXPECT_EQ(r[0].kind, VerdictKind::kContext);
  EXPECT_FALSE(r[0].counted);
  EXPECT_EQ(r[1].order, OrderKind::kNone);  // nothing left to order it against
  EXPECT_EQ(r[1].kind, VerdictKind::kExact);
  const VerdictSummary s = summarize_verdicts(r);
  EXPECT_EQ(s.context, 1);
  EXPECT_EQ(s.exact + s.holds + s.tied + s.differs, 1);
}

// Hwang & Hong 2001's trees: with enough runs the paper's number is placed in their distribution.
TEST(ExpectationVerdicts, ManyRunsPlaceThePaperInTheirDistribution) {
  std::vector<RunRecord> runs;
  add_runs(runs, "LB", 50, 0.50, 0.01);  // 0.50, 0.51, ..., 0.99
  add_runs(runs, "L1", 19, 0.50, 0.01);
  Expectation lb = row("LB", "LB", "0.6", "");
  lb.context = "a lower bound";
  const std::vector<Expectation> rows = {lb, row("L1", "L1", "0.6")};
  const auto r = judge_expectations(rows, runs);
  // 10 runs below 0.6, one equal: (10 + 0.5) / 50
  EXPECT_NE(r[0].verdict.find("the paper's number at percentile 21 of its 50 runs"),
            std::string::npos)
      << r[0].verdict;
  EXPECT_EQ(r[1].verdict.find("percentile"), std::string::npos) << r[1].verdict;  // 19 runs
}

TEST(ExpectationVerdicts, OpenChoicesAreJudgedButNotCounted) {
  std::vector<RunRecord> runs;
  add_runs(runs, "L1", 8, 0.50);
  add_runs(runs, "L2", 8, 0.70);
  Expectation l2 = row("L2", "L2", "0.4", "t");
  l2.open_choice = "the paper does not say how L2 picks a processor";
  l2.cause = "setting: one reading of L2";
  const std::vector<Expectation> rows = {row("L1", "L1", "0.5", "t"), l2};
  const auto r = judge_expectations(rows, runs);
  EXPECT_EQ(r[0].order, OrderKind::kNone);  // not ordered against an open choice
  EXPECT_EQ(r[1].kind, VerdictKind::kDiffers);
  EXPECT_FALSE(r[1].counted);
  EXPECT_EQ(r[1].order, OrderKind::kDiffers);  // the open choice itself is ordered
  const VerdictSummary s = summarize_verdicts(r);
  EXPECT_EQ(s.open_choices, 1);
  EXPECT_EQ(s.differs, 0);
  EXPECT_EQ(s.exact, 1);
}

TEST(ExpectationVerdicts, TheSummaryGivesEachDifferingRowItsCause) {
  std::vector<RunRecord> runs;
  add_runs(runs, "a", 3, 0.9, 0);
  Expectation caused = row("caused", "a", "0.5");
  caused.cause = "setting: equal threads where the paper had unequal workstations";
  const std::vector<Expectation> rows = {caused, row("bare", "a", "0.4")};
  const auto r = judge_expectations(rows, runs);
  std::ostringstream out;
  print_expectations(out, r);
  const std::string text = out.str();
  EXPECT_NE(text.find("verdicts: 0 exact, 0 holds, 0 tied, 2 differ"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  differs, setting: equal threads where the paper had unequal "
                      "workstations: caused\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n  differs, no cause stated: bare\n"), std::string::npos) << text;
}

TEST(ExpectationVerdicts, BoundsNotBuiltAndSweptKeys) {
  const std::vector<RunRecord> runs = {run("a", "n=30 sd=0.5", 0.4), run("a", "n=40 sd=0.5", 0.6)};
  Expectation upper = row("u", "a", "0.45");
  upper.where.emplace_back("n", "30.0");  // swept values compare as numbers
  upper.bound = "upper";
  Expectation lower = upper;
  lower.bound = "lower";
  Expectation missing;
  missing.row = "L4";
  missing.not_built = "no source";
  const std::vector<Expectation> rows = {upper, lower, missing};
  const auto r = judge_expectations(rows, runs);
  EXPECT_DOUBLE_EQ(*r[0].measured, 0.4);
  EXPECT_EQ(r[0].kind, VerdictKind::kExact);
  EXPECT_EQ(r[1].kind, VerdictKind::kDiffers);
  EXPECT_EQ(r[2].kind, VerdictKind::kNotBuilt);
  EXPECT_TRUE(run_matches(runs[1], {{"processors", "4"}, {"workload", "trfd"}, {"sd", "0.5"}}));
  EXPECT_FALSE(run_matches(runs[1], {{"n", "30"}}));
  EXPECT_FALSE(run_matches(runs[1], {{"seed", "1"}}));  // not swept, not an attribute
}

TEST(ExpectationVerdicts, AReadRowStatesWhereItsToleranceComesFrom) {
  const auto read = [](const std::string& yaml) {
    Problems problems("t.yaml");
    read_expectations(YAML::Load(yaml), problems);
    return problems.text();
  };
  EXPECT_EQ(read("expectations: [{row: a, metric: m, paper: 3.07}]"), "");
  EXPECT_NE(read("expectations: [{row: a, metric: m, paper: 3, tolerance: 0.1}]")
                .find("'tolerance' and 'tolerance_source' go together"),
            std::string::npos);
  EXPECT_NE(read("expectations: [{row: a, metric: m, paper: 3, cause: \"noise\"}]")
                .find("cause must start with"),
            std::string::npos);
  EXPECT_EQ(read("expectations: [{row: a, metric: m, paper: 3, cause: \"paper: swaps\"}]"), "");
}

// A seeded trial of `label`: run `seed` of one invocation, as Iqbal et al. 1986 seed theirs.
RunRecord trial(const std::string& label, int seed, double efficiency,
                const std::string& invocation = "i1") {
  RunRecord r = run(label, "seed=" + std::to_string(seed), efficiency);
  r.invocation = invocation;
  r.host = "h";
  r.repetition = 0;
  return r;
}

// Trials that differ by 30 % from seed to seed, where b is 3 % above a in each (+-0.5 %):
// paired by seed the order holds; the same values unpaired (b's runs from another invocation,
// so no round pairs) are tied, the trials' spread hiding the 3 %.
TEST(ExpectationVerdicts, SeededTrialsArePairedBySeed) {
  std::vector<RunRecord> paired, unpaired;
  for (int k = 0; k < 25; ++k) {
    const double a = 0.5 * (1 + 0.3 * ((k * 7) % 25) / 24.0);
    const double b = a * (1.03 + 0.005 * ((k % 3) - 1));
    paired.push_back(trial("a", k, a));
    paired.push_back(trial("b", k, b));
    unpaired.push_back(trial("a", k, a));
    unpaired.push_back(trial("b", k, b, "i2"));
  }
  const std::vector<Expectation> rows = {ranked("a", 1, "t"), ranked("b", 2, "t")};
  const auto holds = judge_expectations(rows, paired);
  EXPECT_EQ(holds[0].kind, VerdictKind::kHolds) << holds[0].verdict;
  EXPECT_NE(holds[0].verdict.find("order holds (paired, 25 trials) against 'b'"), std::string::npos)
      << holds[0].verdict;
  const auto tied = judge_expectations(rows, unpaired);
  EXPECT_EQ(tied[0].kind, VerdictKind::kTied) << tied[0].verdict;
  EXPECT_NE(tied[0].verdict.find("(unpaired)"), std::string::npos) << tied[0].verdict;
}

// A simulated run (executor simulate): deterministic, one run each decides by value.
RunRecord simulated(const std::string& label, double efficiency, const std::string& execution,
                    double balance = 0) {
  RunRecord r = trial(label, 1, efficiency);
  r.executor = "simulate";
  r.config_yaml = "execution: {" + execution + "}";
  r.balance_total = balance;
  r.makespan_total = 10;
  return r;
}

// One simulated run against another: 1 % apart is an order, by value (no test of one run
// against one could find it); equal values tie; so do values whose measured decisions (0.2 s of
// 10 s: 2 %) could move them past each other.
TEST(ExpectationVerdicts, SimulatedRowsAreOrderedByValue) {
  const std::vector<Expectation> rows = {ranked("a", 1, "t"), ranked("b", 2, "t")};
  const std::string modelled = "sim_decision: modelled";
  const auto holds =
      judge_expectations(rows, {simulated("a", 0.50, modelled), simulated("b", 0.505, modelled)});
  EXPECT_EQ(holds[0].kind, VerdictKind::kHolds) << holds[0].verdict;
  EXPECT_NE(holds[0].verdict.find("(exact)"), std::string::npos) << holds[0].verdict;
  const auto reversed =
      judge_expectations(rows, {simulated("a", 0.51, modelled), simulated("b", 0.50, modelled)});
  EXPECT_EQ(reversed[0].kind, VerdictKind::kDiffers) << reversed[0].verdict;
  const auto equal =
      judge_expectations(rows, {simulated("a", 0.50, modelled), simulated("b", 0.50, modelled)});
  EXPECT_EQ(equal[0].kind, VerdictKind::kTied) << equal[0].verdict;
  const std::string measured = "sim_decision: measured";
  const auto moved = judge_expectations(
      rows, {simulated("a", 0.50, measured, 0.2), simulated("b", 0.505, measured, 0.2)});
  EXPECT_EQ(moved[0].kind, VerdictKind::kTied) << moved[0].verdict;
  const auto still = judge_expectations(
      rows, {simulated("a", 0.50, measured, 0.001), simulated("b", 0.505, measured, 0.001)});
  EXPECT_EQ(still[0].kind, VerdictKind::kHolds) << still[0].verdict;
}

// Franklin & Govindan 1995 in their setting replay one recording: the order says so.
TEST(ExpectationVerdicts, AnOrderOfOneRecordingSaysSo) {
  const std::vector<Expectation> rows = {ranked("a", 1, "t"), ranked("b", 2, "t")};
  const std::string replay = "sim_decision: modelled, replay_set: results/rec";
  const auto r =
      judge_expectations(rows, {simulated("a", 0.50, replay), simulated("b", 0.60, replay)});
  EXPECT_EQ(r[0].kind, VerdictKind::kHolds) << r[0].verdict;
  EXPECT_NE(r[0].verdict.find("(exact; the order of one recording, results/rec)"),
            std::string::npos)
      << r[0].verdict;
}

Expectation falling(const std::string& name) {
  Expectation e;
  e.row = name;
  e.where = {{"workload", "trfd"}};
  e.metric = "efficiency";
  e.over = "safety_factor";
  e.monotone = "non_increasing";
  return e;
}

// 20 seeded trials at each of the factors 0.5, 1, 2, 4, 8, the curve's values `level(f)` of each
// trial's own size (spread 30 %), +-0.2 % noise.
std::vector<RunRecord> curve(const std::vector<double>& level) {
  const std::vector<std::string> factors = {"0.5", "1", "2", "4", "8"};
  std::vector<RunRecord> runs;
  for (std::size_t f = 0; f < factors.size(); ++f)
    for (int k = 0; k < 20; ++k) {
      const double size = 1 + 0.3 * ((k * 7) % 20) / 19.0;
      const double noise = 1 + 0.002 * (((k + static_cast<int>(f)) % 3) - 1);
      runs.push_back(trial("p+predictive(safety_factor=" + factors[f] + ")", k,
                           0.4 * size * level[f] * noise));
    }
  return runs;
}

// Iqbal, Saltz & Bokhari 1986, Figs. 6-7: non-increasing over the sampled factors holds when no
// step rises and the last falls below the first (flat steps allowed); a step that rises
// significantly differs; a flat curve is tied.
TEST(ExpectationVerdicts, AMonotoneClaimIsJudgedStepByStep) {
  const std::vector<Expectation> rows = {falling("curve")};
  const auto holds = judge_expectations(rows, curve({1, 0.98, 0.98, 0.95, 0.9}));
  EXPECT_EQ(holds[0].kind, VerdictKind::kHolds) << holds[0].verdict;
  EXPECT_TRUE(holds[0].counted);
  EXPECT_EQ(holds[0].runs, 100);
  EXPECT_NEAR(*holds[0].measured, 0.9, 0.01);
  EXPECT_NE(holds[0].verdict.find("non-increasing over safety_factor 0.5-8 holds (paired, 20 "
                                  "trials)"),
            std::string::npos)
      << holds[0].verdict;
  const auto rises = judge_expectations(rows, curve({1, 0.95, 0.97, 0.9, 0.85}));
  EXPECT_EQ(rises[0].kind, VerdictKind::kDiffers) << rises[0].verdict;
  EXPECT_NE(rises[0].verdict.find("rises 1->2"), std::string::npos) << rises[0].verdict;
  const auto flat = judge_expectations(rows, curve({1, 1, 1, 1, 1}));
  EXPECT_EQ(flat[0].kind, VerdictKind::kTied) << flat[0].verdict;
  const VerdictSummary s = summarize_verdicts(holds);
  EXPECT_EQ(s.holds, 1);
  EXPECT_EQ(s.open_choices, 0);
}

TEST(ExpectationVerdicts, AMonotoneRowNamesItsSweptKey) {
  const auto read = [](const std::string& yaml) {
    Problems problems("t.yaml");
    read_expectations(YAML::Load(yaml), problems);
    return problems.text();
  };
  EXPECT_EQ(read("expectations: [{row: a, metric: m, over: sf, monotone: non_increasing}]"), "");
  EXPECT_NE(read("expectations: [{row: a, metric: m, monotone: non_increasing}]")
                .find("'monotone' and 'over' go together"),
            std::string::npos);
  EXPECT_NE(read("expectations: [{row: a, metric: m, over: sf, monotone: falling}]")
                .find("monotone must be non_increasing or non_decreasing"),
            std::string::npos);
}

}  // namespace
}  // namespace lbb
