#pragma once
// One processor's DEPEND graph and its potential work (Iqbal, Saltz & Bokhari 1986, section 6).
// Vertices: the processor's own modules v_i (internal) and the modules of other processors linked
// to them, z_k (boundary). w_i, the largest step v_i can reach with the boundary data at hand, is
// eq. (4): w_i = min_k (q_k + r_{k,i}), where q_k is the last step z_k has finished and r_{k,i}
// the equivalence class of v_i for z_k (the fewest edges from z_k to v_i through internal
// vertices). Potential work is eq. (3): sum_i (w_i - s_i) t_i. Built from scratch in O(IB); a
// boundary datum's arrival updates it breadth-first from z_k, stopping at every vertex whose
// weight does not change.
#include <limits>
#include <span>
#include <vector>

#include "core/module_graph.h"

namespace lbb {

class DependGraph {
 public:
  static constexpr int kUnreachable = std::numeric_limits<int>::max() / 4;

  // The DEPEND graph of `processor` under `owner` (one entry per module of `graph`, which must
  // outlive this object), computed from scratch: `step` is the number of steps each module has
  // finished (s_i for internal modules, q_k for boundary ones), `cost` the time t_i one step of
  // each takes, and no module goes past `final_step` (a module no boundary constrains reaches it).
  DependGraph(const ModuleGraph& graph, std::span<const int> owner, int processor,
              std::span<const int> step, std::span<const double> cost, int final_step);

  // The boundary module z_k finished one more step: q_k + 1, and the breadth-first update of the
  // internal weights it constrained. Returns how many internal vertices the search examined.
  int boundary_advanced(int module);
  // The internal module v_i finished one more step: s_i + 1. Throws std::logic_error when it had
  // already reached w_i (it ran a step before the data it needs existed).
  void internal_advanced(int module);

  double potential_work() const { return potential_; }
  int reachable(int module) const { return w_[index(module)]; }  // w_i, internal only
  int step(int module) const;                                    // s_i or q_k
  // r_{k,i}: boundary module z_k, internal module v_i; kUnreachable when no internal path.
  int equivalence_class(int boundary_module, int internal_module) const;
  std::span<const int> internal() const { return internal_; }
  std::span<const int> boundary() const { return boundary_; }
  bool owns(int module) const { return local_[module] >= 0; }
  bool borders(int module) const { return local_[module] <= -2; }
  // The potential work one internal module holds: (w_i - s_i) t_i.
  double module_potential(int module) const;

 private:
  int index(int module) const;           // internal index of an owned module
  int boundary_index(int module) const;  // k of a boundary module
  void find_equivalence_classes();
  int weight_by_eq4(int i) const;
  const ModuleGraph* graph_;
  int final_step_;
  std::vector<int> internal_;  // module ids of v_1..v_I
  std::vector<int> boundary_;  // module ids of z_1..z_B
  std::vector<int> local_;     // per module: i >= 0 internal, -2 - k boundary, -1 neither
  std::vector<int> r_;         // r_{k,i} at [k * I + i]
  std::vector<int> w_, s_, q_;
  std::vector<double> t_;
  std::vector<int> seen_;  // breadth-first search stamps, per internal vertex
  int stamp_ = 0;
  double potential_ = 0;
};

}  // namespace lbb
