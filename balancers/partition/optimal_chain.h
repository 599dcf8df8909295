#pragma once
// Exact chains-on-chains partitioning, fast at scale: a parametric search on the bottleneck
// with the greedy probe over prefix sums (the Nicol 1994 / Pinar & Aykanat 2004 family). Same
// bottleneck as the layered-graph reference (optimal_chain_bokhari) on every instance, in
// O(m + P log m * probes) time with separator windows that shrink as the search narrows.
#include <span>

#include "balancers/balancer.h"
#include "balancers/partition/chain_probe.h"

namespace lbb {

// The contiguous partition of the module chain over the processor chain that minimises the
// largest load (weight sum / speed); processor k takes the k-th subchain, which may be empty.
ChainPartition optimal_chain(std::span<const double> weights, std::span<const double> speeds);

// Module order is the chain, whatever view.structure says.
class OptimalChain final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;
};

}  // namespace lbb
