// harness/stats: intervals that keep their coverage, rank tests that agree with SciPy, and
// verdicts that never star apart what cannot be told apart.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>
#include <vector>

#include "harness/stats/paired_tests.h"
#include "harness/stats/rank_tests.h"
#include "harness/stats/sample_summary.h"
#include "harness/stats/verdict.h"

namespace lbb::stats {
namespace {

std::vector<double> lognormal_sample(std::mt19937_64& rng, std::size_t n, double scale,
                                     double sigma) {
  std::lognormal_distribution<double> d(std::log(scale), sigma);
  std::vector<double> v(n);
  for (double& x : v) x = d(rng);
  return v;
}

TEST(SampleSummary, OrderStatisticRanksAndLevels) {
  // n = 10: [x_(2), x_(9)] covers with 1 - 2 * 11/1024; [x_(3), x_(8)] only 1 - 2 * 56/1024.
  const MedianInterval ten = median_interval_ranks(10);
  EXPECT_EQ(ten.low_rank, 2u);
  EXPECT_EQ(ten.high_rank, 9u);
  EXPECT_NEAR(ten.level, 1 - 22.0 / 1024, 1e-12);
  // n = 5: no order-statistics interval reaches 95 %; [min, max] covers 1 - 2/32.
  const MedianInterval five = median_interval_ranks(5);
  EXPECT_EQ(five.low_rank, 1u);
  EXPECT_EQ(five.high_rank, 5u);
  EXPECT_NEAR(five.level, 0.9375, 1e-12);
  EXPECT_GE(median_interval_ranks(6).level, 0.95);
}

TEST(SampleSummary, SummarizesASample) {
  const std::vector<double> v = {5, 1, 4, 2, 3, 9, 8, 7, 6, 10};
  const SampleSummary s = summarize(v);
  EXPECT_EQ(s.n, 10u);
  EXPECT_DOUBLE_EQ(s.median, 5.5);
  EXPECT_DOUBLE_EQ(s.ci_low, 2);
  EXPECT_DOUBLE_EQ(s.ci_high, 9);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 10);
  EXPECT_NEAR(s.cv, std::sqrt(55.0 / 6) / 5.5, 1e-12);
}

// The interval covers the true median at least as often as it claims, and claims at least 95 %
// from 6 repetitions on (5 cannot: see median_interval_ranks), for a skewed distribution.
TEST(SampleSummary, IntervalCoversTheTrueMedian) {
  std::mt19937_64 rng(2026);
  const int trials = 20000;
  for (std::size_t n = 5; n <= 30; ++n) {
    int covered = 0;
    for (int t = 0; t < trials; ++t) {
      // Exponential(1): median ln 2, strongly skewed like run times with outliers.
      std::exponential_distribution<double> d(1.0);
      std::vector<double> v(n);
      for (double& x : v) x = d(rng);
      const SampleSummary s = summarize(v);
      covered += s.ci_low <= std::log(2.0) && std::log(2.0) <= s.ci_high;
    }
    const double rate = static_cast<double>(covered) / trials;
    const double level = median_interval_ranks(n).level;
    const double se = std::sqrt(level * (1 - level) / trials);
    EXPECT_GE(rate, level - 4 * se) << "n = " << n;
    if (n >= 6) {
      EXPECT_GE(level, 0.95) << "n = " << n;
      EXPECT_GE(rate, 0.95 - 4 * se) << "n = " << n;
    }
  }
}

TEST(RankTests, MannWhitneyAgreesWithSciPy) {
  // scipy.stats.mannwhitneyu 1.10.1, method='exact' / 'asymptotic' (continuity corrected).
  EXPECT_NEAR(mann_whitney_p(std::vector<double>{1.1, 2.3, 0.7, 4.5, 3.3},
                             std::vector<double>{5.1, 6.2, 3.9, 7.7, 4.8, 6.6}),
              0.008658008658008658, 1e-12);
  EXPECT_NEAR(mann_whitney_p(std::vector<double>{3, 1, 2}, std::vector<double>{4, 6, 5}), 0.1,
              1e-12);
  // Ties: the normal approximation with the tie correction.
  EXPECT_NEAR(mann_whitney_p(std::vector<double>{1, 2, 2, 3, 4, 5, 5, 5},
                             std::vector<double>{3, 4, 4, 6, 7, 7, 8, 9, 9}),
              0.01998807854170432, 1e-9);
  // Past the exact limit (30 against 28 values, no ties).
  std::vector<double> a, b;
  for (int i = 0; i < 30; ++i) a.push_back(std::fmod(i * 1.07, 13.0));
  for (int i = 0; i < 28; ++i) b.push_back(std::fmod(i * 1.31, 14.0) + 0.5);
  EXPECT_NEAR(mann_whitney_p(a, b), 0.5234786222769526, 1e-9);
  EXPECT_DOUBLE_EQ(mann_whitney_p(a, a), 1.0);
}

TEST(RankTests, RatioIntervalOfAScaledSample) {
  std::mt19937_64 rng(7);
  const std::vector<double> a = lognormal_sample(rng, 9, 1.0, 0.05);
  std::vector<double> b = a;
  for (double& x : b) x *= 1.2;
  const RatioInterval r = ratio_interval(b, a);
  EXPECT_NEAR(r.estimate, 1.2, 1e-12);  // a pure scale change: every median agrees
  EXPECT_LE(r.low, 1.2);
  EXPECT_GE(r.high, 1.2);
  EXPECT_GT(r.low, 1.0);
  EXPECT_GE(r.level, 0.95);
  const RatioInterval same = ratio_interval(a, a);
  EXPECT_LT(same.low, 1.0);
  EXPECT_GT(same.high, 1.0);
  EXPECT_TRUE(std::isnan(ratio_interval(std::vector<double>{0.0}, a).estimate));
  // 3 against 3: the widest interval covers only 1 - 2/20.
  EXPECT_NEAR(ratio_interval(std::vector<double>{1, 2, 3}, std::vector<double>{2, 3, 4}).level, 0.9,
              1e-12);
}

// The interval of the ratio covers the true ratio as often as it claims.
TEST(RankTests, RatioIntervalCoverage) {
  std::mt19937_64 rng(11);
  const int trials = 4000;
  int covered = 0;
  double level = 0;
  for (int t = 0; t < trials; ++t) {
    const auto a = lognormal_sample(rng, 7, 1.3, 0.1), b = lognormal_sample(rng, 8, 1.0, 0.1);
    const RatioInterval r = ratio_interval(a, b);
    covered += r.low <= 1.3 && 1.3 <= r.high;
    level = r.level;
  }
  EXPECT_GE(level, 0.95);
  EXPECT_GE(static_cast<double>(covered) / trials, level - 4 * std::sqrt(0.05 * 0.95 / trials));
}

TEST(Verdict, HolmAdjustment) {
  const std::vector<double> adj = holm_adjust({0.01, 0.04, 0.03});
  EXPECT_DOUBLE_EQ(adj[0], 0.03);
  EXPECT_DOUBLE_EQ(adj[1], 0.06);
  EXPECT_DOUBLE_EQ(adj[2], 0.06);
}

// Rows given by value, unpaired (no rounds).
std::vector<RowSample> unpaired(const std::vector<std::vector<double>>& rows) {
  std::vector<RowSample> out;
  for (const auto& r : rows) out.push_back({r, {}});
  return out;
}

TEST(Verdict, ExactlyEqualSamplesAreNotCalledApart) {
  const std::vector<double> a = {1.0, 1.1, 0.9, 1.05, 0.95}, slow = {2, 2.1, 1.9, 2.2, 1.8};
  const GroupJudgement v = judge_group(unpaired({a, a, slow}), {true, true, true});
  EXPECT_EQ(v.best, 0);
  EXPECT_NE(v.rows[1].verdict, Verdict::kSlower);
  EXPECT_EQ(v.rows[2].verdict, Verdict::kSlower);
  EXPECT_EQ(v.rows[2].method, Method::kUnpaired);
  EXPECT_EQ(v.rows[0].verdict, Verdict::kUndecided);  // row 1 is neither slower nor equivalent
}

TEST(Verdict, IneligibleRowsAreIgnoredAndOneRowIsNotJudged) {
  const std::vector<double> fast = {0.5, 0.51, 0.49}, one = {1, 1.01, 0.99}, two = {2, 2.1, 1.9};
  const GroupJudgement v = judge_group(unpaired({fast, one, two}), {false, true, true});
  EXPECT_EQ(v.best, 1);
  EXPECT_EQ(v.rows[0].verdict, Verdict::kNotJudged);
  const GroupJudgement alone = judge_group(unpaired({one}), {true});
  EXPECT_EQ(alone.best, 0);
  EXPECT_EQ(alone.rows[0].verdict, Verdict::kNotJudged);
}

// Student's t on d = (0.1, 0.2, 0.15, 0.05): t = 3.873 on 3 degrees of freedom, p = 0.030466
// (the closed form of the t distribution with 3 degrees of freedom), interval mean +- 3.1824 se.
TEST(PairedTests, StudentOnLogRatios) {
  const std::vector<double> b = {1, 2, 4, 8};
  std::vector<double> a;
  const double d[] = {0.1, 0.2, 0.15, 0.05};
  for (int k = 0; k < 4; ++k) a.push_back(b[k] * std::exp(d[k]));
  const PairedRatio r = paired_log_ratio(a, b);
  EXPECT_EQ(r.pairs, 4u);
  EXPECT_NEAR(r.p, 0.030466291662170963, 1e-9);
  EXPECT_NEAR(r.ratio.estimate, 1.1331484530668263, 1e-12);
  EXPECT_NEAR(r.ratio.low, 1.0225371974138309, 1e-9);
  EXPECT_NEAR(r.ratio.high, 1.255724896791294, 1e-9);
  EXPECT_EQ(paired_log_ratio(b, b).p, 1);
  EXPECT_EQ(paired_log_ratio(std::vector<double>{2, 4}, std::vector<double>{1, 2}).p, 0);
  const PairedRatio one = paired_log_ratio(std::vector<double>{2}, std::vector<double>{1});
  EXPECT_DOUBLE_EQ(one.ratio.estimate, 2);
  EXPECT_EQ(one.p, 1);
  EXPECT_FALSE(std::isfinite(one.ratio.high));
  EXPECT_FALSE(std::isfinite(paired_log_ratio(std::vector<double>{-1}, b).ratio.estimate));
}

// Rounds carry a shared host slowdown (sd 0.3 in log): pairing cancels it, so a 3 % difference
// is found in 10 rounds, which the unpaired test cannot see through the host's noise.
TEST(Verdict, PairingCancelsTheRoundsSharedSlowdown) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> host(0, 0.3), own(0, 0.005);
  RowSample fast, slow;
  for (long k = 0; k < 10; ++k) {
    const double h = std::exp(host(rng));
    fast.values.push_back(h * std::exp(own(rng)));
    slow.values.push_back(1.03 * h * std::exp(own(rng)));
    fast.rounds.push_back(k);
    slow.rounds.push_back(k);
  }
  const GroupJudgement paired = judge_group({fast, slow}, {true, true});
  EXPECT_EQ(paired.rows[1].method, Method::kPaired);
  EXPECT_EQ(paired.rows[1].verdict, Verdict::kSlower);
  EXPECT_EQ(paired.rows[0].verdict, Verdict::kWinner);
  EXPECT_FALSE(paired.broken_rounds);
  EXPECT_NEAR(paired.rows[1].vs_best.estimate, 1.03, 0.01);
  // The same values with their rounds broken (one round of the other invocation): unpaired.
  slow.rounds[3] = 99;
  const GroupJudgement broken = judge_group({fast, slow}, {true, true});
  EXPECT_EQ(broken.rows[1].method, Method::kUnpaired);
  EXPECT_TRUE(broken.broken_rounds);
  EXPECT_EQ(broken.rows[1].verdict, Verdict::kUndecided);
}

// Deterministic rows compare by value: any difference past the tolerance is slower, one within
// it equivalent; a measured decision time makes the comparison a bound.
TEST(Verdict, DeterministicRowsAreDecidedExactly) {
  const auto det = [](double v, double u = 0) { return RowSample{{v}, {0}, true, u}; };
  GroupJudgement v = judge_group({det(1.0), det(1.0 + 1e-7), det(1.0 + 1e-12), det(0.553)},
                                 {true, true, true, true});
  EXPECT_EQ(v.best, 3);
  EXPECT_EQ(v.rows[3].verdict, Verdict::kWinner);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(v.rows[i].verdict, Verdict::kSlower) << i;
  EXPECT_EQ(v.rows[0].method, Method::kExact);
  v = judge_group({det(1.0), det(1.0 + 1e-12)}, {true, true});
  EXPECT_EQ(v.rows[1].verdict, Verdict::kEquivalent);
  EXPECT_EQ(v.rows[0].verdict, Verdict::kWinner);
  // 1.0 and 1.01, each +- 0.02 of measured decisions: neither slower nor within 2 %.
  VerdictRules rules;
  rules.delta = 0.02;
  v = judge_group({det(1.0, 0.02), det(1.01, 0.02)}, {true, true}, rules);
  EXPECT_EQ(v.rows[1].verdict, Verdict::kUndecided);
  v = judge_group({det(1.0, 0.001), det(1.01, 0.001)}, {true, true}, rules);
  EXPECT_EQ(v.rows[1].verdict, Verdict::kSlower);
  // A "deterministic" row whose repetitions differ is judged statistically, and says so.
  const RowSample varies{{1.0, 1.2, 0.9}, {0, 1, 2}, true};
  v = judge_group({varies, det(2.0)}, {true, true});
  EXPECT_TRUE(v.varied_constant);
  EXPECT_NE(v.rows[1].method, Method::kExact);
}

}  // namespace
}  // namespace lbb::stats
