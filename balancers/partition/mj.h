#pragma once
// Multi-jagged partitioning, MJ (Deveci, Rajamanickam, Devine & Catalyurek 2016): P = p_1 x ... x
// p_d parts; the modules are cut along the first coordinate into p_1 slabs at once (a
// multisection, not a bisection), each slab along the second into p_2, and so on, every slab's
// cuts of its own (jagged). Each multisection is optimal_chain's cut of the slab's modules in
// coordinate order over groups of consecutive processors, so slabs follow the groups' speeds.
// Refuses a view without coordinates (coordinates.h).
#include <span>
#include <vector>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

// Parts per level for P processors in d dimensions when none are given: factors of P as even as
// the divisors allow: at each level the smallest divisor at or above the root of what is left
// (4 -> 2 x 2, 8 -> 4 x 2, 7 -> 7 x 1 in 2-D; 8 -> 2 x 2 x 2 in 3-D).
std::vector<int> mj_parts(int processors, int dimensions);

// parts: one count per level (level l cuts along coordinate l mod d), their product P; empty:
// mj_parts. Throws std::invalid_argument otherwise.
Owners mj_partition(std::span<const double> weights, std::span<const double> speeds,
                    std::span<const double> coords, int dimensions, std::vector<int> parts = {});

class MjPartition final : public Balancer {
 public:
  explicit MjPartition(std::vector<int> parts) : parts_(std::move(parts)) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  std::vector<int> parts_;
};

}  // namespace lbb
