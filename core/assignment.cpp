#include "core/assignment.h"

#include <algorithm>

namespace lbb {

std::optional<std::string> assignment_error(std::span<const int> owner, int modules,
                                            int processors) {
  if (static_cast<int>(owner.size()) != modules)
    return "assignment covers " + std::to_string(owner.size()) + " modules, expected " +
           std::to_string(modules);
  for (std::size_t m = 0; m < owner.size(); ++m)
    if (owner[m] < 0 || owner[m] >= processors)
      return "module " + std::to_string(m) + " assigned to processor " + std::to_string(owner[m]) +
             " outside [0, " + std::to_string(processors) + ")";
  return std::nullopt;
}

std::vector<double> processor_loads(std::span<const int> owner, std::span<const double> cost,
                                    std::span<const double> speed) {
  std::vector<double> load(speed.size(), 0.0);
  for (std::size_t m = 0; m < owner.size(); ++m) load[owner[m]] += cost[m];
  for (std::size_t p = 0; p < load.size(); ++p) load[p] /= speed[p];
  return load;
}

double bottleneck(std::span<const int> owner, std::span<const double> cost,
                  std::span<const double> speed) {
  auto load = processor_loads(owner, cost, speed);
  return load.empty() ? 0.0 : *std::max_element(load.begin(), load.end());
}

std::vector<std::vector<int>> modules_by_processor(std::span<const int> owner, int processors) {
  std::vector<std::vector<int>> out(processors);
  for (std::size_t m = 0; m < owner.size(); ++m) out[owner[m]].push_back(static_cast<int>(m));
  return out;
}

bool is_contiguous_chain(std::span<const int> owner, int processors) {
  int prev = 0;
  for (int o : owner) {
    if (o < prev || o >= processors) return false;
    prev = o;
  }
  return true;
}

}  // namespace lbb
