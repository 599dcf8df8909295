#include "balancers/partition/recursive_bisection.h"

#include <algorithm>

#include "balancers/partition/partition_input.h"
#include "balancers/partition/proportional_split.h"

namespace lbb {
namespace {

bool lower(const BisectionItem& a, const BisectionItem& b) {
  return a.key < b.key || (a.key == b.key && a.module < b.module);
}

class Bisector {
 public:
  Bisector(std::span<const double> weights, std::span<const double> speeds,
           const BisectionKeys& keys, bool rectilinear, Owners& owner)
      : speeds_(speeds), keys_(keys), rectilinear_(rectilinear), owner_(owner) {
    items_.reserve(weights.size());
    for (std::size_t m = 0; m < weights.size(); ++m)
      items_.push_back({0.0, weights[m], static_cast<int>(m)});
  }

  void run() { bisect(0, static_cast<int>(items_.size()), 0, static_cast<int>(speeds_.size())); }

 private:
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
    if (end > begin) keys_(std::span(items_).subspan(begin, end - begin));
    int cut = cut_by_weight(begin, end, left_speed, right_speed);
    if (rectilinear_) cut = whole_plane(begin, cut, end, left_speed, right_speed);
    bisect(begin, cut, proc, left);
    bisect(cut, end, proc + left, count - left);
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

  // Moves a cut through modules of one key to one side of all of them, the side whose load
  // misses its share by less per unit of speed (the same rule as cut_below_target).
  int whole_plane(int begin, int cut, int end, double left_speed, double right_speed) {
    if (cut == begin || cut == end || items_[cut - 1].key != items_[cut].key) return cut;
    const double key = items_[cut].key;
    const auto tied = [key](const BisectionItem& i) { return i.key == key; };
    // The tied modules to the boundary: the left side's last, the right side's first.
    const auto left_tied = std::stable_partition(items_.begin() + begin, items_.begin() + cut,
                                                 [&](const BisectionItem& i) { return !tied(i); });
    const auto right_end = std::stable_partition(items_.begin() + cut, items_.begin() + end, tied);
    const int low = static_cast<int>(left_tied - items_.begin());
    const int high = static_cast<int>(right_end - items_.begin());
    const double target = weight_of(begin, end) * left_speed / (left_speed + right_speed);
    const double below = weight_of(begin, low);
    const double above = below + weight_of(low, high);
    return cut_below_target(target - below, above - target, left_speed, right_speed) ? low : high;
  }

  std::span<const double> speeds_;
  const BisectionKeys& keys_;
  bool rectilinear_;
  Owners& owner_;
  std::vector<BisectionItem> items_;
};

}  // namespace

Owners recursive_bisection(std::span<const double> weights, std::span<const double> speeds,
                           const BisectionKeys& keys, bool rectilinear) {
  check_partition_input(weights, speeds);
  Owners owner(weights.size());
  Bisector(weights, speeds, keys, rectilinear, owner).run();
  return owner;
}

}  // namespace lbb
