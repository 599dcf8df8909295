#pragma once
// An assignment maps every module to one processor: owner[m] in [0, P).
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lbb {

using Owners = std::vector<int>;

// Empty when owner covers exactly `modules` modules, each on a processor in [0, processors).
std::optional<std::string> assignment_error(std::span<const int> owner, int modules,
                                            int processors);

// Load of each processor: sum of its modules' costs divided by its speed.
std::vector<double> processor_loads(std::span<const int> owner, std::span<const double> cost,
                                    std::span<const double> speed);

// Largest processor load (the bottleneck of a partition).
double bottleneck(std::span<const int> owner, std::span<const double> cost,
                  std::span<const double> speed);

// Modules of each processor, in increasing module order.
std::vector<std::vector<int>> modules_by_processor(std::span<const int> owner, int processors);

// True when every processor holds one contiguous, in-order range of modules (chain partitions),
// processor k's range preceding processor k+1's.
bool is_contiguous_chain(std::span<const int> owner, int processors);

}  // namespace lbb
