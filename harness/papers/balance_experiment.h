#pragma once
// A paper config whose experiment is one balancer decision on integer work units per processor
// (Horton 1993's serial runs of his Algorithms 1 and 2; `lbbench balance` runs one such case).
// Its `balance_cases:` replace workload, platform and balancers; `expectations:` select a case
// by its `case` label. Deterministic, so `lbbench expect` computes the cases instead of reading
// a result set.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "harness/analysis/balance_report.h"
#include "harness/config/expectations.h"
#include "harness/results/result_reader.h"

namespace lbb {

struct BalanceCase {
  std::string label;
  BalanceRequest request;
  // The paper's tables for this case, phase by phase (empty: not given): the load vector after
  // each phase (Horton's Tables 3 and 4), and each phase's transfers (units, from, to; Table 2).
  std::vector<std::vector<std::int64_t>> table_loads;
  std::vector<std::vector<std::vector<std::int64_t>>> table_transfers;
};

struct BalanceExperiment {
  std::string name;
  std::vector<BalanceCase> cases;
  std::vector<Expectation> expectations;
};

// True when the YAML text is a balance experiment (it has `balance_cases:`).
bool is_balance_experiment(const std::string& yaml_text);

// Reads one; problems are reported with file:line:col. Throws ConfigError.
BalanceExperiment load_balance_experiment(const std::string& yaml_text, const std::string& path);

// A case's decision as a run, for the expectations: run (the case's label, which `case:` selects),
// name, balancer (the method), topology, status, processors, imbalance (here the 2-norm from the
// balanced vector); figures phases, units_moved and, when the case gives the paper's table,
// load_phases_as_paper / transfer_phases_as_paper: how many phases, from the first, equal the
// table's (the table's length when all do). `differs`: where they part ("loads at phase 3: ...").
struct BalanceCaseRun {
  RunRecord run;
  std::vector<std::string> differs;
};

// Each case's decision. Throws std::invalid_argument or ParamError naming the case.
std::vector<BalanceCaseRun> run_balance_cases(const BalanceExperiment& experiment);

// The cases' figures, then the expectation table with a verdict per row; where a case's phases
// leave its table, the first such phase beside the paper's.
void print_balance_experiment(std::ostream& out, const BalanceExperiment& experiment,
                              const std::vector<BalanceCaseRun>& cases);

}  // namespace lbb
