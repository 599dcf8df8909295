#pragma once
// A config's expectations (the paper's numbers) judged against archived runs: per row the
// measured value, the paper's, and a verdict (exact, trend holds, differs with the difference,
// no runs, not built).
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "harness/results/result_reader.h"
#include "harness/config/expectations.h"

namespace lbb {

enum class VerdictKind { kExact, kTrendHolds, kDiffers, kNoRuns, kNotBuilt };

struct ExpectationResult {
  const Expectation* expectation = nullptr;
  std::optional<double> measured;  // the median (or ratio of medians, or auto figure)
  double low = 0, high = 0;        // the smallest and largest run's value (plain metrics)
  int runs = 0;                    // runs counted
  VerdictKind kind = VerdictKind::kNoRuns;
  std::string verdict;  // what is printed: "exact", "trend holds (+12 %)", "differs: +0.1 (+20 %)"
};

// True when the run matches every key = value of `where` (balancer label, workload kind, any
// text or numeric attribute, or a swept key of the run's sweep).
bool run_matches(const RunInfo& run, const Selector& where);

// Only complete runs count.
std::vector<ExpectationResult> judge_expectations(const std::vector<Expectation>& rows,
                                                  const std::vector<RunInfo>& runs);

// The table: row, metric, measured [min-max] (runs), paper, verdict; then a count per verdict.
void print_expectations(std::ostream& out, const std::vector<ExpectationResult>& results);

}  // namespace lbb
