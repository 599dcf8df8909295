#pragma once
#include "balancers/balancer.h"

namespace lbb {

// The "no balance" baseline (Franklin & Govindan 1995): keep the initial assignment forever.
class NoBalance final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView&) override { return {}; }
};

}  // namespace lbb
