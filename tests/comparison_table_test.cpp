// The comparison table's choices: the ranking clock from the host's free cores, which strategies
// an oversubscribed host may rank, the baseline, and the stars.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "harness/analysis/comparison_table.h"

namespace lbb {
namespace {

ConfigResult config(const std::string& label, std::vector<double> makespan,
                    std::vector<double> wall, int available, double load) {
  ConfigResult c;
  c.workload = "block_substitution";
  c.label = label;
  c.processors = 8;
  c.available = available;
  c.load_average = load;
  if (label.starts_with("omp_")) c.schedule_name = label;
  if (label == "gcdlb" || label == "none") c.dynamic_name = label;
  for (std::size_t i = 0; i < makespan.size(); ++i) {
    Repetition r;
    r.makespan = makespan[i];
    r.wall = wall[i];
    r.verified = true;
    c.reps.push_back(r);
  }
  return c;
}

TEST(ComparisonTable, HeadlineClockFollowsFreeCores) {
  EXPECT_EQ(choose_headline(8, 16, 0.3).clock, Clock::kWall);
  EXPECT_EQ(choose_headline(8, 2, 0.0).clock, Clock::kModelled);
  EXPECT_EQ(choose_headline(16, 16, 0.6).clock, Clock::kModelled);  // one core busy elsewhere
  EXPECT_EQ(choose_headline(8, 8, 0.4).clock, Clock::kWall);
  // A simulated group has one clock, the model's, whatever the host: 16 modelled processors on 2.
  const Headline sim = choose_headline(16, 2, 3.0, true);
  EXPECT_EQ(sim.clock, Clock::kModelled);
  EXPECT_NE(sim.reason.find("simulated"), std::string::npos) << sim.reason;
  EXPECT_EQ(sim.reason.find("free cores"), std::string::npos) << sim.reason;
}

// Modelled makespans say omp_dynamic is fastest, wall times say block: an oversubscribed host
// ranks block and does not rank the schedule or the fastest-finish scheme at all; a host with
// free cores ranks everything by wall time.
std::vector<ConfigResult> group(int available, double load) {
  const std::vector<double> fast = {1.0, 1.01, 0.99, 1.02, 0.98, 1.0, 1.01};
  const std::vector<double> slow = {2.0, 2.02, 1.98, 2.04, 1.96, 2.0, 2.02};
  const std::vector<double> slowest = {3.0, 3.03, 2.97, 3.06, 2.94, 3.0, 3.03};
  const std::vector<double> fastest = {0.5, 0.51, 0.49, 0.52, 0.48, 0.5, 0.51};
  return {config("none", slow, slow, available, load), config("block", fast, fast, available, load),
          config("omp_dynamic", fastest, slowest, available, load),
          config("gcdlb", fastest, slowest, available, load)};
}

TEST(ComparisonTable, OversubscribedHostRanksOnlyWhatTheModelOrders) {
  const auto configs = group(2, 1.5);
  const Comparison c = compare_configs(configs);
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[1].verdict, stats::Verdict::kWinner);  // block beats none
  EXPECT_FALSE(c.rows[2].eligible);
  EXPECT_FALSE(c.rows[2].best);
  EXPECT_EQ(c.rows[2].verdict, stats::Verdict::kNotJudged);
  EXPECT_FALSE(c.rows[3].eligible);
  EXPECT_EQ(c.rows[1].headline, Clock::kModelled);
  EXPECT_EQ(c.rows[1].baseline, "none");
  EXPECT_NEAR(c.rows[1].vs_baseline.estimate, 0.5, 0.01);
  EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(),
                          [](auto& n) { return n.starts_with("- = not ranked"); }));
  std::ostringstream text;
  print_comparison(text, c, OutputFormat::kTable);
  EXPECT_NE(text.str().find("*block"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("-omp_dynamic"), std::string::npos) << text.str();
}

// A simulated group's makespan is the simulator's own clock: every strategy it models is ranked
// by it, however few cores the host has, and the legend says which clock the rows hold.
TEST(ComparisonTable, SimulatedGroupRanksEveryStrategyOnTheModelsClock) {
  auto configs = group(2, 1.5);
  for (ConfigResult& c : configs) c.simulated = true;
  const Comparison c = compare_configs(configs);
  ASSERT_EQ(c.rows.size(), 4u);
  for (const ComparisonRow& r : c.rows) EXPECT_TRUE(r.eligible) << r.config->label;
  EXPECT_TRUE(c.rows[2].best || c.rows[3].best);  // the fastest modelled rows now rank first
  std::ostringstream text, wide;
  print_comparison(text, c, OutputFormat::kTable);
  print_comparison(wide, c, OutputFormat::kTable, true);
  EXPECT_NE(text.str().find("sim = the simulator's"), std::string::npos) << text.str();
  EXPECT_NE(wide.str().find("simulated rows: makespan = wall"), std::string::npos) << wide.str();
  for (const std::string& t : {text.str(), wide.str()}) {
    EXPECT_EQ(t.find("from thread CPU time"), std::string::npos) << t;
    EXPECT_EQ(t.find("- = not ranked"), std::string::npos) << t;
  }
  // A group mixing a real row (another invocation's, read with --all) keeps the host's rules.
  configs[0].simulated = false;
  const Comparison mixed = compare_configs(configs);
  EXPECT_FALSE(mixed.rows[2].eligible);
  EXPECT_FALSE(mixed.rows[3].eligible);
}

TEST(ComparisonTable, FreeHostRanksEverythingByWallTime) {
  const auto configs = group(16, 0.2);
  const Comparison c = compare_configs(configs);
  EXPECT_EQ(c.rows[1].headline, Clock::kWall);
  EXPECT_EQ(c.rows[1].verdict, stats::Verdict::kWinner);
  EXPECT_TRUE(c.rows[2].eligible && c.rows[3].eligible);
  EXPECT_EQ(c.rows[2].verdict, stats::Verdict::kSlower);
  EXPECT_FALSE(c.rows[2].best);
}

TEST(ComparisonTable, MarkedBaselineWinsOverNone) {
  auto configs = group(16, 0.2);
  configs[2].baseline = true;
  const Comparison c = compare_configs(configs);
  EXPECT_EQ(c.rows[0].baseline, "omp_dynamic");
  EXPECT_TRUE(c.rows[2].is_baseline);
  EXPECT_NEAR(c.rows[1].vs_baseline.estimate, 1.0 / 3, 0.01);  // wall: 1 against 3
}

TEST(ComparisonTable, NamedBaselineOverridesTheConfigs) {
  auto configs = group(16, 0.2);
  configs[1].baseline = true;
  const Comparison c = compare_configs(configs, "omp_dynamic");
  EXPECT_EQ(c.rows[0].baseline, "omp_dynamic");
  EXPECT_TRUE(c.rows[2].is_baseline);
  EXPECT_FALSE(c.rows[1].is_baseline);
  EXPECT_NEAR(c.rows[1].vs_baseline.estimate, 1.0 / 3, 0.01);  // wall: 1 against 3
  // A group without the named label has no ratios, not the config's baseline's.
  const Comparison none = compare_configs(configs, "cyclic");
  EXPECT_TRUE(none.rows[0].baseline.empty());
  EXPECT_TRUE(std::isnan(none.rows[0].vs_baseline.estimate));
}

TEST(ComparisonTable, RowsLeftOutKeepTheirRatiosToTheBaseline) {
  // --only block used to compare block alone, without the baseline none: no ratio column.
  const auto configs = group(16, 0.2);  // the rows point into it
  Comparison c = compare_configs(configs);
  Selection only;
  only.only = "^block$";
  EXPECT_EQ(keep_selected(c, only), 3u);
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].baseline, "none");
  EXPECT_NEAR(c.rows[0].vs_baseline.estimate, 0.5, 0.01);
  EXPECT_EQ(c.rows[0].verdict, stats::Verdict::kWinner);  // judged against the rows left out
  std::ostringstream text;
  print_comparison(text, c, OutputFormat::kTable);
  EXPECT_NE(text.str().find("vs none"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("3 rows left out by --only / --exclude"), std::string::npos);
}

// Lines of `text` that start with `prefix`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(prefix)) out.push_back(line);
  return out;
}

TEST(ComparisonTable, CompactRowsFitAndVerificationIsOneLineAWorkload) {
  auto configs = group(16, 0.2);
  auto other = group(16, 0.2);
  for (ConfigResult& c : other) c.workload = "matmul";
  other[1].reps[0].verified = false;
  configs.insert(configs.end(), other.begin(), other.end());
  std::ostringstream compact, wide;
  const Comparison c = compare_configs(configs);
  print_comparison(compact, c, OutputFormat::kTable);
  print_comparison(wide, c, OutputFormat::kTable, true);
  const auto rows = lines_starting(compact.str(), "block_substitution");
  const auto matmul = lines_starting(compact.str(), "matmul");
  ASSERT_EQ(rows.size(), 4u) << compact.str();
  ASSERT_EQ(matmul.size(), 4u) << compact.str();
  for (const auto& r : rows) EXPECT_LT(r.size(), 120u) << r;
  EXPECT_EQ(compact.str().find("sweep"), std::string::npos) << compact.str();  // none swept
  EXPECT_NE(matmul[1].find("unverified"), std::string::npos) << matmul[1];
  const auto verified = lines_starting(compact.str(), "verified: ");
  ASSERT_EQ(verified.size(), 2u) << compact.str();
  EXPECT_EQ(verified[0],
            "verified: block_substitution: every repetition of its 4 rows matched its reference");
  EXPECT_EQ(verified[1], "verified: matmul: NOT every row: block NO (1)");
  // --wide: both clocks and every column, a row well past the compact one.
  for (const auto& r : lines_starting(wide.str(), "block_substitution")) EXPECT_GT(r.size(), 150u);
}

// Simulated rows repeat their values: one repetition each decides them by value, and the
// table says how; repetitions that differ (beyond the decisions' measured time) are judged
// statistically, and the table says that too.
TEST(ComparisonTable, SimulatedRowsAreDecidedByValue) {
  std::vector<ConfigResult> configs = {config("none", {1.0}, {1.0}, 2, 0),
                                       config("block", {0.553}, {0.553}, 2, 0),
                                       config("lpt", {0.553 * (1 + 1e-12)}, {0.553}, 2, 0),
                                       config("cyclic", {0.554}, {0.554}, 2, 0)};
  for (ConfigResult& c : configs) c.simulated = true;
  const Comparison c = compare_configs(configs);
  EXPECT_EQ(c.rows[1].verdict, stats::Verdict::kWinner);
  EXPECT_EQ(c.rows[2].verdict, stats::Verdict::kEquivalent);
  EXPECT_EQ(c.rows[3].verdict, stats::Verdict::kSlower);  // 0.2 % apart: exactly slower
  EXPECT_EQ(c.rows[0].verdict, stats::Verdict::kSlower);
  EXPECT_EQ(c.rows[0].method, stats::Method::kExact);
  EXPECT_NEAR(c.rows[0].vs_baseline.estimate, 1, 1e-12);
  EXPECT_TRUE(c.rows[0].is_baseline);
  EXPECT_NEAR(c.rows[1].vs_baseline.estimate, 0.553, 1e-12);
  std::ostringstream text;
  print_comparison(text, c, OutputFormat::kTable);
  EXPECT_NE(text.str().find("*block"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("exact = simulated rows"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("warning: fewer than"), std::string::npos) << text.str();
  auto varying = group(2, 1.5);
  for (ConfigResult& v : varying) v.simulated = true;
  const Comparison judged = compare_configs(varying);
  EXPECT_NE(judged.rows[0].method, stats::Method::kExact);
  EXPECT_TRUE(std::any_of(judged.notes.begin(), judged.notes.end(), [](auto& n) {
    return n.find("judged statistically") != std::string::npos;
  }));
}

// Rounds pair the rows: a 2 % difference under a round's shared slowdown of up to 40 % is
// slower paired, and undecided once a round is from another invocation (unpaired, said so).
TEST(ComparisonTable, RoundsArePairedAndBrokenRoundsSaySo) {
  const std::vector<double> host = {1.0, 1.4, 0.8, 1.2, 0.9, 1.3, 1.1, 0.85};
  std::vector<double> fast, slow;
  for (std::size_t k = 0; k < host.size(); ++k) {
    fast.push_back(host[k] * (1 + 0.001 * static_cast<double>(k % 3)));
    slow.push_back(host[k] * 1.02 * (1 - 0.001 * static_cast<double>(k % 2)));
  }
  std::vector<ConfigResult> configs = {config("none", slow, slow, 16, 0),
                                       config("block", fast, fast, 16, 0)};
  for (ConfigResult& c : configs)
    for (std::size_t k = 0; k < c.reps.size(); ++k) c.reps[k].round = static_cast<long>(k);
  Comparison c = compare_configs(configs);
  EXPECT_EQ(c.rows[0].method, stats::Method::kPaired);
  EXPECT_EQ(c.rows[0].verdict, stats::Verdict::kSlower);
  EXPECT_EQ(c.rows[1].verdict, stats::Verdict::kWinner);
  EXPECT_NEAR(c.rows[1].vs_baseline.estimate, 1 / 1.02, 0.003);
  configs[0].reps[2].round = 99;
  c = compare_configs(configs);
  EXPECT_EQ(c.rows[0].method, stats::Method::kUnpaired);
  EXPECT_EQ(c.rows[0].verdict, stats::Verdict::kUndecided);
  EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(), [](auto& n) {
    return n.find("rounds are broken") != std::string::npos;
  }));
  std::ostringstream json;
  print_comparison(json, c, OutputFormat::kJson);
  EXPECT_NE(json.str().find("\"verdict\": \"undecided\""), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"compared\": \"unpaired\""), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"delta\": 0.05"), std::string::npos) << json.str();
}

TEST(ComparisonTable, FewRepetitionsWarn) {
  std::vector<ConfigResult> configs = {config("none", {1, 2}, {1, 2}, 16, 0),
                                       config("block", {1, 2}, {1, 2}, 16, 0)};
  const Comparison c = compare_configs(configs);
  EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(),
                          [](auto& n) { return n.starts_with("warning: fewer than 5"); }));
  EXPECT_FALSE(c.rows[0].decided() || c.rows[1].decided());
}

TEST(ComparisonTable, NamesFromAnArchiveAreEscapedOnTheTerminal) {
  // An archive from elsewhere named its runs with escape sequences, which `table` printed raw.
  auto configs = group(16, 0.2);
  configs[0].workload = "tree\x1b]0;owned\x07";
  configs[1].label = "\x1b[2Jblock";
  configs[1].baseline = true;
  configs[2].sweep =
      "n=\xc2\x9b"
      "1";  // U+009B, the one-character CSI
  std::ostringstream text;
  print_comparison(text, compare_configs(configs), OutputFormat::kTable);
  const std::string out = text.str();
  for (const char control : {'\x1b', '\x07'}) EXPECT_EQ(out.find(control), std::string::npos);
  EXPECT_NE(out.find("tree\\x1B]0;owned\\x07"), std::string::npos) << out;
  EXPECT_NE(out.find("\\x1B[2Jblock"), std::string::npos) << out;
  EXPECT_NE(out.find("vs \\x1B[2Jblock"), std::string::npos) << out;  // the baseline's column
  EXPECT_NE(out.find("n=\\x9B1"), std::string::npos) << out;
}

}  // namespace
}  // namespace lbb
