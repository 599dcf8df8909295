#pragma once
// Input checks shared by every static partitioner, so each refuses bad weights and speeds with
// the same clear message whether it is called from a run, the CLI, a test or a benchmark.
#include <span>

namespace lbb {

// Throws std::invalid_argument unless there is at least one processor, every speed is finite
// and positive and every weight is finite and non-negative. No weights at all is accepted (the
// partition is then empty).
void check_partition_input(std::span<const double> weights, std::span<const double> speeds);

}  // namespace lbb
