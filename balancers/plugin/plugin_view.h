#pragma once
// The C view of a LoadView a plugin's decide reads: pointers into the view's own spans (no copy),
// plus the topology's and the communication graph's neighbour lists laid out once as compressed
// rows and kept while they stay the same objects.
#include <vector>

#include "balancers/balancer.h"
#include "lbbench/balancer_plugin.h"

namespace lbb {

class PluginViewBuilder {
 public:
  // Valid while `view` and this builder live; owner must hold the current owners (the view's, or
  // a block assignment before the first step).
  lbb_plugin_view build(const LoadView& view, std::span<const int> owner);

 private:
  const Topology* topology_ = nullptr;
  std::vector<int> proc_offset_, proc_neighbour_;
  const ModuleGraph* graph_ = nullptr;
  std::vector<int> comm_offset_, comm_neighbour_;
};

}  // namespace lbb
