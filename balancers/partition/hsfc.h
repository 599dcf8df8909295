#pragma once
// Hilbert space-filling curve partitioning, HSFC (Pilkington & Baden 1996): the modules ordered
// along a Hilbert curve through their bounding box, and the curve cut into P contiguous pieces.
// Pilkington & Baden cut at equal weight; here the cut is optimal_chain's, the contiguous
// partition with the least bottleneck at the processors' speeds. The curve's index follows
// Skilling 2004's transpose form of Butz's algorithm. Refuses a view without coordinates.
#include <cstdint>
#include <span>
#include <vector>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

// The position along the Hilbert curve of the cell with integer coordinates x[0..d) (each below
// 2^bits) in the 2^bits-per-side grid, d = 2 or 3, d * bits <= 64.
std::uint64_t hilbert_index(std::span<const std::uint32_t> x, int bits);

// The modules in curve order (their coordinates scaled to the bounding box first).
std::vector<int> hilbert_order(std::span<const double> coords, int dimensions);

Owners hsfc_partition(std::span<const double> weights, std::span<const double> speeds,
                      std::span<const double> coords, int dimensions);

class HsfcPartition final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;
};

}  // namespace lbb
