#pragma once
// The repetitions of each configuration, from a live `lbbench run` or read back from a result set:
// what the comparison table and `lbbench compare` judge.
#include <limits>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "harness/results/result_reader.h"
#include "harness/run/runner.h"

namespace lbb {

struct Repetition {
  double makespan = 0, wall = 0, ideal = 0, largest_module = 0, efficiency = 0, imbalance = 0,
         migrations = 0, megabytes = 0, balance = 0;
  // s, replayed_makespan_total: an in-step run's costs replayed at P modelled processors; NaN: none
  double replayed_makespan = std::numeric_limits<double>::quiet_NaN();
  bool verified = false;
  long round = -1;    // the round it ran in: equal ids pair strategies (one invocation and host)
  std::string error;  // non-empty: the run failed before verification
  std::vector<std::pair<std::string, double>> attributes;  // the workload's (live runs only)
};

struct ConfigResult {
  std::string workload, label, sweep, static_name, dynamic_name, schedule_name;
  int processors = 1;
  bool baseline = false;  // marked `baseline: true` in the config
  // Results read back: the resolved configuration less name, output and repetitions, which
  // `compare` matches between sets. Live results leave it empty: a YAML parse a run.
  std::string match_key;
  bool simulated = false;  // a simulating executor's runs: no threads ran, one clock (the model's)
  // Simulated runs repeat their value (nothing varies per repetition) but for the decisions'
  // measured CPU time, when charged (execution.sim_decision: measured).
  bool measured_decisions = true;
  double equivalence = 0.05;  // execution.equivalence: the verdicts' delta
  int looks = 1;              // a race's planned looks (harness/stats/racing.h); 1: none
  int available = 0;          // processors the host offered, and its load average, at invocation
  double load_average = 0;
  std::vector<Repetition> reps;
};

// Which runs to read: --only / --exclude match balancer labels and workload kinds (ECMAScript
// regular expressions, searched anywhere in the name).
struct Selection {
  std::string only, exclude;
  std::string invocation;  // a result set's: "" every invocation, "latest", or an id
  bool selects(const std::string& workload, const std::string& label) const;
};

// A run's row of the table, live or read back: `simulated` whether a simulating executor ran it
// (nothing to verify), `with_figures` whether its figures go on the row.
Repetition repetition_of(const RunRecord& run, bool simulated, bool with_figures);
// `load_at_start`: the host's 1-minute load average before the invocation's first run.
std::vector<ConfigResult> results_from_outcomes(const std::vector<RunOutcome>& outcomes,
                                                const Provenance& prov, double load_at_start);
// The selected runs of a result set. An invocation's load average at start is its runs'
// smallest load_start (later runs' readings include the invocation's own threads). `read`
// counts the runs and invocations selected.
struct ReadCount {
  std::size_t runs = 0, invocations = 0;
};
std::vector<ConfigResult> results_from_set(const ResultReader& set, const Selection& s,
                                           ReadCount* read = nullptr);
// Whether a simulating executor ran the run (its `simulated` column, or in an older set its
// executor's entry): it verified nothing, and is neither matched nor failed.
bool simulated_run(const RunRecord& run);

// From one parse of a resolved config: the config less what does not change what runs (name,
// output, repetitions and the verdicts' and race's keys), whether its first balancer is the
// baseline, and the keys the verdicts read. A text that does not parse is its own key, with no
// baseline.
struct ConfigKey {
  std::string match;
  bool baseline = false;
  bool measured_decisions = true;  // execution.sim_decision
  double equivalence = 0.05;       // execution.equivalence
  int looks = 1;                   // execution.race's planned looks
};

// A race's planned looks at its rounds; 1 when the spec does not race.
int planned_looks(const RunSpec& spec);
ConfigKey config_key(const std::string& resolved_yaml);

}  // namespace lbb
