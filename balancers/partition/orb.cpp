#include "balancers/partition/orb.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "balancers/partition/partition_input.h"
#include "balancers/partition/proportional_split.h"

namespace lbb {
namespace {

// A module as the bisection sees it: its coordinate along the current axis, its weight and its
// index, together so that selection and sorting run over contiguous memory.
struct Item {
  double key;
  double weight;
  int module;
};

bool lower(const Item& a, const Item& b) {
  return a.key < b.key || (a.key == b.key && a.module < b.module);
}

class Bisector {
 public:
  Bisector(std::span<const double> weights, std::span<const double> speeds,
           std::span<const double> coords, int dimensions, Owners& owner)
      : speeds_(speeds), coords_(coords), dims_(dimensions), owner_(owner) {
    items_.reserve(weights.size());
    for (std::size_t m = 0; m < weights.size(); ++m)
      items_.push_back({0.0, weights[m], static_cast<int>(m)});
  }

  void run() { bisect(0, static_cast<int>(items_.size()), 0, static_cast<int>(speeds_.size())); }

 private:
  // Module coordinate along an axis; with no coordinates, the module index.
  double coord(int module, int axis) const {
    return coords_.empty() ? module : coords_[static_cast<std::size_t>(module) * dims_ + axis];
  }

  // Gives the modules items_[begin, end) to the `count` processors from `proc`.
  void bisect(int begin, int end, int proc, int count) {
    if (count == 1) {
      for (int i = begin; i < end; ++i) owner_[items_[i].module] = proc;
      return;
    }
    const int left = count / 2;
    double left_speed = 0;
    double right_speed = 0;
    for (int k = proc; k < proc + count; ++k)
      (k < proc + left ? left_speed : right_speed) += speeds_[k];
    const int axis = longest_axis(begin, end);
    for (int i = begin; i < end; ++i) items_[i].key = coord(items_[i].module, axis);
    const int cut = cut_by_weight(begin, end, left_speed, right_speed);
    bisect(begin, cut, proc, left);
    bisect(cut, end, proc + left, count - left);
  }

  int longest_axis(int begin, int end) const {
    if (dims_ <= 1 || begin == end) return 0;
    std::vector<double> low(dims_), high(dims_);
    for (int axis = 0; axis < dims_; ++axis)
      low[axis] = high[axis] = coord(items_[begin].module, axis);
    for (int i = begin + 1; i < end; ++i)
      for (int axis = 0; axis < dims_; ++axis) {
        const double x = coord(items_[i].module, axis);
        low[axis] = std::min(low[axis], x);
        high[axis] = std::max(high[axis], x);
      }
    int best = 0;
    for (int axis = 1; axis < dims_; ++axis)
      if (high[axis] - low[axis] > high[best] - low[best]) best = axis;
    return best;
  }

  double weight_of(int from, int to) const {
    double sum = 0;
    for (int i = from; i < to; ++i) sum += items_[i].weight;
    return sum;
  }

  // Reorders items_[begin, end) so the modules before the returned cut are the lowest along
  // the key (ties by module index) and carry the side's share of the weight (cut_below_target).
  int cut_by_weight(int begin, int end, double left_speed, double right_speed) {
    const double target = weight_of(begin, end) * left_speed / (left_speed + right_speed);
    // Weighted selection: items_[begin, lo) holds the lowest modules, weighing `below` <=
    // target; the cut lies in [lo, hi]. Halve the window with nth_element, then sort the rest.
    int lo = begin;
    int hi = end;
    double below = 0;
    while (hi - lo > 32) {
      const int mid = lo + (hi - lo) / 2;
      std::nth_element(items_.begin() + lo, items_.begin() + mid, items_.begin() + hi, lower);
      const double half = weight_of(lo, mid);
      if (below + half <= target) {
        below += half;
        lo = mid;
      } else {
        hi = mid;
      }
    }
    std::sort(items_.begin() + lo, items_.begin() + hi, lower);
    // items_[hi] is the lowest module of [hi, end) (nth_element put it there), so stopping at hi
    // still leaves the right next module.
    int cut = lo;
    while (cut < hi && below + items_[cut].weight <= target) below += items_[cut++].weight;
    if (cut == end) return end;
    const double above = below + items_[cut].weight;
    return cut_below_target(target - below, above - target, left_speed, right_speed) ? cut
                                                                                     : cut + 1;
  }

  std::span<const double> speeds_;
  std::span<const double> coords_;
  int dims_;
  Owners& owner_;
  std::vector<Item> items_;
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
          BalancerRole::kPartition,
          "orthogonal recursive bisection of module coordinates by cost, speed-aware (Berger & "
          "Bokhari 1987); module index when there are no coordinates",
          {},
          [](const Params&) { return std::make_unique<OrbPartition>(); }};
}

Decision OrbPartition::decide(const LoadView& view) {
  return {true, orb_partition(view.cost, view.speed, view.coords, view.dimensions), 1};
}

}  // namespace lbb
