#include "balancers/between_steps/parts/processor_path.h"

namespace lbb {

std::vector<int> processor_path(const Topology& topology) {
  const int p = topology.size();
  std::vector<int> path;
  path.reserve(p);
  switch (topology.kind()) {
    case TopologyKind::kMesh2d:
      for (int r = 0; r < topology.mesh_rows(); ++r)
        for (int c = 0; c < topology.mesh_cols(); ++c) {
          const int col = r % 2 == 0 ? c : topology.mesh_cols() - 1 - c;
          path.push_back(r * topology.mesh_cols() + col);
        }
      break;
    case TopologyKind::kHypercube:
      for (int i = 0; i < p; ++i) path.push_back(i ^ (i >> 1));
      break;
    case TopologyKind::kChain:
    case TopologyKind::kRing:
    case TopologyKind::kComplete:
      for (int i = 0; i < p; ++i) path.push_back(i);
      break;
  }
  return path;
}

}  // namespace lbb
