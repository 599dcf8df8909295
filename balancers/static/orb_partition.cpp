#include "balancers/static/orb_partition.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "balancers/static/partition_input.h"
#include "balancers/static/proportional_split.h"

namespace lbb {
namespace {

class Bisector {
 public:
  Bisector(std::span<const double> weights, std::span<const double> speeds,
           std::span<const double> coords, int dimensions, Owners& owner)
      : weights_(weights),
        speeds_(speeds),
        coords_(coords),
        dims_(dimensions),
        owner_(owner),
        order_(weights.size()) {
    std::iota(order_.begin(), order_.end(), 0);
  }

  void run() { bisect(0, static_cast<int>(order_.size()), 0, static_cast<int>(speeds_.size())); }

 private:
  // Module coordinate along an axis; with no coordinates, the module index.
  double coord(int module, int axis) const {
    return coords_.empty() ? module : coords_[static_cast<std::size_t>(module) * dims_ + axis];
  }

  // Gives the modules order_[begin, end) to the `count` processors from `proc`.
  void bisect(int begin, int end, int proc, int count) {
    if (count == 1) {
      for (int i = begin; i < end; ++i) owner_[order_[i]] = proc;
      return;
    }
    const int left = count / 2;
    double left_speed = 0;
    double right_speed = 0;
    for (int k = proc; k < proc + count; ++k)
      (k < proc + left ? left_speed : right_speed) += speeds_[k];
    const int cut = cut_along(longest_axis(begin, end), begin, end, left_speed, right_speed);
    bisect(begin, cut, proc, left);
    bisect(cut, end, proc + left, count - left);
  }

  int longest_axis(int begin, int end) const {
    int best = 0;
    double best_extent = -1;
    for (int axis = 0; axis < std::max(dims_, 1); ++axis) {
      double low = 0;
      double high = 0;
      for (int i = begin; i < end; ++i) {
        const double x = coord(order_[i], axis);
        if (i == begin || x < low) low = x;
        if (i == begin || x > high) high = x;
      }
      if (high - low > best_extent) {
        best_extent = high - low;
        best = axis;
      }
    }
    return best;
  }

  // Reorders order_[begin, end) so the modules before the returned cut are the lowest along
  // the axis (ties by module index) and carry the side's share of the cost (cut_below_target).
  int cut_along(int axis, int begin, int end, double left_speed, double right_speed) {
    auto lower = [&](int a, int b) {
      const double xa = coord(a, axis);
      const double xb = coord(b, axis);
      return xa < xb || (xa == xb && a < b);
    };
    auto weight_of = [&](int from, int to) {
      double sum = 0;
      for (int i = from; i < to; ++i) sum += weights_[order_[i]];
      return sum;
    };
    const double target = weight_of(begin, end) * left_speed / (left_speed + right_speed);
    // Weighted selection: order_[begin, lo) holds the lowest modules, weighing `below` <=
    // target; the cut lies in [lo, hi]. Halve the window with nth_element, then sort the rest.
    int lo = begin;
    int hi = end;
    double below = 0;
    while (hi - lo > 32) {
      const int mid = lo + (hi - lo) / 2;
      std::nth_element(order_.begin() + lo, order_.begin() + mid, order_.begin() + hi, lower);
      const double half = weight_of(lo, mid);
      if (below + half <= target) {
        below += half;
        lo = mid;
      } else {
        hi = mid;
      }
    }
    std::sort(order_.begin() + lo, order_.begin() + hi, lower);
    // order_[hi] is the lowest module of [hi, end) (nth_element put it there), so stopping at hi
    // still leaves the right next module.
    int cut = lo;
    while (cut < hi && below + weights_[order_[cut]] <= target) below += weights_[order_[cut++]];
    if (cut == end) return end;
    const double above = below + weights_[order_[cut]];
    return cut_below_target(target - below, above - target, left_speed, right_speed) ? cut
                                                                                     : cut + 1;
  }

  std::span<const double> weights_;
  std::span<const double> speeds_;
  std::span<const double> coords_;
  int dims_;
  Owners& owner_;
  std::vector<int> order_;
};

}  // namespace

Owners orb_partition(std::span<const double> weights, std::span<const double> speeds,
                     std::span<const double> coords, int dimensions) {
  check_partition_input(weights, speeds);
  if (!coords.empty() &&
      (dimensions < 1 || coords.size() != weights.size() * static_cast<std::size_t>(dimensions)))
    throw std::invalid_argument("orb: " + std::to_string(coords.size()) + " coordinates for " +
                                std::to_string(weights.size()) + " modules in " +
                                std::to_string(dimensions) + " dimensions");
  Owners owner(weights.size());
  Bisector(weights, speeds, coords, coords.empty() ? 1 : dimensions, owner).run();
  return owner;
}

BalancerInfo OrbPartition::info() {
  return {"orb",
          BalancerKind::kStatic,
          "orthogonal recursive bisection of module coordinates by cost, speed-aware (Berger & "
          "Bokhari 1987); module index when there are no coordinates",
          {},
          [](const Params&) { return std::make_unique<OrbPartition>(); }};
}

Decision OrbPartition::decide(const LoadView& view) {
  return {true, orb_partition(view.cost, view.speed, view.coords, view.dimensions), 1};
}

}  // namespace lbb
