#include "balancers/level/processor_rings.h"

#include <algorithm>
#include <numeric>

namespace lbb {

ProcessorRings::ProcessorRings(const Topology& topology)
    : kind_(topology.kind()), processors_(topology.size()) {
  const int p = processors_;
  order_.resize(static_cast<std::size_t>(p) * p);
  std::vector<int> hops(p);
  for (int from = 0; from < p; ++from) {
    const auto row = order_.begin() + static_cast<std::ptrdiff_t>(from) * p;
    std::iota(row, row + p, 0);
    for (int q = 0; q < p; ++q) hops[q] = topology.distance(from, q);
    std::stable_sort(row, row + p, [&](int x, int y) { return hops[x] < hops[y]; });
  }
}

}  // namespace lbb
