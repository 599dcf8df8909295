#pragma once
// The runs an expectation row counts, as samples the verdicts' comparison pairs
// (harness/stats/verdict.h): each value keyed by its trial (the run's swept values but the
// row's own keys: `seed=7`) and its round (invocation, host, repetition), so that two rows' runs
// of one seeded trial and round pair, as Iqbal, Saltz & Bokhari 1986 seed their trials alike.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/config/expectations.h"
#include "harness/results/result_reader.h"
#include "harness/stats/verdict.h"

namespace lbb {

// What the judge needs of a run besides its attributes, computed once per run.
struct RunFacts {
  bool simulated = false;           // its executor simulates: the value is deterministic
  bool measured_decisions = false;  // simulated, and charged its decisions' measured CPU time
  std::string recording;            // a replay: the result set it replays
};
using RunFactsMap = std::map<const RunRecord*, RunFacts>;
RunFactsMap run_facts(const std::vector<RunRecord>& runs);

// A plain number ("0.5", "2e3"); nullopt for any other text.
std::optional<double> parse_number(const std::string& text);

// The run's round (invocation, host, repetition) as the verdicts' pairing id.
long run_round(const RunRecord& run);

// The complete runs matching every key = value of `where`.
std::vector<const RunRecord*> select_runs(const std::vector<RunRecord>& runs,
                                          const Selector& where);

// A key's value for a run: a text or numeric attribute, a swept key, or a parameter of the
// balancer's label ("block+predictive(safety_factor=2)").
std::optional<std::string> run_value(const RunRecord& run, const std::string& key);

// A row's values with their pairing keys and whether they can vary.
struct KeyedSample {
  stats::RowSample sample;
  std::vector<std::string> trials;  // per value: its trial ("" when nothing is swept)
  std::string recording;            // every run replays this one result set ("" otherwise)
  double relative_uncertainty = 0;  // deterministic: how far a value may move, as its share
};
// The metric of each run (finite values only), keyed by trial and round; the trial leaves out
// `where`'s keys, `over` and the balancer's own parameters. Deterministic when every run is
// simulated; its uncertainty then the largest share of a run's time its measured decisions
// took, times the value.
KeyedSample keyed_sample(const std::vector<const RunRecord*>& runs, const std::string& metric,
                         const Selector& where, const RunFactsMap& facts,
                         const std::string& over = "");

// The number of distinct trials among the values that pair.
int distinct_trials(const std::vector<std::string>& trials);

}  // namespace lbb
