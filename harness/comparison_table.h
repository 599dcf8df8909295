#pragma once
#include <ostream>
#include <vector>

#include "harness/runner.h"

namespace lbb {

// One row per configuration (medians over its repetitions), best makespan of each
// workload/P/sweep group marked with '*'.
void print_comparison(std::ostream& out, const std::vector<RunOutcome>& outcomes);

}  // namespace lbb
