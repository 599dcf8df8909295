#pragma once
// Greedy refinement between steps (the idea of Charm++'s GreedyRefineLB): greedy's order, largest
// measured cost first, but a module stays where it is while its processor's load stays within
// `tolerance` of greedy's own makespan; else it goes where it finishes first. Nearly greedy's
// balance with a fraction of its migrations.
#include "balancers/balancer.h"

namespace lbb {

class GreedyRefineBalancer final : public Balancer {
 public:
  GreedyRefineBalancer(double tolerance, double min_gain)
      : tolerance_(tolerance), min_gain_(min_gain) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  double tolerance_, min_gain_;
};

}  // namespace lbb
