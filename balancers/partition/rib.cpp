#include "balancers/partition/rib.h"

#include <array>
#include <cmath>
#include <stdexcept>

#include "balancers/partition/coordinates.h"
#include "balancers/partition/recursive_bisection.h"

namespace lbb {
namespace {

using Matrix = std::array<std::array<double, 3>, 3>;

// The unit eigenvector of the largest eigenvalue of the symmetric d x d matrix a (d <= 3), by
// cyclic Jacobi rotations; among equal eigenvalues, the lowest axis.
std::array<double, 3> principal_axis(Matrix a, int d) {
  Matrix v{};
  for (int i = 0; i < d; ++i) v[i][i] = 1;
  for (int sweep = 0; sweep < 16; ++sweep)
    for (int p = 0; p < d; ++p)
      for (int q = p + 1; q < d; ++q) {
        if (a[p][q] == 0) continue;
        // The rotation J (J_pp = J_qq = c, J_pq = s = -J_qp) with (J^T a J)_pq = 0.
        const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const double t = std::copysign(1.0, theta) / (std::abs(theta) + std::hypot(theta, 1.0));
        const double c = 1 / std::hypot(t, 1.0), s = t * c;
        for (int k = 0; k < d; ++k) {
          const double kp = a[k][p], kq = a[k][q];
          a[k][p] = c * kp - s * kq, a[k][q] = s * kp + c * kq;
        }
        for (int k = 0; k < d; ++k) {
          const double pk = a[p][k], qk = a[q][k];
          a[p][k] = c * pk - s * qk, a[q][k] = s * pk + c * qk;
        }
        for (int k = 0; k < d; ++k) {
          const double kp = v[k][p], kq = v[k][q];
          v[k][p] = c * kp - s * kq, v[k][q] = s * kp + c * kq;
        }
        a[p][q] = a[q][p] = 0;
      }
  int best = 0;
  for (int j = 1; j < d; ++j)
    if (a[j][j] > a[best][best]) best = j;
  return {v[0][best], v[1][best], v[2][best]};
}

// Each module's projection onto the principal axis of inertia of `items`.
void inertial_keys(std::span<BisectionItem> items, std::span<const double> coords, int d) {
  double mass = 0;
  for (const BisectionItem& i : items) mass += i.weight;
  const auto weight = [&](const BisectionItem& i) { return mass > 0 ? i.weight : 1.0; };
  if (mass <= 0) mass = static_cast<double>(items.size());
  std::array<double, 3> centre{};
  for (const BisectionItem& i : items)
    for (int k = 0; k < d; ++k) centre[k] += weight(i) * coordinate(coords, d, i.module, k) / mass;
  Matrix inertia{};  // sum of w (x - centre)(x - centre)^T
  for (const BisectionItem& i : items)
    for (int k = 0; k < d; ++k)
      for (int l = 0; l < d; ++l)
        inertia[k][l] += weight(i) * (coordinate(coords, d, i.module, k) - centre[k]) *
                         (coordinate(coords, d, i.module, l) - centre[l]);
  const std::array<double, 3> axis = principal_axis(inertia, d);
  for (BisectionItem& i : items) {
    i.key = 0;
    for (int k = 0; k < d; ++k) i.key += axis[k] * (coordinate(coords, d, i.module, k) - centre[k]);
  }
}

}  // namespace

Owners rib_partition(std::span<const double> weights, std::span<const double> speeds,
                     std::span<const double> coords, int dimensions, bool rectilinear) {
  check_coordinates("rib", weights.size(), coords, dimensions);
  if (dimensions > 3) throw std::invalid_argument("rib: coordinates of at most 3 dimensions");
  return recursive_bisection(
      weights, speeds,
      [&](std::span<BisectionItem> items) { inertial_keys(items, coords, dimensions); },
      rectilinear);
}

BalancerInfo RibPartition::info() {
  return {"rib",
          BalancerRole::kPartition,
          "recursive inertial bisection of module coordinates by cost, speed-aware (Simon "
          "1991): each cut across the principal axis of inertia",
          {bool_param("rectilinear", false,
                      "keep modules of equal projection on one side of every cut")},
          [](const Params& p) { return std::make_unique<RibPartition>(p.boolean("rectilinear")); },
          {.needs_coordinates = true}};
}

Decision RibPartition::decide(const LoadView& view) {
  require_coordinates("rib", view);
  return {true, rib_partition(view.cost, view.speed, view.coords, view.dimensions, rectilinear_),
          1};
}

}  // namespace lbb
