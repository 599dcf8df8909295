#pragma once
// Recursive inertial bisection, RIB (Simon 1991, section 3): at every cut, the principal axis of
// inertia of the side's modules (weighted by cost, about their centre of weight) is the
// direction along which they spread most; the modules are ordered by their projection onto it
// and cut by cost and speed as orb's (recursive_bisection.h). Unlike orb the cuts need not be
// parallel to the coordinate axes. Refuses a view without coordinates (coordinates.h).
#include <span>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

Owners rib_partition(std::span<const double> weights, std::span<const double> speeds,
                     std::span<const double> coords, int dimensions, bool rectilinear = false);

class RibPartition final : public Balancer {
 public:
  explicit RibPartition(bool rectilinear) : rectilinear_(rectilinear) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  bool rectilinear_;
};

}  // namespace lbb
