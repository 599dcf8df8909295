#pragma once
// Bokhari's optimal chains-on-chains partition (Iqbal, Saltz & Bokhari 1986, section 3): the
// minimum bottleneck path through the layered assignment graph. The reference the fast exact
// method (optimal_chain) is checked against; O(m^3 n) time and O(m^2 n) memory.
#include <span>

#include "balancers/balancer.h"
#include "balancers/partition/chain_probe.h"

namespace lbb {

// Largest layered graph built (nodes over all layers); bigger instances are refused.
inline constexpr long long kMaxBokhariNodes = 50'000'000;

// Throws std::invalid_argument on bad input or when the graph would exceed kMaxBokhariNodes.
ChainPartition optimal_chain_bokhari(std::span<const double> weights,
                                     std::span<const double> speeds);

// Module order is the chain, whatever view.structure says.
class OptimalChainBokhari final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;
};

}  // namespace lbb
