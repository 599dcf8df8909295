#pragma once
// `dynamic: auto`, Zaki, Li & Parthasarathy 1997's customized dynamic load balancing
// (balancers/choice/auto.h): one run, which decides at its first synchronisation and continues
// with the scheme it chose, so the profile is in the run's own measured time. The runner tells
// the cost model how many steps the run has (horizon_steps) and records what it predicted and
// chose (attributes auto_predicted_<candidate>, auto_chose_<candidate>, auto_decision_step).
#include "harness/run/runner.h"

namespace lbb {

// An auto entry whose horizon_steps is not set (0).
bool is_auto_choice(const RunSpec& spec);

// The spec with horizon_steps set to the run's steps, warm-up included.
RunSpec with_run_horizon(const RunSpec& spec);

// Runs with_run_horizon(spec) as the entry's run. Never throws, like execute_run.
RunOutcome execute_auto_run(const RunSpec& spec, int repetition, ResultWriter* writer,
                            const Provenance& provenance, ReferenceCache* references);

// Registers execute_auto_run with the runner (harness/run/runner.h) for `dynamic: auto` entries;
// once, however often called. `lbbench run` calls it; so must a test that runs such an entry.
void register_auto_choice();

}  // namespace lbb
