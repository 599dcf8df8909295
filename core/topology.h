#pragma once
// Which processors may exchange modules directly. Neighbour-restricted balancers (diffusion,
// random, multi-level, the tree-on-a-mesh heuristic) read it; distances price migrations.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lbb {

enum class TopologyKind { kChain, kRing, kMesh2d, kHypercube, kComplete };

std::optional<TopologyKind> parse_topology(std::string_view name);
std::string_view topology_name(TopologyKind kind);
// Empty when P suits the kind, else why not (a hypercube needs a power of two).
std::optional<std::string> topology_size_error(TopologyKind kind, int processors);

class Topology {
 public:
  // Throws std::invalid_argument when topology_size_error says so.
  Topology(TopologyKind kind, int processors);

  TopologyKind kind() const { return kind_; }
  int size() const { return processors_; }
  const std::vector<int>& neighbours(int p) const { return neighbours_[p]; }
  bool adjacent(int a, int b) const;
  int distance(int a, int b) const;        // hops on the processor graph
  int mesh_rows() const { return rows_; }  // mesh2d: rows x cols with rows <= cols
  int mesh_cols() const { return cols_; }

 private:
  TopologyKind kind_;
  int processors_;
  int rows_ = 1;
  int cols_ = 1;
  std::vector<std::vector<int>> neighbours_;
};

}  // namespace lbb
