#pragma once
// A LoadView's data held by value, for code that makes its own loads (tests, benchmarks, and
// later the simulator) rather than borrowing them from a running executor.
#include <cstdint>
#include <vector>

#include "balancers/balancer.h"

namespace lbb {

struct LoadSnapshot {
  std::vector<double> cost;
  std::vector<std::uint64_t> bytes;
  std::vector<double> speed;
  std::vector<int> owner;
  std::vector<double> busy;       // optional, per processor
  std::vector<double> work_done;  // optional, per processor
  std::vector<double> coords;     // optional, dimensions per module
  int dimensions = 0;
  ModuleStructure structure = ModuleStructure::kIndependent;
  int step = 0;

  // A view borrowing this snapshot's data: valid while the snapshot and topology live.
  LoadView view(const Topology& topology) const {
    LoadView v;
    v.cost = cost;
    v.bytes = bytes;
    v.speed = speed;
    v.owner = owner;
    v.busy = busy;
    v.work_done = work_done;
    v.coords = coords;
    v.dimensions = dimensions;
    v.topology = &topology;
    v.structure = structure;
    v.step = step;
    return v;
  }
};

}  // namespace lbb
