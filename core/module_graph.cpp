#include "core/module_graph.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace lbb {

ModuleGraph::ModuleGraph(const std::vector<std::vector<int>>& neighbours) {
  const int n = static_cast<int>(neighbours.size());
  offset_.assign(1, 0);
  for (int m = 0; m < n; ++m) {
    std::vector<int> list = neighbours[m];
    std::sort(list.begin(), list.end());
    for (std::size_t k = 0; k < list.size(); ++k) {
      const int j = list[k];
      const bool bad =
          j < 0 || j >= n || j == m || (k > 0 && list[k - 1] == j) ||
          std::find(neighbours[j].begin(), neighbours[j].end(), m) == neighbours[j].end();
      if (bad)
        throw std::invalid_argument("module graph: link " + std::to_string(m) + " - " +
                                    std::to_string(j) +
                                    " is out of range, a self-link, repeated or one-way");
    }
    neighbour_.insert(neighbour_.end(), list.begin(), list.end());
    offset_.push_back(static_cast<int>(neighbour_.size()));
  }
}

ModuleGraph ModuleGraph::chain(int modules) {
  std::vector<std::vector<int>> lists(std::max(modules, 0));
  for (int m = 0; m + 1 < modules; ++m) {
    lists[m].push_back(m + 1);
    lists[m + 1].push_back(m);
  }
  return ModuleGraph(lists);
}

ModuleGraph ModuleGraph::grid(std::span<const int> extents) {
  if (extents.size() < 1 || extents.size() > 3)
    throw std::invalid_argument("module graph: a grid has 1 to 3 extents");
  int cells = 1;
  for (int e : extents) {
    if (e < 1) throw std::invalid_argument("module graph: grid extents must be positive");
    cells *= e;
  }
  std::vector<std::vector<int>> lists(cells);
  for (int c = 0; c < cells; ++c) {
    int stride = 1;
    int rest = c;
    for (int e : extents) {
      const int coord = rest % e;
      rest /= e;
      if (coord + 1 < e) {
        lists[c].push_back(c + stride);
        lists[c + stride].push_back(c);
      }
      stride *= e;
    }
  }
  return ModuleGraph(lists);
}

bool ModuleGraph::linked(int a, int b) const {
  auto list = neighbours(a);
  return std::binary_search(list.begin(), list.end(), b);
}

ModuleGraph induced_processor_graph(const ModuleGraph& modules, std::span<const int> owner,
                                    int processors) {
  if (static_cast<int>(owner.size()) != modules.modules())
    throw std::invalid_argument("induced processor graph: " + std::to_string(owner.size()) +
                                " owners for " + std::to_string(modules.modules()) + " modules");
  for (int p : owner)
    if (p < 0 || p >= processors)
      throw std::invalid_argument("induced processor graph: owner " + std::to_string(p) +
                                  " is not one of " + std::to_string(processors) + " processors");
  std::vector<std::vector<int>> lists(std::max(processors, 0));
  for (int m = 0; m < modules.modules(); ++m)
    for (int j : modules.neighbours(m))
      if (owner[m] != owner[j]) lists[owner[m]].push_back(owner[j]);
  for (auto& list : lists) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return ModuleGraph(lists);
}

}  // namespace lbb
