#pragma once
// How good a partition is, in the three figures Zoltan2 reports for one: imbalance, edge cut
// and communication volume (the total volume METIS defines, Karypis & Kumar 1998).
#include <cstdint>
#include <span>

#include "core/module_graph.h"

namespace lbb {

struct PartitionQuality {
  // The largest processor load over its share: max_p (sum of p's costs / speed_p) divided by
  // (total cost / total speed); 1 is perfect balance (0 when there is no cost at all).
  double imbalance = 0;
  // Links of the module graph whose two modules are on different processors (each counted
  // once); -1 without a graph.
  std::int64_t edge_cut = -1;
  // Sum over modules of the processors other than its own that own one of its neighbours
  // (METIS's total communication volume: what a module sends when each processor receives each
  // neighbour's data once); -1 without a graph.
  std::int64_t communication_volume = -1;
};

// owner must give every module a processor in [0, speed.size()); graph may be null.
PartitionQuality partition_quality(std::span<const int> owner, std::span<const double> cost,
                                   std::span<const double> speed, const ModuleGraph* graph);

}  // namespace lbb
