#pragma once
// Under mpirun every rank runs the same runs: those the leader chose (under --resume, what the
// leader's result set lacks, which only the leader reads).
#include <vector>

#include "harness/run/run_selection.h"

namespace lbb {

// `chosen` (the leader's; ignored on the other ranks) as places in `all`, the whole plan every
// rank computes alike, shared from the leader: each rank's runs at those places.
std::vector<PlannedRun> leaders_selection(const std::vector<PlannedRun>& chosen,
                                          const std::vector<PlannedRun>& all);

}  // namespace lbb
