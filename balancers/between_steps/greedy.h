#pragma once
// Greedy between steps (the idea of Charm++'s GreedyLB): every module afresh, largest measured
// cost first onto the processor where it finishes first (Graham 1969's LPT,
// balancers/partition/lpt.h), wherever it was.
#include "balancers/balancer.h"

namespace lbb {

class GreedyBalancer final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;
};

}  // namespace lbb
