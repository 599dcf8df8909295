#pragma once
// Runs one RunSpec end to end: workload -> static balancer -> steps on threads (with the dynamic
// balancer between them) -> verification -> archive.
#include <string>

#include "harness/archive/archive.h"
#include "harness/config/run_spec.h"
#include "harness/provenance.h"
#include "harness/run_summary.h"
#include "workloads/workload.h"

namespace lbb {

struct RunOutcome {
  const RunSpec* spec = nullptr;
  int repetition = 0;
  std::string run_id;  // empty when not archived
  RunSummary summary;
  Verification verification;
  bool oversubscribed = false;
  double run_wall = 0;
  std::string error;  // non-empty when the run failed before verification
  bool ok() const { return error.empty() && verification.passed; }
};

// Never throws for a failure of the run itself: the outcome says what happened, and an
// archived run is marked "failed" with the reason.
RunOutcome execute_run(const RunSpec& spec, int repetition, ArchiveWriter* archive,
                       const Provenance& provenance);

}  // namespace lbb
