#pragma once
// Greedy refinement between steps (the idea of Charm++'s GreedyRefineLB): greedy's order, largest
// measured cost first, but a module stays where it is while its processor's load stays within
// `tolerance` of greedy's own makespan; else it goes where it finishes first. Nearly greedy's
// balance with a fraction of its migrations.
#include "balancers/balancer.h"

namespace lbb {

class GreedyRefineBalancer final : public Balancer {
 public:
  explicit GreedyRefineBalancer(double tolerance) : tolerance_(tolerance) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  double tolerance_;
};

}  // namespace lbb
