#pragma once
// Which modules exchange data every step: an undirected graph, module i linked to module j when
// step s of either needs the other's data of step s-1 (Iqbal, Saltz & Bokhari 1986, section 2:
// a chain for block substitution; the cell adjacency for 2-D and 3-D decompositions). The
// asynchronous executor orders module steps by it and the predictive balancer builds its DEPEND
// graphs from it; neither needs to know what a module computes.
#include <span>
#include <vector>

namespace lbb {

// Bytes of state one module handed another at a step's end (Barnes-Hut's bodies crossing from
// cell `from` into cell `to`): real traffic between modules, what an LBDatafile's edge carries.
struct ModuleTransfer {
  int from = 0, to = 0;
  double bytes = 0;
};

class ModuleGraph {
 public:
  ModuleGraph() = default;
  // Neighbour lists, one per module; links must be symmetric, without self-links or repeats
  // (std::invalid_argument otherwise).
  explicit ModuleGraph(const std::vector<std::vector<int>>& neighbours);

  // Module i linked to i-1 and i+1.
  static ModuleGraph chain(int modules);
  // Cells of a box of the given extents (2 or 3 of them), numbered with the first extent
  // varying fastest, linked across faces.
  static ModuleGraph grid(std::span<const int> extents);

  int modules() const { return static_cast<int>(offset_.empty() ? 0 : offset_.size() - 1); }
  std::span<const int> neighbours(int module) const {
    return {neighbour_.data() + offset_[module],
            static_cast<std::size_t>(offset_[module + 1] - offset_[module])};
  }
  bool linked(int a, int b) const;

 private:
  std::vector<int> offset_;  // CSR: module m's neighbours are neighbour_[offset_[m], offset_[m+1])
  std::vector<int> neighbour_;
};

// The graph a module graph induces between the processors owning the modules: processors p and
// q are linked when a module of p is linked to a module of q. Node p of the result is processor
// p, so it is Horton 1993's communication graph between subproblems (one per processor).
// Throws std::invalid_argument when owner does not give every module a processor in range.
ModuleGraph induced_processor_graph(const ModuleGraph& modules, std::span<const int> owner,
                                    int processors);

}  // namespace lbb
