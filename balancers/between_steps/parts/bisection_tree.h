#pragma once
// Horton 1993's Algorithm 2 as its processors carry it out: the loads are summed up a tree of
// bisections of the processor set, then each cut's transfer is decided from its halves' sums and
// the transfers its ancestors made into them, top down. A node's decision reads nothing else, so
// across MPI ranks each node's host receives exactly its right child's sum on the way up and its
// inherited transfers on the way down (harness/mpi/scoped_decision.h).
#include <cstdint>
#include <span>
#include <vector>

#include "balancers/between_steps/parts/transfer_plan.h"

namespace lbb {

// What Horton 1993's Algorithm 2 bisects.
enum class Bisection {
  kTopology,       // halves of a path through the processor topology (processor_path)
  kCommunication,  // halves of the processor index order, joined by the problem's communication
                   // graph (Horton's T1: "lowest and highest indices together")
};

// Path positions [first, last), cut at middle (| |P1| - |P2| | <= 1); a leaf is one processor.
// The left child starts where its parent does, so one processor, the host (path[first]), holds a
// node and all its left descendants.
struct BisectionNode {
  int first = 0, middle = 0, last = 0;
  int depth = 0;
  int left = -1, right = -1;  // children's node indices; -1 for a leaf
  bool leaf() const { return left < 0; }
};

// A node's decision: the transfers across its cut, and those of its own and its ancestors'
// transfers that each half inherits (an end inside the half), in the order they were made; a
// half that is one processor (a leaf) inherits nothing.
struct CutOutcome {
  std::vector<UnitTransfer> moved, left, right;
};

class BisectionTree {
 public:
  // Throws std::invalid_argument for kCommunication without in.communication.
  BisectionTree(const UnitLoads& in, Bisection bisect);

  std::span<const BisectionNode> nodes() const { return nodes_; }  // by depth, then path order
  int host(int node) const { return path_[nodes_[node].first]; }
  int depth() const { return depth_; }  // of the deepest cut: transfer phases
  bool covers(int node, int processor) const;

  // Every node's load, summed bottom up from the processors' (what the hosts compute).
  std::vector<std::int64_t> sums(std::span<const std::int64_t> loads) const;
  // The cut of internal node `node` (Horton 1993, Algorithm 2): its halves' loads are their sums
  // plus the net of `inherited` into each; the difference, in proportion to the halves' speeds,
  // crosses the cut split over neighbouring pairs.
  CutOutcome descend(int node, std::int64_t left_sum, std::int64_t right_sum,
                     std::span<const UnitTransfer> inherited, std::span<const double> speed) const;

 private:
  std::vector<std::pair<int, int>> cut_pairs(const BisectionNode& n) const;
  std::int64_t net_into(int node, std::span<const UnitTransfer> transfers) const;

  std::vector<int> path_, position_;
  std::vector<BisectionNode> nodes_;
  int depth_ = 0;
  const Topology* topology_;
  const ModuleGraph* links_ = nullptr;  // kCommunication's graph; null: topology neighbours only
};

}  // namespace lbb
