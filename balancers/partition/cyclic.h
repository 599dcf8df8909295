#pragma once
#include "balancers/balancer.h"

namespace lbb {

// Interleaved: module m goes to processor m mod P (static interleaved scheme, Zaki et al. 1997).
class CyclicPartition final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;
};

}  // namespace lbb
