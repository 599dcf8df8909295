#pragma once
// `dynamic: auto`, Zaki, Li & Parthasarathy 1997's customized dynamic load balancing: run the
// first steps without balancing as a profile, predict each candidate scheme's total time with
// the paper's cost model (balancers/in_step/zaki_scheme_prediction.h), run the cheapest, and
// archive every prediction beside what happened (attributes auto_predicted_<candidate>).
#include <string_view>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/choice/auto.h"
#include "balancers/in_step/zaki_scheme_prediction.h"
#include "harness/base/step_record.h"
#include "harness/run/runner.h"

namespace lbb {

bool is_auto_choice(const RunSpec& spec);

// What the step records do not show: the bytes a migration copies (the mean module state), and
// for a workload of several phases (TRFD's two), each module's share of its step cost in each
// phase, from the workload's predicted phase weights: every phase synchronises and is balanced
// on its own, so each is predicted as a step of its own.
struct ProfileShape {
  double bytes_per_module = 0;
  std::vector<std::vector<double>> phase_share;  // [phase][module]; empty: one phase
};
ProfileShape profile_shape(const RunSpec& spec);

// The profile of recorded steps run with no dynamic balancing, one per phase: per processor its
// modules' work at rate 1 (module cost x speed / (1 + external load), times the phase's share)
// and its rate (speed / (1 + mean load)).
std::vector<SchemeProfile> profile_from_records(const std::vector<StepRecord>& records,
                                                const std::vector<double>& speeds,
                                                const ProfileShape& shape);

struct AutoPrediction {
  std::string name;  // a candidate: gcdlb, gddlb, lcdlb, lddlb or none
  double total = 0;  // s, predicted for the run's steps
};
// Each candidate's total: the sum over the phases' profiles.
std::vector<AutoPrediction> predict_candidates(const Params& auto_params,
                                               const std::vector<SchemeProfile>& phases, int steps);

// The profile an auto entry runs first: its static start, no dynamic balancing, `profile_steps`
// steps, module costs recorded. Its serial reference is shared like a run's (ReferenceCache).
RunSpec auto_profile_spec(const RunSpec& spec);

// Profiles, chooses and runs the chosen scheme as the entry's run (its label, its resolved
// config; `dynamic` is the scheme chosen). Never throws, like execute_run.
RunOutcome execute_auto_run(const RunSpec& spec, int repetition, ResultWriter* archive,
                            const Provenance& provenance, ReferenceCache* references);

// Registers execute_auto_run with the runner (harness/run/runner.h) for `dynamic: auto` entries;
// once, however often called. `lbbench run` calls it; so must a test that runs such an entry.
void register_auto_choice();

}  // namespace lbb
