#pragma once
// Hwang & Hong 2001 (algorithm L1): balances the tasks of one tree level on a mesh by recursive
// halving, alternating vertical and horizontal cuts; each halving moves tasks from the
// overloaded half to the nearest processor of the other half, in non-increasing order of their
// remaining migration budget t_a = floor(C_max / (B_a + M_a)), smallest tasks first within a
// budget class (SelectTask), until the halves differ by less than the tolerance epsilon.
#include <span>
#include <vector>

#include "balancers/balancer.h"

namespace lbb {

struct TreeMeshOptions {
  double c_max = 1.0;     // C_max as a multiple of the mean processor load sum_a E_a / N
  double epsilon = 0.01;  // imbalance tolerance as a fraction of the mean processor load
};

struct TreeMeshPlan {
  std::vector<int> owner;      // g(a): where each task runs
  std::vector<int> limit;      // t_a before balancing (INT_MAX: unlimited)
  std::vector<int> travelled;  // hops each task moved in all (>= d(f(a), g(a)))
  int moves = 0;               // single moves made (a task may move in several halvings)
  int phases = 0;              // halving rounds (ceil(log2 N) on a power-of-two mesh)
};

// L1 as a pure function of costs E_a, hop costs B_a + M_a (may be empty: free moves), creators
// f(a), processor speeds and the processor graph. Processors form the topology's mesh (rows x
// cols) for mesh2d and one row otherwise, so halving a row halves the processor index range.
TreeMeshPlan tree_mesh_balance(std::span<const double> cost, std::span<const double> hop_cost,
                               std::span<const int> creator, std::span<const double> speed,
                               const Topology& topology, const TreeMeshOptions& options);

// SelectTask (Hwang & Hong 2001): the value E_r among `costs` such that the costs below E_r sum
// to less than delta and those up to E_r to at least delta; +infinity when all of them sum to
// less than delta, -infinity when delta <= 0. Expected linear time (weighted selection).
double select_task_threshold(std::vector<double> costs, double delta);

class TreeMesh final : public Balancer {
 public:
  static BalancerInfo info();
  explicit TreeMesh(TreeMeshOptions options) : options_(options) {}
  Decision decide(const LoadView& view) override;

 private:
  TreeMeshOptions options_;
};

// The creators f(a) a level balancer starts from: the view's owners, else block owners.
std::vector<int> creators_of(const LoadView& view);

}  // namespace lbb
