#pragma once
// The notes `lbbench run` prints on stderr before its runs, where what runs is not what the
// reader may assume.
#include <vector>

#include "harness/run/provenance.h"
#include "harness/run/run_selection.h"

namespace lbb {

// Runs whose threads outnumber the cores: the table ranks them by the modelled makespan.
void warn_oversubscribed(const std::vector<PlannedRun>& plan, const Provenance& prov);
// OMP_NUM_THREADS set to other than the runs' processors: it is not used.
void warn_omp_num_threads(const std::vector<PlannedRun>& plan);
// execution.timeline on an executor that measures no spans (only bsp and mpi do).
void warn_timeline_unmeasured(const std::vector<PlannedRun>& plan);
// A trace workload run at other speeds than its files recorded, or whose files recorded external
// load (its costs are taken without it).
void warn_trace_recording(const std::vector<PlannedRun>& plan);

}  // namespace lbb
