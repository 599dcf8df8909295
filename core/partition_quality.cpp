#include "core/partition_quality.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "core/assignment.h"

namespace lbb {

PartitionQuality partition_quality(std::span<const int> owner, std::span<const double> cost,
                                   std::span<const double> speed, const ModuleGraph* graph) {
  PartitionQuality q;
  const double total = std::accumulate(cost.begin(), cost.end(), 0.0);
  const double speeds = std::accumulate(speed.begin(), speed.end(), 0.0);
  if (total > 0) q.imbalance = bottleneck(owner, cost, speed) / (total / speeds);
  if (!graph) return q;
  q.edge_cut = 0;
  q.communication_volume = 0;
  std::vector<int> seen(speed.size(), -1);  // the module that last counted processor p
  for (int m = 0; m < graph->modules(); ++m)
    for (int k : graph->neighbours(m)) {
      if (owner[k] == owner[m]) continue;
      if (k > m) ++q.edge_cut;
      if (seen[owner[k]] != m) seen[owner[k]] = m, ++q.communication_volume;
    }
  return q;
}

}  // namespace lbb
