#include "balancers/partition/hsfc.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "balancers/partition/coordinates.h"
#include "balancers/partition/optimal_chain.h"

namespace lbb {

std::uint64_t hilbert_index(std::span<const std::uint32_t> axes, int bits) {
  const int d = static_cast<int>(axes.size());
  std::array<std::uint32_t, 3> x{};
  std::copy(axes.begin(), axes.end(), x.begin());
  const std::uint32_t top = std::uint32_t{1} << (bits - 1);
  for (std::uint32_t q = top; q > 1; q >>= 1) {  // undo the excess work: invert or exchange
    const std::uint32_t low = q - 1;
    for (int i = 0; i < d; ++i)
      if (x[i] & q) {
        x[0] ^= low;
      } else {
        const std::uint32_t t = (x[0] ^ x[i]) & low;
        x[0] ^= t, x[i] ^= t;
      }
  }
  for (int i = 1; i < d; ++i) x[i] ^= x[i - 1];  // Gray encode
  std::uint32_t t = 0;
  for (std::uint32_t q = top; q > 1; q >>= 1)
    if (x[d - 1] & q) t ^= q - 1;
  for (int i = 0; i < d; ++i) x[i] ^= t;
  std::uint64_t h = 0;  // the transpose read bit plane by bit plane, from the top
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < d; ++i) h = (h << 1) | ((x[i] >> b) & 1);
  return h;
}

std::vector<int> hilbert_order(std::span<const double> coords, int d) {
  const int m = d > 0 ? static_cast<int>(coords.size()) / d : 0;
  if (m == 0) return {};
  const int bits = d == 1 ? 32 : 63 / d;  // 31 bits an axis in 2-D, 21 in 3-D
  std::array<double, 3> low{}, scale{};
  for (int k = 0; k < d; ++k) {
    double lo = coordinate(coords, d, 0, k), hi = lo;
    for (int i = 1; i < m; ++i)
      lo = std::min(lo, coordinate(coords, d, i, k)),
      hi = std::max(hi, coordinate(coords, d, i, k));
    low[k] = lo;
    scale[k] = hi > lo ? std::ldexp(1.0, bits) * (1 - 1e-12) / (hi - lo) : 0.0;
  }
  std::vector<std::pair<std::uint64_t, int>> keyed(m);
  std::array<std::uint32_t, 3> cell{};
  for (int i = 0; i < m; ++i) {
    for (int k = 0; k < d; ++k)
      cell[k] = static_cast<std::uint32_t>((coordinate(coords, d, i, k) - low[k]) * scale[k]);
    keyed[i] = {d == 1 ? cell[0] : hilbert_index(std::span(cell).first(d), bits), i};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<int> order(m);
  for (int i = 0; i < m; ++i) order[i] = keyed[i].second;
  return order;
}

Owners hsfc_partition(std::span<const double> weights, std::span<const double> speeds,
                      std::span<const double> coords, int dimensions) {
  check_coordinates("hsfc", weights.size(), coords, dimensions);
  if (dimensions > 3) throw std::invalid_argument("hsfc: coordinates of at most 3 dimensions");
  const std::vector<int> order = hilbert_order(coords, dimensions);
  std::vector<double> along(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) along[i] = weights[order[i]];
  const Owners piece = chain_owners(optimal_chain(along, speeds));
  Owners owner(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) owner[order[i]] = piece[i];
  return owner;
}

BalancerInfo HsfcPartition::info() {
  return {"hsfc",
          BalancerRole::kPartition,
          "Hilbert space-filling curve through the module coordinates, cut into contiguous "
          "pieces by cost and speed (Pilkington & Baden 1996)",
          {},
          [](const Params&) { return std::make_unique<HsfcPartition>(); },
          {.needs_coordinates = true}};
}

Decision HsfcPartition::decide(const LoadView& view) {
  require_coordinates("hsfc", view);
  return {true, hsfc_partition(view.cost, view.speed, view.coords, view.dimensions), 1};
}

}  // namespace lbb
