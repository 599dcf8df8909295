#pragma once
// Refuses, before setup, a run whose state cannot fit in this machine's memory (it ended in a
// bare std::bad_alloc, or the OOM killer took it mid-run).
#include <optional>
#include <string>

#include "workloads/workload.h"

namespace lbb {

// Physical memory, or when lower the cgroup's limit (a batch job's allocation) or the process's
// address-space or data limit (ulimit -v, -d).
double machine_memory_bytes();

// Why a run of `info` with `params` on `processors` cannot run here, or empty. From the
// workload's declared state estimate; also the estimate's own refusals (sizes the kernels
// cannot index).
std::optional<std::string> memory_problem(const WorkloadInfo& info, const Params& params,
                                          int processors);

}  // namespace lbb
