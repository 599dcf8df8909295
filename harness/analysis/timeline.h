#pragma once
// A run recorded with module detail as a Chrome trace-event JSON timeline (the format Perfetto and
// chrome://tracing open): process 0 is the run, thread p processor p. Each module execution is a
// complete event ("X") on its owner's track; each migration an instant event ("i") on the
// receiving track; each step's balancing decision a global instant event with the step's
// decision time, migrations and predicted makespans. Times are modelled from the recorded costs:
// a processor runs its modules of a phase back to back in module order from the phase's start,
// a phase ends when its slowest processor does, and the step's serial work and decision time
// follow (a result set holds costs and owners, not start times).
#include <string>

#include "harness/results/result_reader.h"

namespace lbb {

// Throws TraceError when the run has no module detail.
std::string chrome_timeline(const ResultReader& set, const RunInfo& run);

}  // namespace lbb
