#include "balancers/async/depend_graph.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace lbb {

DependGraph::DependGraph(const ModuleGraph& graph, std::span<const int> owner, int processor,
                         std::span<const int> step, std::span<const double> cost, int final_step)
    : graph_(&graph), final_step_(final_step), local_(graph.modules(), -1) {
  const int n = graph.modules();
  for (int m = 0; m < n; ++m)
    if (owner[m] == processor) {
      local_[m] = static_cast<int>(internal_.size());
      internal_.push_back(m);
    }
  for (int m : internal_)
    for (int j : graph.neighbours(m))
      if (local_[j] == -1) {
        local_[j] = -2 - static_cast<int>(boundary_.size());
        boundary_.push_back(j);
      }
  for (int m : internal_) {
    s_.push_back(step[m]);
    t_.push_back(cost[m]);
  }
  for (int z : boundary_) q_.push_back(step[z]);
  find_equivalence_classes();
  w_.resize(internal_.size());
  seen_.assign(internal_.size(), 0);
  for (std::size_t i = 0; i < internal_.size(); ++i) {
    w_[i] = weight_by_eq4(static_cast<int>(i));
    potential_ += (w_[i] - s_[i]) * t_[i];  // eq. (3)
  }
}

// One breadth-first search per boundary vertex through internal vertices: O(IB) in all.
void DependGraph::find_equivalence_classes() {
  const std::size_t I = internal_.size();
  r_.assign(boundary_.size() * I, kUnreachable);
  std::vector<int> queue;
  for (std::size_t k = 0; k < boundary_.size(); ++k) {
    int* r = r_.data() + k * I;
    queue.clear();
    for (int j : graph_->neighbours(boundary_[k]))
      if (owns(j) && r[index(j)] == kUnreachable) {
        r[index(j)] = 1;
        queue.push_back(index(j));
      }
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int i = queue[head];
      for (int j : graph_->neighbours(internal_[i]))
        if (owns(j) && r[index(j)] == kUnreachable) {
          r[index(j)] = r[i] + 1;
          queue.push_back(index(j));
        }
    }
  }
}

// Eq. (4), capped at the last step of the run.
int DependGraph::weight_by_eq4(int i) const {
  const std::size_t I = internal_.size();
  int w = final_step_;
  for (std::size_t k = 0; k < boundary_.size(); ++k) {
    const int r = r_[k * I + i];
    if (r != kUnreachable) w = std::min(w, q_[k] + r);
  }
  return w;
}

int DependGraph::boundary_advanced(int module) {
  const int k = boundary_index(module);
  const std::size_t I = internal_.size();
  const int* r = r_.data() + k * I;
  ++q_[k];
  ++stamp_;
  // Only vertices whose weight was q_k - 1 + r_{k,i} (constrained by z_k) can rise, by one; a
  // vertex that does not rise constrains no vertex further from z_k through it, so the search
  // stops there (section 6: one pass in increasing equivalence class).
  std::vector<int> queue;
  for (int j : graph_->neighbours(module))
    if (owns(j) && seen_[index(j)] != stamp_) {
      seen_[index(j)] = stamp_;
      queue.push_back(index(j));
    }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int i = queue[head];
    if (w_[i] != q_[k] - 1 + r[i]) continue;
    const int w = weight_by_eq4(i);
    if (w == w_[i]) continue;
    potential_ += (w - w_[i]) * t_[i];
    w_[i] = w;
    for (int j : graph_->neighbours(internal_[i]))
      if (owns(j) && r[index(j)] == r[i] + 1 && seen_[index(j)] != stamp_) {
        seen_[index(j)] = stamp_;
        queue.push_back(index(j));
      }
  }
  return static_cast<int>(queue.size());
}

void DependGraph::internal_advanced(int module) {
  const int i = index(module);
  if (s_[i] >= w_[i])
    throw std::logic_error("module " + std::to_string(module) + " finished step " +
                           std::to_string(s_[i] + 1) + " but could only reach step " +
                           std::to_string(w_[i]) + " with the data available");
  ++s_[i];
  potential_ -= t_[i];
}

int DependGraph::step(int module) const {
  return owns(module) ? s_[index(module)] : q_[boundary_index(module)];
}

int DependGraph::equivalence_class(int boundary_module, int internal_module) const {
  return r_[boundary_index(boundary_module) * internal_.size() + index(internal_module)];
}

double DependGraph::module_potential(int module) const {
  const int i = index(module);
  return (w_[i] - s_[i]) * t_[i];
}

int DependGraph::index(int module) const {
  if (module < 0 || module >= static_cast<int>(local_.size()) || local_[module] < 0)
    throw std::out_of_range("module " + std::to_string(module) + " is not in this DEPEND graph");
  return local_[module];
}

int DependGraph::boundary_index(int module) const {
  if (module < 0 || module >= static_cast<int>(local_.size()) || local_[module] > -2)
    throw std::out_of_range("module " + std::to_string(module) +
                            " is not a boundary vertex of this DEPEND graph");
  return -2 - local_[module];
}

}  // namespace lbb
