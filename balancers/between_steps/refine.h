#pragma once
// Refinement between steps (the idea of Charm++'s RefineLB): from the current assignment, only
// processors above `threshold` x their speed-proportional share give modules away, each move
// chosen to need as few as possible: the smallest module that alone sheds the donor's excess and
// fits under a receiver's limit, else the largest that fits; the receiver is the one with the most
// room. A donor none of whose modules fits anywhere keeps the rest.
#include "balancers/balancer.h"

namespace lbb {

class RefineBalancer final : public Balancer {
 public:
  explicit RefineBalancer(double threshold) : threshold_(threshold) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  double threshold_;
};

}  // namespace lbb
