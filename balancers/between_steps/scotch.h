#pragma once
// Scotch between steps (the idea of Charm++'s ScotchLB): at every decision Scotch's static
// mapping (Pellegrini & Roman 1996; balancers/partition/scotch.h) of the communication graph,
// vertices weighted by the measured costs, onto parts sized by speed; the parts renumbered, among
// processors of equal speed, so that most modules keep their processor (as `dynamic: metis`).
#include <cstdint>

#include "balancers/balancer.h"

namespace lbb {

class ScotchBalancer final : public Balancer {
 public:
  ScotchBalancer(double imbalance, std::uint64_t seed, double min_gain)
      : imbalance_(imbalance), seed_(seed), min_gain_(min_gain) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  double imbalance_;
  std::uint64_t seed_;
  double min_gain_;
};

}  // namespace lbb
