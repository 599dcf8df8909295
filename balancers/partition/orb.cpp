#include "balancers/partition/orb.h"

#include <algorithm>
#include <vector>

#include "balancers/partition/coordinates.h"
#include "balancers/partition/recursive_bisection.h"

namespace lbb {

namespace {

// The axis along which the modules' bounding box is longest.
int longest_axis(std::span<const BisectionItem> items, std::span<const double> coords, int dims) {
  std::vector<double> low(dims), high(dims);
  for (int axis = 0; axis < dims; ++axis)
    low[axis] = high[axis] = coordinate(coords, dims, items[0].module, axis);
  for (const BisectionItem& i : items)
    for (int axis = 0; axis < dims; ++axis) {
      const double x = coordinate(coords, dims, i.module, axis);
      low[axis] = std::min(low[axis], x);
      high[axis] = std::max(high[axis], x);
    }
  int best = 0;
  for (int axis = 1; axis < dims; ++axis)
    if (high[axis] - low[axis] > high[best] - low[best]) best = axis;
  return best;
}

}  // namespace

Owners orb_partition(std::span<const double> weights, std::span<const double> speeds,
                     std::span<const double> coords, int dimensions, bool rectilinear) {
  if (coords.empty())  // the module index is the one coordinate: binary dissection's cuts
    return recursive_bisection(
        weights, speeds,
        [](std::span<BisectionItem> items) {
          for (BisectionItem& i : items) i.key = i.module;
        },
        rectilinear);
  check_coordinates("orb", weights.size(), coords, dimensions);
  return recursive_bisection(
      weights, speeds,
      [&](std::span<BisectionItem> items) {
        const int axis = longest_axis(items, coords, dimensions);
        for (BisectionItem& i : items) i.key = coordinate(coords, dimensions, i.module, axis);
      },
      rectilinear);
}

BalancerInfo OrbPartition::info() {
  return {"orb",
          BalancerRole::kPartition,
          "orthogonal (coordinate) recursive bisection, RCB, of module coordinates by cost, "
          "speed-aware (Berger & Bokhari 1987); module index when there are no coordinates",
          {bool_param("rectilinear", false,
                      "keep modules of equal coordinate on one side of every cut (Zoltan2's "
                      "RCB option): parts are boxes, balance may be worse")},
          [](const Params& p) { return std::make_unique<OrbPartition>(p.boolean("rectilinear")); }};
}

Decision OrbPartition::decide(const LoadView& view) {
  return {true, orb_partition(view.cost, view.speed, view.coords, view.dimensions, rectilinear_),
          1};
}

}  // namespace lbb
