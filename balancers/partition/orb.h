#pragma once
// Orthogonal recursive bisection, RCB (Berger & Bokhari 1987; the complete redistribution of
// Franklin & Govindan 1995): cut the modules by a plane across the longest side of their bounding
// box so each side's share of the cost matches its share of processor speed, then cut each side
// again. For spatial workloads; with no coordinates the module index is the one coordinate, and
// the cuts are binary_dissection's.
#include <span>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

// coords holds `dimensions` numbers per module (module-major), or is empty. Throws
// std::invalid_argument when its size does not fit.
Owners orb_partition(std::span<const double> weights, std::span<const double> speeds,
                     std::span<const double> coords, int dimensions, bool rectilinear = false);

class OrbPartition final : public Balancer {
 public:
  explicit OrbPartition(bool rectilinear = false) : rectilinear_(rectilinear) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  bool rectilinear_;
};

}  // namespace lbb
