#pragma once
// Every processor's view of the others, nearest first (ties by index), built once per topology:
// a level balancer searches outward from a task's creator and stops where no farther processor
// can win, instead of pricing every processor for every task (P^2 ints of memory).
#include <span>
#include <vector>

#include "core/topology.h"

namespace lbb {

class ProcessorRings {
 public:
  explicit ProcessorRings(const Topology& topology);
  // The processors in order of hops from p, then of index (p itself first).
  std::span<const int> from(int p) const {
    return {order_.data() + static_cast<std::size_t>(p) * processors_,
            static_cast<std::size_t>(processors_)};
  }
  bool serves(const Topology& topology) const {
    return topology.kind() == kind_ && topology.size() == processors_;
  }

 private:
  TopologyKind kind_;
  int processors_;
  std::vector<int> order_;
};

}  // namespace lbb
