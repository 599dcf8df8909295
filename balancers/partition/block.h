#pragma once
#include "balancers/balancer.h"

namespace lbb {

// Equal contiguous counts: processor k gets modules [k*M/P, (k+1)*M/P). Ignores costs.
class BlockPartition final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;
};

// The block owners for M modules on P processors (the default initial assignment).
std::vector<int> block_owners(int modules, int processors);

}  // namespace lbb
