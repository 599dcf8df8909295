#pragma once
// Which runs of a config an invocation executes: all of them in round-robin order, one slice of
// them (`run --slice i/n`, one node of many), or those a result set lacks (`run --resume`).
#include <string>
#include <vector>

#include "harness/base/run_spec.h"
#include "harness/results/result_reader.h"

namespace lbb {

struct PlannedRun {
  const RunSpec* spec;
  int repetition;
};

// Repetitions go round-robin over the configurations, so a slow spell of a shared machine lands
// on every strategy alike instead of on one.
std::vector<PlannedRun> plan_runs(const std::vector<RunSpec>& specs);

// A simulated run repeats its value (no seed varies per repetition; only a measured decision
// time may move, which the verdict bounds): specs that simulate run one repetition. Returns how
// many were cut, and the most repetitions asked of them.
struct DeterministicCut {
  int configurations = 0, asked = 1;
};
DeterministicCut once_if_deterministic(std::vector<RunSpec>& specs);

struct Slice {
  int index = 0;  // 0 <= index < count
  int count = 1;
};
// "i/n" with 0 <= i < n; throws std::invalid_argument otherwise (the empty text too).
Slice parse_slice(const std::string& text);
// Runs k of the plan with k % count == index: deterministic, and the slices of one plan are
// disjoint and together the whole plan.
std::vector<PlannedRun> slice_of(const std::vector<PlannedRun>& plan, Slice slice);
// A race's slices (execution.race): whole groups (workload, P, sweep point), group g of the plan
// in slice g % count, since a race judges a group's rows together.
std::vector<PlannedRun> slice_groups_of(const std::vector<PlannedRun>& plan, Slice slice);

// The plan less the runs the result set already holds complete or failed (matched by resolved
// config and repetition, each recorded run standing for one planned run). Partial runs, left
// by an interrupted invocation, are run again.
std::vector<PlannedRun> missing_from(const std::vector<PlannedRun>& plan,
                                     const std::vector<RunRecord>& recorded);

}  // namespace lbb
