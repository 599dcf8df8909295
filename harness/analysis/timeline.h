#pragma once
// A run as a Chrome trace-event JSON timeline (the format Perfetto, speedscope and
// chrome://tracing read): a process per MPI rank (pid), a thread per processor (tid), every slice
// a complete event ("X") in integer microseconds (floored from nanoseconds, so that no slice of a
// track overlaps the next: each ends where or before the next begins, exactly).
// Measured where the run recorded its timeline (execution.timeline: the spans table): each module
// execution, decision, migration, wait and serial end of step as it happened. Modelled otherwise,
// from the recorded module costs (execution.record: modules): a processor runs its modules of a
// phase back to back in module order from the phase's start, a phase ends when its slowest
// processor does, and the step's serial work and decision time follow; each migration an instant
// event ("i") on the receiving track, each step's decision a global instant event. The file's
// otherData.times says which ("measured" or "modelled").
#include <string>
#include <vector>

#include "harness/results/result_reader.h"

namespace lbb {

// The runs a timeline can be drawn of: complete runs that recorded their timeline or their
// modules, or `only` when given (TraceError when it is not in the set).
std::vector<const RunRecord*> runs_with_timeline(const ResultReader& set, const std::string& only);

// Throws TraceError when the run has neither a measured timeline nor module detail.
std::string chrome_timeline(const ResultReader& set, const RunRecord& run);

}  // namespace lbb
