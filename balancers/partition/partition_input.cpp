#include "balancers/partition/partition_input.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/text.h"

namespace lbb {

void check_partition_input(std::span<const double> weights, std::span<const double> speeds) {
  if (speeds.empty()) throw std::invalid_argument("a partition needs at least one processor");
  for (std::size_t p = 0; p < speeds.size(); ++p)
    if (!std::isfinite(speeds[p]) || speeds[p] <= 0.0)
      throw std::invalid_argument("processor " + std::to_string(p) + " has speed " +
                                  format_number(speeds[p]) + "; speeds must be positive");
  for (std::size_t m = 0; m < weights.size(); ++m)
    if (!std::isfinite(weights[m]) || weights[m] < 0.0)
      throw std::invalid_argument("module " + std::to_string(m) + " has weight " +
                                  format_number(weights[m]) +
                                  "; weights must be finite and non-negative");
}

}  // namespace lbb
