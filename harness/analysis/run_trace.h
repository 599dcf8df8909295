#pragma once
// A run recorded with its modules (execution.record: modules) as a Trace, for the exporters:
// step s, phase f of a workload of F phases -> trace step s F + f; module m -> task m; its owner
// and cost (s, on its owner) as recorded; each processor's busy time (one-phase runs); what a
// move of the module copies, the module structure and centres and the workload's communication
// graph, from the workload its resolved config builds.
#include "harness/formats/trace.h"
#include "harness/results/result_reader.h"

namespace lbb {

// Throws TraceError naming the run when it has no module detail or its workload cannot be built;
// `warning`, where given, says what the trace holds only approximately ("" where nothing).
Trace trace_of_run(const ResultReader& set, const RunRecord& run, std::string* warning = nullptr);

// The runs of `set` with module detail, or `only` when given (TraceError when it is not there).
std::vector<const RunRecord*> runs_with_modules(const ResultReader& set, const std::string& only);

}  // namespace lbb
