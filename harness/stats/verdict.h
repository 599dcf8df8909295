#pragma once
// Which row of a group of strategies wins, which are equivalent to it, which are slower, and
// which cannot be told yet (docs/results.md, "Verdicts").
#include <string>
#include <vector>

#include "harness/stats/rank_tests.h"

namespace lbb::stats {

enum class Verdict { kNotJudged, kWinner, kEquivalent, kSlower, kUndecided };
// How a row was compared with the best: paired by round, unpaired (its rounds are broken: runs
// of other invocations or hosts), or by value (both deterministic).
enum class Method { kNone, kPaired, kUnpaired, kExact };

const char* verdict_name(Verdict v);  // "winner", "equivalent", "slower", "undecided", ""
const char* method_name(Method m);    // "paired", "unpaired", "exact", ""

struct VerdictRules {
  double alpha = 0.05;      // family-wise error of the group's "slower" verdicts
  double delta = 0.05;      // equivalent: the ratio to the best within [1 - delta, 1 + delta]
  int looks = 1;            // planned looks at the data (racing); each at alpha / looks
  double tolerance = 1e-9;  // relative: deterministic values this close are equal
  double level() const { return alpha / looks; }  // Bonferroni over the looks
};

struct RowSample {
  std::vector<double> values;  // positive times
  std::vector<long> rounds;    // per value: its round (-1: unknown); equal ids pair two rows
  bool deterministic = false;  // cannot vary between repetitions (simulated, fixed seeds)
  double uncertainty = 0;      // s a deterministic value may move: its measured charges
};

// a / b: by value for two deterministic rows constant within the tolerance (the ratio's bounds
// from their uncertainties); paired by round when every value of the shorter row has its
// partner in the other (paired t-test on log ratios, paired_tests.h); else unpaired (Mann-
// Whitney U, Hodges-Lehmann with the Moses interval). The interval at `confidence`.
struct RowComparison {
  Method method = Method::kNone;
  RatioInterval ratio;
  double p = 1;  // two-sided; 1 when compared by value
};
RowComparison compare_rows(const RowSample& a, const RowSample& b, double confidence,
                           double tolerance = 1e-9);

struct RowJudgement {
  Verdict verdict = Verdict::kNotJudged;
  Method method = Method::kNone;
  RatioInterval vs_best;  // this row / the best, at 1 - 2 level() (the equivalence test's)
  double p = 1;           // Holm-adjusted two-sided p against the best (1 for the best)
};

struct GroupJudgement {
  int best = -1;  // -1: no eligible row
  std::vector<RowJudgement> rows;
  bool broken_rounds = false;    // some comparison fell back to the unpaired test
  bool varied_constant = false;  // a deterministic row's values varied: judged statistically
};

// The best row (smallest median among the eligible ones) against every other eligible row.
// Deterministic groups (every eligible row deterministic and constant within the tolerance and
// its uncertainty) compare values, each +- its uncertainty: slower when the ratio's lower bound
// exceeds 1 + tolerance (so with no uncertainty, any difference past the tolerance is slower),
// equivalent when both bounds are within [1 - delta, 1 + delta], else undecided. Otherwise each row
// is paired with the best by round when every value of the shorter row has its partner (paired
// t-test on log ratios, paired_tests.h), else unpaired (Mann-Whitney U, Moses interval). As
// the best is picked from the data, p values are Holm-adjusted (Holm 1979) as a part of the
// family of all the group's pairs, m (m - 1) / 2, at one look; a race's looks, each at
// alpha / looks, leave room for that choice and adjust over the m - 1 comparisons made. Each is
// judged at level(); a row is slower
// when significant, else equivalent when its interval at 1 - 2 level() lies within
// [1 - delta, 1 + delta] (two one-sided tests, Schuirmann 1987), else undecided. The best is
// the winner when every other eligible row is equivalent or slower; one eligible row is not
// judged.
GroupJudgement judge_group(const std::vector<RowSample>& rows, const std::vector<bool>& eligible,
                           const VerdictRules& rules = {});

// Holm's adjusted p-values, in the order given, of the smallest p.size() of a family of
// `family` tests (default: p.size()); the others' p-values unknown, each factor is the largest
// Holm could give, so the family-wise error of the whole family stays within alpha.
std::vector<double> holm_adjust(const std::vector<double>& p, std::size_t family = 0);

}  // namespace lbb::stats
