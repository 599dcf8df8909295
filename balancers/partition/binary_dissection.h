#pragma once
// Binary dissection (Iqbal, Saltz & Bokhari 1986, section 4; after Berger & Bokhari 1985): cut
// the chain in two so the halves' sums differ least, then cut each half again, log2 P times. For
// any P the processors are halved as floor(P/2) | ceil(P/2) and each side's share of the weight
// matches its share of the total speed. Fast, sub-optimal, and within the paper's bound
// W_MAX <= W_T/n + w_max (n-1)/n for equal speeds.
#include <span>

#include "balancers/balancer.h"
#include "balancers/partition/chain_probe.h"

namespace lbb {

ChainPartition binary_dissection(std::span<const double> weights, std::span<const double> speeds);

// Module order is the chain, whatever view.structure says.
class BinaryDissection final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;
};

}  // namespace lbb
