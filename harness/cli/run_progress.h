#pragma once
// Executing planned runs with one progress line each, and a race's rounds (execution.race).
#include <string>
#include <vector>

#include "harness/analysis/result_set.h"
#include "harness/results/result_writer.h"
#include "harness/run/reference_cache.h"
#include "harness/run/run_selection.h"
#include "harness/run/runner.h"

namespace lbb {

// Runs the plan: one progress line per run on stderr, with an ETA, on a terminal or a log file
// (a Slurm job's) alike; `quiet` keeps only the lines of runs that failed. The references were
// announced for the plan (expect_references).
std::vector<RunOutcome> run_all(const std::vector<PlannedRun>& plan, ResultWriter* writer,
                                const Provenance& prov, bool quiet, ReferenceCache& references);

struct RaceContext {
  ResultWriter* writer = nullptr;
  const Provenance* prov = nullptr;
  double load_at_start = 0;
  bool quiet = false;
  // Runs of these configurations already in the result set (run --resume): judged with the new.
  std::vector<ConfigResult> earlier;
};

// A race over `specs`, round by round, of the runs `allowed` holds (the plan after --slice and
// --resume): each round only the configurations whose verdict is still open, until every one is
// decided, the rounds run out, or the budget (execution.budget, budget_seconds) would be passed.
// Under mpirun the leader decides each round and every rank runs it.
std::vector<RunOutcome> race_all(const std::vector<RunSpec>& specs,
                                 const std::vector<PlannedRun>& allowed, const RaceContext& c);

}  // namespace lbb
