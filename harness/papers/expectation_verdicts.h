#pragma once
// A config's expectations (the paper's numbers) judged against recorded runs. Per row: the
// measured median, the paper's number with the tolerance it carries (its printed precision or a
// stated spread), the value's verdict (exact within that tolerance, or differs), and the order
// against the row's trend group, decided as the comparison table decides (harness/stats/
// verdict.h: paired by trial and round where every run has its partner, else Mann-Whitney U; by
// value for simulated runs) and Holm-adjusted: holds, tied, differs. A monotone row's claim over
// a swept key is judged step by step. Rows true by construction (context) and rows resting on a
// choice the paper leaves open are shown but not counted.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "harness/config/expectations.h"
#include "harness/results/result_reader.h"

namespace lbb {

enum class VerdictKind { kExact, kHolds, kTied, kDiffers, kNoRuns, kNotBuilt, kContext };

// A row's order against the other rows of its trend group.
enum class OrderKind { kNone, kHolds, kTied, kDiffers };

struct ExpectationResult {
  const Expectation* expectation = nullptr;
  std::optional<double> measured;   // the median (or ratio of medians, or auto figure)
  double low = 0, high = 0;         // the smallest and largest run's value (plain metrics)
  int runs = 0;                     // runs counted
  std::vector<double> samples;      // one value per run (relative_to: base median / run's value)
  std::vector<long> rounds;         // per sample: its trial and round; equal ids pair two rows
  std::vector<std::string> trials;  // per sample: its swept values but the row's own keys
  bool deterministic = false;       // every run simulated: compared by value
  double uncertainty = 0;           // deterministic: how far a sample may move (its decisions)
  std::string recording;            // every run replays this one result set ("": none, or several)
  double tolerance = 0;             // half-width of "exact" (value rows)
  OrderKind order = OrderKind::kNone;
  VerdictKind kind = VerdictKind::kNoRuns;
  bool counted = true;     // false: context or open choice
  std::string unmeasured;  // why there is no value although there are runs
  std::string verdict;     // printed: "exact; order holds against ...", "differs by +0.1 (+20 %)"
};

// True when the run matches every key = value of `where` (balancer label, workload kind, any
// text or numeric attribute, or a swept key of the run's sweep).
bool run_matches(const RunRecord& run, const Selector& where);

// Only complete runs count. An order is significant at `alpha` after Holm's adjustment over the
// row's comparisons.
std::vector<ExpectationResult> judge_expectations(const std::vector<Expectation>& rows,
                                                  const std::vector<RunRecord>& runs,
                                                  double alpha = 0.05);
// The results point into `rows`, which must outlive them.
std::vector<ExpectationResult> judge_expectations(std::vector<Expectation>&&,
                                                  const std::vector<RunRecord>&,
                                                  double = 0.05) = delete;

// Counted rows per verdict, the rows shown but not counted, and the counted rows that differ.
struct VerdictSummary {
  int exact = 0, holds = 0, tied = 0, differs = 0, no_runs = 0, not_built = 0;
  int context = 0, open_choices = 0;
  std::vector<const ExpectationResult*> differing;
};
VerdictSummary summarize_verdicts(const std::vector<ExpectationResult>& results);

// The table: row, metric, measured [min-max] (runs), paper, +- tolerance, verdict; the stated
// tolerances' sources and the open choices; then the counts, and each cause of the differing
// rows once with the rows it explains.
void print_expectations(std::ostream& out, const std::vector<ExpectationResult>& results);

}  // namespace lbb
