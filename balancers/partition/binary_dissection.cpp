#include "balancers/partition/binary_dissection.h"

#include <algorithm>

#include "balancers/partition/proportional_split.h"

namespace lbb {
namespace {

class Dissector {
 public:
  Dissector(const ChainLoads& loads, std::vector<int>& first) : loads_(loads), first_(first) {}

  // Gives modules [begin, end) to the `count` processors from `proc`.
  void dissect(int begin, int end, int proc, int count) {
    if (count == 1) return;
    const int left = count / 2;
    double left_speed = 0;
    double right_speed = 0;
    for (int k = proc; k < proc + count; ++k)
      (k < proc + left ? left_speed : right_speed) += loads_.speed(k);
    const int cut = cut_point(begin, end, left_speed, right_speed);
    first_[proc + left] = cut;
    dissect(begin, cut, proc, left);
    dissect(cut, end, proc + left, count - left);
  }

 private:
  // The cut whose left weight is nearest the left side's share, in the sense of
  // cut_below_target; a bisection over the prefix sums rather than a scan of the modules.
  int cut_point(int begin, int end, double left_speed, double right_speed) const {
    const double target = loads_.weight(begin, end) * left_speed / (left_speed + right_speed);
    // The last cut whose left weight is <= target (cuts of equal weight are equivalent).
    int below = begin;
    int hi = end;
    while (below < hi) {
      const int mid = below + (hi - below + 1) / 2;
      if (loads_.weight(begin, mid) <= target)
        below = mid;
      else
        hi = mid - 1;
    }
    if (below == end) return end;
    const double below_gap = target - loads_.weight(begin, below);
    const double above_gap = loads_.weight(begin, below + 1) - target;
    return cut_below_target(below_gap, above_gap, left_speed, right_speed) ? below : below + 1;
  }

  const ChainLoads& loads_;
  std::vector<int>& first_;
};

}  // namespace

ChainPartition binary_dissection(std::span<const double> weights, std::span<const double> speeds) {
  const ChainLoads loads(weights, speeds);
  std::vector<int> first(loads.processors() + 1, loads.modules());
  first[0] = 0;
  Dissector(loads, first).dissect(0, loads.modules(), 0, loads.processors());
  const double worst = loads.bottleneck(first);
  return {std::move(first), worst};
}

BalancerInfo BinaryDissection::info() {
  BalancerInfo info{
      "binary_dissection",
      BalancerRole::kPartition,
      "recursive halving of the chain by weight, any P, speed-aware (Iqbal, Saltz & Bokhari "
      "1986, section 4); module order is the chain",
      {},
      [](const Params&) { return std::make_unique<BinaryDissection>(); }};
  info.capabilities.contiguous = true;
  return info;
}

Decision BinaryDissection::decide(const LoadView& view) {
  return {true, chain_owners(binary_dissection(view.cost, view.speed)), 1};
}

}  // namespace lbb
