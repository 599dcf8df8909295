#include "balancers/between_steps/parts/ideal_loads.h"

namespace lbb {

std::vector<double> local_ideal_loads(std::span<const std::int64_t> loads,
                                      std::span<const double> speed, const Topology& topology) {
  std::vector<double> out(loads.size());
  for (int i = 0; i < static_cast<int>(loads.size()); ++i) {
    double work = static_cast<double>(loads[i]);
    double power = speed[i];
    for (int j : topology.neighbours(i)) {
      work += static_cast<double>(loads[j]);
      power += speed[j];
    }
    out[i] = speed[i] / power * work;
  }
  return out;
}

}  // namespace lbb
