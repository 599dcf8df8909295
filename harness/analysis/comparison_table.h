#pragma once
// The comparison of strategies: per configuration, both clocks' medians with their intervals,
// the ratio to the group's baseline, and the verdict of each workload / processors / sweep group
// on the clock this host can measure honestly.
#include <ostream>
#include <string>
#include <vector>

#include "harness/analysis/result_set.h"
#include "harness/stats/rank_tests.h"
#include "harness/stats/sample_summary.h"
#include "harness/stats/verdict.h"

namespace lbb {

enum class Clock { kModelled, kWall };
enum class OutputFormat { kTable, kCsv, kJson };

// Which clock ranks a group of P processors: wall time when the host had at least P free cores
// (available processors less the load average, rounded), else the modelled makespan; a
// simulated group's one clock, the model's, whatever the host.
struct Headline {
  Clock clock = Clock::kModelled;
  std::string reason;      // one line for the footer
  bool simulated = false;  // the simulator's clock: it orders every strategy it models
};
Headline choose_headline(int processors, int available, double load_average,
                         bool simulated = false);

// Whether the modelled makespan orders this strategy as real cores do when the host is
// oversubscribed: bulk-synchronous strategies that balance between steps. In-step schedules
// and the fastest-finish schemes (Zaki, Li & Parthasarathy 1997: gcdlb, gddlb, lcdlb, lddlb) it
// misorders.
// It does order them where every verified repetition has a replayed makespan
// (harness/run/modelled_replay.h): modelled_by_replay.
bool modelled_makespan_orders(const ConfigResult& c);
// Whether the configuration's modelled clock is its replay: a strategy the recorded makespan
// misorders, replayed at P modelled processors in every verified repetition.
bool modelled_by_replay(const ConfigResult& c);
// A repetition's value on the modelled clock: its replayed makespan where c is modelled by
// replay, else its recorded makespan.
double modelled_value(const Repetition& r, const ConfigResult& c);

// A simulated row's verification: it ran no kernel, so neither matched nor failed.
inline constexpr const char* kNotVerifiedSimulated = "not verified: simulated";

struct ComparisonRow {
  const ConfigResult* config = nullptr;
  stats::SampleSummary makespan, wall;  // over the verified repetitions
  double ideal = 0, efficiency = 0, imbalance = 0, migrations = 0, megabytes = 0, balance = 0;
  double largest_module = 0;  // s: no strategy beats the largest module (0: costs not recorded)
  // Which lower bound binds, the ideal (work spread by speed) or the largest module's: "ideal",
  // "module".
  const char* binds() const { return largest_module > ideal ? "module" : "ideal"; }
  std::string attributes;  // the workload's run attributes, "  name=value" (medians)
  // yes, kNotVerifiedSimulated (every repetition complete, none with a kernel to check), NO (k),
  // FAILED: reason
  std::string verified;
  // Every repetition counts: matched its reference, or simulated (nothing to verify).
  bool complete() const;
  // makespan holds the replayed values (modelled_by_replay above): the table marks the row
  bool modelled_by_replay = false;
  Clock headline = Clock::kModelled;
  std::string baseline;  // the group's baseline label; empty: none
  bool is_baseline = false;
  stats::RatioInterval vs_baseline;  // headline clock, this row / the baseline
  bool eligible = false, best = false;
  stats::Verdict verdict = stats::Verdict::kNotJudged;  // winner, equivalent, slower, undecided
  stats::Method method = stats::Method::kNone;          // how it was compared with the best
  stats::RatioInterval vs_best;  // headline clock, this row / the best (equivalence interval)
  double p_vs_best = 1;          // Holm-adjusted p against the group's best
  double delta = 0;              // the equivalence margin it was judged with
  bool decided() const {
    return verdict == stats::Verdict::kWinner || verdict == stats::Verdict::kEquivalent ||
           verdict == stats::Verdict::kSlower;
  }
};

struct Comparison {
  std::vector<ComparisonRow> rows;
  std::vector<std::string> notes;  // the footer, one line each
};

// A row's group: workload, P and sweep point; the rows of one group are judged together.
std::string group_key(const ConfigResult& c);

// `baseline`: the label every group's ratios are taken against (a group without it has none);
// empty: the config's `baseline: true` row, else `none`.
Comparison compare_configs(const std::vector<ConfigResult>& configs,
                           const std::string& baseline = "");
// Drops the rows `selection` does not keep, after the comparison judged them all (so that a
// filtered-out baseline still gives the ratios); a note says how many. Returns that number.
std::size_t keep_selected(Comparison& c, const Selection& selection);
// The table is compact (one clock, its ratio and verdict; under 120 characters a row) unless
// `wide`, which shows every column. CSV and JSON always carry every field.
void print_comparison(std::ostream& out, const Comparison& c, OutputFormat format,
                      bool wide = false);

}  // namespace lbb
