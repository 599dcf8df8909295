#pragma once
// Runs one RunSpec end to end: workload -> static balancer -> steps on threads (with the dynamic
// balancer between them) -> verification -> its row and records in a result set.
#include <functional>
#include <string>
#include <vector>

#include "harness/base/run_spec.h"
#include "harness/results/result_writer.h"
#include "harness/run/provenance.h"
#include "harness/run/reference_cache.h"
#include "harness/run/run_costs.h"
#include "harness/run/run_summary.h"
#include "workloads/workload.h"

namespace lbb {

struct RunOutcome {
  const RunSpec* spec = nullptr;
  int repetition = 0;
  std::string run_id;  // empty when not written to a result set
  RunSummary summary;
  Verification verification;
  std::string error;  // non-empty when the run failed before verification
  // Its row of the runs table, written or not: with the workload's, executor's and balancers'
  // figures (e.g. tree node counts).
  RunRecord record;
  RunCosts costs;
  bool ok() const { return error.empty() && verification.passed; }
};

// True when the run's P threads outnumber the host's available cores (never a simulated run's).
bool runs_oversubscribed(const RunSpec& spec, const Provenance& provenance);

// A way to run an entry other than through its executor alone, registered from above (the
// runner knows no paper): `dynamic: auto` is told the run's step count first
// (harness/papers/auto_choice.h).
struct EntryRunner {
  std::function<bool(const RunSpec&)> claims;
  // The serial references it takes besides the spec's own.
  std::function<std::vector<RunSpec>(const RunSpec&)> extra_references;
  // Never throws, like execute_run.
  std::function<RunOutcome(const RunSpec&, int repetition, ResultWriter*, const Provenance&,
                           ReferenceCache*)>
      run;
};
// Adds `runner`; one whose claims a spec has run it. Call before the first run.
void register_entry_runner(EntryRunner runner);

// Announces to `references` the serial references the run will take: its problem's, and any its
// entry runner takes.
void expect_references(ReferenceCache& references, const RunSpec& spec);

// Never throws for a failure of the run itself: the outcome says what happened, and its record
// (written to `results` when given) is marked "failed" with the reason. The run is verified against
// the reference `references` holds for its problem (computed there once), or one computed for it
// alone. `figures` join the record's figures beside the workload's and the balancers'.
RunOutcome execute_run(const RunSpec& spec, int repetition, ResultWriter* results,
                       const Provenance& provenance, ReferenceCache* references = nullptr,
                       const std::vector<WorkloadAttribute>& figures = {});

}  // namespace lbb
