#pragma once
// `dynamic: auto`, Zaki, Li & Parthasarathy 1997's customized dynamic load balancing: run the
// first steps without balancing as a profile, predict each candidate scheme's total time with
// the paper's cost model (balancers/in_step/zaki_scheme_prediction.h), run the cheapest, and
// archive every prediction beside what happened (attributes auto_predicted_<candidate>).
#include <string_view>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/in_step/zaki_scheme_prediction.h"
#include "harness/runner.h"
#include "harness/step_record.h"

namespace lbb {

inline constexpr std::string_view kAutoChoice = "auto";

// The entry's parameters (candidates, profile_steps, group_size, latency, bandwidth, profit,
// move_threshold). It is not in the balancer registry (no Balancer object: the runner resolves
// it), so configs find it through find_entry_balancer.
const BalancerInfo& auto_choice_info();
// `auto` or a registered balancer; null when neither.
const BalancerInfo* find_entry_balancer(std::string_view name);
// What make_balancer checks, for `auto` too (its candidates must be known schemes or none).
// Throws ParamError or std::invalid_argument.
void check_entry_balancer(std::string_view name, const Params& given);

bool is_auto_choice(const RunSpec& spec);

// The profile of recorded steps run with no dynamic balancing: per processor its modules' work
// at rate 1 (module cost x speed / (1 + external load)) and its rate (speed / (1 + mean load)).
SchemeProfile profile_from_records(const std::vector<StepRecord>& records,
                                   const std::vector<double>& speeds);

struct AutoPrediction {
  std::string name;  // a candidate: gcdlb, gddlb, lcdlb, lddlb or none
  double total = 0;  // s, predicted for the run's steps
};
std::vector<AutoPrediction> predict_candidates(const Params& auto_params,
                                               const SchemeProfile& profile, int steps);

// Profiles, chooses and runs the chosen scheme as the entry's run (its label, its resolved
// config; `dynamic` is the scheme chosen). Never throws, like execute_run.
RunOutcome execute_auto_run(const RunSpec& spec, int repetition, ArchiveWriter* archive,
                            const Provenance& provenance, ReferenceCache* references);

}  // namespace lbb
