#pragma once
// Greedy between steps (the idea of Charm++'s GreedyLB): every module afresh, largest measured
// cost first onto the processor where it finishes first (Graham 1969's LPT,
// balancers/partition/lpt.h), wherever it was.
#include "balancers/balancer.h"

namespace lbb {

class GreedyBalancer final : public Balancer {
 public:
  explicit GreedyBalancer(double min_gain) : min_gain_(min_gain) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  double min_gain_;
};

}  // namespace lbb
